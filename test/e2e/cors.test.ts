// CORS as a browser meets it: preflights answered before authentication and rate limiting, the headers on
// every response of an allowed origin (refusals included), through inject(), every Lambda door, and Chromium
// from a page on another origin, with and without credentials.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  ApiKeyAuthenticator,
  Authenticator,
  Authorize,
  Cache,
  Cors,
  createApp,
  group,
  MemoryResponseCache,
  RegistrationType,
  reply,
  ResponseCacheStore,
  route,
} from '../../packages/trellis/src/index.js';
import type { App } from '../../packages/trellis/src/index.js';
import { InProcessRateLimitStore, ManualClock, RateLimit, RateLimitStore } from '../../packages/trellis/src/ratelimit/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { FIXTURE_KINDS, httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';
import { chromiumSkipReason, launchChromium, type ChromiumHandle } from '../support/chromium.js';

const PAGE = 'https://app.example.com';

function api(origins: string[] = [PAGE]): { app: App; calls: string[] } {
  const calls: string[] = [];
  const app = createApp({ cors: { origins, credentials: true } });
  // The limit's clock stands still, so a refusal's Retry-After is the whole window however slowly the page runs.
  const clock = new ManualClock(1_700_000_000_000);
  app.services.add(RateLimitStore, () => new InProcessRateLimitStore({ clock }), { type: RegistrationType.Replace });
  app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: { k: { subject: 'ada', grants: ['orders'] } } }));
  app.route(
    route('GET', '/orders', [Authorize('orders'), RateLimit({ permitLimit: 2, windowSeconds: 60 })], (ctx) => {
      calls.push(`GET ${ctx.request.headers.get('cookie') ?? ''}`);
      return { orders: [] };
    }),
    route('PUT', '/orders', [Authorize('orders')], () => {
      calls.push('PUT');
      return reply(null, { status: 204 });
    }),
    route('GET', '/me', [], (ctx) => ({ cookie: ctx.request.headers.get('cookie') ?? null })),
    route('GET', '/public', [Cors({ origins: '*' })], () => 'hello'),
    route('GET', '/private', [Cors(false)], () => 'mine'),
    ...group({ annotations: [Cors({ origins: [/^https:\/\/[a-z]+\.partner\.example$/] })] }, [route('GET', '/partner', [], () => 'p')]),
  );
  return { app, calls };
}

