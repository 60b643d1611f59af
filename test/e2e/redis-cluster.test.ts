// RedisRateLimitStore on a real three-master Redis Cluster, through an ioredis Cluster client and through a
// node-redis cluster: the script runs on the node owning the counter's slot, is loaded on each node as
// needed, and counts stay exact.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Cluster, Redis } from 'ioredis';
import { createCluster } from 'redis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import type { RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';
import { redisSkipReason, startRedisCluster, type RedisClusterHandle } from '../support/redis-server.js';

const skip = redisSkipReason();
const policy: RateLimitPolicy = {
  key: 'GET /search:burst',
  handler: 'GET /search',
  name: 'burst',
  permitLimit: 20,
  windowSeconds: 60,
  scope: 'transport',
};

describe('RedisRateLimitStore on a Redis Cluster', { skip }, () => {
  let cluster: RedisClusterHandle;
  let client: Cluster;
  let nodeRedis: ReturnType<typeof createCluster>;
  before(async () => {
    cluster = await startRedisCluster();
    client = new Cluster([{ host: '127.0.0.1', port: cluster.ports[0]! }]);
    nodeRedis = await createCluster({ rootNodes: [{ url: `redis://127.0.0.1:${cluster.ports[0]!}` }] }).connect();
  });
  after(async () => {
    await client?.quit();
    await nodeRedis?.quit();
    await cluster?.close();
  });

  for (const kind of ['ioredis', 'node-redis'] as const)
    test(`counters spread over every master, and each stays exact under concurrency (${kind})`, { timeout: 60_000 }, async () => {
      const keyPrefix = `cl:${randomUUID()}:`;
      const store = new RedisRateLimitStore({ client: kind === 'ioredis' ? client : nodeRedis, keyPrefix, timeoutMs: 5_000 });
      assert.equal(store.clientKind, kind);
      const partitions = Array.from({ length: 30 }, (_, i) => `subject:user-${i}`);
      const decisions = await Promise.all(
        partitions.flatMap((p) => Array.from({ length: 50 }, () => store.acquire(p, policy).then((d) => ({ p, d })))),
      );
      for (const p of partitions) {
        assert.equal(decisions.filter((x) => x.p === p && x.d.allowed).length, policy.permitLimit, p);
      }
      const perNode = await Promise.all(
        cluster.ports.map(async (port) => {
          const node = new Redis({ port, host: '127.0.0.1' });
          try {
            return (await node.keys(`${keyPrefix}*`)).length;
          } finally {
            node.disconnect();
          }
        }),
      );
      assert.equal(
        perNode.reduce((a, b) => a + b, 0),
        partitions.length,
        'one key per counter',
      );
      assert.ok(
        perNode.every((n) => n > 0),
        `every master holds counters: ${perNode.join(', ')}`,
      );
    });

  test(
    'a wrapper that hides the cluster: the first batch across slots is sent again by counter, and counts stay exact',
    { timeout: 60_000 },
    async () => {
      // Only evalsha and eval, as an instrumented or proxied client might offer: the store cannot tell it is a cluster.
      const wrapper = {
        evalsha: (sha: string, numkeys: number, ...args: string[]) => client.evalsha(sha, numkeys, ...args),
        eval: (script: string, numkeys: number, ...args: string[]) => client.eval(script, numkeys, ...args),
      };
      const store = new RedisRateLimitStore({
        client: wrapper,
        keyPrefix: `w:${randomUUID()}:`,
        timeoutMs: 5_000,
        failureMode: 'failClosed',
      });
      const partitions = Array.from({ length: 12 }, (_, i) => `subject:user-${i}`);
      for (let round = 0; round < 2; round++) {
        const decisions = await Promise.all(
          partitions.flatMap((p) => Array.from({ length: 15 }, () => store.acquire(p, policy).then((d) => ({ p, d })))),
        );
        for (const p of partitions) {
          const allowed = decisions.filter((x) => x.p === p && x.d.allowed).length;
          assert.equal(allowed, round === 0 ? 15 : 5, `${p} in round ${round}`);
        }
      }
    },
  );
});
