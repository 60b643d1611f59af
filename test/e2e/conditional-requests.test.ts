// Conditional requests: entity tags of an answer's bytes or the handler's own, 304 for a client whose copy is
// current, 412 for a stale If-Match — alike with the response cache, on inject(), listen() and every Lambda door.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { Cache, ETag, HttpError, Logger, RegistrationType, createApp, reply, route } from '../../packages/trellis/src/index.js';
import type { App } from '../../packages/trellis/src/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { createOpenApiDocument } from '../../packages/trellis/src/openapi/index.js';
import { FIXTURE_KINDS, httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';

const CHANGED = 'Wed, 21 Oct 2026 07:28:00 GMT';

/** A catalog with computed entity tags, an order kept at a version, and a page that says when it changed. */
function conditionalApp(): App {
  const app = createApp();
  app.services.addValue(Logger, { warn: () => undefined, error: () => undefined }, { type: RegistrationType.Replace });
  const order = { version: 1, item: 'tea' };
  let catalogCalls = 0;
  app.route(
    route('GET', '/catalog', [ETag()], () => ({ items: ['tea', 'coffee'] })),
    route('GET', '/cached', [ETag(), Cache({ seconds: 60, shared: true })], () => ({ calls: ++catalogCalls })),
    route('GET', '/stream', [ETag()], () => reply(Readable.from(['a', 'b']), { headers: { 'content-type': 'text/plain' } })),
    route('GET', '/orders/1', () => reply(order, { headers: { etag: `"v${order.version}"` } })),
    route('PUT', '/orders/1', [ETag()], (ctx) => {
      ctx.checkPreconditions({ etag: `"v${order.version}"` });
      order.version++;
      order.item = String((ctx.body as { item?: unknown })?.item ?? order.item);
      return reply(order, { headers: { etag: `"v${order.version}"` } });
    }),
    route('GET', '/page', () => reply('page', { headers: { 'last-modified': CHANGED } })),
    route('GET', '/visit', [ETag()], (ctx) => {
      ctx.cookies.set('seen', '1');
      return 'welcome';
    }),
    route('GET', '/missing', () => {
      throw new HttpError(404, 'Gone.');
    }),
  );
  return app;
}

const get = (app: App, url: string, headers: Record<string, string> = {}, method = 'GET') => app.inject({ method, url, headers });

describe('entity tags and 304', () => {
  it('an ETag route tags its answer with its bytes; the same bytes the same tag, on GET and HEAD', async () => {
    const app = conditionalApp();
    const first = await get(app, '/catalog');
    assert.equal(first.statusCode, 200);
    assert.match(String(first.headers.etag), /^"[\w-]{27}"$/);
    assert.equal((await get(app, '/catalog')).headers.etag, first.headers.etag);
    assert.equal((await get(app, '/catalog', {}, 'HEAD')).headers.etag, first.headers.etag);
  });

  it('If-None-Match naming the tag (weakly, in a list, or *) is a 304 with no body and the validators; another tag a 200', async () => {
    const app = conditionalApp();
    const etag = String((await get(app, '/catalog')).headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*', `"a,b", W/${etag}`]) {
      for (const method of ['GET', 'HEAD']) {
        const res = await get(app, '/catalog', { 'if-none-match': ifNoneMatch }, method);
        assert.equal(res.statusCode, 304, `${method} ${ifNoneMatch}`);
        assert.equal(res.body, '');
        assert.equal(res.headers.etag, etag);
        assert.equal(res.headers['content-type'], undefined);
      }
    }
    for (const ifNoneMatch of ['"other"', etag.slice(0, -2) + '"', 'W/"x"', 'garbage']) {
      assert.equal((await get(app, '/catalog', { 'if-none-match': ifNoneMatch })).statusCode, 200, ifNoneMatch);
    }
  });

  it("a handler's own ETag is weighed without the annotation; a streamed answer gets no computed tag", async () => {
    const app = conditionalApp();
    assert.equal((await get(app, '/orders/1', { 'if-none-match': '"v1"' })).statusCode, 304);
    assert.equal((await get(app, '/orders/1', { 'if-none-match': '"v2"' })).statusCode, 200);
    const streamed = await get(app, '/stream', { 'if-none-match': '*' });
    assert.equal(streamed.statusCode, 200);
    assert.equal(streamed.headers.etag, undefined);
    assert.equal(streamed.body, 'ab');
  });

  it('If-Modified-Since against Last-Modified: 304 when not changed since, 200 after, ignored when unreadable or beside If-None-Match', async () => {
    const app = conditionalApp();
    assert.equal((await get(app, '/page', { 'if-modified-since': CHANGED })).statusCode, 304);
    assert.equal((await get(app, '/page', { 'if-modified-since': 'Thu, 22 Oct 2026 00:00:00 GMT' })).statusCode, 304);
    assert.equal((await get(app, '/page', { 'if-modified-since': 'Tue, 20 Oct 2026 00:00:00 GMT' })).statusCode, 200);
    assert.equal((await get(app, '/page', { 'if-modified-since': 'yesterday' })).statusCode, 200);
    assert.equal((await get(app, '/page', { 'if-modified-since': CHANGED, 'if-none-match': '"x"' })).statusCode, 200);
  });

  it('a failed If-Match or If-Unmodified-Since on GET is the 412 problem; errors are never made 304', async () => {
    const app = conditionalApp();
    const etag = String((await get(app, '/catalog')).headers.etag);
    const stale = await get(app, '/catalog', { 'if-match': '"old"' });
    assert.equal(stale.statusCode, 412);
    assert.equal(stale.json().code, 'TRELLIS_PRECONDITION_FAILED');
    assert.equal((await get(app, '/catalog', { 'if-match': etag })).statusCode, 200);
    assert.equal((await get(app, '/catalog', { 'if-match': `W/${etag}` })).statusCode, 412, 'If-Match compares strongly');
    assert.equal((await get(app, '/page', { 'if-unmodified-since': 'Tue, 20 Oct 2026 00:00:00 GMT' })).statusCode, 412);
    assert.equal((await get(app, '/page', { 'if-unmodified-since': CHANGED })).statusCode, 200);
    assert.equal((await get(app, '/missing', { 'if-none-match': '*' })).statusCode, 404);
  });

  it('a 304 and a 412 keep the headers the pipeline added (cookies, rate-limit headers)', async () => {
    const app = conditionalApp();
    const etag = String((await get(app, '/visit')).headers.etag);
    const current = await get(app, '/visit', { 'if-none-match': etag });
    assert.equal(current.statusCode, 304);
    assert.equal(current.headers['set-cookie'], 'seen=1; Path=/');
    const stale = await get(app, '/visit', { 'if-match': '"old"' });
    assert.equal(stale.statusCode, 412);
    assert.equal(stale.headers['set-cookie'], 'seen=1; Path=/');
  });

  it('the response cache and the entity tags agree: a cached answer keeps its tag and is a 304 for a client that has it', async () => {
    const app = conditionalApp();
    const first = await get(app, '/cached');
    const hit = await get(app, '/cached');
    assert.equal(hit.headers.age !== undefined, true);
    assert.deepEqual(hit.json(), first.json());
    assert.equal(hit.headers.etag, first.headers.etag);
    const revalidated = await get(app, '/cached', { 'if-none-match': String(first.headers.etag) });
    assert.equal(revalidated.statusCode, 304);
    assert.equal(revalidated.headers['cache-control'], first.headers['cache-control']);
  });

  it('any list of tags: a 304 exactly when the answer’s tag is among them', async () => {
    const app = createApp();
    app.route(route('GET', '/v/:tag', (ctx) => reply('x', { headers: { etag: `"${ctx.params.tag}"` } })));
    const opaque = fc.stringMatching(/^[a-z0-9,;= ]{1,8}$/);
    await fc.assert(
      fc.asyncProperty(opaque, fc.array(fc.record({ tag: opaque, weak: fc.boolean() }), { maxLength: 4 }), async (current, listed) => {
        const header = listed.map(({ tag, weak }) => `${weak ? 'W/' : ''}"${tag}"`).join(', ');
        const res = await get(app, `/v/${encodeURIComponent(current)}`, { 'if-none-match': header || '""' });
        assert.equal(res.statusCode, listed.some((l) => l.tag === current) ? 304 : 200, header);
      }),
      { numRuns: 200 },
    );
  });
});

describe('preconditions of a change', () => {
  const put = (app: App, headers: Record<string, string>) =>
    app.inject({ method: 'PUT', url: '/orders/1', headers: { 'content-type': 'application/json', ...headers }, body: '{"item":"coffee"}' });

  it('If-Match of the current version changes the order; a stale one is a 412 and changes nothing', async () => {
    const app = conditionalApp();
    const updated = await put(app, { 'if-match': '"v1"' });
    assert.equal(updated.statusCode, 200);
    assert.equal(updated.headers.etag, '"v2"');
    const lost = await put(app, { 'if-match': '"v1"' });
    assert.equal(lost.statusCode, 412);
    assert.equal(lost.json().code, 'TRELLIS_PRECONDITION_FAILED');
    assert.deepEqual((await get(app, '/orders/1')).json(), { version: 2, item: 'coffee' });
    assert.equal((await put(app, { 'if-none-match': '*' })).statusCode, 412, 'If-None-Match: * — only if there is none yet');
    assert.equal((await put(app, {})).statusCode, 200, 'no precondition: the change goes through');
  });

  it('the OpenAPI document lists the 304 and 412 answers of ETag routes, and the ETag header', () => {
    const doc = createOpenApiDocument(conditionalApp(), { info: { title: 't', version: '1' } }) as any;
    const catalog = doc.paths['/catalog'].get.responses;
    assert.ok(catalog['304'] && catalog['412'], Object.keys(catalog).join());
    assert.ok(catalog['2XX'].headers.ETag);
    assert.ok(doc.paths['/orders/1'].put.responses['412']);
    assert.equal(doc.paths['/orders/1'].put.responses['304'], undefined);
    assert.equal(doc.paths['/page'].get.responses['304'], undefined, 'a route without ETag documents none');
  });
});

describe('every door alike', () => {
  const steps: { method?: string; url: string; headers?: Record<string, string>; body?: string }[] = [
    { url: '/catalog' },
    { url: '/catalog', headers: { 'if-none-match': '*' } },
    { url: '/catalog', headers: { 'if-match': '"old"' } },
    { url: '/page', headers: { 'if-modified-since': CHANGED } },
    { method: 'PUT', url: '/orders/1', headers: { 'if-match': '"v9"', 'content-type': 'application/json' }, body: '{}' },
  ];

  it('listen(): the same statuses and tags as inject()', async () => {
    const app = conditionalApp();
    const { url } = await app.listen();
    try {
      for (const step of steps) {
        const expected = await conditionalApp().inject(step);
        const res = await fetch(`${url}${step.url}`, {
          method: step.method ?? 'GET',
          headers: step.headers ?? {},
          body: step.body ?? null,
        });
        assert.equal(res.status, expected.statusCode, step.url);
        assert.equal(res.headers.get('etag') ?? undefined, expected.headers.etag);
        assert.equal(await res.text(), expected.body);
      }
    } finally {
      await app.close();
    }
  });

  for (const kind of FIXTURE_KINDS) {
    it(`${kind}: the same statuses, tags and bodies as inject()`, async () => {
      const handler = lambdaHandler(conditionalApp());
      for (const step of steps) {
        const expected = await conditionalApp().inject(step);
        const got = readResult(
          await handler(
            httpEvent(kind, {
              method: step.method ?? 'GET',
              path: step.url,
              headers: step.headers ?? {},
              ...(step.body ? { body: step.body } : {}),
            }),
            lambdaContext(),
          ),
        );
        assert.equal(got.statusCode, expected.statusCode, `${kind} ${step.url}`);
        assert.equal(got.headers.etag, expected.headers.etag);
        assert.equal(got.body, expected.body);
      }
    });
  }
});
