/** The rate-limit table, made in a local DynamoDB (dynalite) as the documentation defines it. */
import { after, before } from 'node:test';
import { CreateTableCommand, UpdateTimeToLiveCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoDBRateLimitTable } from '../../packages/trellis/src/ratelimit/dynamodb/index.js';
import { dynamoClient, startDynalite, type DynaliteHandle } from './dynalite-server.js';

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

/**
 * For a describe block: dynalite started before its tests with the rate-limit table made, stopped after them.
 * Read `server` and `client` in the tests (they are set once the block's first hook has run).
 */
export function dynaliteWithTable(tableName: string): { readonly server: DynaliteHandle; readonly client: DynamoDBClient } {
  const db = {} as { server: DynaliteHandle; client: DynamoDBClient };
  before(async () => {
    db.server = await startDynalite();
    db.client = dynamoClient(db.server.endpoint);
    await createRateLimitTable(db.client, tableName);
  });
  after(async () => {
    db.client?.destroy();
    await db.server?.close();
  });
  return db;
}
