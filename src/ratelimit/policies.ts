import type { RouteInfo } from '../index.js';
import { RateLimitKind } from './annotation.js';
import type { RateLimitSettings } from './annotation.js';
import type { RateLimitPolicy, RateLimitScope } from './types.js';

const cache = new WeakMap<RouteInfo, Map<RateLimitScope, readonly RateLimitPolicy[]>>();

/**
 * The counters of one handler at one scope, shortest window first (ties by name), so a refused burst does
 * not spend a longer window's allowance. Computed once per route.
 */
export function policiesFor(route: RouteInfo, scope: RateLimitScope): readonly RateLimitPolicy[] {
  let byScope = cache.get(route);
  if (!byScope) {
    byScope = new Map();
    cache.set(route, byScope);
  }
  let list = byScope.get(scope);
  if (!list) {
    list = route.annotations
      .filter((a) => a.kind === RateLimitKind)
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
      );
    byScope.set(scope, list);
  }
  return list;
}
