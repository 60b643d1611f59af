import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InProcessRateLimitStore } from './in-process-store.js';
import { ManualClock } from './manual-clock.js';
import { EXACT_PERMIT_LIMIT, WINDOW_SEGMENTS } from './sliding-window.js';
import { RateLimitScope, type RateLimitDecision, type RateLimitPolicy } from './types.js';

// Times are multiples of 1/4 ms and windows multiples of 250 ms, so every sum and difference below is exact
// in floating point and the checks cannot disagree with the store by a rounding error.
interface Scenario {
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly startMs: number;
  readonly arrivals: ReadonlyArray<{ readonly gapMs: number; readonly count: number }>;
}

function scenario(permitLimit: fc.Arbitrary<number>, maxEvents: number): fc.Arbitrary<Scenario> {
  const windowSeconds = fc.oneof(
    fc.constantFrom(0.25, 0.5, 1, 2, 10, 60, 3600),
    fc.integer({ min: 1, max: 4 * 600 }).map((quarters) => quarters / 4),
  );
  return fc.tuple(permitLimit, windowSeconds).chain(([limit, seconds]) => {
    const windowMs = seconds * 1000;
    const gapMs = fc.oneof(
      { arbitrary: fc.constant(0), weight: 2 },
      { arbitrary: fc.integer({ min: 1, max: 40 }).map((q) => q / 4), weight: 2 },
      // Around a window's edge: just before, on and just after.
      { arbitrary: fc.integer({ min: -8, max: 8 }).map((q) => Math.max(0, windowMs + q / 4)), weight: 3 },
      { arbitrary: fc.integer({ min: 0, max: 1000 }).map((p) => Math.round((windowMs * p) / 250) / 4), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: 3 }).map((n) => n * windowMs), weight: 1 },
    );
    const count = fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 3 }), weight: 3 },
      { arbitrary: fc.integer({ min: 1, max: Math.ceil(limit / 2) + 2 }), weight: 2 },
      { arbitrary: fc.integer({ min: Math.max(1, limit - 2), max: limit + 2 }), weight: 1 },
    );
    return fc.record({
      permitLimit: fc.constant(limit),
      windowSeconds: fc.constant(seconds),
      startMs: fc.integer({ min: 0, max: 2 ** 40 }),
      arrivals: fc.array(fc.record({ gapMs, count }), { minLength: 1, maxLength: maxEvents }),
    });
  });
}

interface Run {
  readonly times: number[];
  readonly decisions: RateLimitDecision[];
}

async function play(s: Scenario): Promise<Run> {
  const clock = new ManualClock(s.startMs);
  const store = new InProcessRateLimitStore({ clock });
  const policy: RateLimitPolicy = {
    key: 'GET /things#default',
    handler: 'GET /things',
    name: 'default',
    permitLimit: s.permitLimit,
    windowSeconds: s.windowSeconds,
    scope: RateLimitScope.Transport,
  };
  const times: number[] = [];
  const decisions: RateLimitDecision[] = [];
  for (const { gapMs, count } of s.arrivals) {
    clock.advance(gapMs);
    for (let i = 0; i < count; i++) {
      times.push(clock.now());
      decisions.push(store.acquire('sub:alice', policy));
    }
  }
  return { times, decisions };
}

/** Asserts no half-open interval of windowMs holds more than permitLimit admissions. */
function assertNeverOverAdmits(run: Run, permitLimit: number, windowMs: number): void {
  const admitted = run.times.filter((_, i) => run.decisions[i]!.allowed);
  for (let i = permitLimit; i < admitted.length; i++) {
    assert.ok(
      admitted[i]! - admitted[i - permitLimit]! >= windowMs,
      `${permitLimit + 1} admissions within ${windowMs} ms: at ${admitted[i - permitLimit]} and ${admitted[i]}`,
    );
  }
}

const exactLimit = fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: EXACT_PERMIT_LIMIT }));
const segmentedLimit = fc.integer({ min: EXACT_PERMIT_LIMIT + 1, max: 400 });

test('exact regime: never over-admits, and refuses only when the window really is full', async () => {
  await fc.assert(
    fc.asyncProperty(scenario(exactLimit, 30), async (s) => {
      const run = await play(s);
      const windowMs = s.windowSeconds * 1000;
      assertNeverOverAdmits(run, s.permitLimit, windowMs);
      // Replay against an exact sliding log: every decision, numbers included, must match.
      const log: number[] = [];
      let oldest = 0;
      run.times.forEach((t, i) => {
        while (oldest < log.length && log[oldest]! + windowMs <= t) oldest++;
        const inUse = log.length - oldest;
        const d = run.decisions[i]!;
        if (inUse < s.permitLimit) {
          log.push(t);
          const reset = Math.ceil((log[oldest]! + windowMs - t) / 1000);
          assert.deepEqual(d, { allowed: true, limit: s.permitLimit, remaining: s.permitLimit - inUse - 1, reset, retryAfter: 0 });
        } else {
          const wait = Math.ceil((log[oldest]! + windowMs - t) / 1000);
          assert.deepEqual(d, { allowed: false, limit: s.permitLimit, remaining: 0, reset: wait, retryAfter: Math.max(1, wait) });
        }
      });
    }),
    { numRuns: 1000 },
  );
});

