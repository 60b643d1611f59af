// The shared RateLimitStore contract (window edges, exact timelines, retryAfter, reset, key separation, free
// refusals, input checks) run against RedisRateLimitStore on a real redis-server, time from the manual clock.
import { test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../src/ratelimit/redis/index.js';
import { rateLimitStoreContract } from '../../src/ratelimit/store-contract.test-suite.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const skip = redisSkipReason();
if (skip) {
  test('RateLimitStore contract: RedisRateLimitStore', { skip }, () => undefined);
} else {
  let started: Promise<{ server: RedisServerHandle; client: Redis }> | undefined;
  const connection = (): Promise<{ server: RedisServerHandle; client: Redis }> =>
    (started ??= startRedisServer().then((server) => ({ server, client: new Redis(server.url) })));
  rateLimitStoreContract(
    'RedisRateLimitStore',
    async (clock) => new RedisRateLimitStore({ client: (await connection()).client, clock, keyPrefix: `c:${randomUUID()}:`, timeoutMs: 5_000 }),
    async () => {
      if (started === undefined) return;
      const { server, client } = await started;
      await client.quit();
      await server.close();
    },
  );
}
