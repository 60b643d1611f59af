import type { AnnotationKind, RouteInfo } from '../index.js';
import { RateLimitScope } from './types.js';
import type { RateLimitPolicy, RateLimitSettings } from './types.js';

/** A handler's counters at one scope, and whether it has counters at the other scope too. */
export interface ScopePlan {
  readonly policies: readonly RateLimitPolicy[];
  /** True when the handler is limited at both scopes: the headers then report across both. */
  readonly shared: boolean;
}

interface RoutePlans {
  readonly transport: ScopePlan;
  readonly principal: ScopePlan;
}

const cache = new WeakMap<RouteInfo, RoutePlans>();

/** Shortest window first (ties by name), so a refused burst does not spend a longer window's allowance. */
function policiesAt(route: RouteInfo, kind: AnnotationKind<RateLimitSettings>, scope: RateLimitScope): readonly RateLimitPolicy[] {
  return Object.freeze(
    route.annotations
      .filter((a) => a.kind === kind)
      .map((a) => a.value as RateLimitSettings)
      .filter((s) => s.scope === scope)
      .sort((a, b) => a.windowSeconds - b.windowSeconds || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      .map((s) =>
        Object.freeze({
          key: `${route.id}#${s.name}`,
          handler: route.id,
          name: s.name,
          permitLimit: s.permitLimit,
          windowSeconds: s.windowSeconds,
          scope: s.scope,
        }),
      ),
  );
}

/**
 * The counters of one handler at one scope (the values of `kind` on the route), with what a request needs to
 * know about the other scope. Computed once per route.
 */
export function planFor(route: RouteInfo, kind: AnnotationKind<RateLimitSettings>, scope: RateLimitScope): ScopePlan {
  let plans = cache.get(route);
  if (plans === undefined) {
    const transport = policiesAt(route, kind, RateLimitScope.Transport);
    const principal = policiesAt(route, kind, RateLimitScope.Principal);
    const shared = transport.length > 0 && principal.length > 0;
    plans = { transport: { policies: transport, shared }, principal: { policies: principal, shared } };
    cache.set(route, plans);
  }
  return scope === RateLimitScope.Transport ? plans.transport : plans.principal;
}
