/**
 * The behaviour every `RateLimitStore` must show, as node:test tests that use only the store interface and an
 * injected clock (`trellis/ratelimit/store-kit`). Call it at the top level of a test file that `node --test`
 * runs:
 *
 * @example
 * import { rateLimitStoreContract } from 'trellis/ratelimit/store-kit';
 * rateLimitStoreContract('MyStore', (clock) => new MyStore({ clock }), () => server.close());
 *
 * Each test makes its own store with `makeStore` and uses partitions and keys unique to this run, so a
 * store backed by a shared server (Redis) needs no cleanup between tests; `teardown` runs once at the end.
 * The scripted timelines use limits of at most 5, where a store must be exact: every decision, numbers
 * included, is compared with an exact sliding log. Time is whole milliseconds on the injected clock.
 *
 * The suite loads node:test, node:assert and fast-check (an optional peer dependency: install it beside your
 * tests) when it is called, never when the store kit is imported, so a store that imports the kit's checks
 * loads none of them in production.
 */
import type NodeAssert from 'node:assert/strict';
import type FastCheck from 'fast-check';
import { ManualClock } from './manual-clock.js';
import { RateLimitScope, type RateLimitClock, type RateLimitDecision, type RateLimitPolicy, type RateLimitStore } from './types.js';

/** Far from 0 and off any round boundary, so neither "0 means never" nor fixed windows pass by luck. */
const START_MS = 1_700_000_012_345;

interface Fixture {
  readonly store: RateLimitStore;
  readonly clock: ManualClock;
  /** A partition name unique to this run. */
  partition(name: string): string;
  policy(name: string, permitLimit: number, windowSeconds: number): RateLimitPolicy;
}

/** One step of a scripted timeline: `count` requests at `atMs` after the start. */
interface Arrival {
  readonly atMs: number;
  readonly count: number;
}

/** What an exact sliding log answers: the model a store must match while `permitLimit` is small. */
function referenceDecisions(arrivals: readonly Arrival[], permitLimit: number, windowSeconds: number): RateLimitDecision[] {
  const windowMs = windowSeconds * 1000;
  const admitted: number[] = [];
  const out: RateLimitDecision[] = [];
  for (const { atMs, count } of arrivals) {
    const t = START_MS + atMs;
    for (let i = 0; i < count; i++) {
      const live = admitted.filter((a) => a + windowMs > t);
      if (live.length < permitLimit) {
        admitted.push(t);
        const oldest = live.length > 0 ? live[0]! : t;
        out.push({
          allowed: true,
          limit: permitLimit,
          remaining: permitLimit - live.length - 1,
          reset: Math.ceil((oldest + windowMs - t) / 1000),
          retryAfter: 0,
        });
      } else {
        const wait = Math.ceil((live[0]! + windowMs - t) / 1000);
        out.push({ allowed: false, limit: permitLimit, remaining: 0, reset: wait, retryAfter: Math.max(1, wait) });
      }
    }
  }
  return out;
}

