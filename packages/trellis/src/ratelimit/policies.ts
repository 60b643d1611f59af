import type { AnnotationKind, RouteInfo } from '../index.js';
import { RateLimitScope } from './types.js';
import type { RateLimitCostFunction, RateLimitPolicy, RateLimitSettings } from './types.js';

/** One counter a route's requests spend on, with what a request needs to know of it. */
export interface Counter {
  readonly policy: RateLimitPolicy;
  /** What a request spends: a number of permits, or the function that says how many. */
  readonly cost: number | RateLimitCostFunction;
  /** The one-permit counter that records a block after a refusal (`blockSeconds`), if the limit blocks. */
  readonly block: RateLimitPolicy | undefined;
  /** Which outcome the counter counts, once the response is known; undefined when it counts every request. */
  readonly countOnly: 'failures' | 'successes' | undefined;
}

/** A route's counters at one scope, shortest window first, and what its requests need to know of them. */
export interface ScopePlan {
  readonly counters: readonly Counter[];
  /** True when some counter counts by outcome: the request is counted after the response. */
  readonly deferred: boolean;
  /** True when the handler is limited at both scopes: the headers then report across both. */
  readonly shared: boolean;
}

/** The annotation kinds the filters read: the limits, and the names a handler is exempted from. */
export interface RateLimitKinds {
  readonly limit: AnnotationKind<RateLimitSettings>;
  readonly skip: AnnotationKind<readonly string[]>;
}

/** The names a route is exempted from (`SkipRateLimit`); `true` for all of them. */
function skippedNames(route: RouteInfo, kind: AnnotationKind<readonly string[]>): Set<string> | true | undefined {
  let names: Set<string> | undefined;
  for (const a of route.annotations) {
    if (a.kind !== kind) continue;
    const value = a.value as readonly string[];
    if (value.length === 0) return true;
    names ??= new Set();
    for (const n of value) names.add(n);
  }
  return names;
}

/** Shortest window first (ties by name), so a refused burst does not spend a longer window's allowance. */
function settingsAt(route: RouteInfo, kinds: RateLimitKinds, scope: RateLimitScope): readonly RateLimitSettings[] {
  const skipped = skippedNames(route, kinds.skip);
  if (skipped === true) return [];
  return route.annotations
    .filter((a) => a.kind === kinds.limit)
    .map((a) => a.value as RateLimitSettings)
    .filter((s) => !skipped?.has(s.name) && s.scope === scope)
    .sort((a, b) => a.windowSeconds - b.windowSeconds || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function counterOf(route: RouteInfo, s: RateLimitSettings): Counter {
  const policy: RateLimitPolicy = Object.freeze({
    // A budget is one counter across handlers; otherwise each handler counts on its own.
    key: s.budget === undefined ? `${route.id}#${s.name}` : `budget:${s.budget}`,
    handler: route.id,
    name: s.name,
    permitLimit: s.permitLimit,
    windowSeconds: s.windowSeconds,
    scope: s.scope,
  });
  const block =
    s.blockSeconds === undefined
      ? undefined
      : Object.freeze({ ...policy, key: `${policy.key}#block`, permitLimit: 1, windowSeconds: s.blockSeconds });
  return Object.freeze({ policy, cost: s.cost, block, countOnly: s.countOnly });
}

/** A plan with only `counters`, its flags derived from them. */
export function planWith(counters: readonly Counter[], shared: boolean): ScopePlan {
  return { counters, deferred: counters.some((c) => c.countOnly !== undefined), shared };
}

/**
 * The counters of one handler at one scope (the route's `RateLimit` values less its `SkipRateLimit` names),
 * with what a request needs to know about the other scope. Made once per route, when the app is built.
 */
export function planFor(route: RouteInfo, kinds: RateLimitKinds, scope: RateLimitScope): ScopePlan {
  const other = scope === RateLimitScope.Transport ? RateLimitScope.Principal : RateLimitScope.Transport;
  const here = settingsAt(route, kinds, scope);
  const shared = here.length > 0 && settingsAt(route, kinds, other).length > 0;
  return planWith(Object.freeze(here.map((s) => counterOf(route, s))), shared);
}