const preflight = (method: string, origin = PAGE, headers = 'x-api-key, content-type') => ({
  method: 'OPTIONS' as const,
  url: '/orders',
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

describe('CORS through inject()', () => {
  it('answers a preflight before authentication and rate limiting, and runs no handler', async () => {
    const { app, calls } = api();
    for (let i = 0; i < 5; i++) {
      const res = await app.inject(preflight('PUT'));
      assert.equal(res.statusCode, 204, 'no API key, no rate limit: the preflight is answered');
      assert.equal(res.headers['access-control-allow-origin'], PAGE);
      assert.equal(res.headers['access-control-allow-credentials'], 'true');
      assert.equal(res.headers['access-control-allow-methods'], 'GET, HEAD, PUT');
      assert.equal(res.headers['access-control-allow-headers'], 'x-api-key, content-type');
      assert.equal(res.headers['access-control-max-age'], '600');
      assert.match(String(res.headers.vary), /origin/);
    }
    assert.deepEqual(calls, []);
    const other = await app.inject(preflight('PUT', 'https://evil.example'));
    assert.equal(other.statusCode, 403);
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.match(other.json().detail, /Pages of https:\/\/evil\.example may not call this resource/);
    const method = await app.inject(preflight('DELETE'));
    assert.equal(method.statusCode, 403);
    assert.match(method.json().detail, /may not use DELETE here; allowed: GET, HEAD, PUT/);
  });

  it('puts the headers on every response to an allowed origin, refusals included, and none on others', async () => {
    const { app } = api();
    const headers = { origin: PAGE, 'x-api-key': 'k' };
    const ok = await app.inject({ url: '/orders', headers });
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['access-control-allow-origin'], PAGE);
    assert.match(String(ok.headers['access-control-expose-headers']), /RateLimit-Remaining.*Retry-After/);
    const anonymous = await app.inject({ url: '/orders', headers: { origin: PAGE } });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['access-control-allow-origin'], PAGE, 'a page can read its 401');
    await app.inject({ url: '/orders', headers });
    const limited = await app.inject({ url: '/orders', headers });
    assert.equal(limited.statusCode, 429);
    assert.equal(limited.headers['access-control-allow-origin'], PAGE, 'and its 429');
    const missing = await app.inject({ url: '/nowhere', headers: { origin: PAGE } });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers['access-control-allow-origin'], PAGE, 'the app-wide setting covers 404s');
    const foreign = await app.inject({ url: '/orders', headers: { origin: 'https://evil.example', 'x-api-key': 'k' } });
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);
    assert.equal(foreign.headers.vary, 'origin');
    const sameOrigin = await app.inject({ url: '/orders', headers: { 'x-api-key': 'k' } });
    assert.equal(sameOrigin.headers['access-control-allow-origin'], undefined, 'no Origin, no Access-Control-Allow-Origin');
  });

  it("origins '*' sends a literal * on every response, with or without Origin, and no Vary: Origin", async () => {
    const app = createApp({ cors: { origins: '*' } }).route(route('GET', '/status', [], () => ({ ok: true })));
    for (const headers of [{ origin: PAGE }, { origin: 'https://anyone.example' }, {}] as Record<string, string>[]) {
      const res = await app.inject({ url: '/status', headers });
      assert.equal(res.headers['access-control-allow-origin'], '*', JSON.stringify(headers));
      assert.equal(res.headers['access-control-allow-credentials'], undefined);
      assert.equal(res.headers.vary, undefined, 'the answer is the same for every origin');
    }
    const missing = await app.inject({ url: '/nowhere', headers: { origin: PAGE } });
    assert.deepEqual([missing.statusCode, missing.headers['access-control-allow-origin']], [404, '*']);
  });

  it("origins '*' with credentials: true is refused where the settings are made, app-wide and on a route, with a code", () => {
    const refused = {
      name: 'TypeError',
      code: 'TRELLIS_CORS_ANY_ORIGIN_WITH_CREDENTIALS',
      message: /origins '\*' cannot go with credentials: true.*list the origins.*a RegExp.*a function/s,
    };
    assert.throws(() => createApp({ cors: { origins: '*', credentials: true } }), refused);
    assert.throws(() => createApp().route(route('GET', '/me', [Cors({ origins: '*', credentials: true })], () => 'me')), refused);
    assert.throws(() => Cors({ origins: '*', credentials: true }), { ...refused, message: /^@Cors: / });
    // What the message points to instead is accepted.
    createApp({ cors: { origins: [PAGE], credentials: true } });
    Cors({ origins: [/^https:\/\/[a-z]+\.example\.com$/], credentials: true });
    Cors({ origins: (origin) => origin.endsWith('.example.com'), credentials: true });
  });
});

