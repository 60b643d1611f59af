import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { describe, it } from 'node:test';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { SignJWT } from 'jose';
import {
  ApiKeyAuthenticator,
  Authenticator,
  Authorize,
  createApp,
  Get,
  JwtBearerAuthenticator,
  Lifetime,
  Logger,
  RegistrationType,
  route,
} from '../../packages/trellis/src/index.js';
import type { Annotation, App, ExecutionContext } from '../../packages/trellis/src/index.js';
import {
  DefaultRateLimitPartitioner,
  InProcessRateLimitStore,
  ManualClock,
  RateLimit,
  RateLimitConfiguration,
  RateLimitObserver,
  RateLimitPartitioner,
  RateLimitPolicyResolver,
  RateLimitScope,
  RateLimitStore,
  RateLimitStoreUnavailableError,
  SkipRateLimit,
  combineRateLimitObservers,
  rateLimitMetrics,
} from '../../packages/trellis/src/ratelimit/index.js';
import type {
  AcquireOptions,
  RateLimitDecision,
  RateLimitDecisionEvent,
  RateLimitPolicy,
  RateLimitPolicyNumbers,
} from '../../packages/trellis/src/ratelimit/index.js';

function limitedApp(
  annotations: readonly Annotation[],
  options: { clock?: ManualClock; config?: RateLimitConfiguration; auth?: boolean } = {},
) {
  const clock = options.clock ?? new ManualClock(0);
  const app = createApp();
  if (options.config) app.services.addValue(RateLimitConfiguration, options.config);
  app.services.add(
    RateLimitStore,
    (s) => new InProcessRateLimitStore({ clock, maxTrackedPartitions: s.get(RateLimitConfiguration).maxTrackedPartitions }),
    { type: RegistrationType.Replace },
  );
  if (options.auth) {
    app.services.add(
      Authenticator,
      () =>
        new ApiKeyAuthenticator({
          keys: { alice: { subject: 'alice', grants: ['reports'] }, bob: { subject: 'bob' }, eve: { subject: 'eve' } },
        }),
    );
  }
  let calls = 0;
  app.route(route('POST', '/r', annotations, () => ({ n: ++calls })));
  return { app, clock, calls: () => calls };
}
const hit = (app: App, headers: Record<string, string> = {}) => app.inject({ method: 'POST', url: '/r', headers });

