import type { AnnotationDecorator, FeatureKind } from '../index.js';
import { annotation } from '../index.js';
import { RateLimitScope } from './types.js';
import type { RateLimitSettings } from './types.js';
import { rateLimitFeature } from './feature.js';

const describe = (s: RateLimitSettings) => `@RateLimit({ name: "${s.name}", permitLimit: ${s.permitLimit}, windowSeconds: ${s.windowSeconds}, scope: "${s.scope}" })`;
const same = (a: RateLimitSettings, b: RateLimitSettings) =>
  a.permitLimit === b.permitLimit && a.windowSeconds === b.windowSeconds && a.scope === b.scope;

function oneLevel(values: RateLimitSettings[], handler: string, level: string): Map<string, RateLimitSettings> {
  const byName = new Map<string, RateLimitSettings>();
  for (const v of values) {
    const seen = byName.get(v.name);
    if (seen && !same(seen, v)) {
      throw new TypeError(
        `${handler}: two ${level}-level rate limits share the name "${v.name}" but differ: ${describe(seen)} and ${describe(v)}. ` +
          'One name is one counter with one limit, window and scope: give them different names or the same settings.',
      );
    }
    byName.set(v.name, v);
  }
  return byName;
}

export const RateLimitKind: FeatureKind<RateLimitSettings> = {
  name: 'RateLimit',
  // Same name = one counter: a method-level annotation replaces a class-level one of that name.
  combine(classLevel, methodLevel, handler) {
    const merged = oneLevel(classLevel, handler, 'class');
    for (const [name, v] of oneLevel(methodLevel, handler, 'method')) merged.set(name, v);
    return [...merged.values()];
  },
  sortKey: (v) => `${String(v.windowSeconds).padStart(12, '0')}/${v.name}`,
  // The feature's filters find this kind's values on a route: it is handed to them, read when an app is built.
  feature: rateLimitFeature(() => RateLimitKind),
};

/**
 * Limits how often a handler may be called: at most `permitLimit` requests in any interval of
 * `windowSeconds`, per partition (caller) and per `name`. Apply it several times with different names for
 * several limits (a burst limit beside an hourly one). Defaults: 100 per 60 s, name "default", transport scope.
 *
 * @example
 * class Reports {
 *   @RateLimit({ name: 'burst', permitLimit: 5, windowSeconds: 1 })
 *   @RateLimit({ name: 'hourly', permitLimit: 1000, windowSeconds: 3600, scope: RateLimitScope.Principal })
 *   @Get('/reports') list() { ... }
 * }
 * // functional form: route('GET', '/reports', [RateLimit({ permitLimit: 5, windowSeconds: 1 })], list)
 */
export function RateLimit(options: Partial<RateLimitSettings> = {}): AnnotationDecorator<RateLimitSettings> {
  const { permitLimit = 100, windowSeconds = 60, name = 'default', scope = RateLimitScope.Transport } = options ?? {};
  if (!Number.isSafeInteger(permitLimit) || permitLimit < 1) {
    throw new TypeError(`@RateLimit: permitLimit must be a positive whole number, got ${String(permitLimit)}.`);
  }
  if (!Number.isFinite(windowSeconds) || windowSeconds <= 0) {
    throw new TypeError(`@RateLimit: windowSeconds must be a positive number of seconds, got ${String(windowSeconds)}.`);
  }
  if (typeof name !== 'string' || name === '' || name.length > 200) {
    throw new TypeError(`@RateLimit: name must be a non-empty string (at most 200 characters), got ${JSON.stringify(name)}.`);
  }
  if (scope !== RateLimitScope.Transport && scope !== RateLimitScope.Principal) {
    throw new TypeError(`@RateLimit: scope must be RateLimitScope.Transport or RateLimitScope.Principal, got ${JSON.stringify(scope)}.`);
  }
  return annotation(RateLimitKind, Object.freeze({ permitLimit, windowSeconds, name, scope }));
}
