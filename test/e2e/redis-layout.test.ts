// RedisRateLimitStore's value layout against a real redis-server: records leaving the window one at a time
// and in bursts, the segment boundary, a lowered limit, numbers too large for the one-integer reply, keys of
// the earlier layouts and values the store did not write, and random timelines (with limit changes) decided
// exactly as the in-process store decides them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { InProcessRateLimitStore } from '../../packages/trellis/src/ratelimit/in-process-store.js';
import type { RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';
import { readCounterValue } from '../support/redis-counter-value.js';
import { connectRedis, disconnectRedis } from '../support/redis-connection.js';
import { redisSkipReason, type RedisServerHandle } from '../support/redis-server.js';
import { START_MS, TestClock } from '../support/test-clock.js';

const skip = redisSkipReason();

function policy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: 'GET /items:burst', handler: 'GET /items', name: 'burst', permitLimit, windowSeconds, scope: 'transport' };
}

/** A Redis store and an in-process store on one shared manual clock, asked the same questions. */
class Twin {
  readonly clock = new TestClock();
  readonly keyPrefix = `l:${randomUUID()}:`;
  readonly redis: RedisRateLimitStore;
  readonly local = new InProcessRateLimitStore({ clock: this.clock });

  constructor(client: Redis) {
    this.redis = new RedisRateLimitStore({ client, keyPrefix: this.keyPrefix, clock: this.clock, timeoutMs: 5_000 });
  }

  key(partition = 'a'): string {
    return `${this.keyPrefix}{GET /items:burst|${partition}}:sw3`;
  }

  /** Acquires on both stores, asserts they agree, and returns the decision. */
  async acquire(p: RateLimitPolicy, partition = 'a'): Promise<{ allowed: boolean; remaining: number; reset: number; retryAfter: number }> {
    const expected = this.local.acquire(partition, p);
    const actual = await this.redis.acquire(partition, p);
    assert.deepEqual(actual, expected, `${p.permitLimit} per ${p.windowSeconds} s at +${this.clock.ms - START_MS} ms`);
    return actual;
  }
}

/** The bound of the previous layout (48-byte header, 16-byte records, some that left kept): the compact one stays well below it. */
function maxValueLength(liveRecords: number): number {
  return 48 + 16 * (liveRecords + 1 + Math.max(8, Math.floor(liveRecords / 4) + 1));
}

