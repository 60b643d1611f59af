// Redis restarted ten times under load, with ioredis and with node-redis: the process keeps answering, and
// after every restart limiting resumes (a request is counted and refused again). Real time, bounded.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { RedisRateLimitStore, type RedisRateLimitStoreOptions } from '../../packages/trellis/src/ratelimit/redis/index.js';
import type { RateLimitDecision, RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const RESTARTS = 10;
const WORKERS = 8;
const policy: RateLimitPolicy = {
  key: 'GET /load#burst',
  handler: 'GET /load',
  name: 'burst',
  permitLimit: 5,
  windowSeconds: 60,
  scope: 'transport',
};

/** Acquires without pause from `WORKERS` loops until stopped; keeps the last decisions and every error. */
function load(store: RedisRateLimitStore) {
  let running = true;
  const errors: unknown[] = [];
  let counted = 0;
  let failedOpen = 0;
  let lastCounted: RateLimitDecision | undefined;
  const worker = async (): Promise<void> => {
    while (running) {
      try {
        const d = await store.acquire('caller', policy);
        if (d.failedOpen) failedOpen++;
        else {
          counted++;
          lastCounted = d;
        }
      } catch (error) {
        errors.push(error);
      }
      for (const wake of waiting.splice(0)) wake();
      await new Promise((r) => setImmediate(r));
    }
  };
  /** Woken after every decision, so a wait looks again when something has changed. */
  const waiting: Array<() => void> = [];
  const stats = () => ({ counted, failedOpen, errors: errors.length, lastCounted });
  const done = Promise.all(Array.from({ length: WORKERS }, worker));
  return {
    stats,
    /** Resolves with the milliseconds it took once `check` holds after a decision; fails after the deadline. */
    async until(check: (s: ReturnType<typeof stats>) => boolean, what: string, deadlineMs = 15_000): Promise<number> {
      const start = Date.now();
      let late = false;
      const deadline = setTimeout(() => {
        late = true;
        for (const wake of waiting.splice(0)) wake();
      }, deadlineMs);
      try {
        while (!check(stats())) {
          if (late) assert.fail(`not within ${deadlineMs} ms: ${what}`);
          await new Promise<void>((wake) => waiting.push(wake));
        }
      } finally {
        clearTimeout(deadline);
      }
      return Date.now() - start;
    },
    async stop() {
      running = false;
      await done;
      return errors;
    },
  };
}

describe('ten Redis restarts under load', { skip: redisSkipReason(), timeout: 240_000 }, () => {
  let server: RedisServerHandle;
  before(async () => {
    server = await startRedisServer();
  });
  after(() => server?.close());

  const clients: Array<[string, () => Promise<{ options: Partial<RedisRateLimitStoreOptions>; close(): Promise<void> }>]> = [
    [
      'ioredis',
      async () => {
        const client = new Redis(server.url, { maxRetriesPerRequest: 1 });
        client.on('error', () => undefined);
        return { options: { client }, close: async () => void client.disconnect() };
      },
    ],
    [
      'node-redis',
      async () => {
        const client = createClient({ url: server.url, socket: { reconnectStrategy: (retries) => Math.min(50 * (retries + 1), 500) } });
        client.on('error', () => undefined);
        await client.connect();
        return { options: { client }, close: async () => void (await client.disconnect().catch(() => undefined)) };
      },
    ],
  ];

  for (const [name, connect] of clients) {
    test(`${name}: limiting resumes after each of ${RESTARTS} restarts, and no call goes unanswered`, async () => {
      const client = await connect();
      const { options } = client;
      const store = new RedisRateLimitStore({ ...options, keyPrefix: `restarts:${randomUUID()}:`, timeoutMs: 250 });
      const traffic = load(store);
      const resumedAfterMs: number[] = [];
      try {
        await traffic.until((s) => s.lastCounted?.allowed === false, 'the counter fills before the first restart');
        for (let i = 0; i < RESTARTS; i++) {
          await server.stop();
          const whileDown = traffic.stats().failedOpen;
          await traffic.until((s) => s.failedOpen > whileDown, `restart ${i + 1}: requests are admitted uncounted while Redis is down`);
          await server.start();
          // A fresh server holds no counters: limiting has resumed when a counted request is refused again.
          const countedBefore = traffic.stats().counted;
          resumedAfterMs.push(
            await traffic.until(
              (s) => s.counted >= countedBefore + policy.permitLimit + 1 && s.lastCounted?.allowed === false,
              `restart ${i + 1}: limiting resumes`,
            ),
          );
        }
      } finally {
        const errors = await traffic.stop();
        await store.close();
        await client.close();
        assert.deepEqual(errors.map(String), [], 'under failOpen every call gets a decision');
      }
      assert.equal(resumedAfterMs.length, RESTARTS);
      console.log(
        `${name}: limiting resumed after each restart within ${Math.max(...resumedAfterMs)} ms (median ${resumedAfterMs.sort((a, b) => a - b)[RESTARTS >> 1]} ms)`,
      );
    });
  }
});
