// What RedisRateLimitStore does when Redis goes away or stops answering, and that limiting resumes after.
// These tests stop and freeze a real redis-server, so they wait on real time (bounded by deadlines).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RedisRateLimitStore, type RedisRateLimitStoreOptions } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { RateLimitStoreUnavailableError } from '../../packages/trellis/src/ratelimit/index.js';
import type { RateLimitDecision, RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const skip = redisSkipReason();
const TIMEOUT_MS = 250;
// A decision must arrive within the timeout plus scheduling slack (generous: CI machines can be busy; a hang
// would take seconds or forever).
const BOUND_MS = TIMEOUT_MS + 750;
const policy: RateLimitPolicy = {
  key: 'POST /orders:burst',
  handler: 'POST /orders',
  name: 'burst',
  permitLimit: 2,
  windowSeconds: 60,
  scope: 'principal',
};

async function timed<T>(work: () => Promise<T>): Promise<{ value?: T; error?: unknown; ms: number }> {
  const start = performance.now();
  try {
    const value = await work();
    return { value, ms: performance.now() - start };
  } catch (error) {
    return { error, ms: performance.now() - start };
  }
}

/** Retries until `check` holds (Redis reconnects in the background); fails after the deadline. */
async function eventually(check: () => Promise<boolean>, what: string, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail(`not within ${deadlineMs} ms: ${what}`);
}

async function exhaust(store: RedisRateLimitStore, partition: string): Promise<void> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < 3; i++) decisions.push(await store.acquire(partition, policy));
  assert.deepEqual(
    decisions.map((d) => d.allowed),
    [true, true, false],
  );
}

