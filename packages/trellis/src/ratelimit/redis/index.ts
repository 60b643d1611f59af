/** `trellis/ratelimit/redis`: the distributed rate-limit store (needs the optional peer dependency ioredis, or a node-redis v5 client). */
export { RedisRateLimitStore, RedisFailureMode } from './redis-rate-limit-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
export type { RedisOverflow } from './flight-control.js';
export { RateLimitStoreUnavailableError } from '../index.js';
export type { IoredisScriptClient, NodeRedisEvalOptions, NodeRedisScriptClient, RedisScriptClient } from './redis-client.js';
