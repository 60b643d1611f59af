// A node-redis client given to the Redis store without an `error` listener, as many setups write it: when
// Redis goes away the process keeps running (the store listens and warns, at most once a minute), limiting
// follows the failure mode, and it resumes when Redis comes back. And docs/rate-limiting.md's node-redis
// blocks: each runs as shown, the client's on a local Redis, the cluster's apart and marked as needing one.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient } from 'redis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { RateLimitScope, type RateLimitPolicy } from '../../packages/trellis/src/ratelimit/index.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';

const policy: RateLimitPolicy = {
  key: 'GET /e:n',
  handler: 'GET /e',
  name: 'n',
  permitLimit: 1_000,
  windowSeconds: 60,
  scope: RateLimitScope.Transport,
};

describe('a node-redis client without an error listener', { skip: redisSkipReason(), timeout: 60_000 }, () => {
  let server: RedisServerHandle;
  before(async () => {
    server = await startRedisServer();
  });
  after(() => server?.close());

  /** The next `event` of the client (events.once would reject on the 'error' events this test is about). */
  const next = (client: { once(event: string, listener: () => void): unknown }, event: string) =>
    new Promise<void>((resolve) => client.once(event, resolve));

  it('keeps the process alive through Redis going away, warns once, and limits again when Redis is back', async () => {
    // Each step waits for the event it is about (a warning, the client's reconnect attempts, its reconnection),
    // never for a length of time: the test's timeout bounds them all.
    const warnings: string[] = [];
    let warned!: () => void;
    const firstWarning = new Promise<void>((resolve) => (warned = resolve));
    const onWarning = (w: Error) => {
      if (w.name !== 'RedisRateLimitStoreWarning') return;
      warnings.push(w.message);
      warned();
    };
    process.on('warning', onWarning);
    const client = await createClient({ url: server.url, socket: { reconnectStrategy: () => 50 } }).connect();
    try {
      assert.equal(client.listenerCount('error'), 0, 'no listener of its own, as the setup wrote it');
      const store = new RedisRateLimitStore({ client, keyPrefix: 'errors:', timeoutMs: 500 });
      assert.equal(client.listenerCount('error'), 1, 'the store listens');
      assert.equal((await store.acquire('p', policy)).failedOpen, undefined);
      await server.stop();
      await firstWarning;
      assert.equal(warnings.length, 1, 'one warning, not one per reconnect attempt');
      assert.match(warnings[0]!, /^the Redis client reported an error: .+ Add your own client\.on\('error', …\) listener/);
      const down = await store.acquire('p', policy);
      assert.ok(down.allowed && down.failedOpen !== undefined, 'fails open while Redis is away');
      // Three more failed reconnect attempts, each an error the client reports.
      for (let i = 0; i < 3; i++) await next(client, 'reconnecting');
      assert.equal(warnings.length, 1, 'later errors are held back');
      const ready = next(client, 'ready');
      await server.start();
      await ready;
      assert.equal((await store.acquire('p', policy)).failedOpen, undefined, 'limiting resumes once Redis answers');
    } finally {
      process.off('warning', onWarning);
      client.destroy();
    }
  });
});

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** The TypeScript blocks of docs/rate-limiting.md's node-redis part: their info string and code. */
function nodeRedisBlocks(): { info: string; code: string }[] {
  const doc = readFileSync(join(REPO, 'docs', 'rate-limiting.md'), 'utf8');
  const part = doc.slice(doc.indexOf('With node-redis, a client or a cluster'), doc.indexOf('The store tells the two libraries apart'));
  return [...part.matchAll(/^```ts([^\n]*)\n([\s\S]*?)^```$/gm)].map((m) => ({ info: m[1]!.trim(), code: m[2]! }));
}

describe("docs/rate-limiting.md's node-redis blocks", () => {
  it('show the client and the cluster in blocks of their own; the cluster is marked as needing one', () => {
    const blocks = nodeRedisBlocks();
    assert.equal(blocks.length, 2);
    const [client, cluster] = blocks as [{ info: string; code: string }, { info: string; code: string }];
    assert.match(client.code, /createClient\(\{ url: process\.env\.REDIS_URL \}\)/);
    assert.doesNotMatch(client.code, /createCluster/);
    assert.equal(client.info, '');
    assert.match(cluster.code, /createCluster\(/);
    assert.doesNotMatch(cluster.code, /createClient/);
    assert.equal(cluster.info, 'needs-cluster');
  });

  it('no block of the guides connects to a Redis beyond this machine', () => {
    for (const page of ['README.md', ...readdirSync(join(REPO, 'docs')).map((f) => `docs/${f}`)].filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(join(REPO, page), 'utf8');
      for (const [, code] of text.matchAll(/^```(?:ts|js)[^\n]*\n([\s\S]*?)^```$/gm)) {
        for (const [url] of code!.matchAll(/rediss?:\/\/[^'"`\s]+/g)) {
          assert.match(url, /^rediss?:\/\/(127\.0\.0\.1|localhost|\[::1\])[:/]/, `${page} connects to ${url}`);
        }
      }
    }
  });

  describe('the client block', { skip: redisSkipReason(), timeout: 60_000 }, () => {
    let server: RedisServerHandle;
    let dir: string;
    before(async () => {
      server = await startRedisServer();
      // Inside the repository (its .tmp/ is ignored), so that 'redis' and 'trellis/ratelimit/redis' resolve.
      mkdirSync(join(REPO, '.tmp'), { recursive: true });
      dir = mkdtempSync(join(REPO, '.tmp', 'rate-limiting-doc-'));
    });
    after(async () => {
      rmSync(dir, { recursive: true, force: true });
      await server?.close();
    });

    it('connects to the Redis REDIS_URL names and limits there', async () => {
      const file = join(dir, 'node-redis-client.ts');
      writeFileSync(file, `${nodeRedisBlocks()[0]!.code}\nexport { client, store };\n`);
      const before = process.env.REDIS_URL;
      process.env.REDIS_URL = server.url;
      try {
        const shown = (await import(pathToFileURL(file).href)) as { client: { destroy(): void }; store: RedisRateLimitStore };
        try {
          assert.equal(shown.store.clientKind, 'node-redis');
          assert.equal((await shown.store.acquire('p', policy)).allowed, true);
        } finally {
          shown.client.destroy();
        }
      } finally {
        if (before === undefined) delete process.env.REDIS_URL;
        else process.env.REDIS_URL = before;
      }
    });
  });
});