describe('RedisRateLimitStore value layout on a real redis-server', { skip }, () => {
  let server: RedisServerHandle;
  let client: Redis;
  before(async () => ({ server, client } = await connectRedis()));
  after(() => disconnectRedis(server, client));

  test('a steady stream where each admission outlives the oldest one stays exact, and the ring is written in place', async () => {
    const twin = new Twin(client);
    const p = policy(20, 1);
    const lengths = new Set<number>();
    for (let i = 0; i < 400; i++) {
      twin.clock.ms += i % 7 === 0 ? 13 : 61;
      await twin.acquire(p);
      if (i >= 100) lengths.add(await client.strlen(twin.key()));
    }
    const value = readCounterValue(await client.getBuffer(twin.key()));
    // A 1 s window in microseconds needs 3 bytes per record; the ring has grown to the limit and stays there.
    assert.equal(value.timeBytes, 3);
    assert.equal(value.capacity, 20);
    assert.deepEqual([...lengths], [value.headerBytes + 3 * 20], 'the value keeps one length: records are overwritten in place');
  });

  test('a burst that left the window all at once (more records than one read of 8) is dropped in one acquire', async () => {
    const twin = new Twin(client);
    const p = policy(50, 10);
    for (let i = 0; i < 50; i++) {
      twin.clock.ms += 7;
      await twin.acquire(p);
    }
    assert.equal((await twin.acquire(p)).allowed, false);
    twin.clock.ms += 10_000 - 7 * 30;
    // 20 of the 50 have left: 20 admitted, the rest refused.
    for (let i = 0; i < 25; i++) await twin.acquire(p);
    assert.equal(readCounterValue(await client.getBuffer(twin.key())).records, 50);
    twin.clock.ms += 60_000;
    assert.deepEqual(await twin.acquire(p), { allowed: true, limit: 50, remaining: 49, reset: 10, retryAfter: 0 });
    const value = readCounterValue(await client.getBuffer(twin.key()));
    assert.equal(value.records, 1, 'only the new record is left');
    assert.equal(value.capacity, 50, 'the ring is reused, not rewritten');
  });

  test('an admission exactly one segment after the newest segment started opens a new one; just before, it joins', async () => {
    // 1.28 s / 128 segments = 10 ms per segment.
    const twin = new Twin(client);
    const p = policy(200, 1.28);
    const records = async (): Promise<number> => readCounterValue(await client.getBuffer(twin.key())).records;
    await twin.acquire(p);
    twin.clock.ms += 9;
    await twin.acquire(p);
    assert.equal(await records(), 1, 'joined the first segment');
    twin.clock.ms += 1;
    await twin.acquire(p);
    assert.equal(await records(), 2, 'a new segment, 10 ms after the first started');
    for (let i = 0; i < 197; i++) await twin.acquire(p);
    assert.equal((await twin.acquire(p)).allowed, false);
    // The first segment's latest admission was at +9 ms: its two permits come back at +1289 ms, not before.
    twin.clock.ms = START_MS + 1_289 - 1;
    assert.equal((await twin.acquire(p)).allowed, false);
    twin.clock.ms += 1;
    assert.equal((await twin.acquire(p)).remaining, 1);
    assert.equal((await twin.acquire(p)).remaining, 0);
    assert.equal((await twin.acquire(p)).allowed, false);
  });

  test('a lowered limit refuses until enough admissions have left, also with records that left still stored', async () => {
    const twin = new Twin(client);
    const wide = policy(12, 10);
    for (let i = 0; i < 12; i++) {
      twin.clock.ms += 500;
      await twin.acquire(wide);
    }
    // The first three have left the window; they stay stored (fewer than 8) after this admission.
    twin.clock.ms = START_MS + 10_000 + 1_600;
    assert.equal((await twin.acquire(wide)).allowed, true);
    const narrow = policy(4, 10);
    const before = await client.getBuffer(twin.key());
    const refused = await twin.acquire(narrow);
    assert.equal(refused.allowed, false);
    assert.equal(refused.retryAfter, 4, 'ten are in the window: seven must leave, the seventh leaves at +15,000 ms');
    // Records left the window at this refusal, yet it wrote nothing.
    twin.clock.ms += 400;
    assert.equal((await twin.acquire(narrow)).allowed, false);
    assert.deepEqual(await client.getBuffer(twin.key()), before, 'refusals leave the value as it was');
    assert.ok((await client.pttl(twin.key())) > 0);
    twin.clock.ms = START_MS + 15_000;
    for (let i = 0; i < 3; i++) await twin.acquire(narrow);
    await twin.acquire(wide);
    await twin.acquire(policy(1, 30));
  });

  test('numbers too large for the one-integer reply are answered in full', async () => {
    const twin = new Twin(client);
    const huge = policy(2 ** 28, 60);
    assert.equal((await twin.acquire(huge)).remaining, 2 ** 28 - 1);
    assert.equal((await twin.acquire(huge)).remaining, 2 ** 28 - 2);
    const long = policy(1, 100_000_000);
    assert.equal((await twin.acquire(long, 'b')).reset, 100_000_000);
    assert.deepEqual(await twin.acquire(long, 'b'), {
      allowed: false,
      limit: 1,
      remaining: 0,
      reset: 100_000_000,
      retryAfter: 100_000_000,
    });
  });

  test('a value this store did not write is replaced by a counter', async () => {
    const twin = new Twin(client);
    await client.set(twin.key('b'), 'not a counter');
    assert.deepEqual(await twin.redis.acquire('b', policy(1, 60)), { allowed: true, limit: 1, remaining: 0, reset: 60, retryAfter: 0 });
    assert.equal(readCounterValue(await client.getBuffer(twin.key('b'))).records, 1);
    assert.ok((await client.pttl(twin.key('b'))) > 60_000);
  });

  test('random timelines with limit changes: every decision equals the in-process store', { timeout: 120_000 }, async () => {
    const shapeArb = fc.record({
      permitLimit: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 7, max: 128 }), fc.integer({ min: 129, max: 400 })),
      windowSeconds: fc.constantFrom(0.25, 1, 2, 10),
    });
    // The window stays fixed per timeline: after a window grows, the in-process store has already forgotten
    // admissions that left the shorter one, while Redis still holds those no admission has dropped yet.
    const stepArb = fc.record({
      advanceMs: fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 12_000 })),
      count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 30 })),
      limit: fc.option(
        shapeArb.map((s) => s.permitLimit),
        { freq: 12 },
      ),
    });
    await fc.assert(
      fc.asyncProperty(shapeArb, fc.array(stepArb, { minLength: 1, maxLength: 40 }), async (shape, steps) => {
        const twin = new Twin(client);
        let p = policy(shape.permitLimit, shape.windowSeconds);
        for (const step of steps) {
          twin.clock.ms += step.advanceMs;
          if (step.limit !== null) p = policy(step.limit, shape.windowSeconds);
          for (let i = 0; i < step.count; i++) await twin.acquire(p);
          const length = await client.strlen(twin.key());
          assert.ok(length <= maxValueLength(130), `value of ${length} bytes`);
        }
      }),
      { numRuns: 100 },
    );
  });
});
