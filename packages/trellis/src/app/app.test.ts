import assert from 'node:assert/strict';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { HttpError, problem } from '../pipeline/index.js';
import { route } from '../annotations/index.js';
import { reply } from '../filters/index.js';
import { createApp, Logger, type App, type BoundAddress } from './index.js';
import { Router } from './router.js';

const quiet = { warn() {}, error() {} };

describe('Router', () => {
  it('matches params, refuses duplicates and unroutable paths with the route named, and lists allowed methods', () => {
    const router = new Router<string>();
    router.add('GET', '/orders/:id', 'get-order');
    router.add('DELETE', '/orders/:id', 'delete-order');
    const found = router.find('GET', '/orders/42');
    assert.deepEqual([found?.entry, { ...found?.params }], ['get-order', { id: '42' }]);
    assert.equal(router.find('POST', '/orders/42'), null);
    assert.deepEqual(router.allowedMethods('/orders/42'), ['GET', 'DELETE']);
    assert.throws(() => router.add('GET', '/orders/:id', 'again'), /Two handlers are declared for GET \/orders\/:id/);
    assert.throws(() => router.add('GET', 'no-slash', 'bad'), /Cannot route GET no-slash/);
  });

  it('reads the whole route syntax: patterns, several parameters in a segment, an optional last one, a wildcard; static text first', () => {
    const router = new Router<string>();
    router.add('GET', '/files/*', 'rest');
    router.add('GET', '/orders/:id(^\\d+$)', 'numbered');
    router.add('GET', '/orders/:name', 'named');
    router.add('GET', '/orders/latest', 'latest');
    router.add('GET', '/span/:from-:to', 'span');
    router.add('GET', '/docs/:file.:ext', 'doc');
    router.add('GET', '/pages/:page?', 'page');
    router.add('GET', '/time/12::30', 'colon');
    const find = (path: string) => {
      const found = router.find('GET', path);
      return found && [found.entry, { ...found.params }];
    };
    assert.deepEqual(find('/orders/42'), ['numbered', { id: '42' }]);
    assert.deepEqual(find('/orders/abc'), ['named', { name: 'abc' }]);
    assert.deepEqual(find('/orders/latest'), ['latest', {}]);
    assert.deepEqual(find('/span/3-9'), ['span', { from: '3', to: '9' }]);
    assert.deepEqual(find('/docs/report.pdf'), ['doc', { file: 'report', ext: 'pdf' }]);
    assert.deepEqual(find('/pages'), ['page', {}]);
    assert.deepEqual(find('/pages/2'), ['page', { page: '2' }]);
    assert.deepEqual(find('/time/12:30'), ['colon', {}]);
    assert.deepEqual(find('/files/a/b%20c.txt'), ['rest', { '*': 'a/b c.txt' }]);
    assert.deepEqual(find('/orders/a%2Fb'), ['named', { name: 'a/b' }], 'an encoded slash stays inside the parameter');
    assert.deepEqual(find('/orders/x?y=1'), ['named', { name: 'x' }]);
    assert.equal(find('/orders/' + 'x'.repeat(501)), null, 'a parameter over 500 characters matches nothing');
    assert.equal(find('/orders/a/b'), null);
  });

  it('refuses routes it cannot take with a code, and changes nothing then', () => {
    const router = new Router<string>();
    router.add('GET', '/orders/:id', 'first');
    const codeOf = (fn: () => void) => {
      try {
        fn();
      } catch (error) {
        return [(error as Error).message, (error as { code?: string }).code];
      }
      return null;
    };
    assert.deepEqual(
      codeOf(() => router.add('GET', '/orders/:name', 'same paths')),
      ['Cannot route GET /orders/:name: another GET route matches the same paths', 'TRELLIS_DUPLICATE_ROUTE'],
    );
    assert.deepEqual(
      codeOf(() => router.add('GET', '/a/*/b', 'x')),
      ['Cannot route GET /a/*/b: a wildcard (*) must be the last character of the path', 'TRELLIS_INVALID_ROUTE'],
    );
    assert.equal(codeOf(() => router.add('GET', '/r/:id(((a|b)*)+)', 'x'))?.[1], 'TRELLIS_INVALID_ROUTE');
    assert.equal(codeOf(() => router.add('GET', '/r/:id(', 'x'))?.[1], 'TRELLIS_INVALID_ROUTE');
    // `/list/:page?` is two routes; the second clashes, and the first is not kept either.
    router.add('GET', '/list', 'list');
    assert.equal(codeOf(() => router.add('GET', '/list/:page?', 'x'))?.[1], 'TRELLIS_DUPLICATE_ROUTE');
    assert.equal(router.find('GET', '/list/2'), null);
    assert.equal(router.find('GET', '/orders/7')?.entry, 'first');
  });

  it('adds HEAD for GET routes that declare none, and keeps a declared HEAD', () => {
    const router = new Router<string>();
    router.add('GET', '/a', 'get-a');
    router.add('GET', '/b', 'get-b');
    router.add('HEAD', '/b', 'head-b');
    router.addImplicitHead([
      ['/a', 'get-a'],
      ['/b', 'get-b'],
    ]);
    assert.equal(router.find('HEAD', '/a')?.entry, 'get-a');
    assert.equal(router.find('HEAD', '/b')?.entry, 'head-b');
  });
});

