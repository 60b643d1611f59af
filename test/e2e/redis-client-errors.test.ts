// A node-redis client given to the Redis store without an `error` listener, as many setups write it: when
// Redis goes away the process keeps running (the store listens and warns, at most once a minute), limiting
// follows the failure mode, and it resumes when Redis comes back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from 'redis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { RateLimitScope, type RateLimitPolicy } from '../../packages/trellis/src/ratelimit/index.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const policy: RateLimitPolicy = {
  key: 'GET /e:n',
  handler: 'GET /e',
  name: 'n',
  permitLimit: 1_000,
  windowSeconds: 60,
  scope: RateLimitScope.Transport,
};

describe('a node-redis client without an error listener', { skip: redisSkipReason(), timeout: 60_000 }, () => {
  let server: RedisServerHandle;
  before(async () => {
    server = await startRedisServer();
  });
  after(() => server?.close());

  it('keeps the process alive through Redis going away, warns once, and limits again when Redis is back', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => {
      if (w.name === 'RedisRateLimitStoreWarning') warnings.push(w.message);
    };
    process.on('warning', onWarning);
    const client = await createClient({ url: server.url, socket: { reconnectStrategy: () => 50 } }).connect();
    try {
      assert.equal(client.listenerCount('error'), 0, 'no listener of its own, as the setup wrote it');
      const store = new RedisRateLimitStore({ client, keyPrefix: 'errors:', timeoutMs: 500 });
      assert.equal(client.listenerCount('error'), 1, 'the store listens');
      assert.equal((await store.acquire('p', policy)).failedOpen, undefined);
      await server.stop();
      const deadline = Date.now() + 10_000;
      while (warnings.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(warnings.length, 1, 'one warning, not one per reconnect attempt');
      assert.match(warnings[0]!, /^the Redis client reported an error: .+ Add your own client\.on\('error', …\) listener/);
      const down = await store.acquire('p', policy);
      assert.ok(down.allowed && down.failedOpen !== undefined, 'fails open while Redis is away');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(warnings.length, 1, 'later errors are held back');
      await server.start();
      let resumed = false;
      while (!resumed && Date.now() < deadline + 10_000) {
        resumed = (await store.acquire('p', policy)).failedOpen === undefined;
        if (!resumed) await new Promise((r) => setTimeout(r, 100));
      }
      assert.ok(resumed, 'limiting resumes once Redis answers');
    } finally {
      process.off('warning', onWarning);
      client.destroy();
    }
  });
});
