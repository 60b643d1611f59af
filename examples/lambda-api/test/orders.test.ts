// The orders API in process (app.inject runs the same pipeline as the Lambda handler) and the first handler
// with an HTTP API event, as Lambda's runtime calls it. Run with `npm test`.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ApiGatewayHttpEvent } from 'trellis/lambda';
import { createOrdersApp } from '../app.js';
import { handler as hello } from '../hello.js';

const keys = {
  'key-ana': { subject: 'ana', grants: ['orders:read', 'orders:write'] },
  'key-bob': { subject: 'bob', grants: ['orders:read'] },
};

describe('the orders API', () => {
  it('answers /health without a key', async () => {
    const res = await createOrdersApp({ apiKeys: keys }).inject({ url: '/health' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { status: 'ok' });
  });

  it('creates an order for its caller and shows it to that caller only', async () => {
    const app = createOrdersApp({ apiKeys: keys });
    const created = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { 'x-api-key': 'key-ana', 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'tea', quantity: 2 }),
    });
    assert.equal(created.statusCode, 201);
    assert.equal(created.headers.location, '/orders/1');
    assert.equal((await app.inject({ url: '/orders/1', headers: { 'x-api-key': 'key-ana' } })).statusCode, 200);
    assert.equal((await app.inject({ url: '/orders/1', headers: { 'x-api-key': 'key-bob' } })).statusCode, 404);
  });

  it('refuses a caller without the grant, and a request without a key', async () => {
    const app = createOrdersApp({ apiKeys: keys });
    const body = JSON.stringify({ item: 'tea', quantity: 1 });
    const headers = { 'x-api-key': 'key-bob', 'content-type': 'application/json' };
    assert.equal((await app.inject({ method: 'POST', url: '/orders', headers, body })).statusCode, 403);
    assert.equal((await app.inject({ url: '/orders' })).statusCode, 401);
  });

  it('limits each caller to 20 requests a minute and says how many are left', async () => {
    const app = createOrdersApp({ apiKeys: keys });
    const first = await app.inject({ url: '/orders', headers: { 'x-api-key': 'key-bob' } });
    assert.equal(first.headers['ratelimit-remaining'], '19');
    for (let i = 0; i < 19; i++) await app.inject({ url: '/orders', headers: { 'x-api-key': 'key-bob' } });
    const refused = await app.inject({ url: '/orders', headers: { 'x-api-key': 'key-bob' } });
    assert.equal(refused.statusCode, 429);
    assert.ok(Number(refused.headers['retry-after']) > 0);
    // Another caller has an allowance of its own.
    assert.equal((await app.inject({ url: '/orders', headers: { 'x-api-key': 'key-ana' } })).statusCode, 200);
  });
});

describe('the first handler', () => {
  it('answers an HTTP API event', async () => {
    const event: ApiGatewayHttpEvent = {
      version: '2.0',
      routeKey: '$default',
      rawPath: '/hello',
      rawQueryString: '',
      headers: { host: 'example.execute-api.eu-west-1.amazonaws.com' },
      requestContext: {
        accountId: '123456789012',
        apiId: 'example',
        domainName: 'example.execute-api.eu-west-1.amazonaws.com',
        http: { method: 'GET', path: '/hello', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' },
        requestId: 'req-1',
        routeKey: '$default',
        stage: '$default',
        time: '27/Nov/2026:10:00:00 +0000',
        timeEpoch: 1795773600000,
      },
      isBase64Encoded: false,
    };
    const result = await hello(event);
    assert.equal(result.statusCode, 200);
    assert.deepEqual(JSON.parse(result.body), { hello: 'world' });
  });
});
