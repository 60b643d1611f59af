// Four separate Node processes share one counter: on Redis they allow permitLimit in total, while the
// in-process store in the same setup allows permitLimit in each process (four times as many).
// This file is also the worker: run with TRELLIS_RATE_LIMIT_WORKER set, it acquires and prints its count.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { InProcessRateLimitStore } from '../../packages/trellis/src/ratelimit/in-process-store.js';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import type { RateLimitPolicy, RateLimitStore } from '../../packages/trellis/src/ratelimit/types.js';
import { redisSkipReason, startRedisServer } from '../support/redis-server.js';
import { SOURCE_NODE_ARGS } from '../support/source-node.js';

const PROCESSES = 4;
const REQUESTS_PER_PROCESS = 100;
const policy: RateLimitPolicy = {
  key: 'GET /reports:minute',
  handler: 'GET /reports',
  name: 'minute',
  permitLimit: 25,
  windowSeconds: 60,
  scope: 'transport',
};

interface WorkerSetup {
  readonly store: 'redis' | 'in-process';
  readonly url: string;
  readonly keyPrefix: string;
}

/** Worker: build the store, say "ready", wait for "go" so all processes start together, then acquire. */
async function worker(setup: WorkerSetup): Promise<void> {
  const redis =
    setup.store === 'redis'
      ? new RedisRateLimitStore({ url: setup.url, keyPrefix: setup.keyPrefix, timeoutMs: 5_000, failureMode: 'failClosed' })
      : undefined;
  const store: RateLimitStore = redis ?? new InProcessRateLimitStore();
  if (redis) await redis.acquire('warm-up', { ...policy, key: 'warm-up' });
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line === 'go') break;
  const decisions = await Promise.all(Array.from({ length: REQUESTS_PER_PROCESS }, async () => store.acquire('anonymous', policy)));
  process.stdout.write(`${JSON.stringify({ allowed: decisions.filter((d) => d.allowed).length })}\n`);
  lines.close();
  await redis?.close();
}

/** Starts the workers, releases them together, and returns how many requests each allowed. */
async function runWorkers(setup: WorkerSetup): Promise<number[]> {
  const self = fileURLToPath(import.meta.url);
  const children = Array.from({ length: PROCESSES }, () =>
    spawn(process.execPath, [...SOURCE_NODE_ARGS, self], {
      env: { ...process.env, TRELLIS_RATE_LIMIT_WORKER: JSON.stringify(setup) },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  const outputs = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]());
  const next = async (i: number): Promise<string> => {
    const { value, done } = await outputs[i]!.next();
    if (done) throw new Error(`worker ${i} ended early`);
    return value;
  };
  await Promise.all(children.map(async (_, i) => assert.equal(await next(i), 'ready')));
  for (const child of children) child.stdin.write('go\n');
  const counts = await Promise.all(children.map(async (_, i) => (JSON.parse(await next(i)) as { allowed: number }).allowed));
  await Promise.all(
    children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))),
  );
  return counts;
}

if (process.env.TRELLIS_RATE_LIMIT_WORKER) {
  await worker(JSON.parse(process.env.TRELLIS_RATE_LIMIT_WORKER) as WorkerSetup);
} else {
  const skip = redisSkipReason();
  describe('four processes, one counter', { skip }, () => {
    test(`Redis allows permitLimit in total; the in-process store allows it per process`, { timeout: 60_000 }, async (t) => {
      const server = await startRedisServer();
      try {
        const keyPrefix = `m:${randomUUID()}:`;
        const onRedis = await runWorkers({ store: 'redis', url: server.url, keyPrefix });
        const inProcess = await runWorkers({ store: 'in-process', url: server.url, keyPrefix });
        const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
        t.diagnostic(`permitLimit ${policy.permitLimit}, ${PROCESSES} processes x ${REQUESTS_PER_PROCESS} concurrent requests`);
        t.diagnostic(`RedisRateLimitStore allowed ${sum(onRedis)} (per process: ${onRedis.join(', ')})`);
        t.diagnostic(`InProcessRateLimitStore allowed ${sum(inProcess)} (per process: ${inProcess.join(', ')})`);
        assert.equal(sum(onRedis), policy.permitLimit);
        assert.deepEqual(
          inProcess,
          Array.from({ length: PROCESSES }, () => policy.permitLimit),
        );
        assert.equal(sum(inProcess), PROCESSES * policy.permitLimit);
      } finally {
        await server.close();
      }
    });
  });
}
