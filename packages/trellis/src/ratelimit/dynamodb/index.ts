/** `trellis/ratelimit/dynamodb`: the rate-limit store on Amazon DynamoDB (needs the optional peer dependency @aws-sdk/client-dynamodb). */
export { DynamoDBRateLimitStore } from './dynamodb-rate-limit-store.js';
export { DynamoDBFailureMode } from './store-options.js';
export type { DynamoDBRateLimitStoreOptions } from './store-options.js';
export { dynamoDBRateLimitTable } from './counter-item.js';
export { RateLimitStoreUnavailableError } from '../index.js';
