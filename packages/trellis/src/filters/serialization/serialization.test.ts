import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { z } from 'zod';
import { createApp, HttpError, Logger, problem, reply, route, Validate } from '../../index.js';

const quiet = { warn() {}, error() {} };

describe('serialization', () => {
  it('a handler that records a refusal itself gets that refusal written, sync or async', async () => {
    const app = createApp();
    app.route(
      route('GET', '/sync', (ctx) => {
        ctx.refuse(problem(409, 'taken'), { 'x-why': 'taken' });
      }),
    );
    app.route(
      route('GET', '/async', async (ctx) => {
        ctx.refuse(problem(403, 'no'));
        return { ignored: true };
      }),
    );
    const sync = await app.inject({ url: '/sync' });
    assert.deepEqual([sync.statusCode, sync.json().detail, sync.headers['x-why']], [409, 'taken', 'taken']);
    const later = await app.inject({ url: '/async' });
    assert.deepEqual([later.statusCode, later.json().detail], [403, 'no']);
  });

  it('Validate fieldStatus: a field that cannot be applied is 422 naming it; a body of the wrong shape stays 400', async () => {
    const app = createApp();
    app.route(
      route('PUT', '/settings', [Validate({ body: z.object({ theme: z.enum(['light', 'dark']) }), fieldStatus: 422 })], (ctx) => ctx.body),
    );
    const put = (body: unknown) => app.inject({ method: 'PUT', url: '/settings', body });
    const bad = await put({ theme: 'blue' });
    assert.equal(bad.statusCode, 422);
    assert.equal(bad.json().field, 'theme');
    assert.equal(bad.json().issues[0].path[0], 'theme');
    assert.equal((await put([1])).statusCode, 400);
    assert.deepEqual((await put({ theme: 'dark' })).json(), { theme: 'dark' });
    assert.throws(() => Validate({ body: z.string(), fieldStatus: 409 as never }), /fieldStatus" must be 400 or 422/);
  });

  it('parses JSON, form and text bodies by content type; anything else is 415', async () => {
    const app = createApp();
    app.route(route('POST', '/echo', (ctx) => ({ body: ctx.body })));
    const echo = (body: string, type: string) => app.inject({ method: 'POST', url: '/echo', body, headers: { 'content-type': type } });
    assert.deepEqual((await echo('{"a":[1,2]}', 'application/json; charset=utf-8')).json(), { body: { a: [1, 2] } });
    assert.deepEqual((await echo('{"a":1}', 'application/merge-patch+json')).json(), { body: { a: 1 } });
    assert.deepEqual((await echo('a=1&b=2&a=3', 'application/x-www-form-urlencoded')).json(), { body: { a: ['1', '3'], b: '2' } });
    assert.deepEqual((await echo('hi there', 'text/plain')).json(), { body: 'hi there' });
    const unsupported = await echo('<x/>', 'application/xml');
    assert.equal(unsupported.statusCode, 415);
    assert.match(unsupported.json().detail, /application\/xml/);
    assert.equal((await echo('{nope', 'application/json')).statusCode, 400);
  });

  it('validates with any Standard Schema library: 400 with the issues', async () => {
    const app = createApp();
    app.route(route('POST', '/zod', [Validate({ body: z.object({ qty: z.number().int().positive() }) })], (ctx) => ctx.body));
    app.route(route('POST', '/valibot', [Validate({ body: v.object({ name: v.string() }) })], (ctx) => ctx.body));
    app.route(route('GET', '/q', [Validate({ query: z.object({ page: z.coerce.number().int().min(1) }) })], (ctx) => ctx.validatedQuery));
    assert.deepEqual((await app.inject({ method: 'POST', url: '/zod', body: { qty: 2 } })).json(), { qty: 2 });
    const bad = await app.inject({ method: 'POST', url: '/zod', body: { qty: -1 } });
    assert.equal(bad.statusCode, 400);
    assert.deepEqual(
      bad.json().issues.map((i: { path: string[] }) => i.path),
      [['qty']],
    );
    assert.equal((await app.inject({ method: 'POST', url: '/valibot', body: { name: 3 } })).statusCode, 400);
    assert.deepEqual((await app.inject({ method: 'POST', url: '/valibot', body: { name: 'x' } })).json(), { name: 'x' });
    assert.deepEqual((await app.inject({ url: '/q?page=3' })).json(), { page: 3 });
    assert.equal((await app.inject({ url: '/q?page=0' })).statusCode, 400);
  });

  it('validates with a schema that answers with a promise (async refinements) as with one that answers at once', async () => {
    const app = createApp();
    const taken = new Set(['alice']);
    const user = z.object({ name: z.string() }).refine(async ({ name }) => !taken.has(name), { message: 'taken', path: ['name'] });
    app.route(route('POST', '/users', [Validate({ body: user, fieldStatus: 422 })], (ctx) => ({ made: ctx.body.name })));
    assert.deepEqual((await app.inject({ method: 'POST', url: '/users', body: { name: 'bob' } })).json(), { made: 'bob' });
    const clash = await app.inject({ method: 'POST', url: '/users', body: { name: 'alice' } });
    assert.deepEqual([clash.statusCode, clash.json().field, clash.json().issues[0].message], [422, 'name', 'taken']);
  });

  it('reads text bodies as UTF-8 without a leading byte order mark, and refuses bytes that are not UTF-8', async () => {
    const app = createApp();
    app.route(route('POST', '/echo', (ctx) => ({ got: ctx.body })));
    const post = (body: Buffer, type = 'application/json') =>
      app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': type }, body });
    assert.deepEqual((await post(Buffer.from('\uFEFF{"a":"é"}'))).json(), { got: { a: 'é' } });
    assert.deepEqual((await post(Buffer.from('\uFEFFhi'), 'text/plain')).json(), { got: 'hi' });
    const bad = await post(Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    assert.deepEqual([bad.statusCode, bad.json().code], [400, 'TRELLIS_INVALID_UTF8']);
  });

  it('maps results: object → JSON, string → text, undefined → 204, reply() for status and headers', async () => {
    const app = createApp();
    app.route(route('GET', '/obj', () => ({ a: 1 })));
    app.route(route('GET', '/str', () => 'plain'));
    app.route(route('GET', '/none', () => undefined));
    app.route(route('GET', '/created', () => reply({ id: 7 }, { status: 201, headers: { location: '/things/7' } })));
    const obj = await app.inject({ url: '/obj' });
    assert.equal(obj.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal((await app.inject({ url: '/str' })).headers['content-type'], 'text/plain; charset=utf-8');
    const none = await app.inject({ url: '/none' });
    assert.equal(none.statusCode, 204);
    assert.equal(none.body, '');
    const created = await app.inject({ url: '/created' });
    assert.equal(created.statusCode, 201);
    assert.equal(created.headers.location, '/things/7');
  });

  it('a handler that throws gives a 500 problem without a stack, unless in development mode', async () => {
    for (const development of [false, true]) {
      const app = createApp({ development });
      app.services.addValue(Logger, quiet);
      app.route(
        route('GET', '/boom', () => {
          throw new Error('secret detail');
        }),
      );
      app.route(
        route('GET', '/missing', () => {
          throw new HttpError(404, 'No such order.');
        }),
      );
      const res = await app.inject({ url: '/boom' });
      assert.equal(res.statusCode, 500);
      assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal('stack' in res.json(), development);
      assert.equal(res.body.includes('secret detail'), development);
      assert.deepEqual((await app.inject({ url: '/missing' })).json(), {
        type: 'about:blank',
        title: 'Not Found',
        status: 404,
        detail: 'No such order.',
      });
    }
  });

  it('1 MiB default body limit; 413 beyond', async () => {
    const app = createApp();
    app.route(route('POST', '/in', (ctx) => ({ size: String(ctx.body).length })));
    const ok = await app.inject({ method: 'POST', url: '/in', body: 'x'.repeat(1024 * 1024), headers: { 'content-type': 'text/plain' } });
    assert.deepEqual(ok.json(), { size: 1024 * 1024 });
    const big = await app.inject({
      method: 'POST',
      url: '/in',
      body: 'x'.repeat(1024 * 1024 + 1),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(big.statusCode, 413);
  });
});
