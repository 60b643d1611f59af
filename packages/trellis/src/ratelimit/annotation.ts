import type { AnnotationDecorator, AnnotationKind, FeatureKind, RouteInfo } from '../index.js';
import { annotation } from '../index.js';
import { RateLimitScope } from './types.js';
import type { RateLimitPolicy, RateLimitSettings } from './types.js';
import { planFor } from './policies.js';
import { rateLimitFeature } from './feature.js';
import { isWholeCount, isWindowSeconds } from './store-kit.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_RATE_LIMIT', message);

const describeCost = (cost: RateLimitSettings['cost']) =>
  typeof cost === 'function' ? `cost: ${cost.name || 'a function'}` : `cost: ${cost}`;
const describe = (s: RateLimitSettings) =>
  `@RateLimit({ name: "${s.name}", permitLimit: ${s.permitLimit}, windowSeconds: ${s.windowSeconds}, scope: "${s.scope}", ${describeCost(s.cost)}${s.budget === undefined ? '' : `, budget: "${s.budget}"`}${s.blockSeconds === undefined ? '' : `, blockSeconds: ${s.blockSeconds}`}${s.countOnly === undefined ? '' : `, countOnly: "${s.countOnly}"`} })`;
const same = (a: RateLimitSettings, b: RateLimitSettings) =>
  a.permitLimit === b.permitLimit &&
  a.windowSeconds === b.windowSeconds &&
  a.scope === b.scope &&
  a.cost === b.cost &&
  a.budget === b.budget &&
  a.blockSeconds === b.blockSeconds &&
  a.countOnly === b.countOnly;

function oneLevel(values: RateLimitSettings[], handler: string, level: string): Map<string, RateLimitSettings> {
  const byName = new Map<string, RateLimitSettings>();
  for (const v of values) {
    const seen = byName.get(v.name);
    if (seen && !same(seen, v)) {
      throw usageError(
        'TRELLIS_CONFLICTING_ANNOTATIONS',
        `${handler}: two ${level}-level rate limits share the name "${v.name}" but differ: ${describe(seen)} and ${describe(v)}. ` +
          'One name is one counter with one limit, window and scope: give them different names or the same settings.',
      );
    }
    byName.set(v.name, v);
  }
  return byName;
}

/** The names a handler is exempted from; an empty list exempts it from every limit. */
export const SkipRateLimitKind: AnnotationKind<readonly string[]> = {
  name: 'SkipRateLimit',
  combine: (classLevel, methodLevel) => [...classLevel, ...methodLevel],
  sortKey: (names) => names.join('\u0000'),
};

export const RateLimitKind: FeatureKind<RateLimitSettings> = {
  name: 'RateLimit',
  // Same name = one counter: a method-level annotation replaces a class-level one of that name.
  combine(classLevel, methodLevel, handler) {
    const merged = oneLevel(classLevel, handler, 'class');
    for (const [name, v] of oneLevel(methodLevel, handler, 'method')) merged.set(name, v);
    const budgets = new Map<string, RateLimitSettings>();
    for (const v of merged.values()) {
      if (v.budget === undefined) continue;
      const seen = budgets.get(v.budget);
      if (seen) {
        throw usageError(
          'TRELLIS_CONFLICTING_ANNOTATIONS',
          `${handler}: two rate limits spend the budget "${v.budget}": ${describe(seen)} and ${describe(v)}. A request would be counted twice on one counter; keep one.`,
        );
      }
      budgets.set(v.budget, v);
    }
    return [...merged.values()];
  },
  sortKey: (v) => `${String(v.windowSeconds).padStart(12, '0')}/${v.name}`,
  // The feature's filters find this kind's values on a route: it is handed to them, read when an app is built.
  feature: rateLimitFeature(() => ({ limit: RateLimitKind, skip: SkipRateLimitKind })),
};

/**
 * Limits how often a handler may be called: at most `permitLimit` requests in any interval of
 * `windowSeconds`, per partition (caller) and per `name`. Apply it several times with different names for
 * several limits (a burst limit beside an hourly one). Defaults: 100 per 60 s, name "default", transport scope,
 * cost 1.
 *
 * `cost` is what one request spends: a whole number of permits, or a function `(ctx, policy) => number` (or a
 * promise of one) asked before the handler runs — at transport scope from what the request line and headers
 * say (no body is read), at principal scope also from `ctx.principal`. A request whose cost does not fit in
 * what is left is refused and spends nothing; `RateLimit-Remaining` counts permits. A cost function that
 * throws or returns anything but a whole number >= 1 answers 500 naming the limit.
 *
 * @example
 * class Reports {
 *   @RateLimit({ name: 'burst', permitLimit: 5, windowSeconds: 1 })
 *   @RateLimit({ name: 'hourly', permitLimit: 1000, windowSeconds: 3600, scope: RateLimitScope.Principal })
 *   @Get('/reports') list() { ... }
 * }
 * // functional form: route('GET', '/reports', [RateLimit({ permitLimit: 5, windowSeconds: 1 })], list)
 * // one budget for every export endpoint, and an app-wide limit on every route:
 * // RateLimit({ name: 'exports', budget: 'exports', permitLimit: 20, windowSeconds: 3600 })
 * // app.route(group({ annotations: [RateLimit({ name: 'app', budget: 'app', permitLimit: 1000, windowSeconds: 60 })] }, routes))
 * // a caller that overruns 5 logins a minute is refused for 15 minutes:
 * // RateLimit({ name: 'login', permitLimit: 5, windowSeconds: 60, blockSeconds: 900 })
 * // only failed logins count: RateLimit({ name: 'login-failures', permitLimit: 5, windowSeconds: 900, countOnly: 'failures' })
 * // a bulk export spends one permit per 100 rows asked for:
 * // RateLimit({ name: 'rows', permitLimit: 100, cost: (ctx) => Math.max(1, Math.ceil(Number(ctx.request.query.get('rows') ?? 100) / 100)) })
 */
