/**
 * `trellis/ratelimit`: `@RateLimit` on handlers, the services that decide (partitioner, policy resolver, store),
 * the in-process store, observers and metrics. What a store's author needs is in `trellis/ratelimit/store-kit`.
 */
export { RateLimit, SkipRateLimit, rateLimitPolicies } from '../ratelimit/index.js';
export type { RateLimitSettings } from '../ratelimit/index.js';
export { RateLimitConfiguration, RateLimitScope } from '../ratelimit/index.js';
export { DefaultRateLimitPartitioner, RateLimitPartitioner, RateLimitPolicyResolver } from '../ratelimit/index.js';
export { FallbackRateLimitStore, InProcessRateLimitStore, RateLimitStore, readRateLimitCounter } from '../ratelimit/index.js';
export type { RateLimitCounterState, RateLimitDecision, RateLimitPolicy } from '../ratelimit/index.js';
export { RateLimitObserver, combineRateLimitObservers, rateLimitMetrics } from '../ratelimit/index.js';
export type { RateLimitDecisionEvent, RateLimitMeter, RateLimitStoreErrorEvent } from '../ratelimit/index.js';
