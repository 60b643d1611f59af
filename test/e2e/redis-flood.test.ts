// A flood must not switch limiting off: four app processes share one healthy Redis through RedisRateLimitStore
// with its default settings (200 ms timeout, failOpen) and 200 requests arrive at once over HTTP. Each request
// costs its process CPU before it is counted (here the partitioner verifies a token for 15 ms), so a process
// that reads fifty requests in one turn of its event loop sends the first acquire and only comes back to read
// Redis's answer several hundred milliseconds later, long after a 200 ms timer has expired. While Redis
// answers, the limit holds exactly: 20 admitted, 180 refused, and no acquire fails open.
// This file is also the app process: run with TRELLIS_FLOOD_APP set, it listens and prints its port.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createApp, RegistrationType, route } from '../../packages/trellis/src/index.js';
import { RateLimit, RateLimitPartitioner, RateLimitStore } from '../../packages/trellis/src/ratelimit/index.js';
import type { RateLimitDecision } from '../../packages/trellis/src/ratelimit/index.js';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { redisSkipReason, startRedisServer } from '../support/redis-server.js';
import { SOURCE_NODE_ARGS } from '../support/source-node.js';

const PROCESSES = 4;
const REQUESTS = 200;
const LIMIT = 20;
/** CPU each request costs its process before the limit is applied. */
const WORK_MS = 15;

interface AppSetup {
  readonly url: string;
  readonly keyPrefix: string;
}

/** App process: one rate-limited route on the Redis store with default settings; counts its fail-opens. */
async function appProcess(setup: AppSetup): Promise<void> {
  const redis = new RedisRateLimitStore({ url: setup.url, keyPrefix: setup.keyPrefix });
  let failedOpen = 0;
  const store: RateLimitStore = {
    async acquire(partition, policy, options) {
      const decision: RateLimitDecision = await redis.acquire(partition, policy, options);
      if (decision.failedOpen) failedOpen++;
      return decision;
    },
  };
  const app = createApp();
  app.services.add(RateLimitStore, () => store, { type: RegistrationType.Replace });
  app.services.add(
    RateLimitPartitioner,
    () => ({
      partition: () => {
        const end = performance.now() + WORK_MS;
        while (performance.now() < end);
        return 'tenant:acme';
      },
    }),
    { type: RegistrationType.Replace },
  );
  app.route(route('GET', '/report', [RateLimit({ permitLimit: LIMIT, windowSeconds: 60 })], () => ({ ok: true })));
  const { port } = await app.listen({ port: 0 });
  await redis.acquire('warm-up', { key: 'warm-up', handler: 'warm-up', name: 'w', permitLimit: 1, windowSeconds: 1, scope: 'transport' });
  process.stdout.write(`${port}\n`);
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    if (line === 'report') {
      process.stdout.write(`${JSON.stringify({ failedOpen })}\n`);
    } else if (line === 'exit') break;
  }
  lines.close();
  await app.close();
  await redis.close();
}

interface AppHandle {
  readonly child: ChildProcess;
  readonly port: number;
  next(): Promise<string>;
}

async function startApps(setup: AppSetup): Promise<AppHandle[]> {
  const self = fileURLToPath(import.meta.url);
  return Promise.all(
    Array.from({ length: PROCESSES }, async () => {
      const child = spawn(process.execPath, [...SOURCE_NODE_ARGS, self], {
        env: { ...process.env, TRELLIS_FLOOD_APP: JSON.stringify(setup) },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      const next = async (): Promise<string> => {
        const { value, done } = await lines.next();
        if (done) throw new Error('an app process ended early');
        return value;
      };
      const port = Number(await next());
      assert.ok(Number.isInteger(port) && port > 0, 'the app process printed its port');
      return { child, port, next };
    }),
  );
}

async function stopApps(apps: readonly AppHandle[]): Promise<void> {
  await Promise.all(
    apps.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.stdin!.write('exit\n');
        }),
    ),
  );
}

if (process.env.TRELLIS_FLOOD_APP) {
  await appProcess(JSON.parse(process.env.TRELLIS_FLOOD_APP) as AppSetup);
} else {
  const skip = redisSkipReason();
  describe('a flood against busy app processes on a healthy Redis', { skip }, () => {
    test(
      `${PROCESSES} busy processes, ${REQUESTS} requests at once, default settings: exactly the limit is admitted`,
      { timeout: 120_000 },
      async (t) => {
        const server = await startRedisServer();
        let apps: AppHandle[] = [];
        try {
          apps = await startApps({ url: server.url, keyPrefix: `flood:${randomUUID()}:` });
          const started = performance.now();
          const statuses = await Promise.all(
            Array.from({ length: REQUESTS }, async (_, i) => {
              const response = await fetch(`http://127.0.0.1:${apps[i % PROCESSES]!.port}/report`, { headers: { connection: 'close' } });
              await response.arrayBuffer();
              return response.status;
            }),
          );
          const elapsed = performance.now() - started;
          for (const app of apps) app.child.stdin!.write('report\n');
          const failedOpen = await Promise.all(
            apps.map(async (app) => (JSON.parse(await app.next()) as { failedOpen: number }).failedOpen),
          );
          const admitted = statuses.filter((s) => s === 200).length;
          t.diagnostic(
            `${admitted} admitted, ${statuses.filter((s) => s === 429).length} refused in ${elapsed.toFixed(0)} ms; fail-opens per process: ${failedOpen.join(', ')}`,
          );
          assert.deepEqual(
            failedOpen,
            Array.from({ length: PROCESSES }, () => 0),
            'no acquire failed open while Redis was answering',
          );
          assert.equal(admitted, LIMIT);
          assert.equal(statuses.filter((s) => s === 429).length, REQUESTS - LIMIT);
        } finally {
          await stopApps(apps);
          await server.close();
        }
      },
    );
  });
}
