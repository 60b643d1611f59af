// The controls users of other rate limiters rely on, over HTTP with the in-process store and with the Redis
// store: header formats, a custom refusal, budgets shared by several handlers (and an app-wide limit through
// group()), and cost refusals that tell the permits actually left.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import {
  ApiKeyAuthenticator,
  Authenticator,
  Authorize,
  createApp,
  group,
  RegistrationType,
  reply,
  route,
} from '../../packages/trellis/src/index.js';
import type { Annotation, App } from '../../packages/trellis/src/index.js';
import {
  FallbackRateLimitStore,
  InProcessRateLimitStore,
  RateLimit,
  RateLimitConfiguration,
  RateLimitScope,
  RateLimitStore,
  rateLimitPolicies,
  readRateLimitCounter,
} from '../../packages/trellis/src/ratelimit/index.js';
import type { RateLimitStore as Store } from '../../packages/trellis/src/ratelimit/index.js';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import { connectRedis, disconnectRedis, redisReady } from '../support/redis-connection.js';
import { redisSkipReason, startRedisServer, type RedisServerHandle } from '../support/redis-server.js';
import { TestClock } from '../support/test-clock.js';

interface StoreKind {
  name: string;
  skip: string | false;
  make(clock: TestClock): Store;
}

let server: RedisServerHandle | undefined;
let client: Redis | undefined;
const redisSkip = redisSkipReason();

const kinds: StoreKind[] = [
  { name: 'the in-process store', skip: false, make: (clock) => new InProcessRateLimitStore({ clock }) },
  {
    name: 'the Redis store',
    skip: redisSkip,
    make: (clock) => new RedisRateLimitStore({ client: client!, keyPrefix: `controls:${randomUUID()}:`, clock }),
  },
];

before(async () => {
  if (!redisSkip) ({ server, client } = await connectRedis());
});
after(() => disconnectRedis(server, client));

function appWith(
  kind: StoreKind,
  routes: ReturnType<typeof route>[],
  config?: RateLimitConfiguration,
): { app: App; clock: TestClock; store: Store } {
  const clock = new TestClock();
  const app = createApp();
  if (config) app.services.addValue(RateLimitConfiguration, config);
  const store = kind.make(clock);
  app.services.add(RateLimitStore, () => store, { type: RegistrationType.Replace });
  app.route(...routes);
  return { app, clock, store };
}

const one = (annotations: readonly Annotation[], path = '/r') => route('GET', path, annotations, () => ({ ok: true }));

