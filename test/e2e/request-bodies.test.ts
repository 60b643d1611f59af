// Bodies of any kind on every door: bytes 0..255 reach a Body('bytes') route intact through listen(), inject()
// and each Lambda event kind; a stream reads them as they arrive; 415 names what the route takes; limits are
// the route's own.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Body, createApp, route } from '../../packages/trellis/src/index.js';
import type { App } from '../../packages/trellis/src/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { FIXTURE_KINDS, httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

function uploads(): App {
  const app = createApp();
  app.route(
    route('PUT', '/bytes', [Body('bytes')], (ctx) => {
      const body = ctx.body as Uint8Array;
      return { length: body.length, same: Buffer.compare(Buffer.from(body), ALL_BYTES) === 0, isBytes: body instanceof Uint8Array };
    }),
    route('PUT', '/images', [Body('bytes', { types: ['image/png', 'image/*'], limit: 300 })], (ctx) => ({
      length: (ctx.body as Uint8Array).length,
    })),
    route('POST', '/stream', [Body('stream', { limit: 1_000_000 })], async (ctx) => {
      let length = 0;
      let chunks = 0;
      const parts: Buffer[] = [];
      for await (const chunk of ctx.body as Readable) {
        length += (chunk as Buffer).length;
        chunks++;
        if (parts.length < 1) parts.push(chunk as Buffer);
      }
      return { length, chunks, startsRight: parts[0]?.[1] === 1 };
    }),
    route('POST', '/json', [Body('json')], (ctx) => ({ got: ctx.body })),
    route('POST', '/default', [], (ctx) => ({ got: ctx.body })),
  );
  return app;
}

describe('request bodies through inject()', () => {
  const app = uploads();

  it('bytes 0..255 reach a bytes route intact, whatever the content type', async () => {
    for (const type of ['application/octet-stream', 'application/x-protobuf', 'image/png']) {
      const res = await app.inject({ method: 'PUT', url: '/bytes', headers: { 'content-type': type }, body: ALL_BYTES });
      assert.equal(res.statusCode, 200, type);
      assert.deepEqual(res.json(), { length: 256, same: true, isBytes: true });
    }
  });

  it("415 names the types the route takes, before the body is read; the route's limit is its own", async () => {
    const pdf = await app.inject({ method: 'PUT', url: '/images', headers: { 'content-type': 'application/pdf' }, body: ALL_BYTES });
    assert.equal(pdf.statusCode, 415);
    assert.match(pdf.json().detail, /Unsupported content type "application\/pdf"; this route takes image\/png, image\/\*\./);
    assert.deepEqual(pdf.json().supported, ['image/png', 'image/*']);
    assert.equal(
      (await app.inject({ method: 'PUT', url: '/images', headers: { 'content-type': 'image/gif' }, body: ALL_BYTES })).statusCode,
      200,
    );
    const big = await app.inject({ method: 'PUT', url: '/images', headers: { 'content-type': 'image/png' }, body: Buffer.alloc(301) });
    assert.equal(big.statusCode, 413);
    assert.equal(big.json().limit, 300);
    const form = await app.inject({
      method: 'POST',
      url: '/json',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'a=1',
    });
    assert.equal(form.statusCode, 415);
    assert.deepEqual(form.json().supported, ['application/json']);
    const octets = await app.inject({
      method: 'POST',
      url: '/default',
      headers: { 'content-type': 'application/octet-stream' },
      body: ALL_BYTES,
    });
    assert.equal(octets.statusCode, 415);
    assert.deepEqual(octets.json().supported, ['application/json', 'application/x-www-form-urlencoded', 'text/*']);
  });

  it('a stream route reads the body itself, and a body over its limit errors the stream with 413', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/stream',
      headers: { 'content-type': 'application/octet-stream' },
      body: ALL_BYTES,
    });
    assert.deepEqual(res.json(), { length: 256, chunks: 1, startsRight: true });
    const big = await app.inject({
      method: 'POST',
      url: '/stream',
      headers: { 'content-type': 'text/csv' },
      body: Buffer.alloc(1_000_001),
    });
    assert.equal(big.statusCode, 413);
  });

  it('bad settings are refused with a clear error', () => {
    assert.throws(() => Body('xml' as never), /@Body takes one or more of "json", "form", "multipart", "text", "bytes", "stream"/);
    assert.throws(() => Body(['stream', 'json']), /cannot be combined/);
    assert.throws(() => Body('json', { types: ['image/png'] }), /types apply to "bytes" and "stream"/);
    assert.throws(() => Body('bytes', { types: ['png'] }), /media types such as "image\/png"/);
    assert.throws(() => Body('bytes', { limit: -1 }), /limit must be a whole number of bytes/);
  });
});

