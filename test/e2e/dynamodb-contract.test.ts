// The shared RateLimitStore contract (window edges, exact timelines, retryAfter, reset, key separation, free
// refusals, input checks, costs, changing plans) run against DynamoDBRateLimitStore on dynalite, a DynamoDB
// implementation started here on a free port, with time from the manual clock.
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBRateLimitStore } from '../../packages/trellis/src/ratelimit/dynamodb/index.js';
import { rateLimitStoreContract } from 'trellis/ratelimit/store-kit';
import { dynamoClient, startDynalite, type DynaliteHandle } from '../support/dynalite-server.js';
import { createRateLimitTable } from '../support/dynamodb-table.js';

const TABLE = 'rate-limits';
let ready: Promise<{ server: DynaliteHandle; client: DynamoDBClient }> | undefined;
const started = () =>
  (ready ??= (async () => {
    const server = await startDynalite();
    const client = dynamoClient(server.endpoint);
    await createRateLimitTable(client, TABLE);
    return { server, client };
  })());

rateLimitStoreContract(
  'DynamoDBRateLimitStore (dynalite)',
  async (clock) => {
    const { client } = await started();
    // A generous timeout: the contract is about decisions, and a busy machine may keep dynalite waiting.
    return new DynamoDBRateLimitStore({ client, tableName: TABLE, clock, keyPrefix: `c:${randomUUID()}:`, timeoutMs: 10_000 });
  },
  async () => {
    if (!ready) return;
    const { server, client } = await ready;
    client.destroy();
    await server.close();
  },
);
