/**
 * The Redis store's room, as the other rooms and the tests see it; `trellis/ratelimit/redis` publishes
 * RedisRateLimitStore from it (src/public/ratelimit-redis.ts).
 */
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
export type { RedisOverflow } from './flight-control.js';
export type { IoredisScriptClient, NodeRedisEvalOptions, NodeRedisScriptClient, RedisScriptClient } from './redis-client.js';
