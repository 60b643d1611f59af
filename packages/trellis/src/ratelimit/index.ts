/**
 * Rate limiting: `@RateLimit` on handlers, sliding-window counters per handler, partition and name, at
 * two pipeline stages; per-request cost; replaceable store, partitioner and policy resolver; an observer
 * and OpenTelemetry metrics. This is the room's surface for sibling rooms (the stores, the Lambda doors,
 * OpenAPI); what users import is picked from it by src/public/ratelimit.ts, ratelimit-store-kit.ts and
 * testing.ts.
 */
export { RateLimit, RateLimitKind, SkipRateLimit, SkipRateLimitKind, rateLimitPolicies } from './annotation.js';
export { RateLimitConfiguration } from './configuration.js';
export type {
  RateLimitConfigurationOptions,
  RateLimitRefusal,
  RateLimitRefusalEvent,
  RateLimitRefusalHook,
  RateLimitSkip,
} from './configuration.js';
export type { RateLimitHeaderFormat } from './headers.js';
export { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
export { RateLimitScope, RateLimitStore } from './types.js';
export type {
  AcquireOptions,
  RateLimitClock,
  RateLimitCostFunction,
  RateLimitDecision,
  RateLimitPolicy,
  RateLimitSettings,
} from './types.js';
export { RateLimitPolicyResolver } from './policy-resolver.js';
export type { RateLimitPolicyNumbers } from './policy-resolver.js';
export { RateLimitObserver, combineRateLimitObservers } from './observer.js';
export type { RateLimitDecisionEvent, RateLimitStoreErrorEvent } from './observer.js';
export { rateLimitMetrics } from './metrics.js';
export type { RateLimitMeter, RateLimitMetricsOptions } from './metrics.js';
export { InProcessRateLimitStore } from './in-process-store.js';
export { FallbackRateLimitStore } from './fallback-store.js';
export type { FallbackRateLimitStoreOptions } from './fallback-store.js';
export { readRateLimitCounter } from './counter-state.js';
export type { RateLimitCounterState } from './counter-state.js';
export type { InProcessRateLimitStoreOptions } from './in-process-store.js';
export { ManualClock } from './manual-clock.js';
export { RateLimitFailureMode, acquireAbortedError, checkCost, checkPartition, checkPolicy, failOpenDecision } from './store-kit.js';
export { PendingAcquire, PolicyPlans, monotonicClock, whileUncounted } from './store-kit.js';
export { EXACT_PERMIT_LIMIT, SlidingWindowCounter, WINDOW_SEGMENTS } from './sliding-window.js';
export { windowShape, type WindowShape } from './window-shape.js';
export { RateLimitStoreUnavailableError, storeUnavailableError } from './store-unavailable-error.js';
export { rateLimitStoreContract } from './store-contract.js';
