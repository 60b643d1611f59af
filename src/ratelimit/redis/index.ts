/** `trellis/ratelimit/redis`: the distributed rate-limit store (needs the optional peer dependency ioredis). */
export { RedisRateLimitStore, RedisFailureMode } from './redis-rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
export { RateLimitStoreUnavailableError } from '../index.js';
export type { RateLimitStoreLogger } from './failure-warning.js';
export type { RedisScriptClient } from './redis-client.js';
