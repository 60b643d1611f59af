import type { RouteInfo, ServiceResolver } from '../index.js';
import { RateLimitConfiguration, RateLimitKind, SkipRateLimitKind, rateLimitPolicies } from '../ratelimit/index.js';
import type { RateLimitHeaderFormat, RateLimitSettings } from '../ratelimit/index.js';

/** One limit a route's requests count against, as the document shows it. */
export interface DocumentedLimit {
  readonly name: string;
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly scope: string;
  /** A counter shared by every route that spends this budget. */
  readonly budget?: string;
  /** Permits one request spends: a number, or `computed` per request. */
  readonly cost: number | 'computed';
  /** How long a caller that overruns the limit is refused. */
  readonly blockSeconds?: number;
}

/**
 * The limits of a route (its `RateLimit` annotations less those `SkipRateLimit` names), transport scope first.
 * Annotations are matched by kind name, so an app made with another copy of the package reads the same.
 */
export function routeLimits(route: RouteInfo): DocumentedLimit[] {
  const annotations = route.annotations.map((a) =>
    a.kind.name === RateLimitKind.name
      ? { kind: RateLimitKind, value: a.value }
      : a.kind.name === SkipRateLimitKind.name
        ? { kind: SkipRateLimitKind, value: a.value }
        : a,
  );
  const settings = new Map(
    annotations.filter((a) => a.kind === RateLimitKind).map((a) => [(a.value as RateLimitSettings).name, a.value as RateLimitSettings]),
  );
  return rateLimitPolicies({ ...route, annotations }).map((policy) => {
    const s = settings.get(policy.name);
    return {
      name: policy.name,
      permitLimit: policy.permitLimit,
      windowSeconds: policy.windowSeconds,
      scope: policy.scope,
      ...(s?.budget === undefined ? {} : { budget: s.budget }),
      cost: typeof s?.cost === 'number' ? s.cost : s?.cost === undefined ? 1 : 'computed',
      ...(s?.blockSeconds === undefined ? {} : { blockSeconds: s.blockSeconds }),
    };
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One sentence per limit: `"burst": 5 requests per 1 second, per client (transport scope).` */
export function describeLimit(limit: DocumentedLimit): string {
  const who =
    limit.scope === 'principal'
      ? 'per caller (principal scope, after authentication)'
      : 'per client (transport scope, before authentication)';
  const cost =
    limit.cost === 1
      ? ''
      : limit.cost === 'computed'
        ? '; each request spends a number of permits computed from it'
        : `; each request spends ${limit.cost} permits`;
  const budget = limit.budget === undefined ? '' : `; a budget ("${limit.budget}") shared with other routes`;
  const block = limit.blockSeconds === undefined ? '' : `; a caller who overruns it is refused for ${plural(limit.blockSeconds, 'second')}`;
  return `"${limit.name}": ${plural(limit.permitLimit, limit.cost === 1 ? 'request' : 'permit')} per ${plural(limit.windowSeconds, 'second')}, ${who}${cost}${budget}${block}.`;
}

const integer = { type: 'integer', minimum: 0 };

/** The rate-limit header fields of each format, as `components.headers` holds them. */
const FIELDS: Record<RateLimitHeaderFormat, Record<string, { description: string; schema: object }>> = {
  standard: {
    'RateLimit-Limit': { description: 'The permits per window of the limit nearest to refusing.', schema: integer },
    'RateLimit-Remaining': { description: 'The permits left in the current window of that limit.', schema: integer },
    'RateLimit-Reset': { description: 'Seconds until that limit frees permits again.', schema: integer },
  },
  structured: {
    RateLimit: {
      description: 'The limit nearest to refusing, as a structured field: its name, `r` (remaining) and `t` (seconds to reset).',
      schema: { type: 'string' },
    },
    'RateLimit-Policy': {
      description: 'Every limit that counted the request, as a structured field: name, `q` (quota) and `w` (window in seconds).',
      schema: { type: 'string' },
    },
  },
  legacy: {
    'X-RateLimit-Limit': { description: 'The permits per window of the limit nearest to refusing.', schema: integer },
    'X-RateLimit-Remaining': { description: 'The permits left in the current window of that limit.', schema: integer },
    'X-RateLimit-Reset': { description: 'Seconds until that limit frees permits again.', schema: integer },
  },
};

export const RETRY_AFTER = { 'Retry-After': { description: 'Seconds until a request may succeed again.', schema: integer } };

/** The header fields the app's rate-limit configuration writes (`RateLimit-Limit`, `-Remaining`, `-Reset` by default). */
export function rateLimitHeaderFields(services: ServiceResolver | undefined): Record<string, { description: string; schema: object }> {
  let formats: readonly RateLimitHeaderFormat[] = ['standard'];
  try {
    const configured = services?.tryGet(RateLimitConfiguration)?.headers;
    if (Array.isArray(configured)) formats = configured as readonly RateLimitHeaderFormat[];
  } catch {
    // A configuration that cannot be made here (scoped, or failing) leaves the default.
  }
  return Object.assign(
    {},
    ...(['standard', 'structured', 'legacy'] as const).filter((f) => formats.includes(f)).map((f) => FIELDS[f]),
  ) as Record<string, { description: string; schema: object }>;
}
