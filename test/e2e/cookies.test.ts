// Cookies: read as the client sent them, set with every attribute, signed with rotating keys, refused where a
// browser would drop them — alike on listen(), inject() and every Lambda door, and in Chromium from the page.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { Cache, HttpError, Logger, RegistrationType, Validate, createApp, reply, route } from '../../packages/trellis/src/index.js';
import type { App, AppOptions } from '../../packages/trellis/src/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { createOpenApiDocument } from '../../packages/trellis/src/openapi/index.js';
import { FIXTURE_KINDS, httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';
import { chromiumSkipReason, servedInChromium } from '../support/chromium.js';

const NEW_KEY = 'k'.repeat(32);
const OLD_KEY = 'o'.repeat(32);

const PAGE = `<!doctype html><meta charset="utf-8"><title>cookies</title><link rel="icon" href="data:,"><p>cookies</p>`;

/** An app that logs a user in with a signed session cookie and keeps a signed, script-readable cart. */
function cookieApp(options: AppOptions = { cookieSecrets: [NEW_KEY, OLD_KEY] }): App {
  const app = createApp(options);
  app.services.addValue(Logger, { warn: () => undefined, error: () => undefined }, { type: RegistrationType.Replace });
  app.route(
    route('GET', '/', () => reply(PAGE, { headers: { 'content-type': 'text/html; charset=utf-8' } })),
    route('POST', '/login', (ctx) => {
      ctx.cookies.set('session', 'ana', { signed: true, httpOnly: true, sameSite: 'lax', maxAge: 3600 });
      ctx.cookies.set('cart', 'tea:2', { signed: true, sameSite: 'strict' });
      ctx.cookies.set('theme', 'dark mode; ☕');
      return { ok: true };
    }),
    route('GET', '/me', (ctx) => {
      const user = ctx.cookies.getSigned('session');
      if (user === undefined) throw new HttpError(401, 'Log in first.');
      return { user, cart: ctx.cookies.getSigned('cart') ?? null, theme: ctx.cookies.get('theme') ?? null };
    }),
    route('POST', '/logout', (ctx) => {
      ctx.cookies.clear('session');
      return reply(null, { status: 204 });
    }),
    route('GET', '/sent', (ctx) => ({ ...ctx.cookies.all() })),
  );
  return app;
}

const setCookies = (headers: Record<string, string | string[]>): string[] => {
  const value = headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};
/** The `Cookie` header a browser would send back for these `Set-Cookie` lines (name=value of each). */
const cookieHeader = (lines: string[]): string => lines.map((line) => line.split(';')[0]).join('; ');

describe('reading cookies', () => {
  it('every cookie by name, percent-decoded, the first of two with one name; a stray % and quotes are kept as sent', async () => {
    const res = await cookieApp().inject({ url: '/sent', headers: { cookie: 'a=1; b=caf%C3%A9%3B%20x; a=2; c=100%; d="quoted"' } });
    assert.deepEqual(res.json(), { a: '1', b: 'café; x', c: '100%', d: '"quoted"' });
  });

  it('no Cookie header: none, and a cookie is undefined', async () => {
    const app = cookieApp();
    assert.deepEqual((await app.inject({ url: '/sent' })).json(), {});
    assert.equal((await app.inject({ url: '/me' })).statusCode, 401);
  });
});

describe('setting cookies', () => {
  it('every attribute as written, the path / unless told, the value percent-encoded', async () => {
    const app = createApp();
    app.route(
      route('GET', '/set', (ctx) => {
        ctx.cookies.set('full', 'a b', {
          maxAge: 600,
          expires: new Date('2030-01-02T03:04:05Z'),
          path: '/orders',
          domain: 'example.com',
          secure: true,
          httpOnly: true,
          sameSite: 'none',
          partitioned: true,
          priority: 'high',
        });
        ctx.cookies.set('plain', 'x');
        ctx.cookies.set('__Host-id', '1', { secure: true });
        ctx.cookies.set('__Secure-id', '2', { secure: true, domain: 'example.com' });
        return 'ok';
      }),
    );
    const res = await app.inject({ url: '/set' });
    assert.deepEqual(setCookies(res.headers), [
      'full=a%20b; Max-Age=600; Domain=example.com; Path=/orders; Expires=Wed, 02 Jan 2030 03:04:05 GMT; HttpOnly; Secure; Partitioned; Priority=High; SameSite=None',
      'plain=x; Path=/',
      '__Host-id=1; Path=/; Secure',
      '__Secure-id=2; Domain=example.com; Path=/; Secure',
    ]);
  });

  it('a cookie browsers would drop is a TypeError with TRELLIS_INVALID_COOKIE, and nothing is set', async () => {
    const app = createApp();
    const thrown: string[] = [];
    app.route(
      route('GET', '/bad', (ctx) => {
        const attempts: [string, string, object][] = [
          ['__Host-id', '1', {}],
          ['__host-id', '1', { secure: true, path: '/orders' }],
          ['__Host-id', '1', { secure: true, domain: 'example.com' }],
          ['__Secure-id', '1', {}],
          ['cross', '1', { sameSite: 'none' }],
          ['embedded', '1', { partitioned: true }],
          ['bad name', '1', {}],
          ['half', '1', { maxAge: 1.5 }],
          ['date', '1', { expires: new Date(Number.NaN) }],
          ['number', 42 as unknown as string, {}],
          ['signed', '1', { signed: true }],
        ];
        for (const [name, value, options] of attempts) {
          try {
            ctx.cookies.set(name, value, options);
            thrown.push(`${name}: set`);
          } catch (error) {
            assert.ok(error instanceof TypeError, String(error));
            thrown.push(`${name}: ${(error as { code?: string }).code}`);
          }
        }
        return 'ok';
      }),
    );
    const res = await app.inject({ url: '/bad' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(setCookies(res.headers), []);
    assert.ok(
      thrown.every((t) => t.endsWith(': TRELLIS_INVALID_COOKIE')),
      thrown.join('\n'),
    );
    assert.equal(thrown.length, 11);
  });

  it("the handler's own Set-Cookie header and ctx.cookies' both go out, and on a refusal or error too", async () => {
    const app = createApp();
    app.services.addValue(Logger, { warn: () => undefined, error: () => undefined }, { type: RegistrationType.Replace });
    app.route(
      route('GET', '/both', (ctx) => {
        ctx.cookies.set('a', '1');
        return reply('ok', { headers: { 'set-cookie': 'b=2; Path=/' } });
      }),
      route('GET', '/fails', (ctx) => {
        ctx.cookies.clear('session');
        throw new HttpError(403, 'No.');
      }),
    );
    assert.deepEqual(setCookies((await app.inject({ url: '/both' })).headers), ['b=2; Path=/', 'a=1; Path=/']);
    const refused = await app.inject({ url: '/fails' });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(setCookies(refused.headers), ['session=; Max-Age=0; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
  });

  it('a cached route whose handler sets a cookie is not cached: the next caller gets its own answer', async () => {
    const app = createApp();
    let calls = 0;
    app.route(
      route('GET', '/visit', [Cache({ seconds: 60, shared: true })], (ctx) => {
        calls++;
        ctx.cookies.set('visitor', String(calls));
        return { calls };
      }),
    );
    await app.inject({ url: '/visit' });
    const second = await app.inject({ url: '/visit' });
    assert.deepEqual(second.json(), { calls: 2 });
    assert.deepEqual(setCookies(second.headers), ['visitor=2; Path=/']);
  });
});

describe('signed cookies', () => {
  it('read back while unchanged; a changed value, a changed signature or another name reads as absent', async () => {
    const app = cookieApp();
    const login = await app.inject({ method: 'POST', url: '/login' });
    const lines = setCookies(login.headers);
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^session=ana\.[\w-]{43}; Max-Age=3600; Path=\/; HttpOnly; SameSite=Lax$/);
    const me = await app.inject({ url: '/me', headers: { cookie: cookieHeader(lines) } });
    assert.deepEqual(me.json(), { user: 'ana', cart: 'tea:2', theme: 'dark mode; ☕' });

    const session = lines[0]!.split(';')[0]!.slice('session='.length);
    const [value, sig] = session.split('.') as [string, string];
    const flipped = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    for (const forged of [`bob.${sig}`, `${value}.${flipped}`, value, `${value}.`, `.${sig}`, `${value}.${sig}${sig}`]) {
      const res = await app.inject({ url: '/me', headers: { cookie: `session=${forged}` } });
      assert.equal(res.statusCode, 401, forged);
    }
    // The cart's signature does not make a session: the name is signed with the value.
    const cart = lines[1]!.split(';')[0]!.slice('cart='.length);
    assert.equal((await app.inject({ url: '/me', headers: { cookie: `session=${cart}` } })).statusCode, 401);
  });

  it('keys rotate: the newest signs, an older one still verifies, a dropped one no longer does', async () => {
    const before = cookieApp({ cookieSecrets: [OLD_KEY] });
    const signedByOld = cookieHeader(setCookies((await before.inject({ method: 'POST', url: '/login' })).headers));
    const rotated = cookieApp({ cookieSecrets: [NEW_KEY, OLD_KEY] });
    assert.equal((await rotated.inject({ url: '/me', headers: { cookie: signedByOld } })).json().user, 'ana');
    const renewed = setCookies((await rotated.inject({ method: 'POST', url: '/login' })).headers);
    const dropped = cookieApp({ cookieSecrets: [NEW_KEY] });
    assert.equal((await dropped.inject({ url: '/me', headers: { cookie: signedByOld } })).statusCode, 401);
    assert.equal((await dropped.inject({ url: '/me', headers: { cookie: cookieHeader(renewed) } })).json().user, 'ana');
  });

  it('cookieSecrets must be keys of at least 32 bytes', () => {
    for (const cookieSecrets of [[], ['short'], 'k'.repeat(32), [42], [Buffer.alloc(31)]]) {
      assert.throws(
        () => createApp({ cookieSecrets } as unknown as AppOptions),
        (error: Error & { code?: string }) => error.code === 'TRELLIS_INVALID_APP_OPTIONS',
        JSON.stringify(cookieSecrets),
      );
    }
    createApp({ cookieSecrets: [Buffer.alloc(32, 1), 'x'.repeat(40)] });
  });
});

describe('validated cookies', () => {
  const schemas = { cookies: z.object({ theme: z.enum(['light', 'dark']), lang: z.string().optional() }) };
  const app = createApp();
  app.route(route('GET', '/prefs', [Validate(schemas)], (ctx) => ctx.validatedCookies));

  it('ctx.validatedCookies is the schema’s output; a cookie the schema refuses is a 400 naming it', async () => {
    assert.deepEqual((await app.inject({ url: '/prefs', headers: { cookie: 'theme=dark; other=1' } })).json(), { theme: 'dark' });
    const bad = await app.inject({ url: '/prefs', headers: { cookie: 'theme=blue' } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json().field, 'theme');
    assert.match(bad.json().detail, /cookies/);
  });

  it('the OpenAPI document lists them as cookie parameters', () => {
    const doc = createOpenApiDocument(app, { info: { title: 't', version: '1' } }) as any;
    const parameters = doc.paths['/prefs'].get.parameters as { name: string; in: string; required: boolean }[];
    assert.deepEqual(
      parameters.map(({ name, in: where, required }) => ({ name, in: where, required })),
      [
        { name: 'lang', in: 'cookie', required: false },
        { name: 'theme', in: 'cookie', required: true },
      ],
    );
  });

  it('Validate takes only the parts of a request', () => {
    assert.throws(() => Validate({ cookie: schemas.cookies } as never), /"cookie" is not a part of a request/);
  });
});

describe('every door alike', () => {
  it('listen(): cookies set by one response come back on the next', async () => {
    const app = cookieApp();
    const { url } = await app.listen();
    try {
      const login = await fetch(`${url}/login`, { method: 'POST' });
      const lines = login.headers.getSetCookie();
      assert.equal(lines.length, 3);
      const me = await fetch(`${url}/me`, { headers: { cookie: cookieHeader(lines) } });
      assert.deepEqual(await me.json(), { user: 'ana', cart: 'tea:2', theme: 'dark mode; ☕' });
    } finally {
      await app.close();
    }
  });

  for (const kind of FIXTURE_KINDS) {
    it(`${kind}: the same Set-Cookie lines as inject(), and the cookies read back`, async () => {
      const direct = await cookieApp().inject({ method: 'POST', url: '/login' });
      const handler = lambdaHandler(cookieApp());
      const login = readResult(await handler(httpEvent(kind, { method: 'POST', path: '/login' }), lambdaContext()));
      const lines = setCookies(login.headers);
      // A load balancer without multi-value headers carries one Set-Cookie: the first.
      assert.deepEqual(lines, kind === 'alb' ? setCookies(direct.headers).slice(0, 1) : setCookies(direct.headers));
      const sent = cookieHeader(setCookies(direct.headers));
      const me = readResult(await handler(httpEvent(kind, { path: '/me', headers: { cookie: sent } }), lambdaContext()));
      assert.deepEqual(JSON.parse(me.body), { user: 'ana', cart: 'tea:2', theme: 'dark mode; ☕' });
    });
  }

  it('a load balancer without multi-value headers that loses cookies is said once in the log; with them, nothing is said', async () => {
    for (const kind of ['alb', 'alb-multi-value'] as const) {
      const warned: { message: string; details?: Record<string, unknown> }[] = [];
      const app = cookieApp();
      app.services.addValue(
        Logger,
        { warn: (message, details) => warned.push({ message, details }), error: () => undefined },
        { type: RegistrationType.Replace },
      );
      const handler = lambdaHandler(app);
      for (let i = 0; i < 3; i++) await handler(httpEvent(kind, { method: 'POST', path: '/login' }), lambdaContext());
      await handler(httpEvent(kind, { path: '/sent' }), lambdaContext());
      if (kind === 'alb-multi-value') {
        assert.deepEqual(warned, []);
        continue;
      }
      assert.equal(warned.length, 1, JSON.stringify(warned));
      assert.match(warned[0]!.message, /only the first was sent\. Turn on multi-value headers for the target group/);
      assert.deepEqual(warned[0]!.details, { cookies: 3, path: '/login' });
    }
  });
});

describe('cookies in Chromium, from the page', { skip: chromiumSkipReason(), timeout: 120_000 }, () => {
  const served = servedInChromium(cookieApp);

  it('a cookie set by a response is sent back; an HttpOnly one is hidden from scripts; a tampered signed one is refused', () =>
    served.withTab(async (tab, problems) => {
      await tab.goto(`${served.origin}/`);
      const got = await tab.evaluate(async () => {
        const before = (await fetch('/me')).status;
        await fetch('/login', { method: 'POST' });
        const me = await (await fetch('/me')).json();
        const visible = document.cookie;
        const cart = document.cookie.split('; ').find((c) => c.startsWith('cart='))!;
        document.cookie = `${cart.replace('tea', 'gold')}; path=/`;
        const tampered = await (await fetch('/me')).json();
        await fetch('/logout', { method: 'POST' });
        const after = (await fetch('/me')).status;
        return { before, me, visible, tampered, after };
      });
      assert.equal(got.before, 401);
      assert.deepEqual(got.me, { user: 'ana', cart: 'tea:2', theme: 'dark mode; ☕' });
      assert.ok(!got.visible.includes('session='), `HttpOnly: ${got.visible}`);
      assert.match(got.visible, /cart=tea%3A2\.[\w-]{43}/);
      assert.deepEqual(got.tampered, { user: 'ana', cart: null, theme: 'dark mode; ☕' });
      assert.equal(got.after, 401);
      assert.deepEqual(
        problems.filter((p) => !p.includes('401')),
        [],
      );
    }));
});
