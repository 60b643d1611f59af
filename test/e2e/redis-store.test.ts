// RedisRateLimitStore against a real redis-server: exactness under concurrency, the sliding-window invariant,
// key layout and expiry, bounded memory, the NOSCRIPT fallback and input checks.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis, type Cluster } from 'ioredis';
import { RedisRateLimitStore, type RedisScriptClient } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { InProcessRateLimitStore } from '../../packages/trellis/src/ratelimit/in-process-store.js';
import { connectRedis, disconnectRedis } from '../support/redis-connection.js';
import { burstPolicy as policy } from '../support/rate-limit-policy.js';
import { redisSkipReason, type RedisServerHandle } from '../support/redis-server.js';
import { TestClock } from '../support/test-clock.js';

const skip = redisSkipReason();

// Both ioredis client kinds fit the store's client type (checked by the compiler).
export const clientKinds: Array<(c: Redis | Cluster) => RedisScriptClient> = [(c) => c];

describe('RedisRateLimitStore on a real redis-server', { skip }, () => {
  let server: RedisServerHandle;
  let client: Redis;
  before(async () => ({ server, client } = await connectRedis()));
  after(() => disconnectRedis(server, client));
  const prefix = (): string => `t:${randomUUID()}:`;

  test('1,000 concurrent acquires on one counter allow exactly permitLimit', async () => {
    for (const limit of [10, 100, 500]) {
      const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), timeoutMs: 5_000 });
      const decisions = await Promise.all(Array.from({ length: 1_000 }, () => store.acquire('anon', policy(limit, 60))));
      assert.equal(decisions.filter((d) => d.allowed).length, limit, `limit ${limit}`);
      const remaining = decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b);
      assert.deepEqual(
        remaining,
        Array.from({ length: limit }, (_, i) => i),
        'each allowed request saw a distinct remaining',
      );
      for (const refused of decisions.filter((d) => !d.allowed)) {
        assert.equal(refused.remaining, 0);
        // Limits above 128 count in 64 segments: a permit may come back up to one segment (under 1 s) late.
        assert.ok(refused.retryAfter >= 1 && refused.retryAfter <= (limit > 128 ? 61 : 60), `retryAfter ${refused.retryAfter}`);
      }
    }
  });

  test('in any interval of windowSeconds at most permitLimit are allowed, and retryAfter is honest (exact and segmented)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        fc.boolean(),
        fc.array(fc.integer({ min: 0, max: 1_500 }), { minLength: 1, maxLength: 60 }),
        async (limit, windowSeconds, segmented, steps) => {
          const clock = new TestClock();
          const store = new RedisRateLimitStore({
            client,
            keyPrefix: prefix(),
            clock,
            ...(segmented ? { exactLimit: 1, segments: 4 } : {}),
          });
          const p = policy(segmented ? limit + 1 : limit, windowSeconds);
          const allowedAt: number[] = [];
          for (const step of steps) {
            clock.ms += step;
            const d = await store.acquire('anon', p);
            const inWindow = allowedAt.filter((t) => t > clock.ms - windowSeconds * 1000).length;
            if (d.allowed) {
              assert.ok(inWindow < p.permitLimit, 'never more than permitLimit in one window');
              allowedAt.push(clock.ms);
              assert.equal(d.retryAfter, 0);
              if (!segmented) assert.equal(d.remaining, p.permitLimit - inWindow - 1);
              else assert.ok(d.remaining <= p.permitLimit - inWindow - 1, 'a segmented counter never reports more than is left');
            } else {
              assert.ok(d.retryAfter >= 1 && Number.isInteger(d.retryAfter));
              const windowMs = windowSeconds * 1000;
              const live = allowedAt.filter((t) => t > clock.ms - windowMs);
              const exactWait = live.length >= p.permitLimit ? live[live.length - p.permitLimit]! + windowMs - clock.ms : 0;
              if (!segmented) {
                assert.equal(inWindow, p.permitLimit, 'the exact layout refuses only when full');
                assert.equal(d.retryAfter, Math.ceil(exactWait / 1000), 'retryAfter is the exact wait, rounded up');
              } else {
                const segmentMs = windowMs / 4;
                const recent = allowedAt.filter((t) => t > clock.ms - windowMs - segmentMs - 1).length;
                assert.ok(recent >= p.permitLimit, 'segments give permits back at most one segment late');
                assert.ok(d.retryAfter * 1000 >= exactWait, 'retryAfter is never early');
                assert.ok(d.retryAfter <= Math.ceil((exactWait + segmentMs + 1) / 1000), 'and late by at most one segment');
              }
            }
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  test('decides exactly like the in-process store, for exact and segmented limits alike', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 129, max: 180 })),
        fc.constantFrom(0.5, 1, 2, 10),
        // Small steps land inside one segment (1/128 of the window), large ones move the window along.
        fc.array(
          fc.record({
            advanceMs: fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 3_000 })),
            count: fc.integer({ min: 1, max: 20 }),
          }),
          { minLength: 1, maxLength: 60 },
        ),
        async (limit, windowSeconds, arrivals) => {
          const redisClock = new TestClock();
          const localClock = new TestClock();
          const redis = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock: redisClock });
          const local = new InProcessRateLimitStore({ clock: localClock });
          const p = policy(limit, windowSeconds);
          for (const { advanceMs, count } of arrivals) {
            redisClock.ms += advanceMs;
            localClock.ms += advanceMs;
            for (let i = 0; i < count; i++) {
              assert.deepEqual(await redis.acquire('a', p), local.acquire('a', p), `at +${redisClock.ms - 1_700_000_000_000} ms`);
            }
          }
        },
      ),
      {
        numRuns: 40,
        examples: [
          // Two admissions 10 ms apart fall in different 1/128-window segments (7.8 ms), so the first one's
          // permit comes back alone, exactly one window later.
          [
            130,
            1,
            [
              { advanceMs: 0, count: 1 },
              { advanceMs: 10, count: 1 },
              { advanceMs: 10, count: 129 },
              { advanceMs: 980, count: 2 },
              { advanceMs: 10, count: 2 },
            ],
          ],
        ],
      },
    );
  });

  test('huge limits, costs and windows come back whole: the same decisions as the in-process store', async () => {
    const redisClock = new TestClock();
    const localClock = new TestClock();
    const redis = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock: redisClock });
    const local = new InProcessRateLimitStore({ clock: localClock });
    const huge = [
      { limit: Number.MAX_SAFE_INTEGER, window: 60, costs: [1, 2 ** 52, 2 ** 52] },
      { limit: 1_000_000_000_000, window: 200_000_000, costs: [1, 999_999_999_999, 5] },
      { limit: 3, window: 250_000_000, costs: [1, 1, 1, 1, 7] },
    ];
    for (const { limit, window, costs } of huge) {
      const p = policy(limit, window);
      for (const cost of costs) {
        redisClock.ms += 1_234;
        localClock.ms += 1_234;
        const [fromRedis, fromLocal] = [await redis.acquire('big', p, { cost }), local.acquire('big', p, { cost })];
        assert.deepEqual(fromRedis, fromLocal, `limit ${limit}, window ${window} s, cost ${cost}`);
      }
    }
  });

  test('waiting exactly retryAfter seconds frees a permit; one millisecond earlier does not (exact layout)', async () => {
    const clock = new TestClock();
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock });
    const p = policy(2, 10);
    assert.equal((await store.acquire('a', p)).allowed, true);
    clock.ms += 3_500;
    const second = await store.acquire('a', p);
    assert.deepEqual(second, { allowed: true, limit: 2, remaining: 0, reset: 7, retryAfter: 0 });
    const refused = await store.acquire('a', p);
    assert.deepEqual(refused, { allowed: false, limit: 2, remaining: 0, reset: 7, retryAfter: 7 });
    clock.ms += 6_500 - 1;
    assert.equal((await store.acquire('a', p)).allowed, false, 'refused requests spent nothing, the window has not moved');
    clock.ms += 1;
    assert.deepEqual(await store.acquire('a', p), { allowed: true, limit: 2, remaining: 0, reset: 4, retryAfter: 0 });
  });

  test('a full allowance at the end of one window and another at the start of the next is impossible', async () => {
    const clock = new TestClock();
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), clock });
    const p = policy(5, 60);
    clock.ms += 59_000;
    for (let i = 0; i < 5; i++) assert.equal((await store.acquire('a', p)).allowed, true);
    clock.ms += 2_000;
    assert.equal((await store.acquire('a', p)).allowed, false);
  });

  test('partitions and policies count separately', async () => {
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix() });
    const p = policy(1, 60);
    assert.equal((await store.acquire('subject:alice', p)).allowed, true);
    assert.equal((await store.acquire('subject:alice', p)).allowed, false);
    assert.equal((await store.acquire('subject:bob', p)).allowed, true);
    assert.equal((await store.acquire('subject:alice', policy(1, 60, 'GET /items:hourly'))).allowed, true);
    // Names that would break the hash tag or the separator still get counters of their own.
    assert.equal((await store.acquire('a|b}', p)).allowed, true);
    assert.equal((await store.acquire('a', policy(1, 60, 'GET /items:burst|b}'))).allowed, true);
  });

  test('keys carry the prefix and one hash tag per counter, and expire when idle', async () => {
    const keyPrefix = prefix();
    const store = new RedisRateLimitStore({ client, keyPrefix });
    await store.acquire('header:k{1}', policy(3, 30));
    await store.acquire('header:k{1}', policy(1_000, 30, 'GET /items:hourly'));
    const keys = (await client.keys(`${keyPrefix}*`)).sort();
    assert.deepEqual(keys, [`${keyPrefix}{GET /items:burst|header:k%7B1%7D}:sw3`, `${keyPrefix}{GET /items:hourly|header:k%7B1%7D}:sw3`]);
    // Never before the window has freed, at most an eighth of a window after (the expiry moves in steps).
    for (const key of keys) {
      const ttl = await client.pttl(key);
      assert.ok(ttl > 29_000 && ttl <= 33_751, `ttl ${ttl} of ${key}`);
    }
  });

  test('memory per counter stays bounded for large limits', async () => {
    const keyPrefix = prefix();
    const clock = new TestClock();
    const store = new RedisRateLimitStore({ client, keyPrefix, clock });
    const p = policy(10_000, 3_600);
    for (let i = 0; i < 3_000; i++) {
      clock.ms += 1_500;
      await store.acquire('busy', p);
    }
    const [key] = await client.keys(`${keyPrefix}*`);
    assert.ok(key !== undefined);
    assert.ok((await client.strlen(key)) <= 48 + 16 * (130 + 32), 'a header, at most 130 live segment records and 32 that left');
    const bytes = Number(await client.memory('USAGE', key));
    // Redis allocates a string that grows in place with up to twice its length.
    assert.ok(bytes < 6_600, `memory ${bytes} bytes`);
  });

  test('the script is loaded again after SCRIPT FLUSH (EVALSHA falls back on NOSCRIPT)', async () => {
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix() });
    await client.script('FLUSH');
    assert.equal((await store.acquire('a', policy(1, 60))).allowed, true);
    assert.equal((await store.acquire('a', policy(1, 60))).allowed, false);
  });

  test('a client clock far off does not matter: time comes from the Redis server by default', async () => {
    const store = new RedisRateLimitStore({ client, keyPrefix: prefix() });
    const decision = await store.acquire('a', policy(2, 5));
    assert.deepEqual(decision, { allowed: true, limit: 2, remaining: 1, reset: 5, retryAfter: 0 });
  });

  test('bad input gets a clear error and changes nothing', async () => {
    assert.throws(() => new RedisRateLimitStore({}), /exactly one of `client`/);
    assert.throws(() => new RedisRateLimitStore({ client, url: server.url }), /exactly one of/);
    assert.throws(() => new RedisRateLimitStore({ url: 'http://x' }), /redis:\/\//);
    assert.throws(() => new RedisRateLimitStore({ client, keyPrefix: 'a{b' }), /without "\{"/);
    assert.throws(
      () => new RedisRateLimitStore({ client: { get: () => undefined } as never }),
      /ioredis Redis or Cluster .* node-redis v5 client/,
    );
    assert.equal(new RedisRateLimitStore({ client }).clientKind, 'ioredis');
    assert.throws(() => new RedisRateLimitStore({ client, timeoutMs: 0 }), /timeoutMs must be a positive integer/);
    assert.throws(() => new RedisRateLimitStore({ client, failureMode: 'maybe' as never }), /"failOpen" or "failClosed"/);
    assert.throws(() => new RedisRateLimitStore({ client, clock: {} as never }), /clock must have a now\(\) method/);
    const keyPrefix = prefix();
    const store = new RedisRateLimitStore({ client, keyPrefix });
    await assert.rejects(store.acquire('a', policy(0, 60)), /permitLimit must be a positive integer/);
    await assert.rejects(store.acquire('a', policy(1.5, 60)), /permitLimit must be a positive integer/);
    await assert.rejects(store.acquire('a', policy(1, -1)), /windowSeconds must be a positive finite number/);
    await assert.rejects(store.acquire(42 as never, policy(1, 1)), /partition must be a string/);
    assert.deepEqual(await client.keys(`${keyPrefix}*`), []);
  });
});
