/**
 * DynamoDBRateLimitStore against rate-limiter-flexible's RateLimiterDynamo on the same DynamoDB (dynalite, a
 * DynamoDB implementation, in a process of its own on this machine) in the same run. Each contender runs a
 * closed loop (a fixed number of acquires in flight) for a fixed time on its own table and its own client,
 * interleaved over rounds; each row gives the median round beside the best, and the median of the rounds' own
 * ratios. Beside throughput: DynamoDB requests per acquire and capacity units per acquire, read and write.
 *
 * Capacity units are DynamoDB's `ConsumedCapacity` (ReturnConsumedCapacity TOTAL, which dynalite computes from
 * item sizes by DynamoDB's rules). A write whose condition fails returns no ConsumedCapacity, but DynamoDB
 * charges it by the size of the item it found (at least one write unit): each is counted as one write unit,
 * and a Scan at the end checks that every item of both tables is under 1 KB, so that one is the right count.
 *
 * Run alone: npm run build && node scripts/build-bench.mjs && node .bench/dynamodb-store.bench.mjs
 */
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { CreateTableCommand, DynamoDB, DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { RateLimiterDynamo, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitPolicy } from '../packages/trellis/src/ratelimit/types.js';
import { startDynalite } from '../test/support/dynalite-server.js';
import { closedLoop, type Operation } from './redis-loop.js';
import { packageModule as from } from './package-module.js';
import { median, roundsFromEnvironment } from './rounds.js';

// The compiled package, as users run it (see package-module.ts).
const { DynamoDBRateLimitStore, dynamoDBRateLimitTable } = (await import(
  from('ratelimit/dynamodb/index.js')
)) as typeof import('../packages/trellis/src/public/ratelimit-dynamodb.js');

const DYNALITE_VERSION = (createRequire(import.meta.url)('dynalite/package.json') as { version: string }).version;

/** Requests and capacity units one client spent, by DynamoDB's rules. */
class CapacityTally {
  requests = 0;
  readUnits = 0;
  writeUnits = 0;
  failedConditions = 0;
  reset(): void {
    this.requests = this.readUnits = this.writeUnits = this.failedConditions = 0;
  }
}

/** Asks for ConsumedCapacity on every command the client sends, and adds it up. */
function tallied<T extends DynamoDBClient>(client: T, tally: CapacityTally): T {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      const read = context.commandName === 'GetItemCommand';
      tally.requests++;
      try {
        const result = await next(args);
        const units = (result.output as { ConsumedCapacity?: { CapacityUnits?: number } }).ConsumedCapacity?.CapacityUnits ?? 0;
        if (read) tally.readUnits += units;
        else tally.writeUnits += units;
        return result;
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') {
          tally.failedConditions++;
          tally.writeUnits += 1;
        }
        throw error;
      }
    },
    { step: 'initialize', name: 'capacityTally' },
  );
  return client;
}

interface Row {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly allowedShare: number;
  readonly requestsPerAcquire: number;
  readonly readUnitsPerAcquire: number;
  readonly writeUnitsPerAcquire: number;
  readonly failedOpen: number;
}

interface Scenario {
  readonly title: string;
  readonly ours: Row[];
  readonly theirs: Row[];
}

/** DynamoDB's size of an item: each attribute's name plus its value (numbers: 1 byte + 1 per 2 digits). */
function itemBytes(item: Record<string, AttributeValue>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) {
    size += Buffer.byteLength(name);
    if (value.S !== undefined) size += Buffer.byteLength(value.S);
    else if (value.B !== undefined) size += value.B.length;
    else if (value.N !== undefined) size += 1 + Math.ceil(value.N.replace(/^-|\.|^0+/g, '').length / 2);
  }
  return size;
}

