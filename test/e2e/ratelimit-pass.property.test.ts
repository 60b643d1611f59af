// A handler's rate limits, taken together over HTTP, against a model: each request meets the counters shortest
// window first (ties by name), spends on each that admits it, and the first that refuses answers 429 naming its
// limit (and, for a limit with a block, keeps refusing until the block ends); an admitted request's headers
// report the fewest permits left. Costs are numbers or functions, sync or
// async, so both ways through the limiter (answers at once, answers later) are compared with the same model.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RegistrationType, createApp, route } from '../../packages/trellis/src/index.js';
import { InProcessRateLimitStore, ManualClock, RateLimit, RateLimitStore } from '../../packages/trellis/src/ratelimit/index.js';

interface Limit {
  readonly name: string;
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly cost: number;
  readonly costBy: 'number' | 'function' | 'async function';
  /** Seconds a caller is refused on this limit once it overran it; undefined for no block. */
  readonly blockSeconds: number | undefined;
}

const START_MS = 1_700_000_012_345;

const limitArb = (name: string): fc.Arbitrary<Limit> =>
  fc.record({
    name: fc.constant(name),
    permitLimit: fc.integer({ min: 1, max: 5 }),
    windowSeconds: fc.integer({ min: 1, max: 4 }),
    cost: fc.integer({ min: 1, max: 3 }),
    costBy: fc.constantFrom('number' as const, 'function' as const, 'async function' as const),
    blockSeconds: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  });

const limitsArb = fc.integer({ min: 1, max: 3 }).chain((n) => fc.tuple(...['a', 'b', 'c'].slice(0, n).map(limitArb)));

/** The time before each request, in milliseconds (0: at the same moment as the one before). */
const gapsArb = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 2_500 })), { minLength: 1, maxLength: 25 });

/** What the model expects of one request. */
type Expected = { status: 200; remaining: number } | { status: 429; limit: string };

/**
 * An exact sliding log per limit: admitted (time, cost) pairs; a permit is in use for `windowSeconds` after it
 * was taken. A limit with a block refuses a caller that overran it until the block's seconds have passed, before
 * its counter is looked at.
 */
class Model {
  readonly #logs = new Map<string, { at: number; cost: number }[]>();
  readonly #blockedUntil = new Map<string, number>();

  constructor(private readonly limits: readonly Limit[]) {}

  request(now: number): Expected {
    const order = [...this.limits].sort((x, y) => x.windowSeconds - y.windowSeconds || (x.name < y.name ? -1 : 1));
    let remaining = Number.POSITIVE_INFINITY;
    for (const limit of order) {
      if (now < (this.#blockedUntil.get(limit.name) ?? Number.NEGATIVE_INFINITY)) return { status: 429, limit: limit.name };
      const log = this.#logs.get(limit.name) ?? [];
      const live = log.filter((e) => e.at + limit.windowSeconds * 1000 > now);
      const used = live.reduce((n, e) => n + e.cost, 0);
      if (used + limit.cost > limit.permitLimit) {
        if (limit.blockSeconds !== undefined) this.#blockedUntil.set(limit.name, now + limit.blockSeconds * 1000);
        return { status: 429, limit: limit.name };
      }
      live.push({ at: now, cost: limit.cost });
      this.#logs.set(limit.name, live);
      remaining = Math.min(remaining, limit.permitLimit - used - limit.cost);
    }
    return { status: 200, remaining };
  }
}

function appFor(limits: readonly Limit[], clock: ManualClock) {
  const app = createApp();
  app.services.add(RateLimitStore, () => new InProcessRateLimitStore({ clock }), { type: RegistrationType.Replace });
  const annotations = limits.map((l) =>
    RateLimit({
      name: l.name,
      permitLimit: l.permitLimit,
      windowSeconds: l.windowSeconds,
      cost: l.costBy === 'number' ? l.cost : l.costBy === 'function' ? () => l.cost : () => Promise.resolve(l.cost),
      blockSeconds: l.blockSeconds,
    }),
  );
  app.route(route('POST', '/r', annotations, () => 'ok'));
  return app;
}

describe('a handler with several rate limits, against an exact model', () => {
  it('admits, refuses, names the refusing limit and reports the permits left as the model does', async () => {
    await fc.assert(
      fc.asyncProperty(limitsArb, gapsArb, async (limits, gaps) => {
        const clock = new ManualClock(START_MS);
        const app = appFor(limits, clock);
        const model = new Model(limits);
        for (const [i, gap] of gaps.entries()) {
          clock.advance(gap);
          const expected = model.request(clock.now());
          const response = await app.inject({ method: 'POST', url: '/r' });
          const where = `request ${i} at +${clock.now() - START_MS} ms`;
          assert.equal(response.statusCode, expected.status, where);
          if (expected.status === 429) assert.equal(response.json().limit, expected.limit, where);
          else assert.equal(response.headers['ratelimit-remaining'], String(expected.remaining), where);
        }
      }),
      { numRuns: 150 },
    );
  });
});
