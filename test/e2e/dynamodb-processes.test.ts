// Four separate Node processes share one limit of 20 on DynamoDB (dynalite, started here): 60 requests at
// once, 15 from each process, and exactly 20 are admitted in all, round after round.
// This file is also the worker: run with TRELLIS_DYNAMODB_WORKER set, it acquires on each "go" and prints its count.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DynamoDBRateLimitStore } from '../../packages/trellis/src/ratelimit/dynamodb/index.js';
import type { RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';
import { dynamoClient, startDynalite } from '../support/dynalite-server.js';
import { createRateLimitTable } from '../support/dynamodb-table.js';
import { SOURCE_NODE_ARGS } from '../support/source-node.js';

const PROCESSES = 4;
const REQUESTS_PER_PROCESS = 15;
const ROUNDS = 3;
const TABLE = 'rate-limits';
const policyOf = (round: number): RateLimitPolicy => ({
  key: `GET /reports:minute:${round}`,
  handler: 'GET /reports',
  name: 'minute',
  permitLimit: 20,
  windowSeconds: 60,
  scope: 'transport',
});

interface WorkerSetup {
  readonly endpoint: string;
  readonly keyPrefix: string;
}

/** Worker: build the store, say "ready", and on each "go <round>" acquire all at once and print how many were admitted. */
async function worker(setup: WorkerSetup): Promise<void> {
  const client = dynamoClient(setup.endpoint);
  // failClosed: a request DynamoDB could not count is never admitted here, so a count of 20 is the store's own.
  const store = new DynamoDBRateLimitStore({
    client,
    tableName: TABLE,
    keyPrefix: setup.keyPrefix,
    timeoutMs: 10_000,
    failureMode: 'failClosed',
  });
  await store.acquire('warm-up', { ...policyOf(0), key: `warm-up:${process.pid}` });
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (!line.startsWith('go ')) break;
    const policy = policyOf(Number(line.slice(3)));
    const decisions = await Promise.all(Array.from({ length: REQUESTS_PER_PROCESS }, () => store.acquire('anonymous', policy)));
    process.stdout.write(`${JSON.stringify({ allowed: decisions.filter((d) => d.allowed).length })}\n`);
  }
  lines.close();
  client.destroy();
}

if (process.env.TRELLIS_DYNAMODB_WORKER) {
  await worker(JSON.parse(process.env.TRELLIS_DYNAMODB_WORKER) as WorkerSetup);
} else {
  describe('four processes, one counter on DynamoDB', () => {
    test(
      `${PROCESSES} processes × ${REQUESTS_PER_PROCESS} concurrent requests on a limit of 20 admit exactly 20, every round`,
      { timeout: 120_000 },
      async (t) => {
        const server = await startDynalite();
        const children: ReturnType<typeof spawn>[] = [];
        try {
          const client = dynamoClient(server.endpoint);
          await createRateLimitTable(client, TABLE);
          client.destroy();
          const setup: WorkerSetup = { endpoint: server.endpoint, keyPrefix: `m:${randomUUID()}:` };
          const self = fileURLToPath(import.meta.url);
          for (let i = 0; i < PROCESSES; i++) {
            children.push(
              spawn(process.execPath, [...SOURCE_NODE_ARGS, '--no-warnings', self], {
                env: { ...process.env, TRELLIS_DYNAMODB_WORKER: JSON.stringify(setup) },
                stdio: ['pipe', 'pipe', 'inherit'],
              }),
            );
          }
          const outputs = children.map((child) => createInterface({ input: child.stdout! })[Symbol.asyncIterator]());
          const next = async (i: number): Promise<string> => {
            const { value, done } = await outputs[i]!.next();
            if (done) throw new Error(`worker ${i} ended early`);
            return value;
          };
          await Promise.all(children.map(async (_, i) => assert.equal(await next(i), 'ready')));
          for (let round = 1; round <= ROUNDS; round++) {
            for (const child of children) child.stdin!.write(`go ${round}\n`);
            const counts = await Promise.all(children.map(async (_, i) => (JSON.parse(await next(i)) as { allowed: number }).allowed));
            const total = counts.reduce((a, b) => a + b, 0);
            t.diagnostic(`round ${round}: ${total} of ${PROCESSES * REQUESTS_PER_PROCESS} admitted (per process: ${counts.join(', ')})`);
            assert.equal(total, 20);
          }
          for (const child of children) child.stdin!.end();
          await Promise.all(
            children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))),
          );
        } finally {
          for (const child of children) if (child.exitCode === null) child.kill();
          await server.close();
        }
      },
    );
  });
}