describe('dispatch', () => {
  const app = createApp();
  app.services.addValue(Logger, quiet);
  app.route(route('GET', '/items/:id', (ctx) => ({ id: ctx.params.id })));

  it('answers an unknown path 404, a known path with another method 405 with Allow, a bad target 400', async () => {
    const missing = await app.inject({ url: '/nothing' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().detail, 'No handler for GET /nothing.');
    const wrong = await app.inject({ method: 'POST', url: '/items/1' });
    assert.equal(wrong.statusCode, 405);
    assert.equal(wrong.headers.allow, 'GET, HEAD');
    const bad = await app.inject({ url: '/items/%zz' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers['content-type'], 'application/problem+json; charset=utf-8');
  });

  it('methodsOf(path) names the methods a path answers, as a 405 would; none for an unknown path or a bad target', () => {
    assert.deepEqual(app.methodsOf('/items/1'), ['GET', 'HEAD']);
    assert.deepEqual(app.methodsOf('/items/%C3%A9?x=1'), ['GET', 'HEAD']);
    assert.deepEqual(app.methodsOf('/nothing'), []);
    assert.deepEqual(app.methodsOf('/items/%zz'), []);
  });
});

describe('app.onError: errors mapped in one place', () => {
  class NotFound extends Error {}
  class MissingOrder extends NotFound {}
  class Conflict extends Error {}
  const seen: string[] = [];

  function appWithHooks(): App {
    const app = createApp();
    app.services.addValue(Logger, quiet);
    app.onError(NotFound, (error) => {
      seen.push(`not-found:${error.message}`);
      throw new HttpError(404, error.message, { kind: 'order' });
    });
    app.onError(Conflict, async (error, ctx) => reply({ conflict: error.message, route: ctx.route.id }, { status: 409 }));
    app.onError(MissingOrder, () => 'never reached: NotFound was registered first');
    app.route(
      route('GET', '/missing', () => {
        throw new MissingOrder('order 7');
      }),
    );
    app.route(
      route('GET', '/conflict', async () => {
        throw new Conflict('stale');
      }),
    );
    app.route(
      route('GET', '/plain', () => {
        throw new TypeError('boom');
      }),
    );
    app.filter({
      name: 'gate',
      order: 450,
      run(ctx, next) {
        if (ctx.route.path === '/refused') ctx.refuse(problem(403, 'no'));
        return next();
      },
    });
    app.route(
      route('GET', '/refused', () => {
        throw new NotFound('the handler never runs');
      }),
    );
    return app;
  }

  it('maps by class, subclasses included, first registration first, sync and async', async () => {
    const app = appWithHooks();
    const missing = await app.inject({ url: '/missing' });
    assert.equal(missing.statusCode, 404);
    assert.deepEqual(missing.json(), { type: 'about:blank', title: 'Not Found', status: 404, detail: 'order 7', kind: 'order' });
    assert.deepEqual(seen, ['not-found:order 7']);
    const conflict = await app.inject({ url: '/conflict' });
    assert.equal(conflict.statusCode, 409);
    assert.deepEqual(conflict.json(), { conflict: 'stale', route: 'GET /conflict' });
  });

  it('leaves errors no registration takes to the usual 500', async () => {
    const res = await appWithHooks().inject({ url: '/plain' });
    assert.equal(res.statusCode, 500);
    assert.equal(res.json().detail, 'The handler failed.');
  });

  it('a catch-all handler takes every error; what it throws besides HttpError is a 500', async () => {
    const app = createApp();
    app.services.addValue(Logger, quiet);
    app.onError(() => {
      throw new Error('the hook itself failed');
    });
    app.route(
      route('GET', '/x', () => {
        throw new Error('x');
      }),
    );
    assert.equal((await app.inject({ url: '/x' })).statusCode, 500);
    const other = createApp();
    other.onError((error) => ({ caught: (error as Error).message }));
    other.route(
      route('POST', '/y', () => {
        throw new Error('y');
      }),
    );
    const res = await other.inject({ method: 'POST', url: '/y', body: { a: 1 } });
    assert.deepEqual([res.statusCode, res.json()], [200, { caught: 'y' }]);
  });

  it('refusals are not errors and never reach it', async () => {
    seen.length = 0;
    const res = await appWithHooks().inject({ url: '/refused' });
    assert.equal(res.statusCode, 403);
    assert.deepEqual(seen, []);
  });

  it('refuses bad registrations and registrations after the app is built', async () => {
    const app = createApp();
    assert.throws(() => app.onError('nope' as never), /handler function/);
    assert.throws(() => app.onError(Error, 'nope' as never), /error class and a handler/);
    await app.inject({ url: '/' });
    assert.throws(() => app.onError(() => 1));
  });
});

describe('inject() and the Node host write through one writer', () => {
  let app: App;
  let address: BoundAddress;
  const errors: unknown[] = [];
  before(async () => {
    app = createApp();
    app.services.addValue(Logger, { warn() {}, error: (_message: string, meta?: { error?: unknown }) => errors.push(meta?.error) });
    app.route(route('GET', '/json', () => ({ hello: 'wörld' })));
    app.route(route('GET', '/empty', () => undefined));
    app.route(route('GET', '/cookies', () => reply('ok', { headers: { 'set-cookie': ['a=1', 'b=2'], 'x-app': 'trellis' } })));
    app.route(route('GET', '/bad-header', () => reply('x', { headers: { 'x-broken': 'line\nbreak' } })));
    app.route(
      route('GET', '/problem', () => {
        throw new HttpError(418, 'short and stout');
      }),
    );
    address = await app.listen({ port: 0 });
  });
  after(() => app.close());

  async function overSocket(method: string, path: string) {
    const res = await fetch(`${address.url}${path}`, { method });
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      if (!['date', 'connection', 'keep-alive'].includes(name))
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
    });
    return { status: res.status, headers, body: await res.text() };
  }

  async function injected(method: string, path: string) {
    const res = await app.inject({ method, url: path });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    return { status: res.statusCode, headers, body: res.body };
  }

  for (const [method, path] of [
    ['GET', '/json'],
    ['HEAD', '/json'],
    ['GET', '/empty'],
    ['GET', '/cookies'],
    ['GET', '/problem'],
    ['GET', '/nowhere'],
    ['GET', '/bad-header'],
  ] as const) {
    it(`${method} ${path}: the same status, headers and body`, async () => {
      assert.deepEqual(await injected(method, path), await overSocket(method, path));
    });
  }

  it('a header HTTP cannot carry gives a 500 problem that names it, on both paths', async () => {
    errors.length = 0;
    const res = await app.inject({ url: '/bad-header' });
    assert.equal(res.statusCode, 500);
    assert.match(res.json().detail, /The response could not be written: .*"x-broken"/);
    assert.equal(errors.length, 1);
  });

  it('inject() refuses exactly the header names and values node:http refuses, with its message', async () => {
    let header: [string, string] = ['x-ok', 'ok'];
    const probe = createApp();
    probe.services.addValue(Logger, { warn() {}, error() {} });
    probe.route(route('GET', '/h', () => reply('x', { headers: { [header[0]]: header[1] } })));
    // Characters either side of every boundary the two checks draw, plus the odd ones out.
    const char = fc.oneof(
      fc.constantFrom(
        '\t',
        '\n',
        '\r',
        '\0',
        ' ',
        '"',
        '(',
        ',',
        '/',
        ':',
        '@',
        '[',
        '^',
        '_',
        '`',
        '{',
        '|',
        '}',
        '~',
        '\x7f',
        '\x80',
        '\xff',
        'Ā',
        '€',
      ),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
      fc.constantFrom('a', 'Z', '0', '-', '!', '#', '$', '%', '&', "'", '*', '+', '.'),
    );
    const text = fc.array(char, { maxLength: 6 }).map((cs) => cs.join(''));
    await fc.assert(
      fc.asyncProperty(text, text, async (name, value) => {
        header = [name, value];
        let expected: string | undefined;
        try {
          validateHeaderName(name);
          validateHeaderValue(name, value);
        } catch (error) {
          expected = (error as Error).message;
        }
        const res = await probe.inject({ url: '/h' });
        if (expected === undefined) {
          assert.equal(res.statusCode, 200);
          assert.equal(res.headers[name.toLowerCase()], value);
        } else {
          assert.equal(res.statusCode, 500);
          // Header names reach the writer in lower case, so the message names them so.
          assert.ok(
            String(res.json().detail).toLowerCase().includes(expected.toLowerCase()),
            `${String(res.json().detail)} should carry ${expected}`,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it("HEAD answers the GET's Content-Length and no body; 204 carries no Content-Length", async () => {
    const head = await app.inject({ method: 'HEAD', url: '/json' });
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(JSON.stringify({ hello: 'wörld' }))));
    assert.equal(head.rawBody.length, 0);
    const empty = await app.inject({ url: '/empty' });
    assert.equal(empty.statusCode, 204);
    assert.equal(empty.headers['content-length'], undefined);
  });
});