test('segmented regime (large limits): never over-admits, and a permit comes back at most one segment late', async () => {
  await fc.assert(
    fc.asyncProperty(scenario(segmentedLimit, 24), async (s) => {
      const run = await play(s);
      const windowMs = s.windowSeconds * 1000;
      const segmentMs = windowMs / WINDOW_SEGMENTS;
      const L = s.permitLimit;
      assertNeverOverAdmits(run, L, windowMs);
      const admitted: number[] = [];
      let windowStart = 0;
      let extendedStart = 0;
      run.times.forEach((t, i) => {
        const d = run.decisions[i]!;
        while (windowStart < admitted.length && admitted[windowStart]! + windowMs <= t) windowStart++;
        while (extendedStart < admitted.length && admitted[extendedStart]! + windowMs + segmentMs <= t) extendedStart++;
        const inWindow = admitted.length - windowStart;
        const inWindowPlusSegment = admitted.length - extendedStart;
        if (d.allowed) {
          admitted.push(t);
          // The store counts at least the exact window and at most one segment more of history.
          assert.ok(d.remaining <= L - inWindow - 1, `remaining ${d.remaining} with ${inWindow} in the window`);
          assert.ok(
            d.remaining >= L - inWindowPlusSegment - 1,
            `remaining ${d.remaining}, ${inWindowPlusSegment} within a window and a segment`,
          );
        } else {
          assert.ok(inWindowPlusSegment >= L, `refused with only ${inWindowPlusSegment} admissions within a window and a segment`);
          // The L-th most recent admission frees the first permit of an exact window.
          const exactFree = admitted[admitted.length - L]! + windowMs;
          assert.ok(d.retryAfter >= Math.max(1, Math.ceil((exactFree - t) / 1000)), `retryAfter ${d.retryAfter} is early`);
          assert.ok(d.retryAfter <= Math.max(1, Math.ceil((exactFree + segmentMs - t) / 1000)), `retryAfter ${d.retryAfter} is late`);
          assert.equal(d.remaining, 0);
        }
        assert.equal(d.limit, L);
        assert.ok(Number.isInteger(d.reset) && d.reset >= 1 && d.reset <= Math.ceil((windowMs + segmentMs) / 1000));
      });
    }),
    { numRuns: 1000 },
  );
});

test('plan changes across the exact and segmented layouts never admit more than the current limit over what must be remembered', async () => {
  // Limits on both sides of EXACT_PERMIT_LIMIT, so a counter's ring is grown, shrunk in meaning and re-segmented
  // while it holds permits; a segmented counter may return a permit late, never early, so only over-admission
  // (against the permits no call has yet seen leave its window) is checked here.
  const call = fc.record({
    gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 }), fc.integer({ min: 0, max: 70_000 })),
    permitLimit: fc.constantFrom(1, 3, 50, EXACT_PERMIT_LIMIT, EXACT_PERMIT_LIMIT + 1, 300, 10_000),
    windowSeconds: fc.constantFrom(1, 10, 60),
    cost: fc.oneof({ arbitrary: fc.constant(1), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 1 }),
    repeat: fc.integer({ min: 1, max: 60 }),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 2 ** 40 }), async (calls, startMs) => {
      const clock = new ManualClock(startMs);
      const store = new InProcessRateLimitStore({ clock });
      const times: number[] = [];
      const windows: number[] = [];
      const admitted: Array<{ index: number; cost: number }> = [];
      for (const c of calls) {
        for (let r = 0; r < c.repeat; r++) {
          clock.advance(r === 0 ? c.gapMs : c.gapMs % 97);
          const i = times.length;
          const t = clock.now();
          times.push(t);
          windows.push(c.windowSeconds * 1000);
          let held = 0;
          for (const { index: j, cost } of admitted) {
            let kept = times[j]! + windows[i]! > t;
            for (let k = j; kept && k < i; k++) kept = times[j]! + windows[k]! > times[k + 1]!;
            if (kept) held += cost;
          }
          const policy = {
            key: 'GET /p#plan',
            handler: 'GET /p',
            name: 'plan',
            permitLimit: c.permitLimit,
            windowSeconds: c.windowSeconds,
            scope: RateLimitScope.Transport,
          };
          const d = store.acquire('sub:alice', policy, { cost: c.cost });
          assert.equal(d.limit, c.permitLimit);
          if (d.allowed) {
            assert.ok(held + c.cost <= c.permitLimit, `call ${i}: admitted ${c.cost} over ${held} held, limit ${c.permitLimit}`);
            assert.ok(d.remaining <= c.permitLimit - held - c.cost, `call ${i}: remaining ${d.remaining} with ${held} held`);
            admitted.push({ index: i, cost: c.cost });
          } else {
            assert.ok(d.retryAfter >= 1 && d.retryAfter <= Math.ceil(c.windowSeconds), `call ${i}: retryAfter ${d.retryAfter}`);
          }
        }
      }
    }),
    { numRuns: 120 },
  );
});
