// The compact value layout against a real redis-server: record widths at their boundaries, times whose low
// bytes wrap many times over a counter's life, rings that grow to the limit and no further, long-idle
// counters, clocks that go back or start at zero, windows counted in milliseconds, one round trip on every
// path, and bounds the layout cannot hold.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { InProcessRateLimitStore } from '../../packages/trellis/src/ratelimit/in-process-store.js';
import type { RateLimitDecision, RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';
import { readCounterValue, type CounterValue } from '../support/redis-counter-value.js';
import { connectRedis, disconnectRedis } from '../support/redis-connection.js';
import { redisSkipReason, type RedisServerHandle } from '../support/redis-server.js';
import { START_MS, TestClock } from '../support/test-clock.js';

const skip = redisSkipReason();

function policy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: 'GET /x:l', handler: 'GET /x', name: 'l', permitLimit, windowSeconds, scope: 'transport' };
}

/** A Redis store and an in-process store on one manual clock; every acquire must get the same decision. */
class Twin {
  readonly clock: TestClock;
  readonly keyPrefix = `k:${randomUUID().slice(0, 8)}:`;
  readonly redis: RedisRateLimitStore;
  readonly local: InProcessRateLimitStore;

  constructor(
    readonly client: Redis,
    startMs = START_MS,
  ) {
    this.clock = new TestClock(startMs);
    this.local = new InProcessRateLimitStore({ clock: this.clock });
    this.redis = new RedisRateLimitStore({ client, keyPrefix: this.keyPrefix, clock: this.clock, timeoutMs: 5_000 });
  }

  key(partition = 'a'): string {
    return `${this.keyPrefix}{GET /x:l|${partition}}:sw3`;
  }

  async value(partition = 'a'): Promise<CounterValue> {
    return readCounterValue(await this.client.getBuffer(this.key(partition)));
  }

  async acquire(p: RateLimitPolicy, partition = 'a'): Promise<RateLimitDecision> {
    const expected = this.local.acquire(partition, p);
    const actual = await this.redis.acquire(partition, p);
    assert.deepEqual(actual, expected, `${p.permitLimit} per ${p.windowSeconds} s at +${this.clock.ms - START_MS} ms`);
    return actual;
  }
}

