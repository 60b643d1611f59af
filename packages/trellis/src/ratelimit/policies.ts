import type { AnnotationKind, RouteInfo } from '../index.js';
import { RateLimitScope } from './types.js';
import type { RateLimitCostFunction, RateLimitPolicy, RateLimitSettings } from './types.js';

/** A handler's counters at one scope, and whether it has counters at the other scope too. */
export interface ScopePlan {
  readonly policies: readonly RateLimitPolicy[];
  /** What a request spends on each counter, in the order of `policies`. */
  readonly costs: readonly (number | RateLimitCostFunction)[];
  /** True when every counter costs 1: nothing to compute per request. */
  readonly unitCost: boolean;
  /** How long a refusal blocks the caller on each counter (seconds), in the order of `policies`; undefined for none. */
  readonly blocks: readonly (number | undefined)[];
  /** True when some counter blocks after a refusal. */
  readonly blocking: boolean;
  /** Which outcome each counter counts (once the response is known), in the order of `policies`; undefined for every request. */
  readonly countOnly: readonly ('failures' | 'successes' | undefined)[];
  /** True when some counter counts by outcome. */
  readonly deferred: boolean;
  /** True when the handler is limited at both scopes: the headers then report across both. */
  readonly shared: boolean;
}

interface RoutePlans {
  readonly transport: ScopePlan;
  readonly principal: ScopePlan;
}

const cache = new WeakMap<RouteInfo, RoutePlans>();

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
    .filter((s) => !skipped?.has(s.name))
    .filter((s) => s.scope === scope)
    .sort((a, b) => a.windowSeconds - b.windowSeconds || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function scopePlan(route: RouteInfo, settings: readonly RateLimitSettings[], shared: boolean): ScopePlan {
  const policies = Object.freeze(
    settings.map((s) =>
      Object.freeze({
        // A budget is one counter across handlers; otherwise each handler counts on its own.
        key: s.budget === undefined ? `${route.id}#${s.name}` : `budget:${s.budget}`,
        handler: route.id,
        name: s.name,
        permitLimit: s.permitLimit,
        windowSeconds: s.windowSeconds,
        scope: s.scope,
      }),
    ),
  );
  const costs = Object.freeze(settings.map((s) => s.cost ?? 1));
  const blocks = Object.freeze(settings.map((s) => s.blockSeconds));
  const countOnly = Object.freeze(settings.map((s) => s.countOnly));
  return planOf(policies, costs, blocks, countOnly, shared);
}

/** A plan from its per-counter lists (in the order of `policies`), its flags derived from them. */
function planOf(
  policies: readonly RateLimitPolicy[],
  costs: readonly (number | RateLimitCostFunction)[],
  blocks: readonly (number | undefined)[],
  countOnly: ScopePlan['countOnly'],
  shared: boolean,
): ScopePlan {
  return {
    policies,
    costs,
    unitCost: costs.every((c) => c === 1),
    blocks,
    blocking: blocks.some((b) => b !== undefined),
    countOnly,
    deferred: countOnly.some((c) => c !== undefined),
    shared,
  };
}

/** `plan` with only the counters at the indexes `kept`, in that order. */
export function keepCounters(plan: ScopePlan, kept: readonly number[]): ScopePlan {
  return planOf(
    kept.map((i) => plan.policies[i]!),
    kept.map((i) => plan.costs[i]!),
    kept.map((i) => plan.blocks[i]),
    kept.map((i) => plan.countOnly[i]),
    plan.shared,
  );
}

/**
 * The counters of one handler at one scope (the route's `RateLimit` values less its `SkipRateLimit` names), with what a request needs to
 * know about the other scope. Computed once per route.
 */
export function planFor(route: RouteInfo, kinds: RateLimitKinds, scope: RateLimitScope): ScopePlan {
  let plans = cache.get(route);
  if (plans === undefined) {
    const transport = settingsAt(route, kinds, RateLimitScope.Transport);
    const principal = settingsAt(route, kinds, RateLimitScope.Principal);
    const shared = transport.length > 0 && principal.length > 0;
    plans = { transport: scopePlan(route, transport, shared), principal: scopePlan(route, principal, shared) };
    cache.set(route, plans);
  }
  return scope === RateLimitScope.Transport ? plans.transport : plans.principal;
}
