/** `trellis/ratelimit/redis`: the rate-limit store on Redis (with the optional peer dependency ioredis, or a node-redis v5 client). */
export { RedisRateLimitStore } from '../ratelimit/redis/index.js';
