import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import {
  ApiKeyAuthenticator, Authenticator, Authorize, createApp, Get, Lifetime, RegistrationType, route,
} from '../../src/index.js';
import type { Annotation, App, ExecutionContext } from '../../src/index.js';
import {
  DefaultRateLimitPartitioner, InProcessRateLimitStore, ManualClock, RateLimit, RateLimitConfiguration,
  RateLimitPartitioner, RateLimitScope, RateLimitStore, RateLimitStoreUnavailableError, SkipRateLimit,
} from '../../src/ratelimit/index.js';
import type { RateLimitDecision, RateLimitPolicy } from '../../src/ratelimit/index.js';

function limitedApp(annotations: readonly Annotation[], options: { clock?: ManualClock; config?: RateLimitConfiguration; auth?: boolean } = {}) {
  const clock = options.clock ?? new ManualClock(0);
  const app = createApp();
  if (options.config) app.services.addValue(RateLimitConfiguration, options.config);
  app.services.add(RateLimitStore, (s) => new InProcessRateLimitStore({ clock, maxTrackedPartitions: s.get(RateLimitConfiguration).maxTrackedPartitions }), { type: RegistrationType.Replace });
  if (options.auth) {
    app.services.add(Authenticator, () => new ApiKeyAuthenticator({
      keys: { alice: { subject: 'alice', grants: ['reports'] }, bob: { subject: 'bob' }, eve: { subject: 'eve' } },
    }));
  }
  let calls = 0;
  app.route(route('POST', '/r', annotations, () => ({ n: ++calls })));
  return { app, clock, calls: () => calls };
}
const hit = (app: App, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/r', headers });

describe('skipping rate limits over HTTP', () => {
  it('SkipRateLimit exempts a handler from its class\'s limits, by name or all: nothing spent, no headers', async () => {
    @RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 10 })
    @RateLimit({ name: 'hourly', permitLimit: 3, windowSeconds: 3600 })
    class Reports {
      @Get('/reports') list() { return 'list'; }
      @SkipRateLimit('burst') @Get('/reports/summary') summary() { return 'summary'; }
      @SkipRateLimit() @Get('/reports/health') health() { return 'ok'; }
    }
    const app = createApp().controller(Reports);
    for (let i = 0; i < 5; i++) {
      const health = await app.inject({ url: '/reports/health' });
      assert.equal(health.statusCode, 200);
      assert.equal(health.headers['ratelimit-limit'], undefined);
    }
    const summary = await app.inject({ url: '/reports/summary' });
    assert.equal(summary.headers['ratelimit-limit'], '3', 'only the hourly limit counts');
    assert.equal((await app.inject({ url: '/reports/summary' })).statusCode, 200, 'no burst limit here');
    assert.equal((await app.inject({ url: '/reports' })).statusCode, 200);
    assert.equal((await app.inject({ url: '/reports' })).statusCode, 429);
    assert.throws(() => SkipRateLimit(''), /non-empty strings/);
  });

  it('a skip predicate leaves requests out per counter, before partitioning: nothing spent, no headers', async () => {
    const asked: string[] = [];
    let partitioned = 0;
    const { app } = limitedApp([RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 10 }), RateLimit({ name: 'daily', permitLimit: 2, windowSeconds: 86_400 })], {
      config: new RateLimitConfiguration({
        skip: (ctx, policy) => {
          asked.push(policy.name);
          return ctx.request.headers.get('x-internal') === 'yes' && (policy.name === 'burst' || ctx.request.headers.get('x-all') === 'yes');
        },
      }),
    });
    app.services.replace(RateLimitPartitioner, () => ({ partition: () => { partitioned++; return 'p'; } }));
    const all = await hit(app, { 'x-internal': 'yes', 'x-all': 'yes' });
    assert.equal(all.statusCode, 200);
    assert.equal(all.headers['ratelimit-limit'], undefined);
    assert.equal(partitioned, 0, 'a request left out of every limit is never partitioned');
    const internal = await hit(app, { 'x-internal': 'yes' });
    assert.equal(internal.headers['ratelimit-limit'], '2', 'only the daily counter reports');
    assert.equal((await hit(app, { 'x-internal': 'yes' })).statusCode, 200, 'burst skipped');
    assert.equal((await hit(app, { 'x-internal': 'yes' })).statusCode, 429, 'daily spent by the two before');
    assert.deepEqual(asked.slice(0, 2), ['burst', 'daily']);
    assert.throws(() => new RateLimitConfiguration({ skip: 'yes' as never }), /skip must be a function/);
  });
});

