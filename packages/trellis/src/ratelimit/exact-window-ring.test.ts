import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InProcessRateLimitStore } from './in-process-store.js';
import { ManualClock } from './manual-clock.js';
import { EXACT_PERMIT_LIMIT } from './sliding-window.js';
import { RateLimitScope, type RateLimitDecision, type RateLimitPolicy } from './types.js';

function policy(permitLimit: number, windowSeconds: number, name = 'default'): RateLimitPolicy {
  return { key: `GET /items#${name}`, handler: 'GET /items', name, permitLimit, windowSeconds, scope: RateLimitScope.Transport };
}

/** An exact sliding log of one counter: what every decision of an exact window must say. */
class ExactLog {
  private readonly taken: number[] = [];

  decide(now: number, limit: number, windowSeconds: number, cost: number): RateLimitDecision {
    const windowMs = windowSeconds * 1000;
    while (this.taken.length > 0 && this.taken[0]! + windowMs <= now) this.taken.shift();
    const until = (takenAt: number): number => Math.max(1, Math.ceil((takenAt - now + windowMs) / 1000));
    const used = this.taken.length;
    if (used + cost <= limit) {
      for (let i = 0; i < cost; i++) this.taken.push(now);
      return { allowed: true, limit, remaining: limit - used - cost, reset: until(this.taken[0]!), retryAfter: 0 };
    }
    const whole = Math.ceil(windowSeconds);
    return {
      allowed: false,
      limit,
      remaining: Math.max(0, limit - used),
      reset: used > 0 ? until(this.taken[0]!) : whole,
      retryAfter: used > 0 && cost <= limit ? until(this.taken[used + cost - limit - 1]!) : whole,
    };
  }
}

