/**
 * The options of the DynamoDB store, and their checks: every option is validated when the store is made, with
 * an error that names it and what it takes.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EXACT_PERMIT_LIMIT, RateLimitFailureMode, WINDOW_SEGMENTS, type RateLimitClock } from '../index.js';
import { checkDynamoDBKeyPrefix } from './counter-item.js';
import { usageError } from '../../errors/index.js';

export const invalid = (message: string) => usageError('TRELLIS_INVALID_STORE_OPTIONS', message);
const outOfRange = (message: string) => usageError('TRELLIS_INVALID_STORE_OPTIONS', message, RangeError);

/**
 * Settings of `DynamoDBRateLimitStore`; `client` and `tableName` are required.
 *
 * @example
 * const options: DynamoDBRateLimitStoreOptions = { client: new DynamoDBClient({}), tableName: 'rate-limits', timeoutMs: 300 };
 */
export interface DynamoDBRateLimitStoreOptions {
  /** A `DynamoDBClient` (AWS SDK for JavaScript v3) the store sends its commands through; it never destroys it. */
  readonly client: DynamoDBClient;
  /** The table: string partition key `pk`, Time to Live on `ttl` (see `dynamoDBRateLimitTable`). */
  readonly tableName: string;
  /** Prefix of every item key; default `trellis:rl:`. */
  readonly keyPrefix?: string;
  /**
   * How long an acquire may wait for DynamoDB, in milliseconds, before the failure mode answers it; default
   * 200. It covers the SDK's own retries and a wait behind an earlier call for the same counter.
   */
  readonly timeoutMs?: number;
  /** Default `failOpen`. */
  readonly failureMode?: RateLimitFailureMode;
  /**
   * How often one batch of acquires decides and writes again after another process changed the counter first
   * (a failed condition); default 8. Past that the batch follows the failure mode.
   */
  readonly conflictRetries?: number;
  /** Limits up to this many permits are exact (one record per admission instant); default 128, as in-process. */
  readonly exactLimit?: number;
  /** Larger limits count in this many segments per window (a permit may return one segment late); default 128. */
  readonly segments?: number;
  /**
   * Counters whose last-seen window this process keeps (a counter it has forgotten costs one extra request
   * when it is used again while live); default 10,000.
   */
  readonly maxCachedCounters?: number;
  /**
   * Where time comes from: **epoch** milliseconds, shared by every process (the windows and the items' Time to
   * Live are written in it). Default `Date.now()`. Inject a `ManualClock` in tests.
   */
  readonly clock?: RateLimitClock;
}

export const STORE = 'DynamoDBRateLimitStore';
/** Most records the layout options may ask for: a window of ~4,096 records stays a few tens of KB. */
const MAX_RECORDS_OPTION = 4_096;
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;
const wallClock: RateLimitClock = { now: () => Date.now() };

function positiveInteger(name: string, value: unknown, fallback: number, max = Number.MAX_SAFE_INTEGER, min = 1): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw outOfRange(`${STORE}: ${name} must be an integer from ${min} to ${max} (got ${String(value)})`);
  }
  return value;
}

/** The options, checked, with their defaults filled in. */
export type StoreSettings = Readonly<ReturnType<typeof storeSettings>>;

/** Checks the options; throws a TypeError or RangeError naming the first one that is wrong. */
export function storeSettings(options: DynamoDBRateLimitStoreOptions) {
  if (options === null || typeof options !== 'object') {
    throw invalid(`${STORE} needs options with a \`client\` (a DynamoDBClient) and a \`tableName\``);
  }
  if (typeof (options.client as { send?: unknown } | undefined)?.send !== 'function') {
    throw invalid(`${STORE} needs \`client\`: a DynamoDBClient from @aws-sdk/client-dynamodb (got ${typeof options.client})`);
  }
  if (typeof options.tableName !== 'string' || !TABLE_NAME.test(options.tableName)) {
    throw invalid(`${STORE} needs \`tableName\`: 3 to 255 letters, digits, "_", "-" or "." (got ${JSON.stringify(options.tableName)})`);
  }
  const failureMode = options.failureMode ?? RateLimitFailureMode.FailOpen;
  if (failureMode !== RateLimitFailureMode.FailOpen && failureMode !== RateLimitFailureMode.FailClosed) {
    throw outOfRange(`${STORE}: failureMode must be "failOpen" or "failClosed" (got ${JSON.stringify(failureMode)})`);
  }
  if (options.clock !== undefined && typeof options.clock?.now !== 'function') {
    throw invalid(`${STORE}: clock must have a now() method returning epoch milliseconds`);
  }
  return {
    client: options.client,
    tableName: options.tableName,
    prefix: checkDynamoDBKeyPrefix(options.keyPrefix ?? 'trellis:rl:'),
    timeoutMs: positiveInteger('timeoutMs', options.timeoutMs, 200),
    failureMode,
    conflictRetries: positiveInteger('conflictRetries', options.conflictRetries, 8, 100, 0),
    exactLimit: positiveInteger('exactLimit', options.exactLimit, EXACT_PERMIT_LIMIT, MAX_RECORDS_OPTION),
    segments: positiveInteger('segments', options.segments, WINDOW_SEGMENTS, MAX_RECORDS_OPTION),
    maxCounters: positiveInteger('maxCachedCounters', options.maxCachedCounters, 10_000),
    clock: options.clock ?? wallClock,
  };
}