export function RateLimit(options: Partial<RateLimitSettings> = {}): AnnotationDecorator<RateLimitSettings> {
  const {
    permitLimit = 100,
    windowSeconds = 60,
    name = 'default',
    scope = RateLimitScope.Transport,
    cost = 1,
    budget,
    blockSeconds,
    countOnly,
  } = options ?? {};
  if (countOnly !== undefined && countOnly !== 'failures' && countOnly !== 'successes') {
    throw invalid(`@RateLimit: countOnly must be "failures" or "successes", got ${JSON.stringify(countOnly)}.`);
  }
  if (blockSeconds !== undefined && !isWindowSeconds(blockSeconds)) {
    throw invalid(`@RateLimit: blockSeconds must be a positive number of seconds, got ${String(blockSeconds)}.`);
  }
  if (budget !== undefined && (typeof budget !== 'string' || budget === '' || budget.length > 200)) {
    throw invalid(`@RateLimit: budget must be a non-empty string (at most 200 characters), got ${JSON.stringify(budget)}.`);
  }
  if (!isWholeCount(permitLimit)) {
    throw invalid(`@RateLimit: permitLimit must be a positive whole number, got ${String(permitLimit)}.`);
  }
  if (!isWindowSeconds(windowSeconds)) {
    throw invalid(`@RateLimit: windowSeconds must be a positive number of seconds, got ${String(windowSeconds)}.`);
  }
  if (typeof name !== 'string' || name === '' || name.length > 200) {
    throw invalid(`@RateLimit: name must be a non-empty string (at most 200 characters), got ${JSON.stringify(name)}.`);
  }
  if (scope !== RateLimitScope.Transport && scope !== RateLimitScope.Principal) {
    throw invalid(`@RateLimit: scope must be RateLimitScope.Transport or RateLimitScope.Principal, got ${JSON.stringify(scope)}.`);
  }
  if (typeof cost !== 'function' && !isWholeCount(cost)) {
    throw invalid(
      `@RateLimit: cost must be a whole number of permits (at least 1) or a function (ctx, policy) => number, got ${String(cost)}.`,
    );
  }
  const settings: { -readonly [K in keyof RateLimitSettings]: RateLimitSettings[K] } = { permitLimit, windowSeconds, name, scope, cost };
  if (budget !== undefined) settings.budget = budget;
  if (blockSeconds !== undefined) settings.blockSeconds = blockSeconds;
  if (countOnly !== undefined) settings.countOnly = countOnly;
  return annotation(RateLimitKind, Object.freeze(settings));
}

/**
 * Exempts a handler from rate limits declared on its class (or group): from the limits of the given names,
 * or from all of them when no name is given. A skipped limit is not counted and adds no `RateLimit-*` headers.
 *
 * @example
 * @RateLimit({ name: 'burst', permitLimit: 5, windowSeconds: 1 })
 * class Reports {
 *   @Get('/reports') list() { ... }
 *   @SkipRateLimit('burst') @Get('/reports/health') health() { return 'ok'; }
 * }
 */
export function SkipRateLimit(...names: string[]): AnnotationDecorator<readonly string[]> {
  for (const n of names) {
    if (typeof n !== 'string' || n === '') throw invalid(`@SkipRateLimit: names must be non-empty strings, got ${JSON.stringify(n)}.`);
  }
  return annotation(SkipRateLimitKind, Object.freeze([...names]));
}

/**
 * The counters a route's requests spend on (both scopes, less those `SkipRateLimit` names), as the stores
 * key them: what an admin route needs to read or reset one caller's counters.
 *
 * @example
 * const reports = app.routes.find((r) => r.id === 'GET /reports')!;
 * for (const policy of rateLimitPolicies(reports)) await store.reset?.('subject:alice', policy);
 */
export function rateLimitPolicies(route: RouteInfo): readonly RateLimitPolicy[] {
  const kinds = { limit: RateLimitKind, skip: SkipRateLimitKind };
  return [RateLimitScope.Transport, RateLimitScope.Principal].flatMap((scope) =>
    planFor(route, kinds, scope).counters.map((c) => c.policy),
  );
}