describe('exact windows: one timestamp per permit in a growing ring', () => {
  test('every decision equals an exact sliding log, across costs, partitions, policies and limits that change', async () => {
    // Several partitions and two policies with the same numbers share admitted answers: each must still be its own.
    // Each policy keeps its window (a store may forget permits older than the window it last used).
    const call = fc.record({
      gapMs: fc.oneof(
        fc.constant(0),
        fc.integer({ min: 1, max: 2_000 }).map((q) => q / 4),
        fc.integer({ min: 0, max: 90_000 }),
      ),
      partition: fc.constantFrom('sub:a', 'sub:b', 'sub:c'),
      name: fc.constantFrom('default', 'other'),
      permitLimit: fc.oneof(
        { arbitrary: fc.constant(20), weight: 4 },
        { arbitrary: fc.constantFrom(1, 2, 3, 16, 17, 100, EXACT_PERMIT_LIMIT), weight: 1 },
      ),
      cost: fc.oneof({ arbitrary: fc.constant(1), weight: 4 }, { arbitrary: fc.integer({ min: 1, max: 24 }), weight: 1 }),
      repeat: fc.integer({ min: 1, max: 40 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 16 }), fc.integer({ min: 0, max: 2 ** 40 }), async (calls, startMs) => {
        const clock = new ManualClock(startMs);
        const store = new InProcessRateLimitStore({ clock });
        const logs = new Map<string, ExactLog>();
        const windowSeconds = { default: 10, other: 2.5 };
        for (const c of calls) {
          for (let r = 0; r < c.repeat; r++) {
            clock.advance(r === 0 ? c.gapMs : c.gapMs % 37);
            const counter = `${c.partition} ${c.name}`;
            if (!logs.has(counter)) logs.set(counter, new ExactLog());
            const expected = logs.get(counter)!.decide(clock.now(), c.permitLimit, windowSeconds[c.name], c.cost);
            const d = store.acquire(c.partition, policy(c.permitLimit, windowSeconds[c.name], c.name), { cost: c.cost });
            assert.deepEqual(d, expected, `${counter} at ${clock.now()}`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  test('permits taken while the ring grows to the limit each come back exactly one window later', async () => {
    const clock = new ManualClock(1_000);
    const store = new InProcessRateLimitStore({ clock });
    const perMinute = policy(100, 60);
    for (let i = 0; i < 100; i++) {
      clock.set(1_000 + i * 10);
      const d = store.acquire('sub:a', perMinute);
      assert.deepEqual([d.allowed, d.remaining, d.reset], [true, 99 - i, 60], `admission ${i + 1}`);
    }
    assert.equal(store.acquire('sub:a', perMinute).allowed, false);
    for (let i = 0; i < 100; i++) {
      clock.set(61_000 + i * 10 - 1);
      assert.equal(store.acquire('sub:a', perMinute).allowed, false, `permit ${i + 1} is not back early`);
      clock.set(61_000 + i * 10);
      const back = store.acquire('sub:a', perMinute);
      assert.equal(back.allowed, true, `permit ${i + 1} is back on time`);
      assert.equal(back.remaining, 0);
    }
  });

  test('a ring that wraps around, then grows, keeps its permits in the order they were taken', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock });
    const perTenSeconds = policy(40, 10);
    // Once the first permit has left, a ring laid out from slot 1 wraps to its start.
    store.acquire('sub:a', perTenSeconds);
    clock.set(1_000);
    store.acquire('sub:a', perTenSeconds);
    clock.set(10_000);
    assert.equal(store.acquire('sub:a', perTenSeconds).remaining, 38);
    // Growing now copies a wrapped ring.
    clock.set(10_500);
    assert.equal(store.acquire('sub:a', perTenSeconds, { cost: 5 }).remaining, 33);
    clock.set(10_900);
    const refused = store.acquire('sub:a', perTenSeconds, { cost: 40 });
    assert.deepEqual([refused.allowed, refused.retryAfter], [false, 10]);
    const needsThree = store.acquire('sub:a', perTenSeconds, { cost: 36 });
    // 7 in use: freeing 3 of them means the ones of 1,000, 10,000 and the first of 10,500.
    assert.deepEqual([needsThree.allowed, needsThree.reset, needsThree.retryAfter], [false, 1, 10]);
    clock.set(20_499);
    assert.equal(store.acquire('sub:a', perTenSeconds, { cost: 36 }).allowed, false);
    // 5 in use from slot 2 of 7: 11 more need a bigger ring, laid out from slot 0.
    assert.equal(store.acquire('sub:a', perTenSeconds, { cost: 11 }).remaining, 24);
    clock.set(20_500);
    // The 11 left start at slot 5 of 16: 5 more run past the ring's end into slots 0 to 4...
    assert.equal(store.acquire('sub:a', perTenSeconds, { cost: 5 }).remaining, 24);
    // ...and growing that wrapped ring must keep the 11 of 20,499 ms first.
    assert.equal(store.acquire('sub:a', perTenSeconds, { cost: 24 }).remaining, 0);
    clock.set(30_498);
    assert.deepEqual(store.acquire('sub:a', perTenSeconds).retryAfter, 1);
    clock.set(30_499);
    assert.equal(store.acquire('sub:a', perTenSeconds).remaining, 10, 'the 11 of 20,499 ms are back, the 29 of 20,500 not yet');
    clock.set(30_500);
    assert.equal(store.acquire('sub:a', perTenSeconds, { cost: 39 }).remaining, 0);
  });

  test('a limit raised past exact turns the timestamps into segments that still count, and lowered again stays sound', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock });
    store.acquire('sub:a', policy(10, 60), { cost: 4 });
    clock.set(30_000);
    store.acquire('sub:a', policy(10, 60), { cost: 6 });
    assert.equal(store.acquire('sub:a', policy(10, 60)).allowed, false);
    const raised = store.acquire('sub:a', policy(1_000, 60));
    assert.deepEqual([raised.allowed, raised.remaining, raised.reset], [true, 989, 30]);
    const lowered = store.acquire('sub:a', policy(10, 60));
    // 11 in use under a limit of 10: two must free, both among the 4 of 0 ms.
    assert.deepEqual([lowered.allowed, lowered.reset, lowered.retryAfter], [false, 30, 30]);
    clock.set(60_000);
    // The 7 of 30,000 ms still count: 4 more must wait for them.
    const partly = store.acquire('sub:a', policy(10, 60), { cost: 4 });
    assert.deepEqual([partly.allowed, partly.retryAfter], [false, 30]);
    assert.equal(store.acquire('sub:a', policy(10, 60), { cost: 3 }).remaining, 0);
    clock.set(90_000);
    assert.equal(store.acquire('sub:a', policy(10, 60), { cost: 7 }).remaining, 0, 'the 3 of 60,000 ms still count');
  });

  test('two partitions handed the same admission still count apart', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock });
    const perMinute = policy(2, 60);
    const a = store.acquire('sub:a', perMinute);
    const b = store.acquire('sub:b', perMinute);
    assert.deepEqual(b, a);
    assert.equal(store.acquire('sub:a', perMinute).remaining, 0);
    assert.equal(store.acquire('sub:a', perMinute).allowed, false);
    assert.equal(store.acquire('sub:b', perMinute).remaining, 0);
    clock.set(59_500);
    assert.equal(store.acquire('sub:c', perMinute).reset, 60);
    assert.equal(store.acquire('sub:b', perMinute).retryAfter, 1);
  });
});
