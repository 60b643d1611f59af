// The DynamoDB store's window, decided in the application and stored as bytes: exact windows decide as the
// in-process store does, segmented ones never admit more than the limit in any window, keep a bounded number
// of records and stay under one DynamoDB write unit, and the bytes read back as written (and nothing else is
// taken for a window).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InProcessRateLimitStore, ManualClock, RateLimitScope, type RateLimitPolicy } from '../index.js';
import { ForeignWindowError, decodeWindow, encodeWindow } from './window-codec.js';
import { decideWindow, storedShape, type WindowState } from './window-state.js';

const START_MS = 1_700_000_012_345;

function policy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: 'GET /items#burst', handler: 'GET /items', name: 'burst', permitLimit, windowSeconds, scope: RateLimitScope.Transport };
}

/** Decides like the store does: from the stored bytes each time, writing them back after an admission. */
class StoredWindow {
  bytes: Uint8Array | undefined;
  constructor(
    readonly exactLimit = 128,
    readonly segments = 128,
  ) {}
  acquire(permitLimit: number, windowSeconds: number, nowMs: number, cost = 1) {
    const shape = storedShape('GET /items#burst', permitLimit, windowSeconds, this.exactLimit, this.segments);
    const { decisions, written } = decideWindow(this.bytes === undefined ? undefined : decodeWindow(this.bytes), nowMs, [{ shape, cost }]);
    if (written !== undefined) this.bytes = encodeWindow(written);
    return { decision: decisions[0]!, records: written?.times.length ?? 0 };
  }
}

/** The largest number of admissions in any half-open interval of `windowMs`. */
function busiest(admissions: ReadonlyArray<{ at: number; cost: number }>, windowMs: number): number {
  let best = 0;
  let start = 0;
  let inWindow = 0;
  for (let end = 0; end < admissions.length; end++) {
    inWindow += admissions[end]!.cost;
    while (admissions[end]!.at - admissions[start]!.at >= windowMs) inWindow -= admissions[start++]!.cost;
    best = Math.max(best, inWindow);
  }
  return best;
}

describe('the DynamoDB window', () => {
  test('an exact window decides as the in-process store does, numbers included, whatever the costs and limits', () => {
    // One window per timeline: when a window grows, the in-process store may already have let go of a counter
    // that the shorter window had freed, which the contract allows and this store does not do.
    const step = fc.record({
      gapMs: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 4_000 }), fc.integer({ min: 0, max: 70_000 })),
      permitLimit: fc.constantFrom(1, 3, 10, 128),
      cost: fc.oneof({ arbitrary: fc.constant(1), weight: 4 }, { arbitrary: fc.integer({ min: 1, max: 12 }), weight: 1 }),
    });
    fc.assert(
      fc.property(fc.constantFrom(1, 2.5, 10, 60), fc.array(step, { minLength: 1, maxLength: 120 }), (windowSeconds, steps) => {
        const clock = new ManualClock(START_MS);
        const inProcess = new InProcessRateLimitStore({ clock });
        const stored = new StoredWindow();
        for (const s of steps) {
          clock.advance(s.gapMs);
          const expected = inProcess.acquire('alice', policy(s.permitLimit, windowSeconds), { cost: s.cost });
          const { decision } = stored.acquire(s.permitLimit, windowSeconds, clock.now(), s.cost);
          assert.deepEqual({ ...decision }, { ...expected }, JSON.stringify(s));
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a segmented window never admits more than the limit in any window, keeps at most segments + 4 records and stays under 1 KB', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(200, 1_000, 10_000),
        fc.constantFrom(1, 60, 3_600, 86_400),
        fc.array(fc.record({ gap: fc.double({ min: 0, max: 0.05, noNaN: true }), burst: fc.integer({ min: 1, max: 40 }) }), {
          minLength: 1,
          maxLength: 400,
        }),
        (permitLimit, windowSeconds, arrivals) => {
          const windowMs = windowSeconds * 1000;
          const stored = new StoredWindow();
          const admitted: Array<{ at: number; cost: number }> = [];
          let now = START_MS;
          for (const { gap, burst } of arrivals) {
            now += Math.round(gap * windowMs);
            for (let i = 0; i < burst; i++) {
              const { decision, records } = stored.acquire(permitLimit, windowSeconds, now);
              assert.ok(records <= 128 + 4, `${records} records`);
              if (decision.allowed) admitted.push({ at: now, cost: 1 });
              assert.ok(decision.reset >= 1 && decision.reset <= windowSeconds && decision.retryAfter <= windowSeconds);
            }
          }
          assert.ok(busiest(admitted, windowMs) <= permitLimit, 'never over the limit in any window');
          assert.ok(stored.bytes!.length <= 900, `${stored.bytes!.length} bytes`);
        },
      ),
      { numRuns: 60 },
    );
  });

  test('a segmented window frees a permit at most one segment late', () => {
    // 1,000 per 128 s: one segment is 1 s. A burst at 0.0–0.9 s fills the counter; it is whole again by 129 s.
    const stored = new StoredWindow();
    for (let i = 0; i < 10; i++) for (let j = 0; j < 100; j++) stored.acquire(1_000, 128, START_MS + i * 100);
    assert.equal(
      stored.acquire(1_000, 128, START_MS + 128_000).decision.allowed,
      false,
      'not early: the last admission at 0.9 s is still in the window',
    );
    const later = stored.acquire(1_000, 128, START_MS + 129_000);
    assert.equal(later.decision.allowed, true);
    assert.equal(later.decision.remaining, 999, 'all of them freed one segment late at most');
  });

  test('the largest exact window fits one write unit: 128 admissions a day, spread out', () => {
    const stored = new StoredWindow();
    for (let i = 0; i < 128; i++) stored.acquire(128, 86_400, START_MS + i * 675_000 + (i % 7) * 13);
    assert.ok(stored.bytes!.length <= 800, `${stored.bytes!.length} bytes`);
  });

  test('bytes read back as written; anything else is a foreign window', () => {
    const window: WindowState = {
      unit: 1,
      times: [5, 5_000, 1_700_000_000_000_000],
      counts: [1, 200_000, 3],
      newestStart: 1_699_999_999_999_000,
    };
    assert.deepEqual(decodeWindow(encodeWindow(window)), window);
    for (const bytes of [
      [],
      [2, 1, 1, 0, 1, 1],
      [1, 1, 1, 0, 1],
      [1, 1, 1, 0, 1, 1, 0],
      [1, 1, 1, 0, 1, 0],
      [1, 0, 1, 0, 1, 1],
      [1, 1, 1, 0, 2, 1, 5, 2],
      [1, 255, 255, 255, 255, 255, 255, 255, 255, 255, 1],
    ]) {
      assert.throws(() => decodeWindow(Uint8Array.from(bytes)), ForeignWindowError, JSON.stringify(bytes));
    }
  });
});
