// Cost and changing plans in RedisRateLimitStore on a real redis-server: a request may spend several permits
// (admitted only when they all fit, a refusal writes nothing, retryAfter is the wait for that many), and the
// same counter may be asked with another limit or window from one call to the next (a caller's plan changed):
// each decision uses that call's numbers over the permits the counter remembers, across the exact and the
// segmented layouts, and never throws.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import type { RateLimitDecision, RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';
import { connectRedis, disconnectRedis } from '../support/redis-connection.js';
import { redisSkipReason, type RedisServerHandle } from '../support/redis-server.js';
import { TestClock } from '../support/test-clock.js';

const skip = redisSkipReason();

function policy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: 'POST /exports:plan', handler: 'POST /exports', name: 'plan', permitLimit, windowSeconds, scope: 'principal' };
}

/**
 * An exact sliding log of (time, permits), deciding as the interface says: admitted iff the permits in use
 * within this call's window plus the cost fit this call's limit. Like the store, it forgets permits only
 * when it admits (a refusal writes nothing), and then those older than this call's window.
 */
class ReferenceLog {
  #taken: Array<{ at: number; permits: number }> = [];
  acquire(now: number, limit: number, windowSeconds: number, cost: number): RateLimitDecision {
    const windowMs = windowSeconds * 1000;
    const live = this.#taken.filter((t) => t.at + windowMs > now);
    const used = live.reduce((a, t) => a + t.permits, 0);
    const seconds = (at: number): number => Math.max(1, Math.ceil((at + windowMs - now) / 1000));
    const whole = Math.ceil(windowSeconds);
    if (used + cost > limit) {
      const reset = live.length > 0 ? seconds(live[0]!.at) : whole;
      let retryAfter = whole;
      if (cost <= limit) {
        let freed = 0;
        for (const t of live) {
          freed += t.permits;
          if (used - freed + cost <= limit) {
            retryAfter = seconds(t.at);
            break;
          }
        }
      }
      return { allowed: false, limit, remaining: Math.max(0, limit - used), reset, retryAfter };
    }
    live.push({ at: now, permits: cost });
    this.#taken = live;
    return { allowed: true, limit, remaining: limit - used - cost, reset: seconds(live[0]!.at), retryAfter: 0 };
  }
}