describe('skipping rate limits over HTTP', () => {
  it("SkipRateLimit exempts a handler from its class's limits, by name or all: nothing spent, no headers", async () => {
    @RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 10 })
    @RateLimit({ name: 'hourly', permitLimit: 3, windowSeconds: 3600 })
    class Reports {
      @Get('/reports') list() {
        return 'list';
      }
      @SkipRateLimit('burst') @Get('/reports/summary') summary() {
        return 'summary';
      }
      @SkipRateLimit() @Get('/reports/health') health() {
        return 'ok';
      }
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
    const { app } = limitedApp(
      [
        RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 10 }),
        RateLimit({ name: 'daily', permitLimit: 2, windowSeconds: 86_400 }),
      ],
      {
        config: new RateLimitConfiguration({
          skip: (ctx, policy) => {
            asked.push(policy.name);
            return (
              ctx.request.headers.get('x-internal') === 'yes' && (policy.name === 'burst' || ctx.request.headers.get('x-all') === 'yes')
            );
          },
        }),
      },
    );
    app.services.replace(RateLimitPartitioner, () => ({
      partition: () => {
        partitioned++;
        return 'p';
      },
    }));
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

describe("partitioning by the caller's address", () => {
  it('a custom partitioner may key by the client address behind a trusted proxy; the default one never does', async () => {
    const app = createApp({ trustProxy: 'loopback' });
    app.route(route('GET', '/a', [RateLimit({ permitLimit: 1, windowSeconds: 60 })], () => 'ok'));
    const from = (client: string) => app.inject({ url: '/a', headers: { 'x-forwarded-for': client } });
    assert.equal((await from('198.51.100.1')).statusCode, 200);
    assert.equal((await from('198.51.100.2')).statusCode, 429, 'the default partitioner puts every anonymous caller in one bucket');

    const byAddress = createApp({ trustProxy: 'loopback' });
    byAddress.services.replace(RateLimitPartitioner, () => ({
      partition: (ctx: ExecutionContext) => `ip:${ctx.request.clientAddress ?? 'unknown'}`,
    }));
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
    assert.deepEqual(
      [first.headers['ratelimit-limit'], first.headers['ratelimit-remaining'], first.headers['ratelimit-reset']],
      ['3', '2', '60'],
    );
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
    const { app } = limitedApp(
      [
        RateLimit({ name: 'edge', permitLimit: 10, windowSeconds: 60 }),
        RateLimit({ name: 'per-user', permitLimit: 2, windowSeconds: 60, scope: RateLimitScope.Principal }),
      ],
      { auth: true },
    );
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
    const { app } = limitedApp([
      RateLimit({ name: 'x', permitLimit: 2, windowSeconds: 60 }),
      RateLimit({ name: 'x', permitLimit: 2, windowSeconds: 60 }),
    ]);
    assert.equal((await hit(app)).headers['ratelimit-remaining'], '1');

    @RateLimit({ name: 'shared', permitLimit: 1, windowSeconds: 60 })
    class Reports {
      @RateLimit({ name: 'shared', permitLimit: 3, windowSeconds: 60 }) @Get('/a') a() {
        return 'a';
      }
      @Get('/b') b() {
        return 'b';
      }
    }
    const classApp = createApp().controller(Reports);
    for (let i = 0; i < 3; i++) assert.equal((await classApp.inject({ url: '/a' })).statusCode, 200);
    assert.equal((await classApp.inject({ url: '/a' })).statusCode, 429);
    assert.equal((await classApp.inject({ url: '/b' })).statusCode, 200);
    assert.equal((await classApp.inject({ url: '/b' })).statusCode, 429, 'per handler: /b has its own counter');
  });

  it('two annotations of one name on one level with different settings stop the app at build time, naming both', () => {
    class Bad {
      @RateLimit({ name: 'burst', permitLimit: 5, windowSeconds: 1 })
      @RateLimit({ name: 'burst', permitLimit: 10, windowSeconds: 1 })
      @Get('/bad')
      bad() {
        return 1;
      }
    }
    assert.throws(
      () => createApp().controller(Bad).build(),
      (e: Error) => /Bad\.bad \(GET \/bad\)/.test(e.message) && /permitLimit: 5/.test(e.message) && /permitLimit: 10/.test(e.message),
    );
    const fn = createApp().route(
      route('GET', '/f', [RateLimit({ name: 'n', windowSeconds: 1 }), RateLimit({ name: 'n', windowSeconds: 2 })], () => 1),
    );
    assert.throws(() => fn.build(), /share the name "n"/);
  });

  it('transport scope answers 429 while the client has sent only headers announcing a 10 MB body', async () => {
    const { app } = limitedApp([RateLimit({ permitLimit: 1, windowSeconds: 60 })]);
    const { port } = await app.listen();
    try {
      const send = () =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let data = '';
          const timer = setTimeout(() => {
            socket.destroy();
            reject(new Error(`no answer: ${data}`));
          }, 5000);
          socket.on('data', (c: Buffer) => {
            data += c.toString('latin1');
            if (/\r\n\r\n[\s\S]*\}/.test(data)) {
              clearTimeout(timer);
              socket.destroy();
              resolve(data);
            }
          });
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
    const { app } = limitedApp([RateLimit({ permitLimit: 3, windowSeconds: 60, scope: RateLimitScope.Principal }), Authorize('reports')], {
      auth: true,
    });
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
      auth: true,
      config: new RateLimitConfiguration({ partitionHeader: 'X-Tenant' }),
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
    const ctx = (principal: unknown, headers: Record<string, string>) =>
      ({ principal, request: { headers: { get: (n: string) => headers[n] } } }) as unknown as ExecutionContext;
    assert.equal(partitioner.partition(ctx(null, {})), DefaultRateLimitPartitioner.Anonymous);
  });

  it('at transport scope there is no subject yet: authenticated callers share the transport bucket', async () => {
    const { app } = limitedApp([RateLimit({ permitLimit: 1, windowSeconds: 60 })], { auth: true });
    assert.equal((await hit(app, { 'x-api-key': 'alice' })).statusCode, 200);
    assert.equal((await hit(app, { 'x-api-key': 'bob' })).statusCode, 429);
  });

  it('the partition cap: new partitions pass unlimited, tracked ones stay limited, expired ones stop counting', async () => {
    const { app, clock } = limitedApp([RateLimit({ permitLimit: 1, windowSeconds: 10 })], {
      config: new RateLimitConfiguration({ partitionHeader: 'x-tenant', maxTrackedPartitions: 2 }),
    });
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
      constructor() {
        constructed++;
      }
      async acquire(partition: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
        seen.push(`${partition}|${policy.key}`);
        return {
          allowed: seen.length <= 2,
          limit: 2,
          remaining: Math.max(0, 2 - seen.length),
          reset: 5,
          retryAfter: seen.length <= 2 ? 0 : 5,
        };
      }
    }
    const app = createApp();
    app.services.add(RateLimitStore, () => new CountingStore(), { type: RegistrationType.Replace, lifetime: Lifetime.Transient });
    app.services.replace(RateLimitPartitioner, () => ({
      partition: (ctx: ExecutionContext) => `tenant:${ctx.request.headers.get('x-t') ?? '-'}`,
    }));
    app.route(route('GET', '/c', [RateLimit({ name: 'n', permitLimit: 2 })], () => 'ok'));
    assert.equal((await app.inject({ url: '/c', headers: { 'x-t': 'acme' } })).statusCode, 200);
    assert.equal((await app.inject({ url: '/c', headers: { 'x-t': 'acme' } })).statusCode, 200);
    const third = await app.inject({ url: '/c', headers: { 'x-t': 'acme' } });
    assert.equal(third.statusCode, 429);
    assert.equal(third.headers['retry-after'], '5');
    assert.deepEqual(seen, Array(3).fill('tenant:acme|GET /c#n'));
    assert.equal(constructed, 3);
  });

  it('a store that answers at once is used without a promise or an abort signal; an async one gets the signal', async () => {
    const inner = new InProcessRateLimitStore({ clock: new ManualClock(0) });
    const seen: Array<{ sync: boolean; signal: boolean; cost: number | undefined }> = [];
    const app = createApp();
    let sync = true;
    app.services.replace(RateLimitStore, () => ({
      acquire(p: string, policy: RateLimitPolicy, options?: AcquireOptions) {
        if (sync) {
          seen.push({ sync, signal: false, cost: options?.cost });
          return inner.acquire(p, policy, options);
        }
        seen.push({ sync, signal: options?.signal instanceof AbortSignal, cost: options?.cost });
        return Promise.resolve(inner.acquire(p, policy, options));
      },
    }));
    app.route(route('GET', '/n', [RateLimit({ permitLimit: 2 })], () => 'ok'));
    assert.equal((await app.inject({ url: '/n' })).statusCode, 200);
    sync = false;
    assert.equal((await app.inject({ url: '/n' })).headers['ratelimit-remaining'], '0');
    assert.equal((await app.inject({ url: '/n' })).statusCode, 429);
    assert.deepEqual(seen, [
      { sync: true, signal: false, cost: 1 },
      { sync: false, signal: true, cost: 1 },
      { sync: false, signal: true, cost: 1 },
    ]);
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
    app.services.addValue(RateLimitConfiguration, new RateLimitConfiguration({ headers: ['standard', 'structured'] }));
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

  it("a store that throws RateLimitStoreUnavailableError sets the 503 problem's Retry-After", async () => {
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

describe('cost over HTTP', () => {
  it('a constant cost spends that many permits; RateLimit-Remaining counts permits; a request that does not fit is refused and spends nothing', async () => {
    const { app, clock, calls } = limitedApp([RateLimit({ name: 'exports', permitLimit: 10, windowSeconds: 60, cost: 4 })]);
    const first = await hit(app);
    assert.equal(first.statusCode, 200);
    assert.equal(first.headers['ratelimit-remaining'], '6');
    clock.advance(10_000);
    assert.equal((await hit(app)).headers['ratelimit-remaining'], '2');
    clock.advance(20_000);
    const refused = await hit(app);
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['ratelimit-remaining'], '2', 'the permits actually left: fewer than the 4 it needs');
    assert.equal(refused.headers['retry-after'], '30', 'the first 4 permits free at 60 s');
    assert.deepEqual(
      { detail: refused.json().detail, cost: refused.json().cost },
      {
        detail:
          'The rate limit "exports" of 10 permits per 60 seconds has fewer than the 4 this request needs left; retry after 30 seconds.',
        cost: 4,
      },
    );
    assert.equal(calls(), 2);
    clock.advance(30_000);
    assert.equal((await hit(app)).headers['ratelimit-remaining'], '2', 'the refusal spent nothing: 4 freed, 4 spent');
  });

  it('a cost computed from the request line and headers at transport scope, from the principal at principal scope, sync or async', async () => {
    const seenBodies: unknown[] = [];
    const app = createApp();
    app.services.add(RateLimitStore, () => new InProcessRateLimitStore({ clock: new ManualClock(0) }), { type: RegistrationType.Replace });
    app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: { big: { subject: 'big' }, small: { subject: 'small' } } }));
    app.route(
      route(
        'POST',
        '/rows',
        [
          RateLimit({
            name: 'rows',
            permitLimit: 1000,
            windowSeconds: 60,
            cost: (ctx) => {
              seenBodies.push(ctx.body);
              return Number(ctx.request.query.get('rows') ?? '1');
            },
          }),
          RateLimit({
            name: 'weight',
            permitLimit: 10,
            windowSeconds: 60,
            scope: RateLimitScope.Principal,
            cost: async (ctx) => (ctx.principal?.subject === 'big' ? 5 : 1),
          }),
        ],
        () => 'ok',
      ),
    );
    const res = await app.inject({
      method: 'POST',
      url: '/rows?rows=250',
      headers: { 'x-api-key': 'big', 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['ratelimit-remaining'], '5', 'the principal counter (10 - 5) has fewer left than the rows one (750)');
    assert.deepEqual(seenBodies, [undefined], 'no body read before the transport-scope cost');
    // Transport scope has no subject yet: one bucket, 1000 - 250 - 700 = 50 left; small's own counter has 9.
    assert.equal(
      (await app.inject({ method: 'POST', url: '/rows?rows=700', headers: { 'x-api-key': 'small' } })).headers['ratelimit-remaining'],
      '9',
    );
    const over = await app.inject({ method: 'POST', url: '/rows?rows=51', headers: { 'x-api-key': 'small' } });
    assert.equal(over.statusCode, 429);
    assert.equal(over.json().limit, 'rows');
    assert.equal(
      (await app.inject({ method: 'POST', url: '/rows?rows=50', headers: { 'x-api-key': 'small' } })).headers['ratelimit-remaining'],
      '0',
    );
  });

  it('a cost above the limit is refused with Retry-After of one window, and the counter keeps its allowance', async () => {
    const { app } = limitedApp([
      RateLimit({ name: 'tiny', permitLimit: 3, windowSeconds: 20, cost: (ctx) => Number(ctx.request.headers.get('x-cost')) }),
    ]);
    const refused = await hit(app, { 'x-cost': '5' });
    assert.equal(refused.statusCode, 429);
    assert.equal(refused.headers['retry-after'], '20');
    assert.match(refused.json().detail, /needs 5 permits: more than the rate limit "tiny" of 3 permits per 20 seconds allows at all/);
    assert.equal((await hit(app, { 'x-cost': '3' })).headers['ratelimit-remaining'], '0');
  });

  it('a cost function that throws or answers nonsense gives a 500 problem naming the limit, spends nothing, and is logged', async () => {
    const logged: string[] = [];
    for (const [bad, expected] of [
      [
        () => {
          throw new Error('boom');
        },
        /^RateLimitSettings\.cost \(POST \/r#uploads\) threw Error: boom; the request was answered 500/,
      ],
      [() => 0, /answered 0, which cannot be used: it must answer a whole number of permits >= 1/],
      [() => 2.5, /answered 2\.5, which cannot be used/],
      [() => Number.NaN, /answered NaN, which cannot be used/],
      [() => '3', /answered "3", which cannot be used/],
      [async () => Promise.reject(new Error('late boom')), /rejected with Error: late boom/],
      [async () => -1, /answered -1, which cannot be used/],
    ] as const) {
      const { app, calls } = limitedApp([RateLimit({ name: 'uploads', permitLimit: 2, cost: bad as () => number })]);
      app.services.replace(Logger, () => ({ warn() {}, error: (m: string) => logged.push(m) }));
      const res = await hit(app);
      assert.equal(res.statusCode, 500);
      assert.equal(res.json().limit, 'uploads');
      assert.match(
        res.json().detail,
        /The rate limit "uploads" could not be applied to this request: its cost function did not give a usable answer/,
      );
      assert.equal(calls(), 0);
      assert.match(logged.at(-1)!, expected);
    }
    assert.throws(() => RateLimit({ cost: 0 }), /cost must be a whole number/);
    assert.throws(() => RateLimit({ cost: 'x' as never }), /cost must be a whole number/);
  });

  it('the functional form takes a cost too, and so does a real socket', async () => {
    const app = createApp();
    app.route(route('GET', '/heavy', [RateLimit({ permitLimit: 6, cost: 3 })], () => 'ok'));
    const { port } = await app.listen();
    try {
      const get = () => fetch(`http://127.0.0.1:${port}/heavy`);
      assert.equal((await get()).headers.get('ratelimit-remaining'), '3');
      assert.equal((await get()).headers.get('ratelimit-remaining'), '0');
      assert.equal((await get()).status, 429);
    } finally {
      await app.close();
    }
  });
});

describe('limits per caller over HTTP', () => {
  const secret = 'a-test-secret-that-is-long-enough-32b';
  const key = new TextEncoder().encode(secret);
  const tokenFor = (sub: string, plan?: string) => {
    const jwt = new SignJWT(plan === undefined ? {} : { plan })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(sub)
      .setAudience('plans-api')
      .setIssuedAt()
      .setExpirationTime('5m');
    return jwt.sign(key);
  };
  const plans: Record<string, RateLimitPolicyNumbers> = {
    free: { permitLimit: 2, windowSeconds: 60 },
    pro: { permitLimit: 5, windowSeconds: 60 },
  };

  function planApp(resolver: RateLimitPolicyResolver, clock = new ManualClock(0)) {
    const app = createApp();
    app.services.add(RateLimitStore, () => new InProcessRateLimitStore({ clock }), { type: RegistrationType.Replace });
    app.services.add(Authenticator, () => new JwtBearerAuthenticator({ secret, audience: 'plans-api' }));
    app.services.add(RateLimitPolicyResolver, () => resolver);
    app.route(
      route('GET', '/api', [RateLimit({ name: 'api', permitLimit: 3, windowSeconds: 60, scope: RateLimitScope.Principal })], () => 'ok'),
    );
    return { app, clock };
  }
  const call = async (app: App, token?: string) => app.inject({ url: '/api', headers: token ? { authorization: `Bearer ${token}` } : {} });

  it("a resolver reading a plan from a JWT claim sets each caller's limit; without an answer the annotation's numbers hold", async () => {
    const { app } = planApp({ resolve: (ctx) => plans[ctx.principal?.claims?.plan as string] });
    const free = await tokenFor('ann', 'free');
    const pro = await tokenFor('bo', 'pro');
    const none = await tokenFor('cy');
    assert.deepEqual(
      [(await call(app, free)).headers['ratelimit-limit'], (await call(app, free)).statusCode, (await call(app, free)).statusCode],
      ['2', 200, 429],
    );
    const proAnswers = [];
    for (let i = 0; i < 6; i++) proAnswers.push((await call(app, pro)).statusCode);
    assert.deepEqual(proAnswers, [200, 200, 200, 200, 200, 429]);
    assert.equal((await call(app, none)).headers['ratelimit-limit'], '3');
    const refused = await call(app, free);
    assert.match(refused.json().detail, /"api" of 2 requests per 60 seconds/);
  });

  it('a caller whose plan changes keeps its counter: an upgrade admits more at once, a downgrade refuses until permits expire', async () => {
    let plan = 'pro';
    const { app, clock } = planApp({ resolve: async () => plans[plan] });
    const token = await tokenFor('dee');
    for (let i = 0; i < 4; i++) assert.equal((await call(app, token)).statusCode, 200);
    plan = 'free';
    const down = await call(app, token);
    assert.equal(down.statusCode, 429, '4 permits in use, the free plan allows 2');
    assert.equal(down.headers['ratelimit-limit'], '2');
    plan = 'pro';
    assert.equal((await call(app, token)).headers['ratelimit-remaining'], '0', 'back on pro: the 5th permit');
    clock.advance(60_000);
    plan = 'free';
    assert.equal((await call(app, token)).headers['ratelimit-remaining'], '1');
  });

  it('a resolver that throws or answers nonsense gives a 500 problem naming the limit', async () => {
    const answers: unknown[] = [
      { permitLimit: 0, windowSeconds: 60 },
      { permitLimit: 5 },
      { permitLimit: 5, windowSeconds: -1 },
      'pro',
      null,
      7,
    ];
    for (const answer of answers) {
      const { app } = planApp({ resolve: () => answer as RateLimitPolicyNumbers });
      const res = await call(app, await tokenFor('eve'));
      assert.equal(res.statusCode, 500, JSON.stringify(answer));
      assert.equal(res.json().limit, 'api');
      assert.match(res.json().detail, /its RateLimitPolicyResolver did not give a usable answer/);
    }
    const { app } = planApp({
      resolve: () => {
        throw new Error('plan service down');
      },
    });
    assert.equal((await call(app, await tokenFor('eve'))).statusCode, 500);
  });
});

describe('observing rate limiting', () => {
  interface Seen {
    kind: string;
    policy: string;
    partition: string;
    allowed?: boolean;
    failedOpen?: boolean;
    error?: string;
    cost: number;
    timed: boolean;
  }
  function recorder(seen: Seen[]): RateLimitObserver {
    const of = (kind: string, e: RateLimitDecisionEvent): Seen => ({
      kind,
      policy: e.policy.name,
      partition: e.partition,
      allowed: e.decision.allowed,
      failedOpen: e.decision.failedOpen !== undefined,
      cost: e.cost,
      timed: e.durationMs >= 0,
    });
    return {
      decided: (e) => seen.push(of('decided', e)),
      refused: (e) => seen.push(of('refused', e)),
      failedOpen: (e) => seen.push(of('failedOpen', e)),
      storeFailed: (e) =>
        seen.push({
          kind: 'storeFailed',
          policy: e.policy.name,
          partition: e.partition,
          error: (e.error as Error).message,
          cost: e.cost,
          timed: e.durationMs >= 0,
        }),
    };
  }

  it('the observer hears every decision, each refusal, each fail-open and each store error, with policy and partition', async () => {
    const seen: Seen[] = [];
    const { app } = limitedApp([RateLimit({ name: 'n', permitLimit: 1, windowSeconds: 60 })], {
      config: new RateLimitConfiguration({ maxTrackedPartitions: 1, partitionHeader: 'x-t' }),
    });
    app.services.add(RateLimitObserver, () => recorder(seen));
    await hit(app, { 'x-t': 'a' });
    await hit(app, { 'x-t': 'a' });
    await hit(app, { 'x-t': 'b' }); // over the partition cap: fails open
    assert.deepEqual(seen, [
      { kind: 'decided', policy: 'n', partition: 'header:a', allowed: true, failedOpen: false, cost: 1, timed: true },
      { kind: 'decided', policy: 'n', partition: 'header:a', allowed: false, failedOpen: false, cost: 1, timed: true },
      { kind: 'refused', policy: 'n', partition: 'header:a', allowed: false, failedOpen: false, cost: 1, timed: true },
      { kind: 'decided', policy: 'n', partition: 'header:b', allowed: true, failedOpen: true, cost: 1, timed: true },
      { kind: 'failedOpen', policy: 'n', partition: 'header:b', allowed: true, failedOpen: true, cost: 1, timed: true },
    ]);

    seen.length = 0;
    const broken = createApp();
    broken.services.replace(RateLimitStore, () => ({
      acquire: async () => {
        throw new Error('store down');
      },
    }));
    broken.services.add(RateLimitObserver, () =>
      combineRateLimitObservers(recorder(seen), {
        storeFailed: () => {
          throw new Error('a broken observer');
        },
      }),
    );
    broken.services.replace(Logger, () => ({ warn() {}, error() {} }));
    broken.route(route('GET', '/s', [RateLimit({ name: 's' })], () => 'ok'));
    assert.equal((await broken.inject({ url: '/s' })).statusCode, 503, 'an observer that throws changes nothing');
    assert.deepEqual(seen, [{ kind: 'storeFailed', policy: 's', partition: 'anonymous', error: 'store down', cost: 1, timed: true }]);
  });

  it('a request the store admitted without counting it (failed open) claims no RateLimit numbers; counted ones still do', async () => {
    const config = new RateLimitConfiguration({ maxTrackedPartitions: 1, partitionHeader: 'x-t', headers: ['standard', 'structured'] });
    const single = limitedApp([RateLimit({ name: 'n', permitLimit: 10, windowSeconds: 60 })], { config }).app;
    const counted = await hit(single, { 'x-t': 'a' });
    assert.equal(counted.headers['ratelimit-remaining'], '9');
    const open = await hit(single, { 'x-t': 'b' }); // over the partition cap: admitted, not counted
    assert.equal(open.statusCode, 200);
    for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'ratelimit', 'ratelimit-policy'])
      assert.equal(open.headers[name], undefined, name);
    const two = limitedApp(
      [RateLimit({ name: 'a', permitLimit: 10, windowSeconds: 60 }), RateLimit({ name: 'b', permitLimit: 5, windowSeconds: 60 })],
      { config },
    ).app;
    assert.equal((await hit(two, { 'x-t': 'a' })).headers['ratelimit-remaining'], '4');
    const bothOpen = await hit(two, { 'x-t': 'b' });
    assert.equal(bothOpen.headers['ratelimit-remaining'], undefined);
  });

  it('an async observer whose promise rejects, alone or combined, is logged; the app keeps answering and no rejection goes unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const logged: string[] = [];
      const audit = {
        write: async (_entry: object) => {
          throw new Error('audit down');
        },
      };
      for (const observer of [
        { refused: (e: { policy: { name: string } }) => audit.write({ limit: e.policy.name }) },
        combineRateLimitObservers(
          {
            decided: async () => {
              throw new Error('metrics down');
            },
          },
          { refused: () => audit.write({}) },
        ),
      ]) {
        const app = createApp();
        app.services.replace(Logger, () => ({
          warn() {},
          debug() {},
          error: (m: string, d?: { error?: unknown }) => logged.push(`${m}: ${(d?.error as Error | undefined)?.message}`),
        }));
        app.services.add(RateLimitObserver, () => observer);
        app.route(route('GET', '/a', [RateLimit({ name: 'a', permitLimit: 1, windowSeconds: 60 })], () => 'ok'));
        assert.equal((await app.inject({ url: '/a' })).statusCode, 200);
        assert.equal((await app.inject({ url: '/a' })).statusCode, 429);
        assert.equal((await app.inject({ url: '/a' })).statusCode, 429, 'the app still answers');
        await new Promise((resolve) => setImmediate(resolve));
      }
      // A rejection nobody handled is reported when the microtasks of a turn are done: one more turn shows it.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
      assert.ok(logged.length >= 4, logged.join('\n'));
      for (const line of logged)
        assert.match(
          line,
          /^RateLimitObserver\.(refused|decided) \(GET \/a#a\) rejected with Error: (audit|metrics) down; the request went on: \2 down$/,
        );
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('refusals are logged at debug and fail-opens and store errors at warn, at most one line per counter per interval, with the count held back', async () => {
    const lines: Array<[string, string, unknown]> = [];
    const logClock = new ManualClock(0);
    let failing = false;
    const app = createApp();
    const inner = new InProcessRateLimitStore({ clock: new ManualClock(0) });
    app.services.replace(RateLimitStore, () => ({
      acquire(p: string, policy: RateLimitPolicy, options?: AcquireOptions) {
        if (failing) throw new Error('redis timed out');
        const d = inner.acquire(p, policy, options);
        return p === 'header:open' ? { ...d, allowed: true, failedOpen: { error: new Error('no answer within 200 ms') } } : d;
      },
    }));
    app.services.addValue(
      RateLimitConfiguration,
      new RateLimitConfiguration({ partitionHeader: 'x-t', logIntervalSeconds: 10, clock: logClock }),
    );
    app.services.replace(Logger, () => ({
      debug: (m: string, d?: Record<string, unknown>) => lines.push(['debug', m, d?.partition]),
      warn: (m: string, d?: Record<string, unknown>) => lines.push(['warn', m, d?.partition]),
      error: (m: string) => lines.push(['error', m, undefined]),
    }));
    app.route(route('GET', '/l', [RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 60 })], () => 'ok'));
    const get = (t: string) => app.inject({ url: '/l', headers: { 'x-t': t } });
    await get('a');
    for (let i = 0; i < 1000; i++) await get('a'); // an attack: 1,000 refusals
    for (let i = 0; i < 1000; i++) await get('open');
    assert.deepEqual(lines, [
      ['debug', 'Rate limit "burst" on GET /l refused a request (1 per 60 s; retry after 60 s)', 'header:a'],
      [
        'warn',
        'Rate limit "burst" on GET /l failed open: the store could not count, so requests pass unlimited (Error: no answer within 200 ms)',
        'header:open',
      ],
    ]);
    logClock.advance(9_999);
    await get('a');
    assert.equal(lines.length, 2, 'still within the interval');
    logClock.advance(1);
    await get('open');
    await get('a');
    assert.deepEqual(
      lines.slice(2).map(([level, m]) => [level, m.replace(/^.*\)(; )?/, '')]),
      [
        ['warn', '999 more like it since the last such line'],
        ['debug', '1000 more like it since the last such line'],
      ],
    );
    failing = true;
    for (let i = 0; i < 50; i++) assert.equal((await get('x')).statusCode, 503);
    assert.deepEqual(
      lines.slice(4).map(([level, m]) => [level, m]),
      [['warn', 'Rate limit "burst" on GET /l could not reach its store; requests are refused with 503 (Error: redis timed out)']],
    );
  });
});

describe('a client that goes away while the store is asked', () => {
  it('is neither logged nor reported as a store error', async () => {
    const lines: string[] = [];
    const storeErrors: unknown[] = [];
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    let asked!: () => void;
    const storeAsked = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const app = createApp();
    // A store that waits (as a store over the network does) and gives up when the request's signal aborts.
    app.services.replace(RateLimitStore, () => ({
      acquire: (_p: string, _policy: RateLimitPolicy, options?: AcquireOptions) =>
        new Promise<RateLimitDecision>((_resolve, reject) => {
          asked();
          options!.signal!.addEventListener(
            'abort',
            () => {
              reject(Object.assign(new Error('The rate-limit acquire was aborted'), { name: 'AbortError' }));
              aborted();
            },
            { once: true },
          );
        }),
    }));
    app.services.replace(Logger, () => ({ debug() {}, warn: (m: string) => lines.push(m), error: (m: string) => lines.push(m) }));
    app.services.add(RateLimitObserver, () => ({ storeFailed: (event) => storeErrors.push(event.error) }));
    app.route(route('GET', '/w', [RateLimit({ permitLimit: 5, windowSeconds: 60 })], () => 'ok'));
    const { port } = await app.listen();
    try {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write('GET /w HTTP/1.1\r\nHost: x\r\n\r\n');
      // The client goes away while the store is deciding.
      await storeAsked;
      socket.destroy();
      await sawAbort;
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(lines, []);
      assert.deepEqual(storeErrors, []);
    } finally {
      await app.close();
    }
  });
});

describe('OpenTelemetry metrics', () => {
  it('rateLimitMetrics counts allowed, refused and failed-open requests and store errors, and records store latency', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [reader] });
    try {
      let down = false;
      const inner = new InProcessRateLimitStore({ clock: new ManualClock(0), maxTrackedPartitions: 2 });
      const app = createApp();
      app.services.replace(RateLimitStore, () => ({
        acquire: (p: string, policy: RateLimitPolicy, o?: AcquireOptions) =>
          down ? Promise.reject(new Error('down')) : inner.acquire(p, policy, o),
      }));
      app.services.addValue(RateLimitConfiguration, new RateLimitConfiguration({ partitionHeader: 'x-t' }));
      app.services.replace(Logger, () => ({ warn() {}, error() {} }));
      app.services.add(RateLimitObserver, () => rateLimitMetrics({ meter: provider.getMeter('test') }));
      app.route(route('GET', '/m', [RateLimit({ name: 'm', permitLimit: 2, windowSeconds: 60 })], () => 'ok'));
      const get = (t: string) => app.inject({ url: '/m', headers: { 'x-t': t } });
      for (let i = 0; i < 5; i++) await get('a'); // 2 allowed, 3 refused
      await get('b'); // allowed
      await get('c'); // cap of 2 partitions: failed open
      down = true;
      await get('a'); // store error
      await reader.forceFlush();
      const metrics = exporter
        .getMetrics()
        .at(-1)!
        .scopeMetrics.flatMap((s) => s.metrics);
      const sum = (name: string) => {
        const m = metrics.find((x) => x.descriptor.name === name);
        return m === undefined ? 0 : m.dataPoints.reduce((n, p) => n + (p.value as number), 0);
      };
      assert.deepEqual(
        ['allowed', 'refused', 'failed_open', 'store_errors'].map((n) => sum(`trellis.ratelimit.${n}`)),
        [3, 3, 1, 1],
      );
      const allowed = metrics.find((x) => x.descriptor.name === 'trellis.ratelimit.allowed')!;
      assert.deepEqual(allowed.dataPoints[0]!.attributes, {
        'trellis.ratelimit.limit': 'm',
        'trellis.ratelimit.handler': 'GET /m',
        'trellis.ratelimit.scope': 'transport',
      });
      const latency = metrics.find((x) => x.descriptor.name === 'trellis.ratelimit.store.duration')!;
      assert.equal(latency.descriptor.unit, 's');
      const point = latency.dataPoints[0]!.value as { count: number; min?: number; max?: number };
      assert.equal(point.count, 8, 'every store call is timed');
      assert.ok(point.min! >= 0 && point.max! < 5, `latency between ${point.min} and ${point.max} s`);
      assert.throws(() => rateLimitMetrics({ meter: {} as never }), /must be an OpenTelemetry Meter/);
    } finally {
      await provider.shutdown();
    }
  });
});