describe('RedisRateLimitStore when Redis fails', { skip }, () => {
  let server: RedisServerHandle;
  before(async () => {
    server = await startRedisServer();
  });
  after(async () => {
    await server?.close();
  });

  for (const clientKind of ['url', 'client'] as const) {
    test(`Redis stopped mid-test, then back (${clientKind === 'url' ? 'store-owned client from a URL' : 'client passed in'})`, async () => {
      const userClient = clientKind === 'client' ? new Redis(server.url) : undefined;
      userClient?.on('error', () => undefined);
      const base: RedisRateLimitStoreOptions = {
        ...(userClient ? { client: userClient } : { url: server.url }),
        keyPrefix: `f:${randomUUID()}:`,
        timeoutMs: TIMEOUT_MS,
      };
      const open = new RedisRateLimitStore(base);
      const closed = new RedisRateLimitStore({ ...base, failureMode: 'failClosed' });
      try {
        await exhaust(open, 'open');
        await exhaust(closed, 'closed');

        await server.stop();
        for (let i = 0; i < 10; i++) {
          const r = await timed(() => open.acquire('open', policy));
          assert.equal(r.value?.allowed, true, 'failOpen allows while Redis is down');
          assert.ok(r.value?.failedOpen?.error instanceof Error, 'and says it failed open, with the cause');
          assert.ok(r.ms < BOUND_MS, `failOpen answered in ${r.ms.toFixed(0)} ms`);
          const c = await timed(() => closed.acquire('closed', policy));
          assert.ok(c.error instanceof RateLimitStoreUnavailableError, `failClosed throws the typed error (got ${String(c.error)})`);
          assert.equal(c.error.status, 503);
          assert.ok(c.ms < BOUND_MS, `failClosed answered in ${c.ms.toFixed(0)} ms`);
        }

        await server.start();
        // Limiting resumes: failOpen never refuses, so a refusal shows the counter is back.
        await eventually(async () => (await open.acquire('open', policy)).allowed === false, 'failOpen store refuses again');
        await eventually(
          async () => (await closed.acquire('closed', policy).catch(() => undefined))?.allowed === false,
          'failClosed store refuses again',
        );
        assert.ok(!(await open.acquire('open', policy)).allowed);
        assert.ok(!(await closed.acquire('closed', policy)).allowed);
      } finally {
        await open.close();
        await closed.close();
        userClient?.disconnect();
        if (server.pid < 0) await server.start();
      }
    });
  }

  test('a frozen Redis (connection open, no answers) costs at most the timeout, then limiting resumes', async () => {
    const store = new RedisRateLimitStore({
      url: server.url,
      keyPrefix: `h:${randomUUID()}:`,
      timeoutMs: TIMEOUT_MS,
      failureMode: 'failClosed',
    });
    try {
      await exhaust(store, 'p');
      process.kill(server.pid, 'SIGSTOP');
      try {
        const results = await Promise.all(Array.from({ length: 50 }, () => timed(() => store.acquire('p', policy))));
        for (const r of results) {
          assert.ok(r.error instanceof RateLimitStoreUnavailableError);
          assert.ok(r.ms < BOUND_MS, `answered in ${r.ms.toFixed(0)} ms`);
        }
      } finally {
        process.kill(server.pid, 'SIGCONT');
      }
      await eventually(
        async () => (await store.acquire('p', policy).catch(() => undefined))?.allowed === false,
        'the counter answers again',
      );
    } finally {
      await store.close();
    }
  });

  test('a frozen Redis with more calls than slots: queued calls also answer within the timeout, failing open with the cause', async () => {
    const store = new RedisRateLimitStore({ url: server.url, keyPrefix: `q:${randomUUID()}:`, timeoutMs: TIMEOUT_MS, maxInFlight: 4 });
    try {
      await exhaust(store, 'p');
      process.kill(server.pid, 'SIGSTOP');
      try {
        const results = await Promise.all(Array.from({ length: 40 }, () => timed(() => store.acquire('p', policy))));
        for (const r of results) {
          assert.equal(r.value?.allowed, true, 'failOpen');
          assert.match(String((r.value?.failedOpen?.error as Error | undefined)?.message), /Redis answered nothing for \d+ ms/);
          assert.ok(r.ms < BOUND_MS, `answered in ${r.ms.toFixed(0)} ms`);
        }
      } finally {
        process.kill(server.pid, 'SIGCONT');
      }
      await eventually(async () => (await store.acquire('p', policy)).allowed === false, 'the counter answers again');
    } finally {
      await store.close();
    }
  });

  test("overflow 'reject': a call that finds every slot taken is refused at once with the typed error, even under failOpen", async () => {
    const store = new RedisRateLimitStore({
      url: server.url,
      keyPrefix: `r:${randomUUID()}:`,
      timeoutMs: TIMEOUT_MS,
      maxInFlight: 2,
      overflow: 'reject',
    });
    try {
      await store.acquire('warm', policy);
      process.kill(server.pid, 'SIGSTOP');
      let pending: Array<Promise<{ value?: RateLimitDecision; error?: unknown; ms: number }>> = [];
      try {
        pending = [timed(() => store.acquire('p', policy)), timed(() => store.acquire('p', policy))];
        const third = await timed(() => store.acquire('p', policy));
        assert.ok(third.error instanceof RateLimitStoreUnavailableError, `rejected with the typed error (got ${String(third.error)})`);
        assert.match(third.error.message, /2 calls already wait on Redis/);
        assert.ok(third.ms < 50, `at once (${third.ms.toFixed(0)} ms)`);
        for (const r of await Promise.all(pending))
          assert.equal(r.value?.allowed, true, `the two in flight fail open at the timeout (got ${String(r.error)})`);
      } finally {
        process.kill(server.pid, 'SIGCONT');
      }
      await eventually(
        async () => (await store.acquire('p', policy).catch(() => undefined))?.allowed === false,
        'slots free again once Redis answers',
      );
    } finally {
      await store.close();
    }
  });

  test('bad flight options get a clear error', () => {
    assert.throws(() => new RedisRateLimitStore({ url: server.url, maxInFlight: 0 }), /maxInFlight must be a positive integer/);
    assert.throws(() => new RedisRateLimitStore({ url: server.url, overflow: 'drop' as never }), /overflow must be "queue" or "reject"/);
  });

  test('an acquire that has to wait ends when its caller gives up: queued ones are never sent, sent ones stop waiting', async () => {
    const keyPrefix = `a:${randomUUID()}:`;
    const timeoutMs = 5_000;
    const store = new RedisRateLimitStore({ url: server.url, keyPrefix, timeoutMs, maxInFlight: 1 });
    try {
      await store.acquire('warm', policy);
      process.kill(server.pid, 'SIGSTOP');
      const sentCaller = new AbortController();
      const queuedCaller = new AbortController();
      let sent: Promise<{ value?: RateLimitDecision; error?: unknown; ms: number }>;
      let queued: Promise<{ value?: RateLimitDecision; error?: unknown; ms: number }>;
      try {
        sent = timed(() => store.acquire('p', policy, { signal: sentCaller.signal }));
        queued = timed(() => store.acquire('p', policy, { signal: queuedCaller.signal }));
        queuedCaller.abort(new Error('client went away'));
        const q = await queued;
        assert.equal((q.error as Error | undefined)?.name, 'AbortError', `the queued call rejects (got ${String(q.error)})`);
        assert.match(String((q.error as Error).cause), /client went away/);
        assert.ok(q.ms < 100, `at once (${q.ms.toFixed(0)} ms)`);
        // The sent call is watched once it has waited an eighth of the timeout.
        await new Promise((resolve) => setTimeout(resolve, timeoutMs / 8 + 200));
        sentCaller.abort(new Error('client went away too'));
        const s = await sent;
        assert.equal((s.error as Error | undefined)?.name, 'AbortError', `the sent call stops waiting (got ${String(s.error)})`);
        assert.ok(s.ms < timeoutMs, `long before the timeout (${s.ms.toFixed(0)} ms)`);
      } finally {
        process.kill(server.pid, 'SIGCONT');
      }
      // Redis counted the sent call when it woke up (an abort errs on the side of limiting); the queued one
      // was never sent: of the limit of 2, one permit is left.
      const next = await store.acquire('p', policy);
      assert.equal(next.failedOpen, undefined);
      assert.deepEqual([next.allowed, next.remaining], [true, 0]);
    } finally {
      await store.close();
    }
  });
});