describe('partitioning by the caller\'s address', () => {
  it('a custom partitioner may key by the client address behind a trusted proxy; the default one never does', async () => {
    const app = createApp({ trustProxy: 'loopback' });
    app.route(route('GET', '/a', [RateLimit({ permitLimit: 1, windowSeconds: 60 })], () => 'ok'));
    const from = (client: string) => app.inject({ url: '/a', headers: { 'x-forwarded-for': client } });
    assert.equal((await from('198.51.100.1')).statusCode, 200);
    assert.equal((await from('198.51.100.2')).statusCode, 429, 'the default partitioner puts every anonymous caller in one bucket');

    const byAddress = createApp({ trustProxy: 'loopback' });
    byAddress.services.replace(RateLimitPartitioner, () => ({ partition: (ctx: ExecutionContext) => `ip:${ctx.request.clientAddress ?? 'unknown'}` }));
    byAddress.route(route('GET', '/a', [RateLimit({ permitLimit: 1, windowSeconds: 60 })], () => 'ok'));
    const at = (client: string) => byAddress.inject({ url: '/a', headers: { 'x-forwarded-for': client } });
    assert.equal((await at('198.51.100.1')).statusCode, 200);
    assert.equal((await at('198.51.100.2')).statusCode, 200);
    assert.equal((await at('198.51.100.1')).statusCode, 429);
  });
});