describe('Vary: Origin on every response of a route whose origins are restricted', () => {
  it('without an Origin header too: answers, refusals (401, 429), 404 and 405 of the app-wide setting, a route setting, other origins', async () => {
    const { app } = api();
    const answers = [
      await app.inject({ url: '/orders', headers: { 'x-api-key': 'k' } }),
      await app.inject({ url: '/orders' }),
      await app.inject({ url: '/orders', headers: { 'x-api-key': 'k' } }),
      await app.inject({ url: '/nowhere' }),
      await app.inject({ method: 'DELETE', url: '/orders' }),
      await app.inject({ url: '/partner' }),
      await app.inject({ url: '/me', headers: { origin: 'https://evil.example' } }),
    ];
    assert.deepEqual(
      answers.map((res) => [res.statusCode, res.headers.vary]),
      [
        [200, 'origin'],
        [401, 'origin'],
        [429, 'origin'],
        [404, 'origin'],
        [405, 'origin'],
        [200, 'origin'],
        [200, 'origin'],
      ],
    );
    assert.equal((await app.inject({ url: '/private' })).headers.vary, undefined, 'Cors(false): the answer does not depend on Origin');
    assert.equal((await app.inject({ url: '/public' })).headers.vary, undefined, "'*': neither does this one");
  });

  it("merges with a Vary the handler set, and keeps a handler's Vary: *", async () => {
    const app = createApp({ cors: { origins: [PAGE] } }).route(
      route('GET', '/lang', [], () => reply('hej', { headers: { vary: 'Accept-Language' } })),
      route('GET', '/already', [], () => reply('x', { headers: { vary: 'accept-encoding, Origin' } })),
      route('GET', '/any', [], () => reply('x', { headers: { vary: '*' } })),
    );
    assert.equal((await app.inject({ url: '/lang' })).headers.vary, 'Accept-Language, origin');
    assert.equal((await app.inject({ url: '/lang', headers: { origin: PAGE } })).headers.vary, 'Accept-Language, origin');
    assert.equal((await app.inject({ url: '/already' })).headers.vary, 'accept-encoding, Origin');
    assert.equal((await app.inject({ url: '/any' })).headers.vary, '*');
  });

  it('@Cache: a public cached answer keeps Vary: Origin (and its own Vary), stored or served, so no shared cache gives an allowed page the answer without CORS', async () => {
    let calls = 0;
    const app = createApp({ cors: { origins: [PAGE] } });
    app.services.replace(ResponseCacheStore, () => new MemoryResponseCache());
    app.route(
      route('GET', '/catalogue', [Cache({ seconds: 60 })], () => ({ n: ++calls })),
      route('GET', '/news', [Cache({ seconds: 60, varyBy: ['header:accept-language'] })], () =>
        reply({ n: ++calls }, { headers: { vary: 'accept-encoding' } }),
      ),
    );
    const stored = await app.inject({ url: '/catalogue' });
    assert.deepEqual([stored.headers['cache-control'], stored.headers.vary], ['public, max-age=60', 'origin']);
    const served = await app.inject({ url: '/catalogue' });
    assert.deepEqual([served.json(), served.headers.vary, served.headers['access-control-allow-origin']], [{ n: 1 }, 'origin', undefined]);
    const fromPage = await app.inject({ url: '/catalogue', headers: { origin: PAGE } });
    assert.deepEqual([fromPage.json(), fromPage.headers.vary, fromPage.headers['access-control-allow-origin']], [{ n: 1 }, 'origin', PAGE]);
    const news = await app.inject({ url: '/news', headers: { 'accept-language': 'sv' } });
    assert.equal(news.headers.vary, 'accept-encoding, accept-language, origin', "the handler's Vary, the cache's, CORS's");
    const newsAgain = await app.inject({ url: '/news', headers: { 'accept-language': 'sv', origin: PAGE } });
    assert.deepEqual([newsAgain.json(), newsAgain.headers.vary], [{ n: 2 }, 'accept-encoding, accept-language, origin']);
  });

  it("a route's own setting replaces the app-wide one; Cors(false) turns it off; patterns match origins", async () => {
    const { app } = api();
    const open = await app.inject({ url: '/public', headers: { origin: 'https://anyone.example' } });
    assert.equal(open.headers['access-control-allow-origin'], '*');
    assert.equal(open.headers['access-control-allow-credentials'], undefined);
    assert.equal((await app.inject({ url: '/private', headers: { origin: PAGE } })).headers['access-control-allow-origin'], undefined);
    assert.equal(
      (await app.inject({ url: '/partner', headers: { origin: 'https://shop.partner.example' } })).headers['access-control-allow-origin'],
      'https://shop.partner.example',
    );
    assert.equal(
      (await app.inject({ url: '/partner', headers: { origin: 'https://shop.partner.example.evil' } })).headers[
        'access-control-allow-origin'
      ],
      undefined,
    );
    const noCors = createApp().route(route('GET', '/x', [], () => 'x'));
    assert.equal(
      (await noCors.inject({ method: 'OPTIONS', url: '/x', headers: { origin: PAGE, 'access-control-request-method': 'GET' } })).statusCode,
      405,
      'without CORS a preflight is routed as any OPTIONS',
    );
  });

  it('bad settings are refused with a message naming them', () => {
    assert.throws(
      () => Cors({ origins: ['https://app.example.com/path'] }),
      /not an origin such as "https:\/\/app\.example\.com" \(scheme, host and port only\)/,
    );
    assert.throws(() => Cors({ origins: 'everyone' as never }), /origins must be '\*', a list of origins or RegExps, or a function/);
    assert.throws(() => Cors({ origins: '*', maxAgeSeconds: -1 }), /maxAgeSeconds must be a whole number/);
    assert.throws(() => Cors({ origins: '*', exposedHeaders: ['bad header'] }), /exposedHeaders must be a list of header names/);
    assert.throws(() => Cors({ origins: '*', methods: ['FETCH' as never] }), /methods must be a list of GET, HEAD/);
    assert.throws(() => createApp({ cors: { origins: [42 as never] } }), /createApp\(\{ cors \}\): origins must hold origins/);
  });
});

