// examples/lambda-api as deployed: its handler module, loaded with the environment template.yaml gives it (the
// API keys read from SSM Parameter Store, here a mock of the SDK client), answering HTTP API events.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GetParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { dynaliteWithTable } from '../support/dynamodb-table.js';
import { httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';

type Handler = (event: unknown, context?: unknown) => Promise<any>;

describe('the Lambda API example', () => {
  let handler: Handler;
  const call = async (spec: Parameters<typeof httpEvent>[1]) => readResult(await handler(httpEvent('http-api', spec), lambdaContext()));

  const ssm = mockClient(SSMClient);
  before(async () => {
    const keys = {
      'key-ana': { subject: 'ana', grants: ['orders:read', 'orders:write'] },
      'key-bob': { subject: 'bob', grants: ['orders:read'] },
    };
    ssm
      .on(GetParameterCommand, { Name: '/orders-api/api-keys', WithDecryption: true })
      .resolves({ Parameter: { Value: JSON.stringify(keys) } });
    process.env.API_KEYS_PARAMETER = '/orders-api/api-keys';
    delete process.env.REDIS_URL;
    ({ handler } = (await import('../../examples/lambda-api/handler.js')) as { handler: Handler });
  });
  after(() => ssm.restore());

  it('read the API keys once, at init, decrypted', () => {
    assert.equal(ssm.commandCalls(GetParameterCommand).length, 1);
  });

  it('answers a public route, cached and shared', async () => {
    const first = await call({ path: '/health' });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(JSON.parse(first.body), { status: 'ok' });
    assert.match(String(first.headers['cache-control']), /public, max-age=30/);
  });

  it('needs an API key, and tells the caller who the gateway says they are', async () => {
    assert.equal((await call({ path: '/whoami' })).statusCode, 401);
    const me = await call({ path: '/whoami', headers: { 'x-api-key': 'key-bob' }, sourceIp: '203.0.113.50' });
    assert.deepEqual(JSON.parse(me.body), { subject: 'bob', sourceIp: '203.0.113.50', requestId: 'JKJaXmPLvHcESHA=', stage: '$default' });
  });

  it('creates and reads orders by grant; a caller without the write grant gets 403', async () => {
    const created = await call({
      method: 'POST',
      path: '/orders',
      headers: { 'x-api-key': 'key-ana', 'content-type': 'application/json' },
      body: JSON.stringify({ item: 'tea', quantity: 3 }),
    });
    assert.equal(created.statusCode, 201);
    const order = JSON.parse(created.body);
    assert.equal(created.headers.location, `/orders/${order.id}`);
    assert.deepEqual(JSON.parse((await call({ path: `/orders/${order.id}`, headers: { 'x-api-key': 'key-ana' } })).body), order);
    assert.equal(
      (await call({ path: `/orders/${order.id}`, headers: { 'x-api-key': 'key-bob' } })).statusCode,
      404,
      'orders are per owner',
    );
    const refused = await call({
      method: 'POST',
      path: '/orders',
      headers: { 'x-api-key': 'key-bob', 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
  });

  it('limits each caller to 20 requests a minute per route, with Retry-After and RateLimit headers on the 429', async () => {
    const statuses: number[] = [];
    let last = await call({ path: '/orders', headers: { 'x-api-key': 'key-bob' } });
    statuses.push(last.statusCode);
    for (let i = 0; i < 20; i++) {
      last = await call({ path: '/orders', headers: { 'x-api-key': 'key-bob' } });
      statuses.push(last.statusCode);
    }
    assert.deepEqual(statuses, [...Array.from({ length: 20 }, () => 200), 429]);
    assert.ok(Number(last.headers['retry-after']) >= 1);
    assert.equal(last.headers['ratelimit-limit'], '20');
    const other = await call({ path: '/orders', headers: { 'x-api-key': 'key-ana' } });
    assert.equal(other.statusCode, 200, 'another caller has an allowance of its own');
  });
});

describe('the Lambda API example with the rate-limit table its template makes', () => {
  const db = dynaliteWithTable('orders-rate-limits');
  let ssm: ReturnType<typeof mockClient>;
  const saved = { ...process.env };
  /** Two execution environments: the handler module loaded twice, each building its app and store at init. */
  const environments: Handler[] = [];
  before(async () => {
    ssm = mockClient(SSMClient);
    ssm
      .on(GetParameterCommand)
      .resolves({ Parameter: { Value: JSON.stringify({ 'key-bob': { subject: 'bob', grants: ['orders:read'] } }) } });
    Object.assign(process.env, {
      API_KEYS_PARAMETER: '/orders-api/api-keys',
      RATE_LIMIT_TABLE: 'orders-rate-limits',
      AWS_ENDPOINT_URL_DYNAMODB: db.server.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    delete process.env.REDIS_URL;
    for (const environment of ['a', 'b']) {
      environments.push(
        ((await import(`../../examples/lambda-api/handler.js?environment=${environment}`)) as { handler: Handler }).handler,
      );
    }
  });
  after(() => {
    ssm.restore();
    process.env = saved;
  });

  it('counts one caller in the table across execution environments: 20 admitted in all, then 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 24; i++) {
      const handler = environments[i % 2]!;
      statuses.push(
        readResult(await handler(httpEvent('http-api', { path: '/orders', headers: { 'x-api-key': 'key-bob' } }), lambdaContext()))
          .statusCode,
      );
    }
    assert.deepEqual(statuses, [...Array.from({ length: 20 }, () => 200), 429, 429, 429, 429]);
    const { Items = [] } = await db.client.send(new ScanCommand({ TableName: 'orders-rate-limits' }));
    assert.equal(Items.length, 1, 'one counter: the caller on the per-caller limit');
    assert.match(Items[0]!.pk!.S!, /^orders:/);
    assert.ok(Number(Items[0]!.ttl!.N) > Date.now() / 1000, 'the item expires through Time to Live');
  });
});

describe('gateway identity in the example', () => {
  it("GatewayJwtAuthenticator makes the JWT authorizer's subject and scopes the principal; without claims, anonymous", async () => {
    const { createApp, route, Authenticator, Authorize } = await import('../../packages/trellis/src/index.js');
    const { lambdaHandler } = await import('../../packages/trellis/src/lambda/index.js');
    const { GatewayJwtAuthenticator } = await import('../../examples/lambda-api/gateway-identity.js');
    const app = createApp();
    app.services.add(Authenticator, () => new GatewayJwtAuthenticator());
    app.route(route('GET', '/orders/:id', [Authorize('orders:read')], (ctx) => ({ subject: ctx.principal!.subject })));
    const handler = lambdaHandler(app);
    const withClaims = readResult(await handler(httpEvent('http-api', { path: '/orders/1' })));
    assert.deepEqual(JSON.parse(withClaims.body), { subject: 'user-17' });
    const anonymous = httpEvent('http-api', { path: '/orders/1' });
    delete anonymous.requestContext.authorizer;
    assert.equal(readResult(await handler(anonymous)).statusCode, 401);
    const narrow = httpEvent('http-api', { path: '/orders/1' });
    narrow.requestContext.authorizer.jwt.scopes = ['profile'];
    assert.equal(readResult(await handler(narrow)).statusCode, 403);
  });

  it('SourceIpPartitioner gives anonymous callers an allowance per address, and keeps subjects by subject', async () => {
    const { createApp, route, RegistrationType } = await import('../../packages/trellis/src/index.js');
    const { RateLimit, RateLimitPartitioner } = await import('../../packages/trellis/src/ratelimit/index.js');
    const { lambdaHandler } = await import('../../packages/trellis/src/lambda/index.js');
    const { SourceIpPartitioner } = await import('../../examples/lambda-api/gateway-identity.js');
    const app = createApp();
    app.services.add(RateLimitPartitioner, () => new SourceIpPartitioner(), { type: RegistrationType.Replace });
    app.route(route('GET', '/search', [RateLimit({ permitLimit: 1, windowSeconds: 60 })], () => 'ok'));
    const handler = lambdaHandler(app);
    const from = async (sourceIp: string) => (await handler(httpEvent('http-api', { path: '/search', sourceIp }))).statusCode;
    assert.deepEqual([await from('203.0.113.1'), await from('203.0.113.2'), await from('203.0.113.1')], [200, 200, 429]);
  });
});