/** The largest number of admissions found in any half-open interval [x, x + windowMs). */
function busiestInterval(admittedAt: readonly number[], windowMs: number): number {
  let best = 0;
  let start = 0;
  for (let end = 0; end < admittedAt.length; end++) {
    while (admittedAt[end]! - admittedAt[start]! >= windowMs) start++;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

const scriptedTimelines: ReadonlyArray<{
  readonly title: string;
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly arrivals: readonly Arrival[];
}> = [
  {
    title: 'bursts on both sides of each window edge',
    permitLimit: 3,
    windowSeconds: 10,
    arrivals: [
      { atMs: 0, count: 2 },
      { atMs: 9_999, count: 3 },
      { atMs: 10_000, count: 3 },
      { atMs: 10_001, count: 1 },
      { atMs: 19_998, count: 2 },
      { atMs: 19_999, count: 3 },
      { atMs: 20_000, count: 2 },
      { atMs: 29_999, count: 4 },
      { atMs: 40_000, count: 4 },
    ],
  },
  {
    title: 'one permit per second, asked for every 250 ms',
    permitLimit: 1,
    windowSeconds: 1,
    arrivals: Array.from({ length: 24 }, (_, i) => ({ atMs: i * 250, count: 1 })).concat([
      { atMs: 6_999, count: 1 },
      { atMs: 7_000, count: 1 },
      { atMs: 7_999, count: 1 },
      { atMs: 8_000, count: 2 },
    ]),
  },
  {
    title: 'a steady trickle with bursts, five minutes of a 5-per-minute limit',
    permitLimit: 5,
    windowSeconds: 60,
    arrivals: Array.from({ length: 43 }, (_, i) => ({ atMs: i * 7_000 + (i % 5 === 0 ? 999 : 0), count: i % 6 === 0 ? 4 : 1 })),
  },
  {
    title: 'a half-second window',
    permitLimit: 2,
    windowSeconds: 0.5,
    arrivals: [0, 100, 200, 499, 500, 501, 600, 999, 1_000, 1_001, 1_500, 1_500].map((atMs) => ({ atMs, count: 1 })),
  },
];

/** fast-check, from the project that runs the suite; a clear error when it is not installed. */
function loadFastCheck(): typeof FastCheck {
  const load = process.getBuiltinModule('node:module').createRequire(import.meta.url);
  try {
    return load('fast-check') as typeof FastCheck;
  } catch (error) {
    throw new Error('rateLimitStoreContract needs fast-check, an optional peer dependency of trellis: npm install --save-dev fast-check', {
      cause: error,
    });
  }
}

/**
 * Registers the contract's tests for one store with node:test. `makeStore` is called once per test with a clock
 * the test moves; the store must read time only from it.
 */
export function rateLimitStoreContract(
  name: string,
  makeStore: (clock: RateLimitClock) => RateLimitStore | Promise<RateLimitStore>,
  teardown?: () => Promise<void>,
): void {
  const { after, describe, test } = process.getBuiltinModule('node:test');
  // Annotated: TypeScript calls assertion functions only through names declared with their type.
  const assert: typeof NodeAssert = process.getBuiltinModule('node:assert/strict');
  const fc = loadFastCheck();
  const run = process.getBuiltinModule('node:crypto').randomUUID().slice(0, 8);
  let counter = 0;

  async function fixture(startMs = START_MS): Promise<Fixture> {
    const clock = new ManualClock(startMs);
    const store = await makeStore(clock);
    const id = `${run}-${++counter}`;
    return {
      store,
      clock,
      partition: (partitionName) => `contract-${id}-${partitionName}`,
      policy: (policyName, permitLimit, windowSeconds) => ({
        key: `contract-${id} GET /limited#${policyName}`,
        handler: `contract-${id} GET /limited`,
        name: policyName,
        permitLimit,
        windowSeconds,
        scope: RateLimitScope.Transport,
      }),
    };
  }

  async function acquireMany(
    f: Fixture,
    partition: string,
    policy: RateLimitPolicy,
    n: number,
    cost?: number,
  ): Promise<RateLimitDecision[]> {
    const out: RateLimitDecision[] = [];
    for (let i = 0; i < n; i++) out.push(await f.store.acquire(partition, policy, cost === undefined ? undefined : { cost }));
    return out;
  }

  describe(`RateLimitStore contract: ${name}`, () => {
    after(async () => {
      await teardown?.();
    });

    test('allows permitLimit requests, then refuses, with integer decision fields', async () => {
      const f = await fixture();
      const policy = f.policy('default', 4, 30);
      const decisions = await acquireMany(f, f.partition('alice'), policy, 6);
      assert.deepEqual(
        decisions.map((d) => d.allowed),
        [true, true, true, true, false, false],
      );
      assert.deepEqual(
        decisions.map((d) => d.remaining),
        [3, 2, 1, 0, 0, 0],
      );
      for (const d of decisions) {
        assert.equal(d.limit, 4);
        for (const field of ['limit', 'remaining', 'reset', 'retryAfter'] as const) {
          assert.ok(Number.isInteger(d[field]) && d[field] >= 0, `${field} is a non-negative integer: ${d[field]}`);
        }
        assert.equal(d.retryAfter === 0, d.allowed, 'retryAfter is 0 exactly when allowed');
      }
    });

    test('window boundary: an allowance spent just before a window ends leaves nothing at the start of the next', async () => {
      const f = await fixture();
      const policy = f.policy('default', 5, 10);
      const alice = f.partition('alice');
      f.clock.advance(9_999);
      assert.ok((await acquireMany(f, alice, policy, 5)).every((d) => d.allowed));
      f.clock.advance(1); // a fixed window would start afresh here
      const atEdge = await f.store.acquire(alice, policy);
      assert.equal(atEdge.allowed, false);
      assert.equal(atEdge.retryAfter, 10);
      f.clock.advance(9_998); // 1 ms before the burst is a full window old
      assert.equal((await f.store.acquire(alice, policy)).allowed, false);
      f.clock.advance(1);
      assert.deepEqual(
        (await acquireMany(f, alice, policy, 6)).map((d) => d.allowed),
        [true, true, true, true, true, false],
      );
    });

    for (const timeline of scriptedTimelines) {
      test(`any interval of windowSeconds holds at most permitLimit admissions: ${timeline.title}`, async () => {
        const f = await fixture();
        const policy = f.policy('default', timeline.permitLimit, timeline.windowSeconds);
        const alice = f.partition('alice');
        const decisions: RateLimitDecision[] = [];
        const admittedAt: number[] = [];
        for (const { atMs, count } of timeline.arrivals) {
          f.clock.set(START_MS + atMs);
          for (let i = 0; i < count; i++) {
            const d = await f.store.acquire(alice, policy);
            decisions.push(d);
            if (d.allowed) admittedAt.push(atMs);
          }
        }
        assert.ok(
          busiestInterval(admittedAt, timeline.windowSeconds * 1000) <= timeline.permitLimit,
          `admitted at ${admittedAt.join(', ')} ms`,
        );
        // Small limits are exact: refused only when the window really is full, and honest numbers.
        assert.deepEqual(decisions, referenceDecisions(timeline.arrivals, timeline.permitLimit, timeline.windowSeconds));
      });
    }

    test('retrying after exactly retryAfter seconds succeeds, 1 ms earlier fails', async () => {
      const f = await fixture();
      const policy = f.policy('default', 3, 20);
      const alice = f.partition('alice');
      await acquireMany(f, alice, policy, 3);
      const refused = await f.store.acquire(alice, policy);
      assert.equal(refused.allowed, false);
      assert.equal(refused.retryAfter, 20);
      f.clock.advance(refused.retryAfter * 1000 - 1);
      assert.equal((await f.store.acquire(alice, policy)).allowed, false);
      f.clock.advance(1);
      assert.equal((await f.store.acquire(alice, policy)).allowed, true);
    });

    test('retryAfter is rounded up: after retryAfter seconds succeeds, after one second less fails', async () => {
      const f = await fixture();
      const policy = f.policy('default', 2, 10);
      const alice = f.partition('alice');
      await f.store.acquire(alice, policy);
      f.clock.advance(2_500);
      await f.store.acquire(alice, policy);
      f.clock.advance(1_200); // the first permit frees 6.3 s from now
      const refused = await f.store.acquire(alice, policy);
      assert.equal(refused.allowed, false);
      assert.equal(refused.retryAfter, 7);
      f.clock.advance((refused.retryAfter - 1) * 1000);
      assert.equal((await f.store.acquire(alice, policy)).allowed, false);
      f.clock.advance(1000);
      assert.equal((await f.store.acquire(alice, policy)).allowed, true);
    });

    test('remaining counts down and reset is the seconds until the oldest permit frees', async () => {
      const f = await fixture();
      const policy = f.policy('default', 3, 60);
      const alice = f.partition('alice');
      const seen: Array<[boolean, number, number, number]> = [];
      const step = async (advanceMs: number): Promise<void> => {
        f.clock.advance(advanceMs);
        const d = await f.store.acquire(alice, policy);
        seen.push([d.allowed, d.remaining, d.reset, d.retryAfter]);
      };
      await step(0);
      await step(10_000);
      await step(10_000);
      await step(10_000);
      await step(29_500);
      await step(500);
      assert.deepEqual(seen, [
        [true, 2, 60, 0],
        [true, 1, 50, 0],
        [true, 0, 40, 0],
        [false, 0, 30, 30],
        [false, 0, 1, 1],
        [true, 0, 10, 0],
      ]);
    });

    test('partitions and policy keys count separately, even when their names would join alike', async () => {
      const f = await fixture();
      const hourly = f.policy('hourly', 2, 3600);
      const burst = f.policy('burst', 2, 3600);
      const alice = f.partition('alice');
      await acquireMany(f, alice, hourly, 2);
      assert.equal((await f.store.acquire(alice, hourly)).allowed, false);
      assert.equal((await f.store.acquire(alice, burst)).remaining, 1, 'another policy key has its own counter');
      assert.equal((await f.store.acquire(f.partition('bob'), hourly)).remaining, 1, 'another partition too');

      const left = f.partition('p:x');
      const right = f.partition('p');
      await acquireMany(f, left, { ...hourly, key: 'k' }, 2);
      assert.equal((await f.store.acquire(right, { ...hourly, key: 'x:k' })).remaining, 1, '"p:x" + "k" is not "p" + "x:k"');
    });

    test('refused requests spend nothing', async () => {
      const f = await fixture();
      const policy = f.policy('default', 2, 10);
      const alice = f.partition('alice');
      await acquireMany(f, alice, policy, 2);
      for (let i = 1; i <= 9; i++) {
        f.clock.set(START_MS + i * 1000);
        const d = await f.store.acquire(alice, policy);
        assert.equal(d.allowed, false);
        assert.equal(d.retryAfter, 10 - i, 'refusals do not push the next permit further out');
      }
      f.clock.set(START_MS + 10_000);
      assert.deepEqual(
        (await acquireMany(f, alice, policy, 3)).map((d) => d.allowed),
        [true, true, false],
      );
    });

    test('a policy with impossible numbers is rejected with a TypeError, and nothing is counted', async () => {
      const f = await fixture();
      const alice = f.partition('alice');
      const bad: Array<[number, number]> = [
        [0, 60],
        [-1, 60],
        [Number.NaN, 60],
        [Number.POSITIVE_INFINITY, 60],
        [10, 0],
        [10, -5],
        [10, Number.NaN],
        [10, Number.POSITIVE_INFINITY],
      ];
      for (const [permitLimit, windowSeconds] of bad) {
        await assert.rejects(async () => f.store.acquire(alice, f.policy('default', permitLimit, windowSeconds)), TypeError);
      }
      assert.equal((await f.store.acquire(alice, f.policy('default', 10, 60))).remaining, 9);
    });

    test('reset and retryAfter never exceed the window and a refusal waits at least 1 s, from any clock origin', async () => {
      // Fractional clock readings after hours or days of uptime once made ceil((oldest + window - now) / 1000)
      // land just above the window (61 for 60 s).
      const DAY_MS = 86_400_000;
      await fc.assert(
        fc.asyncProperty(
          fc.double({ min: 0, max: 3 * DAY_MS, noNaN: true, noDefaultInfinity: true }),
          fc.constantFrom(5, 60, 3600),
          fc.integer({ min: 1, max: 5 }),
          fc.array(fc.double({ min: 0, max: 1.5, noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 12 }),
          async (origin, windowSeconds, permitLimit, steps) => {
            const f = await fixture(origin);
            const policy = f.policy('bounds', permitLimit, windowSeconds);
            const partition = f.partition('bounds');
            for (const step of steps) {
              f.clock.advance(step * windowSeconds * 1000 * (step < 0.5 ? 0.01 : 1));
              const d = await f.store.acquire(partition, policy);
              assert.ok(
                d.reset <= windowSeconds && d.retryAfter <= windowSeconds,
                `reset ${d.reset}, retryAfter ${d.retryAfter} over ${windowSeconds} s`,
              );
              if (!d.allowed) assert.ok(d.reset >= 1 && d.retryAfter >= 1, `a refusal said reset ${d.reset}, retryAfter ${d.retryAfter}`);
              else assert.ok(d.reset >= 1, `an admission said reset ${d.reset}`);
            }
          },
        ),
        { numRuns: 60 },
      );
    });

    test('an already aborted signal: a store decides (it did not wait), or rejects with an AbortError and counts nothing', async () => {
      const f = await fixture();
      const policy = f.policy('default', 1, 60);
      const alice = f.partition('alice');
      let outcome: RateLimitDecision | 'aborted';
      try {
        outcome = await f.store.acquire(alice, policy, { signal: AbortSignal.abort() });
      } catch (error) {
        assert.equal((error as Error).name, 'AbortError');
        outcome = 'aborted';
      }
      const next = await f.store.acquire(alice, policy, { signal: new AbortController().signal });
      if (outcome === 'aborted') {
        assert.equal(next.allowed, true, 'an aborted acquire counts nothing');
      } else {
        // A store that answers without waiting has nothing to abort: it decides, and that decision counts.
        assert.equal(outcome.allowed, true);
        assert.equal(next.allowed, false);
      }
    });

    test('cost: a request spends cost permits, remaining counts permits, a refusal spends nothing', async () => {
      const f = await fixture();
      const policy = f.policy('default', 5, 10);
      const alice = f.partition('alice');
      assert.deepEqual(await f.store.acquire(alice, policy, { cost: 2 }), {
        allowed: true,
        limit: 5,
        remaining: 3,
        reset: 10,
        retryAfter: 0,
      });
      f.clock.advance(2_000);
      assert.deepEqual(await f.store.acquire(alice, policy, { cost: 2 }), {
        allowed: true,
        limit: 5,
        remaining: 1,
        reset: 8,
        retryAfter: 0,
      });
      f.clock.advance(2_000);
      // 4 in use: 3 more fit once the first 2 have freed (at 10 s), 5 once all 4 have (at 12 s).
      // A refusal tells the permits left (1), fewer than the request's cost.
      assert.deepEqual(await f.store.acquire(alice, policy, { cost: 3 }), {
        allowed: false,
        limit: 5,
        remaining: 1,
        reset: 6,
        retryAfter: 6,
      });
      assert.deepEqual(await f.store.acquire(alice, policy, { cost: 5 }), {
        allowed: false,
        limit: 5,
        remaining: 1,
        reset: 6,
        retryAfter: 8,
      });
      assert.deepEqual(await f.store.acquire(alice, policy, { cost: 1 }), {
        allowed: true,
        limit: 5,
        remaining: 0,
        reset: 6,
        retryAfter: 0,
      });
      f.clock.set(START_MS + 10_000);
      assert.equal((await f.store.acquire(alice, policy, { cost: 3 })).allowed, false, 'the permit taken at 4 s is still in use');
      assert.deepEqual(await f.store.acquire(alice, policy, { cost: 2 }), {
        allowed: true,
        limit: 5,
        remaining: 0,
        reset: 2,
        retryAfter: 0,
      });
      assert.deepEqual(await f.store.acquire(alice, policy), { allowed: false, limit: 5, remaining: 0, reset: 2, retryAfter: 2 });
    });

    test('cost: more than the limit is refused with a retry of one window, and spends nothing', async () => {
      const f = await fixture();
      const policy = f.policy('default', 3, 7.5);
      const alice = f.partition('alice');
      const refused = await f.store.acquire(alice, policy, { cost: 4 });
      assert.equal(refused.allowed, false);
      assert.equal(refused.remaining, 3, 'every permit is left');
      assert.equal(refused.retryAfter, 8);
      assert.ok(refused.reset >= 1 && refused.reset <= 8, `reset ${refused.reset}`);
      assert.equal((await f.store.acquire(alice, policy, { cost: 3 })).remaining, 0, 'the whole allowance was still there');
      assert.equal((await f.store.acquire(alice, policy, { cost: 4 })).retryAfter, 8);
    });

    test('cost: anything but a whole number >= 1 is a TypeError, and nothing is counted', async () => {
      const f = await fixture();
      const policy = f.policy('default', 3, 60);
      const alice = f.partition('alice');
      for (const cost of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, '2', null]) {
        await assert.rejects(async () => f.store.acquire(alice, policy, { cost: cost as number }), TypeError, `cost ${String(cost)}`);
      }
      assert.equal((await f.store.acquire(alice, policy, { cost: 1 })).remaining, 2);
      assert.equal((await f.store.acquire(alice, policy, {})).remaining, 1, 'no cost means 1');
    });

    test("a caller's plan changes: the same counter is judged by this call's numbers", async () => {
      const f = await fixture();
      const alice = f.partition('alice');
      const at = (permitLimit: number, windowSeconds: number) => f.policy('plan', permitLimit, windowSeconds);
      await acquireMany(f, alice, at(5, 10), 4);
      // Lowered below the permits in use: refused until two of them have freed.
      assert.deepEqual(await f.store.acquire(alice, at(3, 10)), { allowed: false, limit: 3, remaining: 0, reset: 10, retryAfter: 10 });
      // Raised: more at once, counted over the same permits.
      assert.deepEqual(await f.store.acquire(alice, at(10, 10), { cost: 2 }), {
        allowed: true,
        limit: 10,
        remaining: 4,
        reset: 10,
        retryAfter: 0,
      });
      // A grown window still counts the permits of the previous one.
      f.clock.advance(5_000);
      assert.deepEqual(await f.store.acquire(alice, at(6, 60)), { allowed: false, limit: 6, remaining: 0, reset: 55, retryAfter: 55 });
      // A shrunk window counts only what falls inside it.
      f.clock.advance(1_000);
      assert.deepEqual(await f.store.acquire(alice, at(6, 5)), { allowed: true, limit: 6, remaining: 5, reset: 5, retryAfter: 0 });
    });

    test('random plan changes never admit more than the current limit over what the counter must remember, nor refuse what fits', async () => {
      interface Call {
        readonly gapMs: number;
        readonly permitLimit: number;
        readonly windowSeconds: number;
        readonly cost: number;
      }
      const call = fc.record({
        gapMs: fc.oneof(
          fc.constant(0),
          fc.integer({ min: 1, max: 3_000 }),
          fc.constantFrom(1_000, 2_000, 5_000, 10_000),
          fc.integer({ min: 0, max: 12_000 }),
        ),
        permitLimit: fc.integer({ min: 1, max: 5 }),
        windowSeconds: fc.constantFrom(1, 2, 5, 10),
        cost: fc.oneof({ arbitrary: fc.constant(1), weight: 3 }, { arbitrary: fc.integer({ min: 1, max: 6 }), weight: 1 }),
      });
      // The same numbers for a while, then a change: plans change now and then, not on every call.
      const calls = fc
        .array(fc.tuple(call, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 14 })
        .map((runs) =>
          runs.flatMap(([c, repeat]) =>
            Array.from({ length: repeat }, (_, i): Call => (i === 0 ? c : { ...c, gapMs: (c.gapMs * i) % 1_700 })),
          ),
        );
      await fc.assert(
        fc.asyncProperty(calls, async (script) => {
          const f = await fixture();
          const alice = f.partition('alice');
          const times: number[] = [];
          const windows: number[] = [];
          const admitted: Array<{ readonly index: number; readonly cost: number }> = [];
          for (const [i, c] of script.entries()) {
            f.clock.advance(c.gapMs);
            const t = f.clock.now();
            times.push(t);
            windows.push(c.windowSeconds * 1000);
            // Must remember: permits no call since has seen fall out of its window, nor any gap left behind.
            const mustRemember = admitted.filter(({ index: j }) => {
              if (times[j]! + windows[i]! <= t) return false;
              for (let k = j; k < i; k++) if (times[j]! + windows[k]! <= times[k + 1]!) return false;
              return true;
            });
            // May remember: any permit taken within this call's window. A store may keep a permit that an
            // earlier call with a shorter window saw expire (a refusal writes nothing, so it trims nothing):
            // counting it under a longer window is still counting a permit taken within that window.
            const mayRemember = admitted.filter(({ index: j }) => times[j]! + windows[i]! > t);
            const least = mustRemember.reduce((sum, a) => sum + a.cost, 0);
            const most = mayRemember.reduce((sum, a) => sum + a.cost, 0);
            const d = await f.store.acquire(alice, f.policy('plan', c.permitLimit, c.windowSeconds), { cost: c.cost });
            const where = `call ${i} (${JSON.stringify(c)}), remembered between ${least} and ${most}`;
            assert.equal(d.limit, c.permitLimit, where);
            if (d.allowed) {
              assert.ok(least + c.cost <= c.permitLimit, `admitted over the limit: ${where}`);
              assert.ok(
                d.remaining >= c.permitLimit - most - c.cost && d.remaining <= c.permitLimit - least - c.cost,
                `remaining ${d.remaining}: ${where}`,
              );
              admitted.push({ index: i, cost: c.cost });
            } else {
              assert.ok(c.cost > c.permitLimit || most + c.cost > c.permitLimit, `refused what fits: ${where}`);
              assert.ok(d.retryAfter >= 1 && d.retryAfter <= c.windowSeconds, `retryAfter ${d.retryAfter}: ${where}`);
            }
          }
        }),
        { numRuns: 80 },
      );
    });
  });
}