for (const kind of kinds) {
  describe(`rate-limit controls with ${kind.name}`, { skip: kind.skip }, () => {
    it('headers: standard by default; structured, legacy, several, or none, as configured', async () => {
      const limit = [RateLimit({ name: 'burst', permitLimit: 3, windowSeconds: 10 })];
      const names = (headers: Record<string, unknown>) =>
        Object.keys(headers)
          .filter((h) => /ratelimit/.test(h))
          .sort();
      const standard = await appWith(kind, [one(limit)]).app.inject({ url: '/r' });
      assert.deepEqual(names(standard.headers), ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']);
      const legacy = await appWith(kind, [one(limit)], new RateLimitConfiguration({ headers: ['legacy'] })).app.inject({ url: '/r' });
      assert.deepEqual(names(legacy.headers), ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);
      assert.deepEqual(
        [legacy.headers['x-ratelimit-limit'], legacy.headers['x-ratelimit-remaining'], legacy.headers['x-ratelimit-reset']],
        ['3', '2', '10'],
      );
      const structured = await appWith(kind, [one(limit)], new RateLimitConfiguration({ headers: ['structured'] })).app.inject({
        url: '/r',
      });
      assert.deepEqual(names(structured.headers), ['ratelimit', 'ratelimit-policy']);
      assert.equal(structured.headers.ratelimit, '"burst";r=2;t=10');
      const all = await appWith(
        kind,
        [one(limit)],
        new RateLimitConfiguration({ headers: ['standard', 'structured', 'legacy'] }),
      ).app.inject({ url: '/r' });
      assert.equal(names(all.headers).length, 8);
      const { app } = appWith(kind, [one([RateLimit({ permitLimit: 1, windowSeconds: 10 })])], new RateLimitConfiguration({ headers: [] }));
      assert.deepEqual(names((await app.inject({ url: '/r' })).headers), []);
      const refused = await app.inject({ url: '/r' });
      assert.equal(refused.statusCode, 429);
      assert.deepEqual(names(refused.headers), [], 'no rate-limit fields on a refusal either');
      assert.equal(refused.headers['retry-after'], '10', 'Retry-After is always sent');
      assert.throws(
        () => new RateLimitConfiguration({ headers: ['draft-7' as never] }),
        /headers must be a list of "standard", "structured", "legacy"/,
      );
    });

    it('a custom refusal: status, problem and headers of its own; Retry-After and the counts still sent; a broken hook gets the default', async () => {
      const config = new RateLimitConfiguration({
        refusal: ({ retryAfter, policy, ctx }) =>
          ctx.request.headers.get('x-broken') === 'yes'
            ? (() => {
                throw new Error('hook broke');
              })()
            : {
                status: 503,
                problem: { detail: `Busy: ${policy.name} resets in ${retryAfter} s.`, code: 'SLOW_DOWN' },
                headers: { 'x-slow-down': 'yes' },
              },
      });
      const { app } = appWith(kind, [one([RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 5 })])], config);
      assert.equal((await app.inject({ url: '/r' })).statusCode, 200);
      const refused = await app.inject({ url: '/r' });
      assert.equal(refused.statusCode, 503);
      assert.match(String(refused.headers['content-type']), /application\/problem\+json/);
      assert.deepEqual(
        { ...refused.json<Record<string, unknown>>(), type: undefined },
        {
          type: undefined,
          title: 'Service Unavailable',
          status: 503,
          detail: 'Busy: burst resets in 5 s.',
          limit: 'burst',
          retryAfter: 5,
          code: 'SLOW_DOWN',
        },
      );
      assert.equal(refused.headers['x-slow-down'], 'yes');
      assert.equal(refused.headers['retry-after'], '5');
      assert.equal(refused.headers['ratelimit-remaining'], '0');
      const fallback = await app.inject({ url: '/r', headers: { 'x-broken': 'yes' } });
      assert.equal(fallback.statusCode, 429, 'a hook that throws leaves the default answer');
      assert.equal(fallback.json().title, 'Too Many Requests');
      const unusable = appWith(
        kind,
        [one([RateLimit({ permitLimit: 1, windowSeconds: 5 })])],
        new RateLimitConfiguration({ refusal: () => ({ status: 200 }) }),
      ).app;
      await unusable.inject({ url: '/r' });
      assert.equal((await unusable.inject({ url: '/r' })).statusCode, 429, 'a 2xx is not a refusal: the default is sent');
      assert.throws(() => new RateLimitConfiguration({ refusal: 'no' as never }), /refusal must be a function/);
    });

    it('an async refusal hook is waited for: the status it resolves to is sent (it used to be ignored)', async () => {
      const config = new RateLimitConfiguration({
        refusal: async ({ retryAfter }) => ({ status: 503, problem: { detail: `Busy for ${retryAfter} s.` } }),
      });
      const { app } = appWith(kind, [one([RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 5 })])], config);
      assert.equal((await app.inject({ url: '/r' })).statusCode, 200);
      const refused = await app.inject({ url: '/r' });
      assert.equal(refused.statusCode, 503);
      assert.equal(refused.json().detail, 'Busy for 5 s.');
      assert.equal(refused.headers['retry-after'], '5');
    });

    it('a budget is one counter shared by the handlers that name it; an app-wide limit is a budget on every route', async () => {
      const exports = RateLimit({ name: 'exports', budget: 'exports', permitLimit: 3, windowSeconds: 60 });
      const { app } = appWith(kind, [
        one([exports], '/csv'),
        one([exports], '/pdf'),
        one([RateLimit({ name: 'exports', permitLimit: 3, windowSeconds: 60 })], '/own'),
      ]);
      assert.equal((await app.inject({ url: '/csv' })).headers['ratelimit-remaining'], '2');
      assert.equal((await app.inject({ url: '/pdf' })).headers['ratelimit-remaining'], '1', 'the same counter');
      assert.equal((await app.inject({ url: '/own' })).headers['ratelimit-remaining'], '2', 'a limit without the budget counts alone');
      assert.equal((await app.inject({ url: '/csv' })).statusCode, 200);
      assert.equal((await app.inject({ url: '/pdf' })).statusCode, 429);

      const appWide = group({ annotations: [RateLimit({ name: 'app', budget: 'app', permitLimit: 2, windowSeconds: 60 })] }, [
        one([], '/a'),
        one([RateLimit({ name: 'burst', permitLimit: 10, windowSeconds: 1 })], '/b'),
      ]);
      const whole = appWith(kind, appWide).app;
      assert.equal((await whole.inject({ url: '/a' })).statusCode, 200);
      assert.equal((await whole.inject({ url: '/b' })).statusCode, 200);
      const third = await whole.inject({ url: '/a' });
      assert.equal(third.statusCode, 429);
      assert.equal(third.json().limit, 'app');
      assert.throws(
        () =>
          createApp()
            .route(one([RateLimit({ name: 'x', budget: 'b' }), RateLimit({ name: 'y', budget: 'b' })]))
            .build(),
        /two rate limits spend the budget "b"/,
      );
    });

    it("an admin route reads and resets one caller's counters; others keep theirs", async () => {
      const keys = { alice: { subject: 'alice' }, bob: { subject: 'bob' }, root: { subject: 'root', grants: ['admin'] } };
      const limits = [
        RateLimit({ name: 'burst', permitLimit: 2, windowSeconds: 10, scope: RateLimitScope.Principal }),
        RateLimit({ name: 'daily', permitLimit: 5, windowSeconds: 86_400, scope: RateLimitScope.Principal }),
      ];
      const { app, store, clock } = appWith(kind, [
        one(limits, '/reports'),
        route('GET', '/admin/limits/:subject', [Authorize('admin')], async (ctx) => {
          const reports = app.routes.find((r) => r.id === 'GET /reports')!;
          const counters = await Promise.all(
            rateLimitPolicies(reports).map(async (policy) => ({
              name: policy.name,
              ...(await readRateLimitCounter(store, `subject:${ctx.params.subject}`, policy)),
            })),
          );
          return counters;
        }),
        route('DELETE', '/admin/limits/:subject', [Authorize('admin')], async (ctx) => {
          const reports = app.routes.find((r) => r.id === 'GET /reports')!;
          for (const policy of rateLimitPolicies(reports)) await store.reset!(`subject:${ctx.params.subject}`, policy);
          return reply(null, { status: 204 });
        }),
      ]);
      app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys }));
      const as = (key: string) => ({ headers: { 'x-api-key': key } });
      await app.inject({ url: '/reports', ...as('alice') });
      clock.ms += 1_000;
      assert.equal((await app.inject({ url: '/reports', ...as('alice') })).statusCode, 200);
      assert.equal((await app.inject({ url: '/reports', ...as('alice') })).statusCode, 429);
      await app.inject({ url: '/reports', ...as('bob') });
      const before = await app.inject({ url: '/admin/limits/alice', ...as('root') });
      assert.deepEqual(before.json(), [
        { name: 'burst', limit: 2, used: 2, remaining: 0, reset: 9 },
        { name: 'daily', limit: 5, used: 2, remaining: 3, reset: 86_399 },
      ]);
      assert.equal((await app.inject({ url: '/admin/limits/alice', ...as('root') })).json()[0].used, 2, 'reading spends nothing');
      assert.equal((await app.inject({ url: '/admin/limits/alice', ...as('bob') })).statusCode, 403);
      assert.equal((await app.inject({ method: 'DELETE', url: '/admin/limits/alice', ...as('root') })).statusCode, 204);
      const after = await app.inject({ url: '/reports', ...as('alice') });
      assert.equal(after.statusCode, 200);
      assert.equal(after.headers['ratelimit-remaining'], '1', 'alice starts afresh');
      assert.deepEqual(
        (await app.inject({ url: '/admin/limits/bob', ...as('root') })).json().map((c: { used: number }) => c.used),
        [1, 1],
        'bob keeps his counts',
      );
      assert.deepEqual((await app.inject({ url: '/admin/limits/nobody', ...as('root') })).json()[0], {
        name: 'burst',
        limit: 2,
        used: 0,
        remaining: 2,
        reset: 0,
      });
    });

    it('blockSeconds: a caller that overruns a limit is refused on it for the block, whatever the counter says', async () => {
      const { app, clock } = appWith(kind, [one([RateLimit({ name: 'login', permitLimit: 2, windowSeconds: 10, blockSeconds: 60 })])]);
      const caller = { headers: {} };
      assert.equal((await app.inject({ url: '/r', ...caller })).statusCode, 200);
      assert.equal((await app.inject({ url: '/r', ...caller })).statusCode, 200);
      const overrun = await app.inject({ url: '/r', ...caller });
      assert.equal(overrun.statusCode, 429);
      assert.equal(overrun.headers['retry-after'], '60', 'the block, not the window');
      clock.ms += 30_000;
      const blocked = await app.inject({ url: '/r', ...caller });
      assert.equal(blocked.statusCode, 429, 'the window has passed, the block has not');
      assert.equal(blocked.headers['retry-after'], '30');
      assert.equal(blocked.json().blocked, true);
      assert.match(blocked.json().detail, /refused on it for 30 more seconds/);
      clock.ms += 30_000;
      assert.equal((await app.inject({ url: '/r', ...caller })).statusCode, 200, 'the block is over');
      assert.throws(() => RateLimit({ blockSeconds: 0 }), /blockSeconds must be a positive number/);
    });

    it('countOnly: only failed (or only successful) requests count, once their outcome is known', async () => {
      const login = route(
        'POST',
        '/login',
        [RateLimit({ name: 'login', permitLimit: 3, windowSeconds: 60, countOnly: 'failures' })],
        (ctx) => (ctx.request.headers.get('x-password') === 'right' ? { ok: true } : reply({ ok: false }, { status: 401 })),
      );
      const exports = route(
        'POST',
        '/export',
        [RateLimit({ name: 'exports', permitLimit: 2, windowSeconds: 60, countOnly: 'successes' })],
        (ctx) => (ctx.request.headers.get('x-fail') === 'yes' ? reply(null, { status: 500 }) : { done: true }),
      );
      const { app } = appWith(kind, [login, exports]);
      const attempt = (password: string) => app.inject({ method: 'POST', url: '/login', headers: { 'x-password': password } });
      for (let i = 0; i < 10; i++) assert.equal((await attempt('right')).statusCode, 200, 'successful logins are not counted');
      assert.equal((await attempt('wrong')).headers['ratelimit-remaining'], '3', 'the headers say what was left when it was admitted');
      assert.equal((await attempt('wrong')).statusCode, 401);
      assert.equal((await attempt('wrong')).statusCode, 401);
      const limited = await attempt('right');
      assert.equal(limited.statusCode, 429, 'three failures spent the limit: even the right password waits');
      assert.equal(limited.headers['ratelimit-remaining'], '0');
      assert.equal((await attempt('wrong')).statusCode, 429, 'a refused request is not counted again');
      const run = (fail: boolean) => app.inject({ method: 'POST', url: '/export', headers: fail ? { 'x-fail': 'yes' } : {} });
      for (let i = 0; i < 5; i++) assert.equal((await run(true)).statusCode, 500, 'failed exports are not counted');
      assert.equal((await run(false)).statusCode, 200);
      assert.equal((await run(false)).statusCode, 200);
      assert.equal((await run(false)).statusCode, 429, 'two successes spent the limit');
      assert.throws(() => RateLimit({ countOnly: 'all' as never }), /countOnly must be "failures" or "successes"/);
    });

    it('skip: a counter skipped for a request leaves the others whole, their block and outcome counting included', async () => {
      const internal = new RateLimitConfiguration({
        skip: (ctx, policy) => policy.name === 'burst' && ctx.request.headers.has('x-internal'),
      });
      const burst = RateLimit({ name: 'burst', permitLimit: 1, windowSeconds: 60 });
      const blocking = appWith(
        kind,
        [one([burst, RateLimit({ name: 'login', permitLimit: 2, windowSeconds: 10, blockSeconds: 60 })])],
        internal,
      );
      const get = () => blocking.app.inject({ url: '/r', headers: { 'x-internal': '1' } });
      const first = await get();
      assert.equal(first.statusCode, 200);
      assert.equal(first.headers['ratelimit-limit'], '2', 'only the counter not skipped says its numbers');
      assert.equal((await get()).statusCode, 200, 'burst, skipped, would have refused this one');
      assert.equal((await get()).headers['retry-after'], '60', 'the overrun blocks for blockSeconds');
      blocking.clock.ms += 30_000;
      assert.equal((await get()).statusCode, 429, 'the window has passed, the block has not');

      const outcomes = appWith(
        kind,
        [
          route(
            'POST',
            '/login',
            [burst, RateLimit({ name: 'failures', permitLimit: 2, windowSeconds: 60, countOnly: 'failures' })],
            (ctx) => (ctx.request.headers.get('x-password') === 'right' ? { ok: true } : reply({ ok: false }, { status: 401 })),
          ),
        ],
        internal,
      );
      const attempt = (password: string) =>
        outcomes.app.inject({ method: 'POST', url: '/login', headers: { 'x-internal': '1', 'x-password': password } });
      for (let i = 0; i < 4; i++) assert.equal((await attempt('right')).statusCode, 200, 'successes are not counted, and burst is skipped');
      assert.equal((await attempt('wrong')).statusCode, 401);
      assert.equal((await attempt('wrong')).statusCode, 401);
      assert.equal((await attempt('right')).statusCode, 429, 'two failures spent the limit');
    });

    it('a refusal for its cost tells the permits actually left', async () => {
      const { app } = appWith(kind, [
        route(
          'POST',
          '/rows',
          [RateLimit({ name: 'rows', permitLimit: 10, windowSeconds: 60, cost: (ctx) => Number(ctx.request.query.get('n') ?? 1) })],
          () => 'ok',
        ),
      ]);
      assert.equal((await app.inject({ method: 'POST', url: '/rows?n=7' })).headers['ratelimit-remaining'], '3');
      const refused = await app.inject({ method: 'POST', url: '/rows?n=5' });
      assert.equal(refused.statusCode, 429);
      assert.equal(refused.headers['ratelimit-remaining'], '3', 'three permits are left, fewer than the five asked for');
      assert.equal((await app.inject({ method: 'POST', url: '/rows?n=3' })).headers['ratelimit-remaining'], '0', 'and they can be spent');
    });
  });
}

