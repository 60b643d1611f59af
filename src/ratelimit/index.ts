/**
 * Rate limiting: `@RateLimit` on handlers, sliding-window counters per handler, partition and name, at
 * two pipeline stages; replaceable store and partitioner.
 */
export { RateLimit, RateLimitKind, SkipRateLimit, SkipRateLimitKind } from './annotation.js';
export { RateLimitConfiguration } from './configuration.js';
export type { RateLimitSkip } from './configuration.js';
export { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
export { RateLimitScope, RateLimitStore } from './types.js';
export type { AcquireOptions, RateLimitClock, RateLimitDecision, RateLimitPolicy, RateLimitSettings } from './types.js';
export { InProcessRateLimitStore } from './in-process-store.js';
export type { InProcessRateLimitStoreOptions } from './in-process-store.js';
export { monotonicClock } from './clock.js';
export { ManualClock } from './manual-clock.js';
export { acquireAbortedError, checkCost, checkPartition, checkPolicy, failOpenDecision } from './store-checks.js';
export { EXACT_PERMIT_LIMIT, WINDOW_SEGMENTS } from './sliding-window.js';
export { RateLimitStoreUnavailableError } from './store-unavailable-error.js';