export async function runDynamoDBStoreBench(options: { durationMs?: number; concurrency?: number; rounds?: number } = {}) {
  const settings = { durationMs: 1_500, concurrency: 64, rounds: roundsFromEnvironment(7), ...options };
  const server = await startDynalite();
  const config = { endpoint: server.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };
  const oursTally = new CapacityTally();
  const theirsTally = new CapacityTally();
  const oursClient = tallied(new DynamoDBClient(config), oursTally);
  // RateLimiterDynamo calls the aggregated client's methods (updateItem, getItem).
  const theirsClient = tallied(new DynamoDB(config), theirsTally);
  try {
    await oursClient.send(new CreateTableCommand(dynamoDBRateLimitTable('bench-trellis').createTable));
    await oursClient.send(
      new CreateTableCommand({
        TableName: 'bench-rlf',
        AttributeDefinitions: [{ AttributeName: 'key', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'key', KeyType: 'HASH' }],
        BillingMode: 'PAY_PER_REQUEST',
      }),
    );
    // Few enough partitions that every round meets counters that exist (a warm-up pass makes them first), as a
    // steady application does; a first acquire on a new counter is one request for either contender.
    const scenarios = [
      { shape: 'exact window, mostly allowed', permitLimit: 100, windowSeconds: 60, partitions: 100 },
      { shape: 'exact window, mostly refused', permitLimit: 10, windowSeconds: 60, partitions: 20 },
      { shape: 'segmented window', permitLimit: 10_000, windowSeconds: 3_600, partitions: 100 },
      {
        shape: 'two processes taking turns on every counter (every window stale)',
        permitLimit: 100_000,
        windowSeconds: 3_600,
        partitions: 100,
        stale: true,
      },
    ];
    const results: Scenario[] = [];
    for (const [index, scenario] of scenarios.entries()) {
      const policy: RateLimitPolicy = {
        key: 'GET /bench:limit',
        handler: 'GET /bench',
        name: 'limit',
        permitLimit: scenario.permitLimit,
        windowSeconds: scenario.windowSeconds,
        scope: 'transport',
      };
      const keyPrefix = `s${index}:`;
      const storeOptions = { client: oursClient, tableName: 'bench-trellis', keyPrefix, timeoutMs: 5_000 };
      const stores = scenario.stale
        ? [new DynamoDBRateLimitStore(storeOptions), new DynamoDBRateLimitStore(storeOptions)]
        : [new DynamoDBRateLimitStore(storeOptions)];
      const peer = new RateLimiterDynamo({
        storeClient: theirsClient,
        tableName: 'bench-rlf',
        tableCreated: true,
        ttlSet: true,
        keyPrefix: `s${index}`,
        points: scenario.permitLimit,
        duration: scenario.windowSeconds,
      });
      let failedOpen = 0;
      const ours: Operation = async (i) => {
        // Taking turns: acquire i goes to store i % 2, so each store finds the other one wrote the counter last.
        const decision = await stores[i % stores.length]!.acquire(`p${Math.floor(i / stores.length) % scenario.partitions}`, policy);
        if (decision.failedOpen !== undefined) failedOpen++;
        return decision.allowed;
      };
      const theirs: Operation = async (i) => {
        try {
          await peer.consume(`p${Math.floor(i / stores.length) % scenario.partitions}`);
          return true;
        } catch (error) {
          if (error instanceof RateLimiterRes) return false;
          throw error;
        }
      };
      const measured = async (name: string, op: Operation, tally: CapacityTally): Promise<Row> => {
        tally.reset();
        failedOpen = 0;
        const row = await closedLoop(op, settings.durationMs, settings.concurrency);
        const n = row.operations;
        return {
          name,
          opsPerSecond: row.opsPerSecond,
          p50Ms: row.p50Ms,
          p99Ms: row.p99Ms,
          allowedShare: row.allowedShare,
          requestsPerAcquire: tally.requests / n,
          readUnitsPerAcquire: tally.readUnits / n,
          writeUnitsPerAcquire: tally.writeUnits / n,
          failedOpen,
        };
      };
      // Warm-up, not measured: every counter is made, and each contender's code has run.
      const pass = async (op: Operation): Promise<void> => {
        for (let i = 0; i < 2 * scenario.partitions * stores.length; i += 16)
          await Promise.all(Array.from({ length: 16 }, (_, j) => op(i + j)));
      };
      await pass(ours);
      await pass(theirs);
      const result: Scenario = {
        title: `${scenario.shape}: ${scenario.permitLimit.toLocaleString('en-US')} per ${scenario.windowSeconds} s over ${scenario.partitions.toLocaleString('en-US')} partitions`,
        ours: [],
        theirs: [],
      };
      for (let round = 0; round < settings.rounds; round++) {
        // Alternate who goes first, so neither always meets the machine right after the other.
        const first = round % 2 === 0;
        if (first) result.ours.push(await measured('DynamoDBRateLimitStore (sliding window)', ours, oursTally));
        result.theirs.push(await measured('rate-limiter-flexible RateLimiterDynamo (fixed window)', theirs, theirsTally));
        if (!first) result.ours.push(await measured('DynamoDBRateLimitStore (sliding window)', ours, oursTally));
      }
      results.push(result);
    }
    let largest = 0;
    for (const table of ['bench-trellis', 'bench-rlf']) {
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await oursClient.send(new ScanCommand({ TableName: table, ExclusiveStartKey: start }));
        for (const item of page.Items ?? []) largest = Math.max(largest, itemBytes(item));
        start = page.LastEvaluatedKey;
      } while (start !== undefined);
    }
    return { node: process.version, settings, scenarios: results, largestItemBytes: largest };
  } finally {
    oursClient.destroy();
    theirsClient.destroy();
    await server.close();
  }
}