describe('a local fallback while the shared store fails', { skip: redisSkip }, () => {
  it('counts per process while Redis is down, instead of admitting everyone or answering 503; Redis decides again when back', async () => {
    const own = await startRedisServer();
    const client = new (await import('ioredis')).Redis(own.url, { maxRetriesPerRequest: 0 });
    client.on('error', () => undefined);
    const fellBack: string[] = [];
    try {
      for (const failureMode of ['failOpen', 'failClosed'] as const) {
        const primary = new RedisRateLimitStore({ client, keyPrefix: `fallback:${randomUUID()}:`, timeoutMs: 200, failureMode });
        const app = createApp();
        app.services.add(
          RateLimitStore,
          () => new FallbackRateLimitStore({ primary, onFallback: (error) => fellBack.push(String(error)) }),
          { type: RegistrationType.Replace },
        );
        app.route(one([RateLimit({ permitLimit: 2, windowSeconds: 60 })]));
        assert.equal((await app.inject({ url: '/r' })).statusCode, 200);
        await own.stop();
        const whileDown = [];
        for (let i = 0; i < 4; i++) whileDown.push((await app.inject({ url: '/r' })).statusCode);
        assert.deepEqual(whileDown, [200, 200, 429, 429], `${failureMode}: the in-process fallback counts its own 2`);
        await own.start();
        await redisReady(client);
        // Back: Redis (a fresh, empty server) decides again.
        assert.equal((await app.inject({ url: '/r' })).statusCode, 200, `${failureMode}: Redis counts again`);
      }
      assert.ok(fellBack.length >= 8, 'onFallback heard every fallback');
    } finally {
      client.disconnect();
      await own.close();
    }
  });
});