describe('RedisRateLimitStore: cost and changing plans', { skip }, () => {
  let server: RedisServerHandle;
  let client: Redis;
  before(async () => ({ server, client } = await connectRedis()));
  after(() => disconnectRedis(server, client));
  const prefix = (): string => `cost:${randomUUID()}:`;

  test('a request of cost n is admitted only when n permits are free, remaining counts permits, and a refusal spends nothing', async () => {
    const clock = new TestClock();
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock });
    const p = policy(10, 60);
    assert.deepEqual(await store.acquire('a', p, { cost: 4 }), { allowed: true, limit: 10, remaining: 6, reset: 60, retryAfter: 0 });
    clock.ms += 10_000;
    assert.deepEqual(await store.acquire('a', p, { cost: 5 }), { allowed: true, limit: 10, remaining: 1, reset: 50, retryAfter: 0 });
    // 2 do not fit: the first 4 permits free in 50 s, which frees enough.
    assert.deepEqual(await store.acquire('a', p, { cost: 2 }), { allowed: false, limit: 10, remaining: 1, reset: 50, retryAfter: 50 });
    // 6 need the second batch to leave too: 60 s.
    assert.deepEqual(await store.acquire('a', p, { cost: 6 }), { allowed: false, limit: 10, remaining: 1, reset: 50, retryAfter: 60 });
    assert.deepEqual(
      await store.acquire('a', p, { cost: 1 }),
      { allowed: true, limit: 10, remaining: 0, reset: 50, retryAfter: 0 },
      'the refusals spent nothing',
    );
    // More than the limit can never be admitted: refused, nothing spent, told to wait one window.
    assert.deepEqual(await store.acquire('b', p, { cost: 11 }), { allowed: false, limit: 10, remaining: 10, reset: 60, retryAfter: 60 });
    assert.deepEqual(await store.acquire('b', p, { cost: 10 }), { allowed: true, limit: 10, remaining: 0, reset: 60, retryAfter: 0 });
  });

  test('a segmented counter (above exactLimit) takes costs in one record and refuses what does not fit', async () => {
    const clock = new TestClock();
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock });
    const p = policy(1_000, 3_600);
    assert.equal((await store.acquire('a', p, { cost: 600 })).remaining, 400);
    const refused = await store.acquire('a', p, { cost: 401 });
    assert.equal(refused.allowed, false);
    assert.ok(refused.retryAfter >= 3_600 && refused.retryAfter <= 3_600 + 29, `retryAfter ${refused.retryAfter}`);
    assert.equal((await store.acquire('a', p, { cost: 400 })).remaining, 0);
    assert.equal((await store.acquire('a', p, { cost: 1_001 })).retryAfter, 3_600);
  });

  test('a bad cost is a TypeError and counts nothing', async () => {
    const keyPrefix = prefix();
    const store = new RedisRateLimitStore({ client, keyPrefix });
    for (const cost of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '2' as never]) {
      await assert.rejects(store.acquire('a', policy(5, 60), { cost }), TypeError, `cost ${String(cost)}`);
    }
    assert.deepEqual(await client.keys(`${keyPrefix}*`), []);
  });

  test('exact counters: random costs, limits and windows that change between calls decide like an exact log', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            advanceMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 400, max: 6_000 })),
            limit: fc.integer({ min: 1, max: 8 }),
            windowSeconds: fc.constantFrom(1, 2, 5, 10),
            cost: fc.integer({ min: 1, max: 9 }),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        async (calls) => {
          const clock = new TestClock();
          const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock });
          const reference = new ReferenceLog();
          for (const [i, { advanceMs, limit, windowSeconds, cost }] of calls.entries()) {
            clock.ms += advanceMs;
            const got = await store.acquire('a', policy(limit, windowSeconds), { cost });
            assert.deepEqual(
              got,
              reference.acquire(clock.ms, limit, windowSeconds, cost),
              `call ${i}: ${limit} per ${windowSeconds} s, cost ${cost}`,
            );
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  test('switching between exact and segmented limits never throws and never admits over the limit of the call', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            advanceMs: fc.integer({ min: 0, max: 300 }),
            limit: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 120, max: 140 }), fc.integer({ min: 300, max: 70_000 })),
            cost: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 150 })),
            count: fc.integer({ min: 1, max: 30 }),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        async (steps) => {
          const clock = new TestClock();
          const windowSeconds = 5;
          const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock, exactLimit: 8, segments: 16 });
          const admitted: Array<{ at: number; permits: number }> = [];
          for (const { advanceMs, limit, cost, count } of steps) {
            clock.ms += advanceMs;
            for (let i = 0; i < count; i++) {
              const d = await store.acquire('a', policy(limit, windowSeconds), { cost });
              const inWindow = admitted.filter((t) => t.at + windowSeconds * 1000 > clock.ms).reduce((a, t) => a + t.permits, 0);
              if (d.allowed) {
                assert.ok(inWindow + cost <= limit, `admitted ${cost} with ${inWindow} in the window on a limit of ${limit}`);
                assert.ok(d.remaining <= limit - inWindow - cost && d.remaining >= 0, `remaining ${d.remaining}`);
                admitted.push({ at: clock.ms, permits: cost });
              } else {
                assert.ok(d.retryAfter >= 1 && d.retryAfter <= windowSeconds + 1, `retryAfter ${d.retryAfter}`);
                if (cost > limit) assert.equal(d.retryAfter, windowSeconds);
              }
              assert.equal(d.limit, limit);
            }
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  test('a window that grows counts the permits of the previous window; a lowered limit refuses until enough expire', async () => {
    const clock = new TestClock();
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock });
    for (let i = 0; i < 6; i++) assert.equal((await store.acquire('a', policy(6, 10))).allowed, true);
    clock.ms += 5_000;
    // The caller moved to a plan of 3 per 10 s: 6 in use, refused until 4 have left (all six left at +10 s).
    assert.deepEqual(await store.acquire('a', policy(3, 10)), { allowed: false, limit: 3, remaining: 0, reset: 5, retryAfter: 5 });
    // Then to 20 per 60 s: the 6 permits of the shorter window still count.
    assert.deepEqual(await store.acquire('a', policy(20, 60)), { allowed: true, limit: 20, remaining: 13, reset: 55, retryAfter: 0 });
  });
});
