// The Lambda entry point (Handler: handler.handler). The app is built once per execution environment,
// during Lambda's init phase. With REDIS_URL set, rate limits are counted in Redis across all execution
// environments; without it, each environment counts on its own.
import { lambdaHandler } from '../../src/lambda/index.js';
import { RedisRateLimitStore } from '../../src/ratelimit/redis/index.js';
import { createOrdersApp } from './app.js';

const apiKeys = JSON.parse(process.env.API_KEYS ?? '{}');
const redisUrl = process.env.REDIS_URL;

export const handler = lambdaHandler(
  createOrdersApp({
    apiKeys,
    store: redisUrl ? new RedisRateLimitStore({ url: redisUrl, keyPrefix: 'orders:' }) : undefined,
  }),
);