describe('rate limiting over HTTP', () => {
  it('a full allowance spent just before a window ends leaves nothing at the start of the next', async () => {
    const { app, clock } = limitedApp([RateLimit({ permitLimit: 5, windowSeconds: 10 })]);
    clock.set(9_900);
    for (let i = 0; i < 5; i++) assert.equal((await hit(app)).statusCode, 200);
    clock.set(10_100);
    assert.equal((await hit(app)).statusCode, 429);
    clock.set(19_899);
    assert.equal((await hit(app)).statusCode, 429);
    clock.set(19_900);
    assert.equal((await hit(app)).statusCode, 200);
  });

  it('every allowed response carries RateLimit-Limit, -Remaining and -Reset', async () => {
    const { app, clock } = limitedApp([RateLimit({ permitLimit: 3, windowSeconds: 60 })]);
    const first = await hit(app);
    assert.deepEqual([first.headers['ratelimit-limit'], first.headers['ratelimit-remaining'], first.headers['ratelimit-reset']], ['3', '2', '60']);
    clock.advance(10_000);
    const second = await hit(app);
    assert.deepEqual([second.headers['ratelimit-remaining'], second.headers['ratelimit-reset']], ['1', '50']);
  });

  it('429 with Retry-After and a problem body that never reveals the partition; retry after exactly Retry-After succeeds, just before fails', async () => {
    const { app, clock, calls } = limitedApp([RateLimit({ permitLimit: 2, windowSeconds: 30 })], { auth: true });
    const alice = { 'x-api-key': 'alice' };
    await hit(app, alice);
    clock.advance(4_000);
    await hit(app, alice);
    const refused = await hit(app, alice);
    assert.equal(refused.statusCode, 429);
    const retryAfter = Number(refused.headers['retry-after']);
    assert.equal(retryAfter, 26);
    assert.equal(refused.headers['content-type'], 'application/problem+json; charset=utf-8');
    const body = refused.json();
    assert.equal(body.title, 'Too Many Requests');
    assert.equal(body.status, 429);
    assert.equal(body.retryAfter, 26);
    assert.match(body.detail, /"default" of 2 requests per 30 seconds.*retry after 26 seconds/);
    assert.doesNotMatch(refused.body, /alice/);
    assert.deepEqual([refused.headers['ratelimit-limit'], refused.headers['ratelimit-remaining']], ['2', '0']);
    assert.equal(calls(), 2, 'the handler never ran for the refused request');
    clock.advance(retryAfter * 1000 - 1);
    assert.equal((await hit(app, alice)).statusCode, 429);
    clock.advance(1);
    assert.equal((await hit(app, alice)).statusCode, 200);
  });

  it('names count separately; the shortest window goes first, so a refused burst does not spend the hourly allowance', async () => {
    const { app, clock } = limitedApp([
      RateLimit({ name: 'hourly', permitLimit: 4, windowSeconds: 3600 }),
      RateLimit({ name: 'burst', permitLimit: 2, windowSeconds: 1 }),
    ]);
    assert.equal((await hit(app)).statusCode, 200);
    const second = await hit(app);
    assert.equal(second.headers['ratelimit-remaining'], '0', 'the counter with the fewest remaining is reported');
    assert.equal(second.headers['ratelimit-limit'], '2');
    for (let i = 0; i < 5; i++) assert.equal((await hit(app)).statusCode, 429);
    assert.match((await hit(app)).json().detail, /"burst"/);
    clock.advance(1_000);
    assert.equal((await hit(app)).statusCode, 200);
    const fourth = await hit(app);
    assert.equal(fourth.statusCode, 200, 'refused bursts spent nothing of the hourly allowance');
    assert.deepEqual([fourth.headers['ratelimit-limit'], fourth.headers['ratelimit-remaining']], ['4', '0']);
    clock.advance(1_000);
    const hourly = await hit(app);
    assert.equal(hourly.statusCode, 429);
    assert.match(hourly.json().detail, /"hourly"/);
  });

  it('headers report across both scopes: the counter with the fewest remaining wins', async () => {
    const { app } = limitedApp([
      RateLimit({ name: 'edge', permitLimit: 10, windowSeconds: 60 }),
      RateLimit({ name: 'per-user', permitLimit: 2, windowSeconds: 60, scope: RateLimitScope.Principal }),
    ], { auth: true });
    const first = await hit(app, { 'x-api-key': 'alice' });
    assert.deepEqual([first.headers['ratelimit-limit'], first.headers['ratelimit-remaining']], ['2', '1']);
    await hit(app, { 'x-api-key': 'alice' });
    const third = await hit(app, { 'x-api-key': 'alice' });
    assert.equal(third.statusCode, 429);
    assert.match(third.json().detail, /"per-user"/);
    const bob = await hit(app, { 'x-api-key': 'bob' });
    assert.deepEqual([bob.headers['ratelimit-limit'], bob.headers['ratelimit-remaining']], ['2', '1'], 'per-user counts per subject');
  });

  it('same-name annotations share one counter: counted once per request; a method-level one replaces a class-level one', async () => {
    const { app } = limitedApp([RateLimit({ name: 'x', permitLimit: 2, windowSeconds: 60 }), RateLimit({ name: 'x', permitLimit: 2, windowSeconds: 60 })]);
    assert.equal((await hit(app)).headers['ratelimit-remaining'], '1');

    @RateLimit({ name: 'shared', permitLimit: 1, windowSeconds: 60 })
    class Reports {
      @RateLimit({ name: 'shared', permitLimit: 3, windowSeconds: 60 }) @Get('/a') a() { return 'a'; }
      @Get('/b') b() { return 'b'; }
    }
    const classApp = createApp().controller(Reports);
    for (let i = 0; i < 3; i++) assert.equal((await classApp.inject({ url: '/a' })).statusCode, 200);
    assert.equal((await classApp.inject({ url: '/a' })).statusCode, 429);
    assert.equal((await classApp.inject({ url: '/b' })).statusCode, 200);
    assert.equal((await classApp.inject({ url: '/b' })).statusCode, 429, 'per handler: /b has its own counter');
  });

  it('two annotations of one name on one level with different settings stop the app at build time, naming both', () => {
    class Bad {
      @RateLimit({ name: 'burst', permitLimit: 5, windowSeconds: 1 }) @RateLimit({ name: 'burst', permitLimit: 10, windowSeconds: 1 }) @Get('/bad') bad() { return 1; }
    }
    assert.throws(() => createApp().controller(Bad).build(), (e: Error) =>
      /Bad\.bad \(GET \/bad\)/.test(e.message) && /permitLimit: 5/.test(e.message) && /permitLimit: 10/.test(e.message));
    const fn = createApp().route(route('GET', '/f', [RateLimit({ name: 'n', windowSeconds: 1 }), RateLimit({ name: 'n', windowSeconds: 2 })], () => 1));
    assert.throws(() => fn.build(), /share the name "n"/);
  });

  it('transport scope answers 429 while the client has sent only headers announcing a 10 MB body', async () => {
    const { app } = limitedApp([RateLimit({ permitLimit: 1, windowSeconds: 60 })]);
    const { port } = await app.listen();
    try {
      const send = () => new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let data = '';
        const timer = setTimeout(() => { socket.destroy(); reject(new Error(`no answer: ${data}`)); }, 5000);
        socket.on('data', (c) => { data += c; if (/\r\n\r\n[\s\S]*\}/.test(data)) { clearTimeout(timer); socket.destroy(); resolve(data); } });
        socket.on('error', reject);
        socket.write('POST /r HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n');
      });
      await app.inject({ method: 'POST', url: '/r' });
      const answer = await send();
      assert.match(answer, /^HTTP\/1\.1 429 /);
      assert.match(answer, /retry-after: \d+/i);
    } finally {
      await app.close();
    }
  });

  it('principal scope runs after authentication: a caller authorization refuses still spends a permit', async () => {
    const { app } = limitedApp([RateLimit({ permitLimit: 3, windowSeconds: 60, scope: RateLimitScope.Principal }), Authorize('reports')], { auth: true });
    assert.equal((await hit(app, { 'x-api-key': 'bob' })).statusCode, 403);
    assert.equal((await hit(app, { 'x-api-key': 'bob' })).statusCode, 403);
    const third = await hit(app, { 'x-api-key': 'bob' });
    assert.equal(third.statusCode, 403);
    assert.equal(third.headers['ratelimit-remaining'], '0');
    assert.equal((await hit(app, { 'x-api-key': 'bob' })).statusCode, 429, 'the limit is checked before authorization');
    assert.equal((await hit(app, { 'x-api-key': 'alice' })).headers['ratelimit-remaining'], '2', 'alice has her own partition');
  });

  it('partitions by subject, then the configured header, then one anonymous bucket; never by remote address', async () => {
    const { app } = limitedApp([RateLimit({ permitLimit: 1, windowSeconds: 60, scope: RateLimitScope.Principal })], {
      auth: true, config: new RateLimitConfiguration({ partitionHeader: 'X-Tenant' }),
    });
    assert.equal((await hit(app, { 'x-api-key': 'alice', 'x-tenant': 't1' })).statusCode, 200);
    assert.equal((await hit(app, { 'x-tenant': 't1' })).statusCode, 200, 'a header partition is not the subject partition');
    assert.equal((await hit(app, { 'x-tenant': 't1' })).statusCode, 429);
    assert.equal((await hit(app, { 'x-tenant': 't2' })).statusCode, 200);
    assert.equal((await hit(app, { 'x-forwarded-for': '10.0.0.1' })).statusCode, 200);
    assert.equal((await hit(app, { 'x-forwarded-for': '10.0.0.2' })).statusCode, 429, 'unattributable callers share one bucket');
    assert.equal((await hit(app, { 'x-tenant': 'anonymous' })).statusCode, 200, 'a header value cannot collide with the anonymous bucket');
    assert.equal((await hit(app, { 'x-tenant': 'subject:alice' })).statusCode, 200, 'nor with a subject');

    const partitioner = new DefaultRateLimitPartitioner(new RateLimitConfiguration({ partitionHeader: 'x-tenant' }));
    assert.equal(DefaultRateLimitPartitioner.Anonymous, 'anonymous');
    const ctx = (principal: unknown, headers: Record<string, string>) => ({ principal, request: { headers: { get: (n: string) => headers[n] } } }) as unknown as ExecutionContext;
    assert.equal(partitioner.partition(ctx(null, {})), DefaultRateLimitPartitioner.Anonymous);
  });

  it('at transport scope there is no subject yet: authenticated callers share the transport bucket', async () => {
    const { app } = limitedApp([RateLimit({ permitLimit: 1, windowSeconds: 60 })], { auth: true });
    assert.equal((await hit(app, { 'x-api-key': 'alice' })).statusCode, 200);
    assert.equal((await hit(app, { 'x-api-key': 'bob' })).statusCode, 429);
  });

  it('the partition cap: new partitions pass unlimited, tracked ones stay limited, expired ones stop counting', async () => {
    const { app, clock } = limitedApp([RateLimit({ permitLimit: 1, windowSeconds: 10 })], { config: new RateLimitConfiguration({ partitionHeader: 'x-tenant', maxTrackedPartitions: 2 }) });
    const as = (t: string) => hit(app, { 'x-tenant': t });
    assert.equal((await as('a')).statusCode, 200);
    assert.equal((await as('b')).statusCode, 200);
    for (let i = 0; i < 3; i++) assert.equal((await as('c')).statusCode, 200, 'at the cap a new partition fails open');
    assert.equal((await as('a')).statusCode, 429, 'tracked partitions stay limited');
    clock.advance(10_000);
    assert.equal((await as('d')).statusCode, 200);
    assert.equal((await as('d')).statusCode, 429, 'expired partitions no longer count toward the cap');
  });

  it('a custom store and partitioner registered with Replace are used, and the store is resolved per request', async () => {
    const seen: string[] = [];
    let constructed = 0;
    class CountingStore {
      constructor() { constructed++; }
      async acquire(partition: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
        seen.push(`${partition}|${policy.key}`);
        return { allowed: seen.length <= 2, limit: 2, remaining: Math.max(0, 2 - seen.length), reset: 5, retryAfter: seen.length <= 2 ? 0 : 5 };
      }
    }
    const app = createApp();
    app.services.add(RateLimitStore, () => new CountingStore(), { type: RegistrationType.Replace, lifetime: Lifetime.Transient });
    app.services.replace(RateLimitPartitioner, () => ({ partition: (ctx: ExecutionContext) => `tenant:${ctx.request.headers.get('x-t') ?? '-'}` }));
    app.route(route('GET', '/c', [RateLimit({ name: 'n', permitLimit: 2 })], () => 'ok'));
    assert.equal((await app.inject({ url: '/c', headers: { 'x-t': 'acme' } })).statusCode, 200);
    assert.equal((await app.inject({ url: '/c', headers: { 'x-t': 'acme' } })).statusCode, 200);
    const third = await app.inject({ url: '/c', headers: { 'x-t': 'acme' } });
    assert.equal(third.statusCode, 429);
    assert.equal(third.headers['retry-after'], '5');
    assert.deepEqual(seen, Array(3).fill('tenant:acme|GET /c#n'));
    assert.equal(constructed, 3);
  });

  it('a handler with the annotation but no store registered is not limited', async () => {
    const app = createApp();
    app.services.remove(RateLimitStore);
    app.route(route('GET', '/free', [RateLimit({ permitLimit: 1 })], () => 'ok'));
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ url: '/free' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
  });

  it('defaults are registered with Try: the in-process store by default, an application configuration wins', async () => {
    const app = createApp();
    app.route(route('GET', '/d', [RateLimit({ permitLimit: 1 })], () => 'ok'));
    app.services.addValue(RateLimitConfiguration, new RateLimitConfiguration({ structuredHeaders: true }));
    const res = await app.inject({ url: '/d' });
    assert.equal(res.headers['ratelimit-policy'], '"default";q=1;w=60');
    assert.equal(res.headers.ratelimit, '"default";r=0;t=60');
    assert.equal((await app.inject({ url: '/d' })).statusCode, 429);
  });

  it('bad annotation settings are refused clearly', () => {
    assert.throws(() => RateLimit({ permitLimit: 0 }), /permitLimit must be a positive whole number/);
    assert.throws(() => RateLimit({ windowSeconds: -1 }), /windowSeconds/);
    assert.throws(() => RateLimit({ name: '' }), /name/);
    assert.throws(() => RateLimit({ scope: 'ip' as never }), /scope/);
    assert.throws(() => new RateLimitConfiguration({ partitionHeader: 'bad header' }), /header name/);
  });

  it('a store that fails gives a 503 problem, not a crash', async () => {
    const app = createApp();
    app.services.replace(RateLimitStore, () => ({ acquire: () => Promise.reject(new Error('down')) }));
    app.route(route('GET', '/s', [RateLimit()], () => 'ok'));
    const res = await app.inject({ url: '/s' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.json().title, 'Service Unavailable');
    assert.equal(res.headers['retry-after'], '1');
  });

  it('a store that throws RateLimitStoreUnavailableError sets the 503 problem\'s Retry-After', async () => {
    const app = createApp();
    const error = new RateLimitStoreUnavailableError('counter service timed out', { retryAfter: 7 });
    app.services.replace(RateLimitStore, () => ({ acquire: () => Promise.reject(error) }));
    app.route(route('GET', '/s', [RateLimit()], () => 'ok'));
    const res = await app.inject({ url: '/s' });
    assert.equal(res.statusCode, 503);
    assert.equal(res.headers['retry-after'], '7');
    assert.equal(res.json().retryAfter, 7);
    assert.equal(res.json().reason, 'RateLimitStoreUnavailableError');
  });
});
