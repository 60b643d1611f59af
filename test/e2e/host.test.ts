import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createApp, Logger, problem, reply, route } from '../../packages/trellis/src/index.js';
import type { App, BoundAddress } from '../../packages/trellis/src/index.js';

/** Sends raw bytes and resolves with everything received until the server closes or `until` matches. */
function raw(port: number, payload: string, until?: RegExp, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms; got ${JSON.stringify(data)}`));
    }, timeoutMs);
    socket.on('data', (chunk) => {
      data += chunk.toString('latin1');
      if (until?.test(data)) {
        clearTimeout(timer);
        socket.destroy();
        resolve(data);
      }
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.write(payload);
  });
}

describe('Node host', () => {
  let app: App;
  let address: BoundAddress;
  let handled = 0;

  before(async () => {
    app = createApp({ bodyLimit: 1024 });
    app.filter({
      name: 'gate',
      order: 150,
      run(ctx, next) {
        if (ctx.request.headers.get('x-refuse')) ctx.refuse(problem(429, 'refused early'), { 'retry-after': '1' });
        return next();
      },
    });
    app.route(
      route('POST', '/upload', (ctx) => {
        handled++;
        return { got: ctx.body };
      }),
    );
    app.route(route('GET', '/hello', () => ({ hello: 'world' })));
    app.route(route('GET', '/bad-header', () => reply('x', { headers: { 'x-broken': 'line\nbreak' } })));
    app.services.addValue(Logger, { warn() {}, error() {} });
    address = await app.listen({ port: 0 });
  });
  after(() => app.close());

  it('binds 127.0.0.1 by default and reports the bound address', () => {
    assert.equal(address.host, '127.0.0.1');
    assert.ok(address.port > 0);
    assert.equal(address.url, `http://127.0.0.1:${address.port}`);
  });

  it('answers a decided request at once although its announced 10 MB body never comes', async () => {
    const answer = await raw(
      address.port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nX-Refuse: 1\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n',
      /"status":429\}/,
    );
    assert.match(answer, /^HTTP\/1\.1 429 /);
    assert.match(answer, /retry-after: 1/i);
    assert.match(answer, /connection: close/i);
    assert.equal(handled, 0);
  });

  it('refuses instead of sending 100 Continue', async () => {
    const answer = await raw(
      address.port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nX-Refuse: 1\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 10485760\r\n\r\n',
      /"status":429\}/,
    );
    assert.doesNotMatch(answer, /100 Continue/);
    assert.match(answer, /^HTTP\/1\.1 429 /);
  });

  it('sends 100 Continue when the body is wanted, and reads it', async () => {
    const answer = await raw(
      address.port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}',
      /\{"got":\{"a":1\}\}/,
    );
    assert.match(answer, /^HTTP\/1\.1 100 Continue/);
    assert.match(answer, /HTTP\/1\.1 200 OK/);
  });

  it('413 for a body over the limit, announced or chunked, without reading it all', async () => {
    const announced = await raw(
      address.port,
      'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n',
      /"status":413/,
    );
    assert.match(announced, /^HTTP\/1\.1 413 /);
    const chunk = 'x'.repeat(800);
    const chunked = await raw(
      address.port,
      `POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${(800).toString(16)}\r\n${chunk}\r\n${(800).toString(16)}\r\n${chunk}\r\n`,
      /"status":413/,
    );
    assert.match(chunked, /^HTTP\/1\.1 413 /);
  });

  it('malformed requests get 4xx problems and the server keeps serving', async () => {
    const cases: [string, RegExp][] = [
      [
        'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nConnection: close\r\n\r\n{bad}',
        /^HTTP\/1\.1 400 [\s\S]*not valid JSON/,
      ],
      ['GET /hello%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', /^HTTP\/1\.1 400 /],
      [`GET /hello HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, /^HTTP\/1\.1 431 /],
      ['GARBAGE\r\n\r\n', /^HTTP\/1\.1 400 /],
      [
        'POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: application/xml\r\nContent-Length: 3\r\nConnection: close\r\n\r\n<a/',
        /^HTTP\/1\.1 415 /,
      ],
      ['GET /missing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', /^HTTP\/1\.1 404 [\s\S]*application\/problem\+json/],
      ['DELETE /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', /^HTTP\/1\.1 405 [\s\S]*allow: GET, HEAD/i],
    ];
    for (const [request, expected] of cases) assert.match(await raw(address.port, request), expected);
    const res = await fetch(`${address.url}/hello`);
    assert.deepEqual(await res.json(), { hello: 'world' });
  });

  it('a header value HTTP cannot carry gives a 500, and the server keeps serving', async () => {
    assert.equal((await fetch(`${address.url}/bad-header`)).status, 500);
    assert.equal((await fetch(`${address.url}/hello`)).status, 200);
  });

  it('HEAD follows GET without a body', async () => {
    const res = await fetch(`${address.url}/hello`, { method: 'HEAD' });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(JSON.stringify({ hello: 'world' }).length));
    assert.equal(await res.text(), '');
  });

  it('close() lets a request in flight finish', async () => {
    const slowApp = createApp();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const startedP = new Promise<void>((r) => (started = r));
    slowApp.route(
      route('GET', '/slow', async () => {
        started();
        await gate;
        return 'done';
      }),
    );
    const { url } = await slowApp.listen();
    const pending = fetch(`${url}/slow`).then((r) => r.text());
    await startedP;
    const closing = slowApp.close();
    release();
    assert.equal(await pending, 'done');
    await closing;
    await assert.rejects(fetch(`${url}/slow`));
  });
});
