// How the Node host answers what goes wrong around a handler: a client that leaves mid-upload (one debug
// line, not a handler failure), a header HTTP cannot carry (a 500 problem naming it), an idle connection (408).
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import { createNodeServer } from '../../packages/trellis/src/app/node-host.js';
import { createApp, Logger, reply, route, type App, type BoundAddress } from '../../packages/trellis/src/index.js';

/** Sends raw bytes; resolves with everything received until the server closes the connection. */
function raw(port: number, payload: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    const timer = setTimeout(() => socket.destroy(new Error(`no answer; got ${JSON.stringify(data)}`)), 5000);
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(data);
    });
    socket.on('error', reject);
    socket.write(payload);
  });
}

describe('Node host failures', { timeout: 20_000 }, () => {
  let app: App;
  let address: BoundAddress;
  const lines: Array<[string, string]> = [];
  let debugged: () => void = () => {};

  before(async () => {
    app = createApp();
    app.services.replace(Logger, () => ({
      debug: (message: string) => {
        lines.push(['debug', message]);
        debugged();
      },
      warn: (message: string) => void lines.push(['warn', message]),
      error: (message: string) => void lines.push(['error', message]),
    }));
    app.route(route('POST', '/upload', (ctx) => ({ got: String(ctx.body).length })));
    app.route(route('GET', '/redirect', () => reply('moved', { status: 302, headers: { location: '/a\r\nset-cookie: x=1' } })));
    address = await app.listen({ port: 0 });
  });
  after(() => app.close());

  it('logs an upload cut off mid-body as one debug line, not as a handler failure', async () => {
    const logged = new Promise<void>((resolve) => (debugged = resolve));
    const socket = connect(address.port, '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.write('POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nonly ten b');
    await new Promise((r) => setTimeout(r, 50));
    socket.destroy();
    await logged;
    assert.deepEqual(lines, [['debug', 'The client of POST /upload left before sending the whole body']]);
  });

  it('answers a handler-set header HTTP cannot carry with a 500 problem naming it (once an empty "500 Found")', async () => {
    const text = await raw(address.port, 'GET /redirect HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    assert.match(text, /^HTTP\/1\.1 500 Internal Server Error\r\n/);
    assert.match(text, /content-type: application\/problem\+json; charset=utf-8/i);
    const body = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
    assert.equal(body.status, 500);
    assert.match(body.detail, /header content \["location"\]/);
    assert.doesNotMatch(text, /set-cookie: x=1/i);
  });
});

describe('an idle connection', () => {
  it('is answered 408 Request Timeout, not 400', async () => {
    const server = createNodeServer(
      async () => {
        throw new Error('no request should reach the app');
      },
      { onError: () => {} },
    );
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const answer = raw((server.address() as AddressInfo).port, 'GET / HTTP/1.1\r\nHost: x\r\n');
      // What node:http reports when a request has not arrived within requestTimeout (30 s here).
      server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), await accepted);
      const text = await answer;
      assert.match(text, /^HTTP\/1\.1 408 Request Timeout\r\n/);
      assert.equal(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).status, 408);
    } finally {
      server.close();
    }
  });
});