describe('compact counter layout on a real redis-server', { skip }, () => {
  let server: RedisServerHandle;
  let client: Redis;
  before(async () => ({ server, client } = await connectRedis()));
  after(() => disconnectRedis(server, client));

  test('a record takes the bytes its window needs: the largest window of each width, and one microsecond more', async () => {
    // A window of w units needs 256^bytes > w + 2: 65,533 µs fit two bytes, 65,534 µs need three.
    const cases: Array<[windowSeconds: number, bytes: number]> = [
      [0.065533, 2],
      [0.065534, 3],
      [16.777213, 3],
      [16.777214, 4],
      [60, 4],
      [3_600, 4],
      [86_400, 5],
    ];
    for (const [windowSeconds, bytes] of cases) {
      const twin = new Twin(client);
      await twin.acquire(policy(5, windowSeconds));
      const value = await twin.value();
      assert.equal(value.timeBytes, bytes, `${windowSeconds} s`);
      assert.equal(value.unitMicros, 1);
      assert.equal(value.countBytes, 0, 'an exact counter keeps no admission counts');
    }
    // Segmented windows longer than 71 minutes count in milliseconds: a day fits four bytes.
    const day = new Twin(client);
    await day.acquire(policy(1_000_000, 86_400));
    assert.deepEqual((({ unitMicros, timeBytes, countBytes }) => ({ unitMicros, timeBytes, countBytes }))(await day.value()), {
      unitMicros: 1000,
      timeBytes: 4,
      countBytes: 3,
    });
  });

  test(
    'times whose stored low bytes wrap around hundreds of times decide exactly as in-process, at each width boundary',
    { timeout: 120_000 },
    async () => {
      for (const windowSeconds of [0.065533, 0.065534]) {
        await fc.assert(
          fc.asyncProperty(
            fc.integer({ min: 1, max: 12 }),
            fc.array(
              fc.record({
                advanceMs: fc.oneof(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 60, max: 140 })),
                count: fc.integer({ min: 1, max: 4 }),
              }),
              {
                minLength: 20,
                maxLength: 120,
              },
            ),
            async (limit, steps) => {
              const twin = new Twin(client);
              const p = policy(limit, windowSeconds);
              for (const { advanceMs, count } of steps) {
                twin.clock.ms += advanceMs;
                for (let i = 0; i < count; i++) await twin.acquire(p);
              }
            },
          ),
          { numRuns: 15 },
        );
      }
    },
  );

  test('a ring grows in steps up to the limit and no further, and stays that size in steady use', async () => {
    const twin = new Twin(client);
    const p = policy(100, 60);
    const capacities: number[] = [];
    for (let i = 0; i < 400; i++) {
      twin.clock.ms += 600;
      await twin.acquire(p);
      const { capacity } = await twin.value();
      if (capacities.at(-1) !== capacity) capacities.push(capacity);
    }
    assert.deepEqual(capacities, [4, 10, 22, 46, 94, 100]);
    const segmented = new Twin(client);
    const big = policy(10_000, 3_600);
    for (let i = 0; i < 600; i++) {
      segmented.clock.ms += 12_000;
      await segmented.acquire(big);
    }
    const value = await segmented.value();
    assert.equal(value.capacity, 130, 'segments + 2');
    assert.equal(value.countBytes, 2, '10,000 fits two bytes');
  });

  test('a counter idle far longer than its records can tell apart starts afresh, and an idle ring is reused', async () => {
    const twin = new Twin(client);
    const p = policy(3, 0.05);
    for (let i = 0; i < 3; i++) await twin.acquire(p);
    assert.equal((await twin.acquire(p)).allowed, false);
    // 16,777,216 µs is a whole number of turns of a 3-byte record: a stale record would look brand new.
    for (const idleMs of [16_777.216, 3_600_000, 65.536 * 1000]) {
      twin.clock.ms += idleMs;
      assert.deepEqual(await twin.acquire(p), { allowed: true, limit: 3, remaining: 2, reset: 1, retryAfter: 0 });
      await twin.acquire(p);
      await twin.acquire(p);
      assert.equal((await twin.acquire(p)).allowed, false);
    }
  });

  test('a clock that goes back frees nothing; one that starts at zero or jumps far ahead is counted as any other', async () => {
    const twin = new Twin(client);
    const p = policy(2, 10);
    await twin.acquire(p);
    twin.clock.ms += 4_000;
    await twin.acquire(p);
    twin.clock.ms -= 60_000;
    const refused = await twin.redis.acquire('a', p);
    assert.equal(refused.allowed, false, 'time stands still at the newest admission instead of going back');
    assert.equal(refused.retryAfter, 6);
    twin.clock.ms += 60_000 + 6_000;
    assert.equal((await twin.redis.acquire('a', p)).allowed, true);

    const zero = new Twin(client, 0);
    for (let i = 0; i < 3; i++) await zero.acquire(policy(2, 1));
    zero.clock.ms = 1_000;
    await zero.acquire(policy(2, 1));
    zero.clock.ms = 2 ** 42;
    await zero.acquire(policy(2, 1));

    const bad = new RedisRateLimitStore({ client, keyPrefix: `bad:${randomUUID()}:`, clock: { now: () => -1 } });
    await assert.rejects(bad.acquire('a', p), /clock.now\(\) must return non-negative finite milliseconds/);
  });

  test('a day-long segmented window counted in milliseconds decides exactly as in-process', { timeout: 60_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 129, max: 400 }),
        fc.array(
          fc.record({
            advanceMs: fc.oneof(fc.integer({ min: 0, max: 700_000 }), fc.integer({ min: 0, max: 90_000_000 })),
            count: fc.integer({ min: 1, max: 40 }),
          }),
          {
            minLength: 1,
            maxLength: 40,
          },
        ),
        async (limit, steps) => {
          const twin = new Twin(client);
          const p = policy(limit, 86_400);
          for (const { advanceMs, count } of steps) {
            twin.clock.ms += advanceMs;
            for (let i = 0; i < count; i++) await twin.acquire(p);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  test('every acquire is one EVALSHA, whichever path it takes: new counter, growing ring, admission, refusal, layout change', async () => {
    let sent = 0;
    const counting = {
      evalsha: (...args: Parameters<Redis['evalsha']>) => {
        sent++;
        return client.evalsha(...args);
      },
      eval: (...args: Parameters<Redis['eval']>) => {
        sent++;
        return client.eval(...args);
      },
    };
    const clock = new TestClock();
    const store = new RedisRateLimitStore({ client: counting, keyPrefix: `rt:${randomUUID()}:`, clock });
    await store.acquire('warm', policy(1, 1));
    sent = 0;
    let acquires = 0;
    for (const [limit, times] of [
      [30, 40],
      [300, 20],
      [5, 10],
    ] as const) {
      for (let i = 0; i < times; i++) {
        clock.ms += 3;
        await store.acquire('a', policy(limit, 10));
        acquires++;
      }
    }
    assert.equal(sent, acquires);
  });

  test('options and windows the layout cannot hold are refused with a clear error', async () => {
    assert.throws(() => new RedisRateLimitStore({ client, exactLimit: 70_000 }), /exactLimit must be at most 65535/);
    assert.throws(() => new RedisRateLimitStore({ client, segments: 65_534 }), /segments must be at most 65533/);
    const keyPrefix = `w:${randomUUID()}:`;
    const store = new RedisRateLimitStore({ client, keyPrefix });
    await assert.rejects(store.acquire('a', policy(1, 300_000_000)), /windowSeconds must be at most 281474976/);
    assert.deepEqual(await client.keys(`${keyPrefix}*`), []);
  });
});
