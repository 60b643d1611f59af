// Three Lambda execution environments (separate Node processes, each running the example API's Lambda
// handler) answer a burst from one caller. Sharing one Redis through RedisRateLimitStore, they admit the
// limit exactly, in total; with the in-process store each admits the limit on its own (three times as many).
// This file is also the worker: run with TRELLIS_LAMBDA_ENVIRONMENT set, it answers its events and prints
// how many got a 200.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { InProcessRateLimitStore } from '../../packages/trellis/src/ratelimit/index.js';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { createOrdersApp } from '../../examples/lambda-api/app.js';
import { redisSkipReason, startRedisServer } from '../support/redis-server.js';
import { httpEvent, lambdaContext } from '../support/lambda-events.js';
import { SOURCE_NODE_ARGS } from '../support/source-node.js';

const ENVIRONMENTS = 3;
const EVENTS_PER_ENVIRONMENT = 40;
/** The example's per-caller limit on each route. */
const LIMIT = 20;

interface Setup {
  readonly store: 'redis' | 'in-process';
  readonly url: string;
}

/** Worker: one execution environment. Build the handler (init phase), say "ready", wait for "go", answer. */
async function environment(setup: Setup): Promise<void> {
  const redis =
    setup.store === 'redis'
      ? new RedisRateLimitStore({ url: setup.url, keyPrefix: 'orders:', timeoutMs: 5_000, failureMode: 'failClosed' })
      : undefined;
  const handler = lambdaHandler(
    createOrdersApp({ apiKeys: { 'key-ana': { subject: 'ana', grants: ['orders:read'] } }, store: redis ?? new InProcessRateLimitStore() }),
  );
  // A health check warms the connection without spending the caller's allowance.
  await handler(httpEvent('http-api', { path: '/health' }), lambdaContext());
  process.stdout.write('ready\n');
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) if (line === 'go') break;
  const results = await Promise.all(
    Array.from({ length: EVENTS_PER_ENVIRONMENT }, (_, i) =>
      handler(httpEvent('http-api', { path: '/orders', headers: { 'x-api-key': 'key-ana' } }), lambdaContext(`req-${process.pid}-${i}`)),
    ),
  );
  const statuses = results.map((r) => r.statusCode);
  if (statuses.some((s) => s !== 200 && s !== 429)) throw new Error(`unexpected statuses ${statuses.join(' ')}`);
  process.stdout.write(`${JSON.stringify({ admitted: statuses.filter((s) => s === 200).length })}\n`);
  lines.close();
  await redis?.close();
}

async function runEnvironments(setup: Setup): Promise<number[]> {
  const self = fileURLToPath(import.meta.url);
  const children = Array.from({ length: ENVIRONMENTS }, () =>
    spawn(process.execPath, [...SOURCE_NODE_ARGS, self], {
      env: { ...process.env, TRELLIS_LAMBDA_ENVIRONMENT: JSON.stringify(setup) },
      stdio: ['pipe', 'pipe', 'inherit'],
    }),
  );
  try {
    const outputs = children.map((child) => createInterface({ input: child.stdout })[Symbol.asyncIterator]());
    const next = async (i: number): Promise<string> => {
      const { value, done } = await outputs[i]!.next();
      if (done) throw new Error(`environment ${i} ended early`);
      return value;
    };
    await Promise.all(children.map(async (_, i) => assert.equal(await next(i), 'ready')));
    for (const child of children) child.stdin.write('go\n');
    const counts = await Promise.all(children.map(async (_, i) => (JSON.parse(await next(i)) as { admitted: number }).admitted));
    await Promise.all(
      children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))),
    );
    return counts;
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

if (process.env.TRELLIS_LAMBDA_ENVIRONMENT) {
  await environment(JSON.parse(process.env.TRELLIS_LAMBDA_ENVIRONMENT) as Setup);
} else {
  const skip = redisSkipReason();
  describe('rate limits across Lambda execution environments', { skip }, () => {
    test(
      `${ENVIRONMENTS} environments on one Redis admit the limit in total; on in-process stores, the limit each`,
      { timeout: 90_000 },
      async (t) => {
        const server = await startRedisServer();
        try {
          const onRedis = await runEnvironments({ store: 'redis', url: server.url });
          const inProcess = await runEnvironments({ store: 'in-process', url: server.url });
          const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
          t.diagnostic(`limit ${LIMIT}, ${ENVIRONMENTS} environments x ${EVENTS_PER_ENVIRONMENT} concurrent events`);
          t.diagnostic(`RedisRateLimitStore admitted ${sum(onRedis)} (per environment: ${onRedis.join(', ')})`);
          t.diagnostic(`InProcessRateLimitStore admitted ${sum(inProcess)} (per environment: ${inProcess.join(', ')})`);
          assert.equal(sum(onRedis), LIMIT);
          assert.deepEqual(
            inProcess,
            Array.from({ length: ENVIRONMENTS }, () => LIMIT),
          );
        } finally {
          await server.close();
        }
      },
    );
  });
}
