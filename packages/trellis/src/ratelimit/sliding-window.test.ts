import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InProcessRateLimitStore } from './in-process-store.js';
import { ManualClock } from './manual-clock.js';
import { SlidingWindowCounter } from './sliding-window.js';
import { windowShape } from './window-shape.js';
import { RateLimitScope, type RateLimitPolicy } from './types.js';

function policy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return {
    key: 'GET /reports#default',
    handler: 'GET /reports',
    name: 'default',
    permitLimit,
    windowSeconds,
    scope: RateLimitScope.Transport,
  };
}

describe('sliding window of the in-process store', () => {
  test('10,000 per hour: a permit comes back late by at most one segment (1/128 h), never early', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock });
    const hourly = policy(10_000, 3600);
    for (let i = 0; i < 10_000; i++) {
      clock.set(i * 360); // evenly over the hour: the last one at 3,599,640 ms
      assert.equal(store.acquire('sub:a', hourly).allowed, true);
    }
    const refused = store.acquire('sub:a', hourly);
    assert.equal(refused.allowed, false);
    // Exact: the permit taken at 0 ms frees at 3,600,000. The first segment ([0, 28,125) ms) holds the 79
    // admissions up to 28,080 ms, so it frees at 3,628,080: 28.08 s late, within the 28.125 s segment.
    assert.equal(refused.retryAfter, Math.ceil((3_628_080 - 3_599_640) / 1000));
    clock.set(3_600_000);
    assert.equal(store.acquire('sub:a', hourly).allowed, false, 'late, never early');
    clock.set(3_628_079);
    assert.equal(store.acquire('sub:a', hourly).allowed, false);
    clock.set(3_628_080);
    const back = store.acquire('sub:a', hourly);
    assert.equal(back.allowed, true);
    assert.equal(back.remaining, 79 - 1, 'the whole first segment came back at once');
  });

  test('a burst of a large limit in one instant is one segment, freed exactly one window later', async () => {
    const clock = new ManualClock(42);
    const store = new InProcessRateLimitStore({ clock });
    const hourly = policy(10_000, 3600);
    for (let i = 0; i < 10_000; i++) store.acquire('sub:a', hourly);
    assert.equal(store.acquire('sub:a', hourly).retryAfter, 3600);
    clock.advance(3_600_000 - 1);
    assert.equal(store.acquire('sub:a', hourly).allowed, false);
    clock.advance(1);
    assert.equal(store.acquire('sub:a', hourly).remaining, 9_999);
  });

  test('up to 128 permits per window every permit comes back exactly one window after it was taken', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock });
    const perMinute = policy(128, 60);
    for (let i = 0; i < 128; i++) {
      clock.set(i * 100);
      store.acquire('sub:a', perMinute);
    }
    for (let i = 0; i < 128; i++) {
      clock.set(60_000 + i * 100 - 1);
      assert.equal(store.acquire('sub:a', perMinute).allowed, false);
      clock.set(60_000 + i * 100);
      assert.equal(store.acquire('sub:a', perMinute).allowed, true, `permit ${i} is back on time`);
    }
  });

  test('a counter whose limit or window changes keeps the permits already taken', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock });
    for (let i = 0; i < 3; i++) store.acquire('sub:a', policy(3, 10));
    assert.equal(store.acquire('sub:a', policy(5, 10)).remaining, 1);
    clock.advance(5_000);
    // Widened to a minute: the four taken at 0 ms now count until 60 s.
    assert.equal(store.acquire('sub:a', policy(5, 60)).remaining, 0);
    clock.advance(5_000);
    assert.equal(store.acquire('sub:a', policy(5, 60)).allowed, false);
    clock.advance(50_000);
    assert.equal(store.acquire('sub:a', policy(5, 60)).remaining, 3, 'the four from 0 ms are back');
  });
});

