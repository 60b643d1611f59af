/**
 * Rate limiting: `@RateLimit` on handlers, sliding-window counters per handler, partition and name, at
 * two pipeline stages; replaceable store and partitioner.
 */
export { RateLimit, RateLimitKind } from './annotation.js';
export type { RateLimitSettings } from './annotation.js';
export { RateLimitConfiguration } from './configuration.js';
export { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
export { RateLimitScope, RateLimitStore } from './types.js';
export type { RateLimitClock, RateLimitDecision, RateLimitPolicy } from './types.js';
export { InProcessRateLimitStore } from './in-process-store.js';
export type { InProcessRateLimitStoreOptions } from './in-process-store.js';
export { monotonicClock } from './clock.js';
export { ManualClock } from './manual-clock.js';
export { principalRateLimitFilter, transportRateLimitFilter } from './filters.js';
export { rateLimitFeature } from './feature.js';
