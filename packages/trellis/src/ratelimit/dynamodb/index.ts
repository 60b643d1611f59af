/**
 * The DynamoDB store's room, as the other rooms and the tests see it; `trellis/ratelimit/dynamodb` publishes the
 * store and its table's definition from it (src/public/ratelimit-dynamodb.ts).
 */
export { DynamoDBRateLimitStore } from './dynamodb-rate-limit-store.js';
export type { DynamoDBRateLimitStoreOptions } from './store-options.js';
export { dynamoDBRateLimitTable } from './counter-item.js';
