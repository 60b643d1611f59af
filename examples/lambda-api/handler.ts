// The Lambda entry point (Handler: handler.handler). The app is built once per execution environment,
// during Lambda's init phase. With REDIS_URL set, rate limits are counted in Redis across all execution
// environments; without it, each environment counts on its own.
import { Redis } from 'ioredis';
import { lambdaHandler } from '../../src/lambda/index.js';
import { RedisRateLimitStore } from '../../src/ratelimit/redis/index.js';
import { createOrdersApp } from './app.js';

const apiKeys = JSON.parse(process.env.API_KEYS ?? '{}');
const redisUrl = process.env.REDIS_URL;

export const handler = lambdaHandler(
  createOrdersApp({
    apiKeys,
    // A client made here, not the store's `url` option: a bundler sees this import and packs ioredis.
    store: redisUrl ? new RedisRateLimitStore({ client: new Redis(redisUrl, { maxRetriesPerRequest: 1 }), keyPrefix: 'orders:' }) : undefined,
  }),
);
