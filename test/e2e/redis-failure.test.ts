// What RedisRateLimitStore does when Redis goes away or stops answering, and that limiting resumes after.
// These tests stop and freeze a real redis-server; they wait on Redis's answers and the clients' events, never on a
// timer (deadlines only bound a wait that would otherwise hang).
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

/**
 * The answer Redis gives once it answers again: each attempt waits on Redis (an answer, or the store's timeout
 * on a silence), so attempts are paced by Redis rather than by a timer.
 */
async function answerAgain(store: RedisRateLimitStore, partition: string): Promise<RateLimitDecision | undefined> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const answer = await store.acquire(partition, policy).catch(() => undefined);
    if (answer !== undefined && answer.failedOpen === undefined) return answer;
  }
  return undefined;
}

/**
 * Resolves once `count` ioredis clients have said 'ready' since the call: clients reconnect on their own
 * schedule when Redis is back, and a store's own client (made from a URL) is out of the test's reach, so the
 * event is heard on the class all clients share. Rejects after a deadline rather than hang.
 */
function clientsReady(count: number): Promise<void> {
  type Emit = (this: Redis, event: string | symbol, ...args: unknown[]) => boolean;
  const proto = Redis.prototype as unknown as { emit?: Emit };
  const own = Object.hasOwn(proto, 'emit');
  const emit = proto.emit!;
  const ready = new Set<Redis>();
  let deadline: ReturnType<typeof setTimeout> | undefined;
  return new Promise<void>((resolve, reject) => {
    deadline = setTimeout(() => reject(new Error(`${count} Redis client(s) did not reconnect within 10 s`)), 10_000);
    proto.emit = function (event, ...args) {
      if (event === 'ready' && ready.add(this).size === count) resolve();
      return emit.call(this, event, ...args);
    };
  }).finally(() => {
    clearTimeout(deadline);
    if (own) proto.emit = emit;
    else delete proto.emit;
  });
}

/** Resolves when something starts listening for `signal`'s abort; rejects if nothing has within `deadlineMs`. */
function abortListened(signal: AbortSignal, deadlineMs: number): Promise<void> {
  let deadline: ReturnType<typeof setTimeout> | undefined;
  return new Promise<void>((resolve, reject) => {
    deadline = setTimeout(() => reject(new Error(`nothing listened for the abort within ${deadlineMs} ms`)), deadlineMs);
    const listen = signal.addEventListener.bind(signal);
    signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => {
      listen(...args);
      if (args[0] === 'abort') resolve();
    }) as AbortSignal['addEventListener'];
  }).finally(() => clearTimeout(deadline));
}

/** Three acquires on a limit of two, each counted by Redis, the last refused. */
async function resumes(store: RedisRateLimitStore, partition: string): Promise<void> {
  const decisions: RateLimitDecision[] = [];
  for (let i = 0; i < 3; i++) decisions.push(await store.acquire(partition, policy));
  assert.deepEqual(
    decisions.map((d) => d.failedOpen),
    [undefined, undefined, undefined],
    'every answer is counted',
  );
  assert.equal(decisions[2]!.allowed, false, 'the counter refuses again');
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

        // Both stores share the client passed in; from a URL, each has its own.
        const reconnected = clientsReady(userClient ? 1 : 2);
        await server.start();
        await reconnected;
        // Limiting resumes on the restarted (empty) Redis: three counted answers on a limit of two end in a
        // refusal (a command queued while the client was reconnecting may already have counted).
        await resumes(open, 'open');
        await resumes(closed, 'closed');
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
        // A reset is given up on the same silence (on another counter: it still reaches Redis when it wakes).
        const reset = await timed(() => store.reset('elsewhere', policy));
        assert.ok(reset.error instanceof RateLimitStoreUnavailableError, `reset rejects with the typed error (got ${String(reset.error)})`);
        assert.match(reset.error.message, /Redis answered nothing for \d+ ms/);
        assert.ok(reset.ms < BOUND_MS, `reset answered in ${reset.ms.toFixed(0)} ms`);
      } finally {
        process.kill(server.pid, 'SIGCONT');
      }
      assert.equal((await answerAgain(store, 'p'))?.allowed, false, 'the counter answers again, still full');
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
      assert.equal((await answerAgain(store, 'p'))?.allowed, false, 'the counter answers again, still full');
    } finally {
      await store.close();
    }
  });

  test("overflow 'reject': a call that finds every slot taken is refused at once with the typed error, even under failOpen", async () => {
    // A client of the test's own: once its PING is answered, so are the store's commands sent before it.
    const client = new Redis(server.url);
    client.on('error', () => undefined);
    const store = new RedisRateLimitStore({
      client,
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
      // Slots free again once Redis answers: of the limit of 2, the two that were in flight were counted.
      await client.ping();
      const next = await timed(() => store.acquire('p', policy));
      assert.equal(next.value?.allowed, false, `slots free again once Redis answers (got ${String(next.error)})`);
    } finally {
      await store.close();
      client.disconnect();
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
      const watching = abortListened(sentCaller.signal, timeoutMs);
      try {
        sent = timed(() => store.acquire('p', policy, { signal: sentCaller.signal }));
        queued = timed(() => store.acquire('p', policy, { signal: queuedCaller.signal }));
        queuedCaller.abort(new Error('client went away'));
        const q = await queued;
        assert.equal((q.error as Error | undefined)?.name, 'AbortError', `the queued call rejects (got ${String(q.error)})`);
        assert.match(String((q.error as Error).cause), /client went away/);
        assert.ok(q.ms < 100, `at once (${q.ms.toFixed(0)} ms)`);
        // The sent call is watched once it has waited a while (an eighth of the timeout): then it listens to its signal.
        await watching;
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
