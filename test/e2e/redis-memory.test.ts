// Memory per counter by `MEMORY USAGE` on a real redis-server, in steady use, with a 42-byte key: the goals
// the capacity plan in docs/rate-limiting.md is built on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Redis } from 'ioredis';
import { measureCounterMemory } from '../support/redis-counter-memory.js';
import { connectRedis, disconnectRedis } from '../support/redis-connection.js';
import { redisSkipReason, type RedisServerHandle } from '../support/redis-server.js';

const skip = redisSkipReason();

describe('memory per counter on a real redis-server', { skip }, () => {
  let server: RedisServerHandle;
  let client: Redis;
  before(async () => ({ server, client } = await connectRedis()));
  after(() => disconnectRedis(server, client));

  const goals: Array<[permitLimit: number, windowSeconds: number, maxBytes: number]> = [
    [100, 60, 600],
    [10, 60, 200],
    [10_000, 3_600, 1_200],
    [1_000_000, 86_400, 1_200],
  ];
  for (const [permitLimit, windowSeconds, goal] of goals) {
    test(
      `${permitLimit.toLocaleString('en-US')} per ${windowSeconds} s takes at most ${goal.toLocaleString('en-US')} bytes, in steady use and after a burst`,
      { timeout: 120_000 },
      async () => {
        const m = await measureCounterMemory(client, permitLimit, windowSeconds, `p${String(permitLimit).padStart(7, '0')}`);
        assert.equal(m.keyBytes, 42);
        assert.ok(m.maxBytes <= goal, `steady: ${m.maxBytes} bytes (value ${m.maxValueBytes})`);
        assert.ok(m.burstBytes <= goal, `burst: ${m.burstBytes} bytes`);
      },
    );
  }
});