function byOps(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) => a.opsPerSecond - b.opsPerSecond);
}

/** Formats a result as Markdown: per scenario, each contender's median and best round, and the ratio. */
export function formatDynamoDBStoreBench(result: Awaited<ReturnType<typeof runDynamoDBStoreBench>>): string {
  const { settings } = result;
  const lines = [
    `dynalite ${DYNALITE_VERSION} in its own process, Node ${result.node}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' / ',
      )} (1 / 5 / 15 min); each contender on its own DynamoDBClient with ${settings.concurrency} acquires in flight, ${settings.durationMs} ms per contender per round, ${settings.rounds} interleaved rounds.`,
    `Largest item in either table: ${result.largestItemBytes} bytes (under 1 KB: every write, and every failed condition, is one write unit).`,
  ];
  const cell = (r: Row): string =>
    `${r.opsPerSecond.toLocaleString('en-US')} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${(r.allowedShare * 100).toFixed(1)} % | ${r.requestsPerAcquire.toFixed(2)} | ${r.readUnitsPerAcquire.toFixed(2)} | ${r.writeUnitsPerAcquire.toFixed(2)} | ${r.failedOpen}`;
  for (const scenario of result.scenarios) {
    lines.push(
      '',
      `**${scenario.title}**`,
      '',
      '| contender | round | acquires/s | p50 ms | p99 ms | allowed | requests/acquire | read units/acquire | write units/acquire | failed open |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const rows of [scenario.ours, scenario.theirs]) {
      const sorted = byOps(rows);
      const mid = sorted[sorted.length >> 1]!;
      const best = sorted[sorted.length - 1]!;
      lines.push(`| ${mid.name} | median | ${cell(mid)} |`, `| | best | ${cell(best)} |`);
    }
    const ratios = scenario.ours.map((r, i) => r.opsPerSecond / scenario.theirs[i]!.opsPerSecond);
    const ours = scenario.ours.map((r) => r.opsPerSecond);
    const theirs = scenario.theirs.map((r) => r.opsPerSecond);
    lines.push(
      '',
      `acquires/s, ours / theirs: median of the rounds' own ratios ${median(ratios).toFixed(2)}× (${ratios.map((r) => r.toFixed(2)).join(', ')}); medians ${(median(ours) / median(theirs)).toFixed(2)}×, bests ${(Math.max(...ours) / Math.max(...theirs)).toFixed(2)}×`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatDynamoDBStoreBench(await runDynamoDBStoreBench()));
}
