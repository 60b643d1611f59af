import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Cache, createApp, FilterOrder, problem, route } from '../index.js';
import type { ExecutionContext, Filter, RouteInfo } from '../index.js';
import { composeFilters } from './runner.js';

const ROUTE = { id: 'GET /x', method: 'GET', path: '/x', annotations: [] } as unknown as RouteInfo;

function recorder(name: string, order: number, log: string[], extra: Partial<Filter> = {}): Filter {
  return {
    name,
    order,
    ...extra,
    async run(ctx, next) {
      log.push(name);
      await next();
    },
  };
}

describe('pipeline', () => {
  it('FilterOrder has the documented stage numbers', () => {
    assert.deepEqual(
      { ...FilterOrder },
      {
        RateLimitTransport: 100,
        Authentication: 200,
        RateLimitPrincipal: 300,
        Authorization: 400,
        ResponseCache: 500,
        Serialization: 1000,
      },
    );
  });

  it('runs filters by order, whatever order they were added in', async () => {
    const log: string[] = [];
    const app = createApp();
    app
      .filter(recorder('c', 450, log))
      .filter(recorder('a', 50, log))
      .filter(recorder('b', 250, log));
    app.route(
      route('GET', '/', () => {
        log.push('handler');
        return 'ok';
      }),
    );
    assert.equal((await app.inject({ url: '/' })).statusCode, 200);
    assert.deepEqual(log, ['a', 'b', 'c', 'handler']);
  });

  it('a refusal is recorded and passed on: later filters do none of their work, the handler never runs, the body is never read', async () => {
    const log: string[] = [];
    const app = createApp();
    app.filter({
      name: 'refuser',
      order: 150,
      run(ctx, next) {
        ctx.refuse(problem(429, 'slow down'), { 'retry-after': '7' });
        log.push('refused');
        return next();
      },
    });
    app.filter(recorder('after', 450, log));
    app.filter(recorder('observer', 460, log, { observesDecided: true }));
    app.filter({
      name: 'second-refuser',
      order: 470,
      observesDecided: true,
      run(ctx, next) {
        log.push(`overwrite:${ctx.refuse(problem(403))}`);
        return next();
      },
    });
    let bodyRead = false;
    app.route(
      route('POST', '/', (ctx) => {
        log.push('handler');
        bodyRead = ctx.body !== undefined;
        return 'ok';
      }),
    );
    const res = await app.inject({ method: 'POST', url: '/', body: { big: 'x'.repeat(1000) } });
    assert.equal(res.statusCode, 429);
    assert.equal(res.headers['retry-after'], '7');
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.deepEqual(res.json(), { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'slow down' });
    assert.deepEqual(log, ['refused', 'observer', 'overwrite:false']);
    assert.equal(bodyRead, false);
  });

  it('the serialization stage reads no body for a decided request', async () => {
    const app = createApp();
    app.filter({
      name: 'refuser',
      order: 10,
      run(ctx, next) {
        ctx.refuse(problem(401));
        return next();
      },
    });
    let sourceReadAfter = true;
    app.filter({
      name: 'peek',
      order: 999,
      observesDecided: true,
      async run(ctx, next) {
        await next();
        sourceReadAfter = ctx.bodySource.consumed;
      },
    });
    app.route(route('POST', '/', () => 'never'));
    const res = await app.inject({ method: 'POST', url: '/', body: 'not even json', headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 401);
    assert.equal(sourceReadAfter, false);
  });

  it('a refusal never comes out as an empty body', async () => {
    const app = createApp();
    app.filter({
      name: 'bare',
      order: 10,
      run(ctx, next) {
        ctx.refuse({ title: '', status: 418 });
        return next();
      },
    });
    app.route(route('GET', '/', () => 'x'));
    const res = await app.inject({ url: '/' });
    assert.equal(res.statusCode, 418);
    assert.ok(res.body.length > 0);
    assert.equal(res.json().status, 418);
  });

  it("a refusal's status is its problem's: a problem without a 4xx or 5xx status, or a status given apart, is a clear error", async () => {
    const thrown: string[] = [];
    const app = createApp();
    app.filter({
      name: 'refuses-wrongly',
      order: 10,
      run(ctx, next) {
        for (const args of [[{ title: 'Fine', status: 200 }], [403, problem(403, 'no')], [null]]) {
          try {
            (ctx.refuse as (...a: unknown[]) => boolean)(...args);
          } catch (error) {
            thrown.push(`${(error as Error).name}: ${(error as Error).message}`);
          }
        }
        return next();
      },
    });
    app.route(route('GET', '/', () => 'x'));
    const res = await app.inject({ url: '/' });
    assert.equal(res.statusCode, 200, 'nothing was recorded');
    assert.deepEqual(thrown, [
      'TypeError: A refusal needs a problem document with a 4xx or 5xx status, got 200.',
      "TypeError: ctx.refuse takes a problem document, whose status is the response's: ctx.refuse(problem(403, detail), headers).",
      'TypeError: A refusal needs a problem document with a 4xx or 5xx status, got undefined.',
    ]);
  });

  it('calling next() twice is an error, answered as a 500 problem', async () => {
    const app = createApp();
    const errors: unknown[] = [];
    app.services.addValue((await import('../app/index.js')).Logger, { warn() {}, error: (_m, d) => errors.push(d?.error) });
    app.filter({
      name: 'twice',
      order: 10,
      async run(_ctx, next) {
        await next();
        await next();
      },
    });
    let calls = 0;
    app.route(
      route('GET', '/', () => {
        calls++;
        return 'x';
      }),
    );
    const res = await app.inject({ url: '/' });
    assert.equal(res.statusCode, 500);
    assert.equal(calls, 1);
    assert.match(String((errors[0] as Error).message), /"twice" called next\(\) more than once/);
  });

  it('application filters must come before the terminal serialization stage', () => {
    const app = createApp();
    assert.throws(() => app.filter({ name: 'late', order: 1000, run: (_c, n) => n() }), /below FilterOrder.Serialization/);
    assert.throws(() => app.filter({ name: '', order: 1, run: (_c, n) => n() }), /name/);
  });

  it('the response cache never serves a decided request, and never stores one', async () => {
    let deny = false;
    let calls = 0;
    const app = createApp();
    app.filter({
      name: 'gate',
      order: 150,
      run(ctx, next) {
        if (deny) ctx.refuse(problem(403, 'no'));
        return next();
      },
    });
    app.route(route('GET', '/data', [Cache({ seconds: 60 })], () => ({ n: ++calls })));
    deny = true;
    assert.equal((await app.inject({ url: '/data' })).statusCode, 403);
    deny = false;
    assert.deepEqual((await app.inject({ url: '/data' })).json(), { n: 1 }); // the refusal was not stored
    deny = true;
    const refused = await app.inject({ url: '/data' });
    assert.equal(refused.statusCode, 403); // a stored response is not served to a decided request
    assert.equal(refused.json().detail, 'no');
    deny = false;
    assert.deepEqual((await app.inject({ url: '/data' })).json(), { n: 1 });
    assert.equal(calls, 1);
  });

  it('filters are chosen and sorted once per route when the app is built', async () => {
    let asked = 0;
    const app = createApp();
    app.filter({
      name: 'only-admin',
      order: 20,
      forRoute: (r) => {
        asked++;
        if (!r.path.startsWith('/admin')) return undefined;
        return (ctx, next) => {
          ctx.responseHeaders.set('x-admin', '1');
          return next();
        };
      },
    });
    app.route(
      route('GET', '/admin', () => 'a'),
      route('GET', '/public', () => 'p'),
    );
    for (let i = 0; i < 3; i++) {
      assert.equal((await app.inject({ url: '/admin' })).headers['x-admin'], '1');
      assert.equal((await app.inject({ url: '/public' })).headers['x-admin'], undefined);
    }
    assert.equal(asked, 2);
  });

  it('a pipeline no filter waits in answers at once; a filter that waits makes it a promise', async () => {
    const ctx = { decided: false, currentFilter: '' } as unknown as ExecutionContext;
    const log: string[] = [];
    const returnsNext = (name: string, order: number): Filter => ({
      name,
      order,
      run(_ctx, next) {
        log.push(name);
        return next();
      },
    });
    const last: Filter = { name: 'last', order: 1000, run: () => void log.push('last') };
    assert.equal(composeFilters([returnsNext('a', 1), returnsNext('b', 2), last], ROUTE)(ctx), undefined);
    assert.deepEqual(log, ['a', 'b', 'last']);
    log.length = 0;
    const waited = composeFilters([returnsNext('a', 1), recorder('waits', 2, log), last], ROUTE)(ctx);
    assert.ok(waited instanceof Promise);
    assert.deepEqual(log, ['a', 'waits', 'last']);
    await waited;
    // What a filter throws at once is thrown at once; what a later one throws rejects the next() before it.
    const throws: Filter = {
      name: 'throws',
      order: 3,
      run: () => {
        throw new Error('boom');
      },
    };
    assert.throws(() => composeFilters([throws], ROUTE)(ctx), /boom/);
    const caught: string[] = [];
    const catches: Filter = { name: 'catches', order: 1, run: (_ctx, next) => next().catch((e: Error) => void caught.push(e.message)) };
    await composeFilters([catches, throws], ROUTE)(ctx);
    assert.deepEqual(caught, ['boom']);
  });
});