test('a lowered limit waits for enough permits to free, not just the oldest one', async () => {
  const clock = new ManualClock();
  const store = new InProcessRateLimitStore({ clock });
  for (let i = 0; i < 5; i++) {
    clock.set(i * 1000);
    store.acquire('sub:a', policy(5, 10));
  }
  clock.set(5_000);
  const refused = store.acquire('sub:a', policy(2, 10));
  assert.equal(refused.allowed, false);
  assert.equal(refused.reset, 5, 'the oldest permit frees at 10 s');
  assert.equal(refused.retryAfter, 8, 'but only the one taken at 3 s makes room, at 13 s');
  clock.set(12_999);
  assert.equal(store.acquire('sub:a', policy(2, 10)).allowed, false);
  clock.set(13_000);
  assert.equal(store.acquire('sub:a', policy(2, 10)).allowed, true);
});

describe('store clocks', () => {
  test('a clock that steps backwards cannot make the store free permits early', async () => {
    let now = 100_000;
    const store = new InProcessRateLimitStore({ clock: { now: () => now } });
    const p = policy(1, 10);
    assert.equal(store.acquire('sub:a', p).allowed, true);
    now = 50_000;
    assert.equal(store.acquire('sub:a', p).allowed, false);
    now = 109_999;
    assert.equal(store.acquire('sub:a', p).allowed, false);
    now = 110_000;
    assert.equal(store.acquire('sub:a', p).allowed, true);
  });

  test('a clock that answers NaN or Infinity is reported, and counts nothing', async () => {
    let now = 1_000;
    const store = new InProcessRateLimitStore({ clock: { now: () => now } });
    const p = policy(1, 10);
    for (const broken of [Number.NaN, Number.POSITIVE_INFINITY]) {
      now = broken;
      assert.throws(() => store.acquire('sub:a', p), { name: 'TypeError', message: /clock.now\(\) must return finite milliseconds/ });
    }
    now = 1_000;
    assert.equal(store.acquire('sub:a', p).allowed, true);
    now = Number.POSITIVE_INFINITY;
    assert.throws(() => store.acquire('sub:a', p), TypeError);
    now = 2_000;
    assert.equal(store.acquire('sub:a', p).allowed, false, 'the broken reading freed nothing');
  });

  test('the default clock is real, monotonic time', async () => {
    const store = new InProcessRateLimitStore();
    const p = policy(2, 3600);
    assert.deepEqual(store.acquire('sub:a', p), { allowed: true, limit: 2, remaining: 1, reset: 3600, retryAfter: 0 });
    const second = store.acquire('sub:a', p);
    assert.equal(second.remaining, 0);
    assert.equal(store.acquire('sub:a', p).allowed, false);
  });

  test('ManualClock moves only forwards and says what was wrong', () => {
    const clock = new ManualClock(10);
    assert.equal(clock.advance(5), 15);
    assert.equal(clock.set(20), 20);
    assert.equal(clock.now(), 20);
    assert.throws(() => clock.advance(-1), { name: 'RangeError', message: /ms >= 0/ });
    assert.throws(() => clock.set(19), { name: 'RangeError', message: /cannot go back in time: now\(\) is 20, got 19/ });
    assert.throws(() => clock.advance(Number.NaN), RangeError);
    assert.throws(() => new ManualClock(Number.POSITIVE_INFINITY), RangeError);
    assert.equal(clock.now(), 20, 'refused moves change nothing');
  });
});

test('a counter rebuilt from its stored segments before every request decides as the one kept in memory', () => {
  fc.assert(
    fc.property(
      fc.constantFrom(200, 1_000, 10_000),
      fc.constantFrom(1, 60, 3_600),
      fc.array(fc.record({ gapMs: fc.integer({ min: 0, max: 5_000 }), cost: fc.integer({ min: 1, max: 30 }) }), { maxLength: 300 }),
      (limit, windowSeconds, steps) => {
        const shape = windowShape('GET /items#burst', limit, windowSeconds);
        const kept = new SlidingWindowCounter(shape);
        let stored = { times: [] as number[], counts: [] as number[], newestStart: 0 };
        let now = 1_700_000_000_000;
        for (const { gapMs, cost } of steps) {
          now += gapMs;
          const rebuilt = new SlidingWindowCounter(shape);
          rebuilt.loadSegments(stored.times, stored.counts, stored.newestStart);
          assert.deepEqual({ ...rebuilt.acquire(now, cost) }, { ...kept.acquire(now, cost) });
          stored = rebuilt.storedSegments();
        }
      },
    ),
    { numRuns: 100 },
  );
});