describe('CORS through the Lambda doors', () => {
  for (const kind of FIXTURE_KINDS) {
    it(`${kind}: a preflight gets 204 and its headers; the request after it its origin`, async () => {
      const handler = lambdaHandler(api().app);
      const pre = readResult(
        await handler(
          httpEvent(kind, { method: 'OPTIONS', path: '/orders', headers: { origin: PAGE, 'access-control-request-method': 'PUT' } }),
          lambdaContext(),
        ),
      );
      assert.equal(pre.statusCode, 204);
      assert.equal(pre.headers['access-control-allow-origin'], PAGE);
      assert.equal(pre.headers['access-control-allow-methods'], 'GET, HEAD, PUT');
      const put = readResult(
        await handler(httpEvent(kind, { method: 'PUT', path: '/orders', headers: { origin: PAGE, 'x-api-key': 'k' } }), lambdaContext()),
      );
      assert.equal(put.statusCode, 204);
      assert.equal(put.headers['access-control-allow-origin'], PAGE);
    });
  }
});

function listen(server: Server): Promise<string> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

describe('CORS in Chromium, from a page on another origin', { skip: chromiumSkipReason(), timeout: 120_000 }, () => {
  let browser: ChromiumHandle;
  let page: Server;
  let pageOrigin: string;
  let apiUrl: string;
  let otherApiUrl: string;
  let state: { app: App; calls: string[] };
  let other: App;
  before(async () => {
    page = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>page</title>'));
    pageOrigin = await listen(page);
    state = api([pageOrigin]);
    apiUrl = (await state.app.listen()).url;
    other = api(['http://127.0.0.1:1']).app;
    otherApiUrl = (await other.listen()).url;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await state?.app.close();
    await other?.close();
    page?.close();
  });

  const inPage = async <T>(fn: (args: { apiUrl: string; otherApiUrl: string }) => Promise<T>): Promise<T> => {
    const tab = await browser.context.newPage();
    try {
      await tab.goto(`${pageOrigin}/`);
      return await tab.evaluate(fn, { apiUrl, otherApiUrl });
    } finally {
      await tab.close();
    }
  };

  it('an allowed origin reads the answer and the exposed rate-limit headers; a preflighted PUT goes through', async () => {
    const got = await inPage(async ({ apiUrl }) => {
      const res = await fetch(`${apiUrl}/orders`, { headers: { 'x-api-key': 'k' } });
      const put = await fetch(`${apiUrl}/orders`, {
        method: 'PUT',
        headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
        body: '{}',
      });
      return { status: res.status, body: await res.json(), remaining: res.headers.get('ratelimit-remaining'), put: put.status };
    });
    assert.deepEqual(got, { status: 200, body: { orders: [] }, remaining: '1', put: 204 });
    assert.ok(state.calls.includes('PUT'));
  });

  it('a page can read a 429 and its Retry-After', async () => {
    const got = await inPage(async ({ apiUrl }) => {
      let res = await fetch(`${apiUrl}/orders`, { headers: { 'x-api-key': 'k' } });
      if (res.status === 200) res = await fetch(`${apiUrl}/orders`, { headers: { 'x-api-key': 'k' } });
      return { status: res.status, retryAfter: res.headers.get('retry-after'), title: (await res.json()).title };
    });
    assert.deepEqual(got, { status: 429, retryAfter: '60', title: 'Too Many Requests' });
  });

  it('credentials: the cookie goes along where credentials are allowed, and a credentialed call is blocked where they are not', async () => {
    const got = await inPage(async ({ apiUrl }) => {
      document.cookie = 'session=abc; SameSite=Lax';
      const me = await fetch(`${apiUrl}/me`, { credentials: 'include' }).then((r) => r.json());
      const without = await fetch(`${apiUrl}/me`).then((r) => r.json());
      const open = await fetch(`${apiUrl}/public`, { credentials: 'include' }).then(
        () => 'read',
        (e: Error) => `blocked: ${e.name}`,
      );
      return { me, without, open };
    });
    assert.deepEqual(got.me, { cookie: 'session=abc' }, 'credentials allowed: the cookie is sent and the answer read');
    assert.deepEqual(got.without, { cookie: null });
    assert.equal(got.open, 'blocked: TypeError', "'*' without credentials: a credentialed fetch cannot read the answer");
  });

  it('an origin not allowed is blocked, and its preflighted PUT never reaches the handler', async () => {
    const before = state.calls.length;
    const got = await inPage(async ({ otherApiUrl }) => {
      const read = await fetch(`${otherApiUrl}/orders`, { headers: { 'x-api-key': 'k' } }).then(
        () => 'read',
        (e: Error) => `blocked: ${e.name}`,
      );
      const put = await fetch(`${otherApiUrl}/orders`, {
        method: 'PUT',
        headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
        body: '{}',
      }).then(
        () => 'sent',
        (e: Error) => `blocked: ${e.name}`,
      );
      return { read, put };
    });
    assert.deepEqual(got, { read: 'blocked: TypeError', put: 'blocked: TypeError' });
    assert.equal(state.calls.length, before);
  });
});
