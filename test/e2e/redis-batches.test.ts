// RedisRateLimitStore sends the acquires started in one turn of the event loop in one script call, on a real
// redis-server, through ioredis and node-redis: fewer calls, the same decisions as one at a time, one
// acquire's error its own, and an acquire given up before its batch left spends nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { RedisRateLimitStore, type RedisScriptClient } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { ManualClock, RateLimitFailureMode, RateLimitStoreUnavailableError } from '../../packages/trellis/src/ratelimit/index.js';
import type { RateLimitDecision } from '../../packages/trellis/src/ratelimit/types.js';
import { burstPolicy as policy } from '../support/rate-limit-policy.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const skip = redisSkipReason();

/** Script calls Redis has run since the last CONFIG RESETSTAT (EVALSHA and EVAL). */
async function scriptCalls(admin: Redis): Promise<number> {
  const stats = await admin.info('commandstats');
  let calls = 0;
  for (const m of stats.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)) calls += Number(m[1]);
  return calls;
}

describe('RedisRateLimitStore batches the acquires of one turn', { skip }, () => {
  let server: RedisServerHandle;
  let admin: Redis;
  let nodeRedis: Awaited<ReturnType<ReturnType<typeof createClient>['connect']>>;
  before(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url);
    nodeRedis = await createClient({ url: server.url }).connect();
  });
  after(async () => {
    await admin?.quit();
    await nodeRedis?.quit();
    await server?.close();
  });
  const clients = (): Array<[string, RedisScriptClient]> => [
    ['ioredis', admin],
    ['node-redis', nodeRedis],
  ];
  const prefix = (): string => `b:${randomUUID()}:`;

  for (const kind of ['ioredis', 'node-redis']) {
    test(`200 acquires started together take a handful of script calls and stay exact (${kind})`, async () => {
      const client = clients().find(([k]) => k === kind)![1];
      const store = new RedisRateLimitStore({ client, keyPrefix: prefix(), timeoutMs: 5_000 });
      await store.acquire('warm', policy(5, 60)); // the script is cached on the server
      await admin.config('RESETSTAT');
      const decisions = await Promise.all(Array.from({ length: 200 }, (_, i) => store.acquire(`p${i % 20}`, policy(5, 60))));
      const calls = await scriptCalls(admin);
      assert.ok(calls >= 1 && calls <= 8, `200 acquires took ${calls} script calls`);
      for (let p = 0; p < 20; p++) {
        const own = decisions.filter((_, i) => i % 20 === p);
        assert.equal(own.filter((d) => d.allowed).length, 5, `partition p${p}`);
        assert.deepEqual(
          own.slice(0, 5).map((d) => d.remaining),
          [4, 3, 2, 1, 0],
          'in the order they were started',
        );
      }
    });

    test(`one acquire's error is its own: the others in its batch are decided (${kind})`, async () => {
      const client = clients().find(([k]) => k === kind)![1];
      const keyPrefix = prefix();
      const store = new RedisRateLimitStore({ client, keyPrefix, timeoutMs: 5_000, failureMode: RateLimitFailureMode.FailClosed });
      const p = policy(3, 60);
      // Something else wrote a list where the counter of partition "taken" lives.
      await admin.rpush(`${keyPrefix}{${p.key}|taken}:sw3`, 'x');
      const [good, bad, again] = await Promise.allSettled([store.acquire('ok', p), store.acquire('taken', p), store.acquire('ok', p)]);
      assert.deepEqual(good, { status: 'fulfilled', value: { allowed: true, limit: 3, remaining: 2, reset: 60, retryAfter: 0 } });
      assert.equal(bad.status, 'rejected');
      assert.ok(bad.reason instanceof RateLimitStoreUnavailableError);
      assert.match(String(bad.reason.message), /WRONGTYPE/);
      assert.equal(again.status === 'fulfilled' && again.value.remaining, 1);
      // Under failOpen the same acquire passes, carrying the cause.
      const open = new RedisRateLimitStore({ client, keyPrefix, timeoutMs: 5_000 });
      const decision = await open.acquire('taken', p);
      assert.equal(decision.allowed, true);
      assert.match(String((decision.failedOpen?.error as Error).message), /WRONGTYPE/);
      assert.equal(await admin.type(`${keyPrefix}{${p.key}|taken}:sw3`), 'list', 'the foreign value is left alone');
    });
  }

  test('a turn kept busy after acquires start is not Redis silence: they are judged from when their batch leaves', async () => {
    const store = new RedisRateLimitStore({ client: admin, keyPrefix: prefix(), timeoutMs: 50 });
    for (let round = 0; round < 5; round++) {
      const answers = Array.from({ length: 10 }, () => store.acquire(`busy${round}`, policy(5, 60)));
      const end = performance.now() + 200; // the application's own work, four timeouts long
      while (performance.now() < end);
      const decisions = await Promise.all(answers);
      assert.deepEqual(
        decisions.map((d) => d.failedOpen?.error),
        Array(10).fill(undefined),
        'no fail-open while Redis answers',
      );
      assert.equal(decisions.filter((d) => d.allowed).length, 5);
    }
  });

  test('acquires of several policies, partitions and costs started together decide as they would one by one', async () => {
    const policies = [policy(3, 10, 'a'), policy(200, 60, 'b'), policy(1, 1, 'c')];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            policy: fc.integer({ min: 0, max: 2 }),
            partition: fc.constantFrom('x', 'y', 'z'),
            cost: fc.integer({ min: 1, max: 4 }),
          }),
          {
            minLength: 1,
            maxLength: 150,
          },
        ),
        async (steps) => {
          const clock = new ManualClock(1_700_000_000_000);
          const together = new RedisRateLimitStore({ client: admin, keyPrefix: prefix(), clock, timeoutMs: 5_000 });
          const alone = new RedisRateLimitStore({ client: nodeRedis, keyPrefix: prefix(), clock, timeoutMs: 5_000 });
          const batched = await Promise.all(steps.map((s) => together.acquire(s.partition, policies[s.policy]!, { cost: s.cost })));
          const single: RateLimitDecision[] = [];
          for (const s of steps) single.push(await alone.acquire(s.partition, policies[s.policy]!, { cost: s.cost }));
          assert.deepEqual(batched, single);
        },
      ),
      { numRuns: 25 },
    );
  });
});
