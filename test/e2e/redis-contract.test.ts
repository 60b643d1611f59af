// The shared RateLimitStore contract (window edges, exact timelines, retryAfter, reset, key separation, free
// refusals, input checks) run against RedisRateLimitStore on a real redis-server, time from the manual clock,
// once through an ioredis client and once through a node-redis v5 client.
import { test } from 'node:test';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { rateLimitStoreContract } from 'trellis/ratelimit/store-kit';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const skip = redisSkipReason();
if (skip) {
  test('RateLimitStore contract: RedisRateLimitStore', { skip }, () => undefined);
} else {
  let server: Promise<RedisServerHandle> | undefined;
  const started = (): Promise<RedisServerHandle> => (server ??= startRedisServer());
  let closing = 0;
  const closeServer = async (): Promise<void> => {
    // The second suite to finish stops the shared server.
    if (++closing === 2 && server) await (await server).close();
  };

  let ioredis: Promise<Redis> | undefined;
  rateLimitStoreContract(
    'RedisRateLimitStore (ioredis)',
    async (clock) => {
      const client = await (ioredis ??= started().then((s) => new Redis(s.url)));
      return new RedisRateLimitStore({ client, clock, keyPrefix: `c:${randomUUID()}:`, timeoutMs: 5_000 });
    },
    async () => {
      if (ioredis) await (await ioredis).quit();
      await closeServer();
    },
  );

  let nodeRedis: Promise<ReturnType<typeof createClient>> | undefined;
  rateLimitStoreContract(
    'RedisRateLimitStore (node-redis)',
    async (clock) => {
      const client = await (nodeRedis ??= started().then((s) => createClient({ url: s.url }).connect()));
      return new RedisRateLimitStore({ client, clock, keyPrefix: `n:${randomUUID()}:`, timeoutMs: 5_000 });
    },
    async () => {
      if (nodeRedis) await (await nodeRedis).quit();
      await closeServer();
    },
  );
}
