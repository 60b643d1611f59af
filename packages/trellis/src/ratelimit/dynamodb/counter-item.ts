/**
 * One counter is one item: `pk` (its key), `w` (its window, see window-codec.ts) and `ttl` (epoch seconds by
 * which every permit it holds has freed, the attribute the table's Time to Live names). This module knows
 * the item's names and builds the requests the store sends.
 */
import type {
  AttributeValue,
  CreateTableCommandInput,
  DeleteItemCommandInput,
  GetItemCommandInput,
  UpdateItemCommandInput,
  UpdateTimeToLiveCommandInput,
} from '@aws-sdk/client-dynamodb';
import { usageError } from '../../errors/index.js';

// Not an import, so a bundle that packs this module unused never loads crypto (CONTRIBUTING.md, "Cold starts").
const { createHash } = process.getBuiltinModule('node:crypto');

export const KEY_ATTRIBUTE = 'pk';
export const WINDOW_ATTRIBUTE = 'w';
export const TTL_ATTRIBUTE = 'ttl';

/**
 * The table the store needs: a string partition key `pk`, nothing else declared, on-demand billing, and Time
 * to Live on `ttl`. `createTable` and `timeToLive` are the inputs of `CreateTableCommand` and
 * `UpdateTimeToLiveCommand` (send the second once the table is active).
 *
 * @example
 * const { createTable, timeToLive } = dynamoDBRateLimitTable('rate-limits');
 * await client.send(new CreateTableCommand(createTable));
 * await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: 'rate-limits' });
 * await client.send(new UpdateTimeToLiveCommand(timeToLive));
 */
export function dynamoDBRateLimitTable(tableName: string): {
  createTable: CreateTableCommandInput;
  timeToLive: UpdateTimeToLiveCommandInput;
} {
  return {
    createTable: {
      TableName: tableName,
      AttributeDefinitions: [{ AttributeName: KEY_ATTRIBUTE, AttributeType: 'S' }],
      KeySchema: [{ AttributeName: KEY_ATTRIBUTE, KeyType: 'HASH' }],
      BillingMode: 'PAY_PER_REQUEST',
    },
    timeToLive: { TableName: tableName, TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true } },
  };
}

const SPECIAL = /[%|]/g;

function escapeName(name: string): string {
  return name.replace(SPECIAL, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Half of a surrogate pair on its own: not Unicode, so not a string DynamoDB takes. */
const LONE_SURROGATE = /\p{Cs}/u;
/** Keys up to this many UTF-16 units are kept readable; longer ones are hashed. */
const READABLE_KEY_LENGTH = 512;

/** Checks a key prefix: a string of at most 256 characters. */
export function checkDynamoDBKeyPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix.length > 256) {
    throw usageError(
      'TRELLIS_INVALID_STORE_OPTIONS',
      `keyPrefix must be a string of at most 256 characters (got ${JSON.stringify(prefix)}), e.g. "myapp:rl:"`,
    );
  }
  return prefix;
}

/**
 * The item key of a counter: `<prefix><policy key>|<partition>`, with `%` and `|` in the two names
 * percent-encoded, so no two counters share a key whatever their names hold. A key that would be long (a
 * partition taken from a header can be) or is not well-formed Unicode, which DynamoDB refuses, becomes
 * `<prefix>#<SHA-256 of both names>` instead: it has no `|`, so it never equals a readable key, and
 * DynamoDB's 2,048-byte key limit can never turn a caller's request into a store failure.
 */
export function counterKey(prefix: string, policyKey: string, partition: string): string {
  const key = `${prefix}${escapeName(policyKey)}|${escapeName(partition)}`;
  if (key.length <= READABLE_KEY_LENGTH && !LONE_SURROGATE.test(key)) return key;
  const hash = createHash('sha256').update(policyKey, 'utf16le').update('\u0000|').update(partition, 'utf16le').digest('base64url');
  return `${prefix}#${hash}`;
}

const NAMES = { '#w': WINDOW_ATTRIBUTE, '#t': TTL_ATTRIBUTE } as const;
const UPDATE = 'SET #w = :w, #t = :t';
/** Every permit of the item has freed: DynamoDB deletes expired items late, so an expired one may still be there. */
const EXPIRED = '#t < :now';
/** No counter, or an expired one. */
const ABSENT = `attribute_not_exists(#w) OR ${EXPIRED}`;
/** Still the window the decision was made on, or expired. An item deleted meanwhile (a reset) is neither. */
const UNCHANGED = `#w = :old OR ${EXPIRED}`;

/**
 * The write of a decided window. It lands only if the item still holds `old`, the bytes the decision was made
 * on (or, when the decision was made on no counter, holds none), or holds one whose every permit has freed.
 * On a failed condition DynamoDB answers with the item as it is.
 */
export function writeInput(
  tableName: string,
  key: string,
  window: Uint8Array,
  ttlSeconds: number,
  nowSeconds: number,
  old: Uint8Array | undefined,
): UpdateItemCommandInput {
  const values: Record<string, AttributeValue> = {
    ':w': { B: window },
    ':t': { N: String(ttlSeconds) },
    ':now': { N: String(nowSeconds) },
  };
  if (old !== undefined) values[':old'] = { B: old };
  return {
    TableName: tableName,
    Key: { [KEY_ATTRIBUTE]: { S: key } },
    UpdateExpression: UPDATE,
    ConditionExpression: old === undefined ? ABSENT : UNCHANGED,
    ExpressionAttributeNames: NAMES,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

const READ_NAMES = { '#w': WINDOW_ATTRIBUTE } as const;

/** A strongly consistent read of a counter's window. */
export function readInput(tableName: string, key: string): GetItemCommandInput {
  return {
    TableName: tableName,
    Key: { [KEY_ATTRIBUTE]: { S: key } },
    ConsistentRead: true,
    ProjectionExpression: '#w',
    ExpressionAttributeNames: READ_NAMES,
  };
}

/** The deletion of a counter (a reset). */
export function deleteInput(tableName: string, key: string): DeleteItemCommandInput {
  return { TableName: tableName, Key: { [KEY_ATTRIBUTE]: { S: key } } };
}

/** The window bytes of an item as DynamoDB returned it; undefined when there is no item or no binary window. */
export function windowBytesOf(item: Record<string, AttributeValue> | undefined): Uint8Array | undefined {
  const value = item?.[WINDOW_ATTRIBUTE];
  return value !== undefined && 'B' in value && value.B instanceof Uint8Array ? value.B : undefined;
}