describe('request bodies through every Lambda door', () => {
  for (const kind of FIXTURE_KINDS) {
    it(`${kind}: bytes 0..255 sent base64 reach the handler intact, as bytes and as a stream`, async () => {
      const handler = lambdaHandler(uploads());
      for (const [path, method] of [
        ['/bytes', 'PUT'],
        ['/stream', 'POST'],
      ] as const) {
        const event = httpEvent(kind, { method, path, headers: { 'content-type': 'application/octet-stream' }, body: ALL_BYTES });
        const out = readResult(await handler(event, lambdaContext()));
        assert.equal(out.statusCode, 200, `${path}: ${out.body}`);
        const seen = JSON.parse(out.body);
        assert.equal(seen.length, 256, path);
        if (path === '/bytes') assert.equal(seen.same, true);
      }
    });
  }
});

describe('request bodies over a socket', () => {
  let url: string;
  let app: App;
  before(async () => {
    app = uploads();
    url = (await app.listen()).url;
  });
  after(() => app.close());

  const send = (method: string, path: string, type: string, chunks: Buffer[]): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = request(`${url}${path}`, { method, headers: { 'content-type': type } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      for (const c of chunks) req.write(c);
      req.end();
    });

  it('bytes 0..255 reach a bytes route intact through listen()', async () => {
    const res = await send('PUT', '/bytes', 'application/octet-stream', [ALL_BYTES]);
    assert.equal(res.status, 200);
    assert.deepEqual(JSON.parse(res.body), { length: 256, same: true, isBytes: true });
  });

  it('a stream route gets a chunked upload as it arrives; past its limit, 413', async () => {
    const chunks = Array.from({ length: 40 }, (_, i) => (i === 0 ? ALL_BYTES : Buffer.alloc(16_384, i)));
    const res = await send('POST', '/stream', 'application/octet-stream', chunks);
    assert.equal(res.status, 200);
    const seen = JSON.parse(res.body);
    assert.equal(seen.length, 256 + 39 * 16_384);
    assert.equal(seen.startsRight, true);
    const big = await send(
      'POST',
      '/stream',
      'application/octet-stream',
      Array.from({ length: 70 }, () => Buffer.alloc(16_384)),
    );
    assert.equal(big.status, 413);
  });
});

describe('the same limits on every door', () => {
  const limited = () =>
    createApp({ bodyLimit: 100, maxUrlLength: 200 }).route(
      route('POST', '/in', [], (ctx) => ({ got: ctx.body })),
      route('GET', '/in', [], () => 'ok'),
    );
  const longUrl = `/in?q=${'x'.repeat(300)}`;

  it('inject(): a URL past maxUrlLength gets 414, a body past bodyLimit 413', async () => {
    const app = limited();
    const res = await app.inject({ url: longUrl });
    assert.equal(res.statusCode, 414);
    assert.equal(res.json().title, 'URI Too Long');
    assert.equal(res.json().limit, 200);
    assert.equal((await app.inject({ url: '/in?q=short' })).statusCode, 200);
    assert.equal(
      (await app.inject({ method: 'POST', url: '/in', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(101) })).statusCode,
      413,
    );
    assert.throws(() => createApp({ maxUrlLength: 0 }), /maxUrlLength must be a whole number of bytes >= 1/);
  });

  for (const kind of FIXTURE_KINDS) {
    it(`${kind}: 414 and 413 as through inject()`, async () => {
      const handler = lambdaHandler(limited());
      const [path, query] = longUrl.split('?');
      assert.equal(readResult(await handler(httpEvent(kind, { path, query }), lambdaContext())).statusCode, 414);
      const big = readResult(
        await handler(
          httpEvent(kind, { method: 'POST', path: '/in', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(101) }),
          lambdaContext(),
        ),
      );
      assert.equal(big.statusCode, 413);
      assert.equal(JSON.parse(big.body).limit, 100);
    });
  }

  it('listen(): 414 and 413 over a socket', async () => {
    const app = limited();
    const { url } = await app.listen();
    try {
      assert.equal((await fetch(`${url}${longUrl}`)).status, 414);
      assert.equal(
        (await fetch(`${url}/in`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(101) })).status,
        413,
      );
    } finally {
      await app.close();
    }
  });
});
