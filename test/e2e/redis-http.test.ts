// The Redis store behind the framework: registered with one Replace line, two app instances (replicas) share
// one allowance, and when Redis is down a failClosed store turns into a 503 problem, a failOpen one lets
// requests through.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createApp, RegistrationType, route } from '../../packages/trellis/src/index.js';
import type { App } from '../../packages/trellis/src/index.js';
import { RateLimit, RateLimitStore } from '../../packages/trellis/src/ratelimit/index.js';
import { RedisRateLimitStore, type RedisRateLimitStoreOptions } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const skip = redisSkipReason();

function replica(store: RedisRateLimitStore): App {
  const app = createApp();
  app.services.add(RateLimitStore, () => store, { type: RegistrationType.Replace });
  app.route(route('POST', '/orders', [RateLimit({ permitLimit: 3, windowSeconds: 60 })], () => ({ ok: true })));
  return app;
}
const order = (app: App) => app.inject({ method: 'POST', url: '/orders' });

describe('RedisRateLimitStore behind the framework', { skip }, () => {
  let server: RedisServerHandle;
  const stores: RedisRateLimitStore[] = [];
  const store = (options: Omit<RedisRateLimitStoreOptions, 'url'> = {}, keyPrefix = `h:${randomUUID()}:`): RedisRateLimitStore => {
    const s = new RedisRateLimitStore({ url: server.url, keyPrefix, timeoutMs: 250, ...options });
    stores.push(s);
    return s;
  };
  before(async () => {
    server = await startRedisServer();
  });
  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await server?.close();
  });

  test('two replicas share one allowance, with headers and a 429 problem', async () => {
    const keyPrefix = `h:${randomUUID()}:`;
    const a = replica(store({}, keyPrefix));
    const b = replica(store({}, keyPrefix));
    const statuses = [];
    for (const app of [a, b, a, b, a]) statuses.push((await order(app)).statusCode);
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const first = await order(b);
    assert.equal(first.statusCode, 429);
    assert.equal(first.headers['ratelimit-limit'], '3');
    assert.equal(first.headers['ratelimit-remaining'], '0');
    // The window (60 s) from the first admission, less the time the requests took: 59 once that passed a second.
    assert.ok(['59', '60'].includes(first.headers['retry-after'] as string), `retry-after ${String(first.headers['retry-after'])}`);
    assert.equal(first.json().status, 429);
  });

  test('Redis down: failClosed answers 503 with a problem body, failOpen lets requests through', async () => {
    const closed = replica(store({ failureMode: 'failClosed' }));
    const open = replica(store());
    assert.equal((await order(closed)).statusCode, 200);
    assert.equal((await order(open)).statusCode, 200);
    await server.stop();
    try {
      const refused = await order(closed);
      assert.equal(refused.statusCode, 503);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal(refused.json().status, 503);
      assert.equal(refused.json().reason, 'RateLimitStoreUnavailableError');
      for (let i = 0; i < 5; i++) assert.equal((await order(open)).statusCode, 200, 'failOpen: not limited while Redis is down');
    } finally {
      await server.start();
    }
  });
});
