/** `trellis/ratelimit/dynamodb`: the rate-limit store on Amazon DynamoDB (with the optional peer dependency @aws-sdk/client-dynamodb). */
export { DynamoDBRateLimitStore, dynamoDBRateLimitTable } from '../ratelimit/dynamodb/index.js';
