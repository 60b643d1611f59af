// What DynamoDBRateLimitStore does when DynamoDB goes away or stops answering, and that limiting resumes after.
// These tests stop and freeze a real dynalite process; they wait on its answers (or the store's timeout), never on a
// timer.
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBRateLimitStore, type DynamoDBRateLimitStoreOptions } from '../../packages/trellis/src/ratelimit/dynamodb/index.js';
import { RateLimitStoreUnavailableError } from '../../packages/trellis/src/ratelimit/index.js';
import type { RateLimitDecision } from '../../packages/trellis/src/ratelimit/types.js';
import { burstPolicy } from '../support/rate-limit-policy.js';
import type { DynaliteHandle } from '../support/dynalite-server.js';
import { createRateLimitTable, dynaliteWithTable } from '../support/dynamodb-table.js';

const TABLE = 'rate-limits';
const TIMEOUT_MS = 250;
// A decision must arrive within the timeout plus scheduling slack (generous: CI machines can be busy; a hang
// would take seconds or forever).
const BOUND_MS = TIMEOUT_MS + 750;
const policy = burstPolicy(2, 60, 'POST /orders:burst');

async function timed<T>(work: () => Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const start = performance.now();
  try {
    return { value: await work(), ms: performance.now() - start };
  } catch (error) {
    return { error, ms: performance.now() - start };
  }
}

/**
 * Waits until the store reaches DynamoDB again (a restarted server, or its first connection on a busy machine,
 * may take longer than one timeout): asks on a partition of its own until an answer is not a fail-open.
 */
async function reachable(store: DynamoDBRateLimitStore): Promise<void> {
  const end = Date.now() + 10_000;
  const partition = `warm-${randomUUID()}`;
  while (Date.now() < end) if ((await store.acquire(partition, policy)).failedOpen === undefined) return;
  assert.fail('DynamoDB did not answer within 10 s of coming back');
}

async function exhaust(store: DynamoDBRateLimitStore, partition: string): Promise<void> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < 3; i++) decisions.push(await store.acquire(partition, policy));
  assert.deepEqual(
    decisions.map((d) => [d.allowed, d.failedOpen]),
    [
      [true, undefined],
      [true, undefined],
      [false, undefined],
    ],
  );
}

describe('DynamoDBRateLimitStore when DynamoDB fails', () => {
  let server: DynaliteHandle;
  let client: DynamoDBClient;
  const db = dynaliteWithTable(TABLE);
  before(() => ({ server, client } = db));

  const stores = (): { open: DynamoDBRateLimitStore; closed: DynamoDBRateLimitStore } => {
    const base: DynamoDBRateLimitStoreOptions = { client, tableName: TABLE, keyPrefix: `f:${randomUUID()}:`, timeoutMs: TIMEOUT_MS };
    return { open: new DynamoDBRateLimitStore(base), closed: new DynamoDBRateLimitStore({ ...base, failureMode: 'failClosed' }) };
  };

  test('DynamoDB stopped: failOpen admits with the cause, failClosed answers 503, both within the timeout; limiting resumes when it is back', async () => {
    const { open, closed } = stores();
    await exhaust(open, 'open');
    await exhaust(closed, 'closed');
    await server.stop();
    try {
      for (let i = 0; i < 5; i++) {
        const o = await timed(() => open.acquire('open', policy));
        assert.equal(o.value?.allowed, true, 'failOpen allows while DynamoDB is down');
        assert.ok(o.value?.failedOpen?.error instanceof Error, 'and says it failed open, with the cause');
        assert.ok(o.ms < BOUND_MS, `failOpen answered in ${o.ms.toFixed(0)} ms`);
        const c = await timed(() => closed.acquire('closed', policy));
        assert.ok(c.error instanceof RateLimitStoreUnavailableError, `failClosed throws the typed error (got ${String(c.error)})`);
        assert.equal(c.error.status, 503);
        assert.ok(c.ms < BOUND_MS, `failClosed answered in ${c.ms.toFixed(0)} ms`);
      }
    } finally {
      await server.start();
    }
    // dynalite keeps its data in memory: it comes back empty, as a new table would.
    await createRateLimitTable(client, TABLE);
    await reachable(open);
    await exhaust(open, 'open');
    await exhaust(closed, 'closed');
  });

  test('a frozen DynamoDB (connections open, no answers) costs at most the timeout, queued acquires included; then limiting resumes', async () => {
    const { open, closed } = stores();
    await exhaust(closed, 'p');
    process.kill(server.pid, 'SIGSTOP');
    try {
      const [failing, admitted] = await Promise.all([
        Promise.all(Array.from({ length: 20 }, (_, i) => timed(() => closed.acquire(i % 2 === 0 ? 'p' : `q${i}`, policy)))),
        Promise.all(Array.from({ length: 20 }, () => timed(() => open.acquire('p', policy)))),
      ]);
      for (const r of failing) {
        assert.ok(r.error instanceof RateLimitStoreUnavailableError, String(r.error));
        assert.match(String((r.error.cause as Error).message), /DynamoDB answered nothing for \d+ ms/);
        assert.ok(r.ms < BOUND_MS, `answered in ${r.ms.toFixed(0)} ms`);
      }
      for (const r of admitted) {
        assert.equal(r.value?.allowed, true);
        assert.ok(r.value?.failedOpen !== undefined && r.ms < BOUND_MS, `failed open in ${r.ms.toFixed(0)} ms`);
      }
    } finally {
      process.kill(server.pid, 'SIGCONT');
    }
    // Each attempt waits on DynamoDB (its answer, or the store's timeout), so no timer paces them.
    let last: RateLimitDecision | undefined;
    for (let attempt = 0; attempt < 20 && last === undefined; attempt++) last = await closed.acquire('p', policy).catch(() => undefined);
    assert.equal(last?.allowed, false, 'the counter answers again, still full');
  });

  test('an acquire whose caller gives up is answered at once with an AbortError', async () => {
    const { closed } = stores();
    process.kill(server.pid, 'SIGSTOP');
    try {
      const controller = new AbortController();
      const pending = timed(() => closed.acquire('r', policy, { signal: controller.signal }));
      setImmediate(() => controller.abort());
      const r = await pending;
      assert.equal((r.error as Error).name, 'AbortError');
      assert.ok(r.ms < TIMEOUT_MS, `in ${r.ms.toFixed(0)} ms`);
    } finally {
      process.kill(server.pid, 'SIGCONT');
    }
  });
});
