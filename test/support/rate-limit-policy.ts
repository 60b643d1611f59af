import type { RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';

/** A transport-scope policy named "burst" on `GET /items`, keyed `key`, with the given limit and window. */
export function burstPolicy(permitLimit: number, windowSeconds: number, key = 'GET /items:burst'): RateLimitPolicy {
  return { key, handler: 'GET /items', name: 'burst', permitLimit, windowSeconds, scope: 'transport' };
}
