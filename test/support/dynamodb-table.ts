/** The rate-limit table, made in a local DynamoDB (dynalite) as the documentation defines it. */
import { CreateTableCommand, UpdateTimeToLiveCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoDBRateLimitTable } from '../../packages/trellis/src/ratelimit/dynamodb/index.js';

/**
 * Creates the rate-limit table as documented (`dynamoDBRateLimitTable`). Its Time to Live is set too where the
 * server knows the command (dynalite does not, and never expires items, which no test here relies on).
 */
export async function createRateLimitTable(client: DynamoDBClient, tableName: string): Promise<void> {
  const { createTable, timeToLive } = dynamoDBRateLimitTable(tableName);
  await client.send(new CreateTableCommand(createTable));
  try {
    await client.send(new UpdateTimeToLiveCommand(timeToLive));
  } catch (error) {
    if ((error as Error).name !== 'UnknownOperationException') throw error;
  }
}
