// One app, two front doors: every request answered through inject() and through the Lambda handler (each
// event kind) gives the same status, headers and body — refusals, rate limits, auth, cache and errors too.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FilterOrder, HttpError, Logger, RegistrationType, problem, route } from '../../packages/trellis/src/index.js';
import type { App, InjectRequest } from '../../packages/trellis/src/index.js';
import { InProcessRateLimitStore, ManualClock } from '../../packages/trellis/src/ratelimit/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { createOrdersApp } from '../../examples/lambda-api/app.js';
import { FIXTURE_KINDS, httpEvent, readResult, type EventRequestSpec } from '../support/lambda-events.js';

const KEYS = {
  'key-ana': { subject: 'ana', grants: ['orders:read', 'orders:write'] },
  'key-bob': { subject: 'bob', grants: ['orders:read'] },
};

/** The example orders app plus a route that throws and a filter that records a refusal. */
function parityApp(): App {
  const app = createOrdersApp({ apiKeys: KEYS, store: new InProcessRateLimitStore({ clock: new ManualClock(1_700_000_000_000) }) });
  app.services.addValue(Logger, { warn: () => undefined, error: () => undefined }, { type: RegistrationType.Replace });
  app.route(
    route('GET', '/boom', () => {
      throw new Error('database on fire');
    }),
  );
  app.route(
    route('GET', '/teapot', () => {
      throw new HttpError(418, 'Short and stout.', { spout: true });
    }),
  );
  app.filter({
    name: 'maintenance',
    order: FilterOrder.Authentication - 10,
    run: async (ctx, next) => {
      if (ctx.request.headers.get('x-maintenance') === 'on') ctx.refuse(problem(503, 'Back soon.'), { 'retry-after': '120' });
      await next();
    },
  });
  return app;
}

interface Step {
  method?: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
}

const ana = { 'x-api-key': 'key-ana' };
const STEPS: Step[] = [
  { path: '/health' },
  { path: '/health' },
  { method: 'HEAD', path: '/health' },
  { path: '/whoami' },
  { path: '/whoami', headers: { 'x-api-key': 'wrong' } },
  { method: 'POST', path: '/orders', headers: { ...ana, 'content-type': 'application/json' }, body: '{"item":"tea","quantity":2}' },
  { method: 'POST', path: '/orders', headers: { ...ana, 'content-type': 'application/json' }, body: '{"item":' },
  { method: 'POST', path: '/orders', headers: { ...ana, 'content-type': 'application/xml' }, body: '<order/>' },
  {
    method: 'POST',
    path: '/orders',
    headers: { 'x-api-key': 'key-bob', 'content-type': 'application/json' },
    body: '{"item":"tea","quantity":1}',
  },
  { path: '/orders/1', headers: ana },
  { path: '/orders/2', headers: ana },
  { path: '/orders', query: 'page=2', headers: ana },
  { method: 'DELETE', path: '/orders/1', headers: ana },
  { path: '/nowhere' },
  { path: '/boom' },
  { path: '/teapot' },
  { path: '/orders', headers: { ...ana, 'x-maintenance': 'on' } },
  ...Array.from({ length: 21 }, () => ({ path: '/orders', headers: ana })),
];

/** Repeated headers as one comma-joined value (how payload 2.0 carries them); cookies apart. */
function normalized(headers: Record<string, string | string[]>): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) && k !== 'set-cookie' ? v.join(', ') : v]));
}

describe('inject() and the Lambda handler answer alike', () => {
  for (const kind of FIXTURE_KINDS) {
    it(`${kind}: same status, headers and body for every step`, async () => {
      const direct = parityApp();
      const handler = lambdaHandler(parityApp());
      const statuses: number[] = [];
      for (const [i, step] of STEPS.entries()) {
        const url = step.query ? `${step.path}?${step.query}` : step.path;
        const request: InjectRequest = {
          method: step.method ?? 'GET',
          url,
          headers: step.headers ?? {},
          ...(step.body !== undefined ? { body: step.body } : {}),
        };
        const expected = await direct.inject(request);
        const spec: EventRequestSpec = {
          method: step.method ?? 'GET',
          path: step.path,
          query: step.query ?? '',
          headers: step.headers ?? {},
          ...(step.body !== undefined ? { body: step.body } : {}),
        };
        const got = readResult(await handler(httpEvent(kind, spec)));
        const what = `step ${i}: ${request.method} ${url}`;
        assert.equal(got.statusCode, expected.statusCode, what);
        assert.deepEqual(normalized(got.headers), normalized(expected.headers), what);
        assert.equal(got.body, expected.body, what);
        statuses.push(expected.statusCode);
      }
      // The sequence covers what it claims to.
      for (const status of [200, 201, 204, 400, 401, 403, 404, 405, 415, 418, 429, 500, 503]) {
        if (status !== 204) assert.ok(statuses.includes(status), `a ${status} was compared`);
      }
    });
  }

  it('the 429 carries Retry-After and RateLimit headers, and the problem body says when to try again', async () => {
    const handler = lambdaHandler(parityApp());
    let last = readResult(await handler(httpEvent('http-api', { path: '/orders', headers: ana })));
    for (let i = 0; i < 20; i++) last = readResult(await handler(httpEvent('http-api', { path: '/orders', headers: ana })));
    assert.equal(last.statusCode, 429);
    assert.match(String(last.headers['retry-after']), /^[1-9]\d*$/);
    assert.equal(last.headers['ratelimit-limit'], '20');
    assert.equal(last.headers['ratelimit-remaining'], '0');
    assert.equal(last.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(JSON.parse(last.body).status, 429);
  });
});
