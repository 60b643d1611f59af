import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessRateLimitStore } from './in-process-store.js';
import { ManualClock } from './manual-clock.js';
import { RateLimitScope, type RateLimitDecision, type RateLimitPolicy } from './types.js';

function policy(name: string, permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: `GET /orders#${name}`, handler: 'GET /orders', name, permitLimit, windowSeconds, scope: RateLimitScope.Principal };
}

const oncePer10s = policy('default', 1, 10);

async function fill(store: InProcessRateLimitStore, names: readonly string[], p: RateLimitPolicy = oncePer10s): Promise<void> {
  for (const name of names) assert.equal(store.acquire(name, p).allowed, true);
}

describe('InProcessRateLimitStore partition cap', () => {
  test('at the cap a new partition passes unlimited, with the headers of a fresh counter, marked as failed open', async () => {
    const store = new InProcessRateLimitStore({ clock: new ManualClock(), maxTrackedPartitions: 3 });
    await fill(store, ['sub:a', 'sub:b', 'sub:c']);
    const hourly = policy('hourly', 50, 3600.5);
    const withoutCause = ({ failedOpen, ...rest }: RateLimitDecision) => {
      assert.match(String((failedOpen?.error as Error)?.message), /3 partitions are tracked \(maxTrackedPartitions\)/);
      return rest;
    };
    for (let i = 0; i < 5; i++) {
      assert.deepEqual(withoutCause(store.acquire('sub:new', oncePer10s)), {
        allowed: true,
        limit: 1,
        remaining: 0,
        reset: 10,
        retryAfter: 0,
      });
      assert.deepEqual(withoutCause(store.acquire('sub:new', hourly)), {
        allowed: true,
        limit: 50,
        remaining: 49,
        reset: 3601,
        retryAfter: 0,
      });
      assert.deepEqual(withoutCause(store.acquire('sub:new', hourly, { cost: 5 })), {
        allowed: true,
        limit: 50,
        remaining: 45,
        reset: 3601,
        retryAfter: 0,
      });
    }
    assert.equal(store.acquire('sub:new', oncePer10s, { cost: 2 }).allowed, false, 'a cost above the limit never fits, even failing open');
    assert.equal(store.acquire('sub:a', oncePer10s).failedOpen, undefined, 'a tracked partition is counted');
    assert.equal(store.trackedPartitions, 3);
  });

  test('at the cap, tracked partitions stay limited, on every policy', async () => {
    const store = new InProcessRateLimitStore({ clock: new ManualClock(), maxTrackedPartitions: 2 });
    await fill(store, ['sub:a', 'sub:b']);
    assert.equal(store.acquire('sub:overflow', oncePer10s).allowed, true);
    assert.equal(store.acquire('sub:a', oncePer10s).allowed, false);
    // A policy the tracked partition had not used yet is counted too.
    const other = policy('export', 1, 60);
    assert.equal(store.acquire('sub:b', other).allowed, true);
    assert.equal(store.acquire('sub:b', other).allowed, false);
  });

  test('once their windows expire, partitions stop counting and new callers are limited again', async () => {
    const clock = new ManualClock(5_000);
    const store = new InProcessRateLimitStore({ clock, maxTrackedPartitions: 3 });
    await fill(store, ['sub:a', 'sub:b', 'sub:c']);
    clock.advance(9_999);
    assert.equal(store.acquire('sub:d', oncePer10s).allowed, true);
    assert.equal(store.acquire('sub:d', oncePer10s).allowed, true, 'still at the cap 1 ms before expiry');
    clock.advance(1);
    for (const name of ['sub:d', 'sub:e', 'sub:f']) {
      assert.equal(store.acquire(name, oncePer10s).allowed, true);
      assert.equal(store.acquire(name, oncePer10s).allowed, false, `${name} is tracked and limited`);
    }
    assert.equal(store.trackedPartitions, 3);
    assert.equal(store.acquire('sub:g', oncePer10s).allowed, true);
    assert.equal(store.acquire('sub:g', oncePer10s).allowed, true, 'the cap is full of live partitions again');
  });

  test('a partition stays tracked while any of its counters still holds a permit', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock, maxTrackedPartitions: 1 });
    const burst = policy('burst', 1, 1);
    const hourly = policy('hourly', 2, 3600);
    store.acquire('sub:a', burst);
    store.acquire('sub:a', hourly);
    clock.advance(5_000);
    assert.equal(store.acquire('sub:b', burst).allowed, true);
    assert.equal(store.acquire('sub:b', burst).allowed, true, 'sub:a still counts: its hourly permit is in use');
    clock.advance(3_600_000);
    assert.equal(store.acquire('sub:b', burst).allowed, true);
    assert.equal(store.acquire('sub:b', burst).allowed, false, 'sub:b took the freed slot');
  });

  test('refused requests do not keep a partition alive', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock, maxTrackedPartitions: 1 });
    store.acquire('sub:a', oncePer10s);
    for (let i = 0; i < 9; i++) {
      clock.advance(1_000);
      assert.equal(store.acquire('sub:a', oncePer10s).allowed, false);
    }
    clock.advance(1_000);
    store.acquire('sub:b', oncePer10s);
    assert.equal(store.acquire('sub:b', oncePer10s).allowed, false, 'sub:b is tracked');
  });

  test('a partition used again before expiry stays tracked for its new window', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock, maxTrackedPartitions: 1 });
    const twicePer10s = policy('default', 2, 10);
    store.acquire('sub:a', twicePer10s);
    clock.advance(8_000);
    store.acquire('sub:a', twicePer10s);
    clock.advance(2_000); // the first permit frees, the second is still in use until 18 s
    assert.equal(store.acquire('sub:b', twicePer10s).remaining, 1);
    assert.equal(store.acquire('sub:b', twicePer10s).remaining, 1, 'untracked: every answer is a fresh one');
    assert.equal(store.acquire('sub:a', twicePer10s).remaining, 0, 'sub:a is still counted');
  });

  test('when the window of a policy grows, its partition stays tracked until the permits free under the new window', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock, maxTrackedPartitions: 1 });
    store.acquire('sub:a', oncePer10s);
    clock.advance(5_000);
    const oncePer60s = policy('default', 1, 60);
    assert.equal(store.acquire('sub:a', oncePer60s).allowed, false, 'the permit taken under 10 s counts for 60 s');
    clock.advance(54_999); // 59.999 s after the admission
    assert.equal(store.acquire('sub:b', oncePer60s).allowed, true);
    assert.equal(store.acquire('sub:b', oncePer60s).allowed, true, 'sub:a still holds the only slot');
    clock.advance(1);
    assert.equal(store.acquire('sub:b', oncePer60s).allowed, true);
    assert.equal(store.acquire('sub:b', oncePer60s).allowed, false, 'sub:a was reclaimed; sub:b is tracked');
  });

  test('the default cap is 10,000 partitions, and thousands of expired partitions are reclaimed', async () => {
    const clock = new ManualClock();
    const store = new InProcessRateLimitStore({ clock });
    assert.equal(store.maxTrackedPartitions, 10_000);
    const first = Array.from({ length: 10_000 }, (_, i) => `sub:first-${i}`);
    await fill(store, first);
    assert.equal(store.acquire('sub:late', oncePer10s).allowed, true);
    assert.equal(store.acquire('sub:late', oncePer10s).allowed, true);
    clock.advance(10_000);
    const second = Array.from({ length: 10_000 }, (_, i) => `sub:second-${i}`);
    await fill(store, second);
    assert.equal(store.trackedPartitions, 10_000);
    for (const name of ['sub:second-0', 'sub:second-9999']) {
      assert.equal(store.acquire(name, oncePer10s).allowed, false);
    }
  });

  test('a bad cap or clock is refused when the store is made', () => {
    for (const maxTrackedPartitions of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      assert.throws(() => new InProcessRateLimitStore({ maxTrackedPartitions }), {
        name: 'TypeError',
        message: /maxTrackedPartitions must be a positive integer/,
      });
    }
    assert.throws(() => new InProcessRateLimitStore({ clock: {} as never }), TypeError);
  });
});
