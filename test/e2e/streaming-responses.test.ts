// Streamed responses: over a real socket the first chunk arrives before the handler finishes, 100 MB go
// through listen() with backpressure, a client that leaves stops the stream; inject() and buffered Lambda
// doors read the stream whole (within Lambda's limit); a streaming function URL gets the runtime's prelude
// and the chunks as they come; server-sent events.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createApp, reply, route, serverSentEvents } from '../../packages/trellis/src/index.js';
import type { App } from '../../packages/trellis/src/index.js';
import { lambdaHandler, lambdaStreamingHandler } from '../../packages/trellis/src/lambda/index.js';
import { httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';
import { bigStream, MB } from '../fixtures/streaming/big-stream.js';
import { SOURCE_NODE_ARGS } from '../support/source-node.js';
import { fileURLToPath } from 'node:url';

/** A latch a test opens to let a handler's stream go on. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

function streamingApp(state: { gate: ReturnType<typeof gate>; finished: boolean; stopped: boolean; produced: number }): App {
  const app = createApp();
  app.route(
    route('GET', '/gated', [], () =>
      (async function* () {
        yield 'first chunk\n';
        await state.gate.wait;
        yield 'second chunk\n';
        state.finished = true;
      })(),
    ),
    route('GET', '/big', [], () => bigStream(state)),
    route(
      'GET',
      '/web',
      [],
      () =>
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('from a web stream'));
            c.close();
          },
        }),
    ),
    route('GET', '/bad-chunk', [], () =>
      (async function* () {
        yield 'ok ';
        yield { not: 'bytes' };
      })(),
    ),
    route('GET', '/events', [], () =>
      serverSentEvents(
        (async function* () {
          yield { event: 'greeting', id: '1', data: 'hello\nworld' };
          yield { data: { price: 42 } };
          yield 'plain';
        })(),
      ),
    ),
    route('GET', '/huge', [], () =>
      (async function* () {
        for (let i = 0; i < 7; i++) yield Buffer.alloc(MB);
      })(),
    ),
  );
  return app;
}

describe('streamed responses over a socket', () => {
  const state = { gate: gate(), finished: false, stopped: false, produced: 0 };
  let app: App;
  let url: string;
  before(async () => {
    app = streamingApp(state);
    url = (await app.listen()).url;
  });
  after(() => app.close());

  it('the first chunk arrives before the handler finishes', async () => {
    const first = await new Promise<{ text: string; finished: boolean; rest: Promise<string> }>((resolve, reject) => {
      request(`${url}/gated`, (res) => {
        assert.equal(res.headers['transfer-encoding'], 'chunked');
        assert.equal(res.headers['content-length'], undefined);
        let body = '';
        res.setEncoding('utf8');
        const rest = new Promise<string>((done) => res.on('end', () => done(body)));
        res.once('data', (chunk: string) => {
          body += chunk;
          resolve({ text: chunk, finished: state.finished, rest });
          res.on('data', (more: string) => (body += more));
        });
      })
        .on('error', reject)
        .end();
    });
    assert.equal(first.text, 'first chunk\n');
    assert.equal(first.finished, false, 'the handler has not finished');
    state.gate.open();
    assert.equal(await first.rest, 'first chunk\nsecond chunk\n');
  });

  it("100 MB stream through listen() with the server's RSS growing by less than 50 MB", { timeout: 120_000 }, async () => {
    // The server in a process of its own: the client's own buffers do not count against it.
    const child = spawn(
      process.execPath,
      [...SOURCE_NODE_ARGS, fileURLToPath(new URL('../fixtures/streaming/big-stream-server.ts', import.meta.url))],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const serverUrl = await new Promise<string>((resolve, reject) => {
        child.stdout.setEncoding('utf8');
        child.stdout.once('data', (line: string) => resolve(line.trim()));
        child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
      });
      const rss = (): number => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, 'latin1'))?.[1] ?? 0) * 1024;
      const before = rss();
      let peak = before;
      let received = 0;
      await new Promise<void>((resolve, reject) => {
        request(`${serverUrl}/big`, (res) => {
          res.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received % (4 * MB) < chunk.length) peak = Math.max(peak, rss());
          });
          res.on('end', resolve);
        })
          .on('error', reject)
          .end();
      });
      assert.equal(received, 100 * MB);
      const growthMb = (peak - before) / MB;
      assert.ok(growthMb < 50, `the server's RSS grew by ${growthMb.toFixed(1)} MB`);
    } finally {
      child.kill();
    }
  });

  it("a client that leaves stops the stream: the handler's stream is not read to its end", async () => {
    state.stopped = false;
    await new Promise<void>((resolve) => {
      const req = request(`${url}/big`, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', () => undefined);
      req.end();
    });
    const until = Date.now() + 5_000;
    while (!state.stopped && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    assert.equal(state.stopped, true);
    assert.ok(state.produced < 100, `produced ${state.produced} of 100 MB`);
  });

  it('a web ReadableStream and server-sent events', async () => {
    assert.equal(await (await fetch(`${url}/web`)).text(), 'from a web stream');
    const events = await fetch(`${url}/events`);
    assert.equal(events.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(events.headers.get('cache-control'), 'no-cache');
    assert.equal(await events.text(), 'id: 1\nevent: greeting\ndata: hello\ndata: world\n\ndata: {"price":42}\n\ndata: plain\n\n');
  });

  it('a chunk that is not bytes or text ends the response early, and the server goes on', async () => {
    const res = await fetch(`${url}/bad-chunk`)
      .then((r) => r.text())
      .then(
        () => 'complete',
        (e: Error) => `cut: ${e.name}`,
      );
    assert.match(res, /^cut/);
    assert.equal((await fetch(`${url}/web`)).status, 200);
  });
});

describe('streamed responses where the body is held whole', () => {
  it('inject() reads the stream whole', async () => {
    const state = { gate: gate(), finished: false, stopped: false, produced: 0 };
    state.gate.open();
    const app = streamingApp(state);
    assert.equal((await app.inject({ url: '/gated' })).body, 'first chunk\nsecond chunk\n');
    assert.equal((await app.inject({ url: '/big' })).rawBody.length, 100 * MB);
    assert.match((await app.inject({ url: '/events' })).body, /^id: 1\nevent: greeting/);
  });

  it('API Gateway: a stream within 6 MB is answered whole; past it, a 500 that says to stream from a function URL', async () => {
    const state = { gate: gate(), finished: false, stopped: false, produced: 0 };
    state.gate.open();
    const handler = lambdaHandler(streamingApp(state));
    const ok = readResult(await handler(httpEvent('rest-api', { path: '/gated' }), lambdaContext()));
    assert.equal(ok.body, 'first chunk\nsecond chunk\n');
    const huge = readResult(await handler(httpEvent('http-api', { path: '/huge' }), lambdaContext()));
    assert.equal(huge.statusCode, 500);
    assert.match(
      JSON.parse(huge.body).detail,
      /larger than the 6291456 bytes this door can answer with; serve it through a door that streams/,
    );
  });
});

/** A response stream as Lambda's Node.js runtime hands it to a streaming handler. */
class RuntimeResponseStream extends Writable {
  contentType: string | undefined;
  readonly chunks: Buffer[] = [];
  readonly arrivals: number[] = [];
  setContentType(type: string): void {
    this.contentType = type;
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    this.arrivals.push(Date.now());
    done();
  }
  /** The prelude (JSON up to the 8 NUL bytes) and the body after it. */
  parts(): { prelude: unknown; body: string } {
    const all = Buffer.concat(this.chunks);
    const at = all.indexOf(Buffer.alloc(8));
    return { prelude: JSON.parse(all.subarray(0, at).toString('utf8')), body: all.subarray(at + 8).toString('utf8') };
  }
}

describe('a function URL with response streaming, called as the runtime calls it', () => {
  it('is marked as a streaming handler, writes the prelude, then each chunk as the handler makes it', async () => {
    const state = { gate: gate(), finished: false, stopped: false, produced: 0 };
    const handler = lambdaStreamingHandler(streamingApp(state));
    assert.equal((handler as unknown as Record<symbol, unknown>)[Symbol.for('aws.lambda.runtime.handler.streaming')], 'response');
    const stream = new RuntimeResponseStream();
    const done = handler(httpEvent('function-url', { path: '/gated' }), stream, lambdaContext());
    while (stream.chunks.length < 3) await new Promise((r) => setTimeout(r, 5));
    assert.equal(state.finished, false, 'the first chunk went out before the handler finished');
    assert.equal(stream.contentType, 'application/vnd.awslambda.http-integration-response');
    state.gate.open();
    await done;
    assert.equal(stream.writableEnded, true);
    const { prelude, body } = stream.parts();
    assert.deepEqual(prelude, { statusCode: 200, headers: { 'content-type': 'application/octet-stream' } });
    assert.equal(body, 'first chunk\nsecond chunk\n');
  });

  it('answers a whole body and cookies in the prelude, streams past 6 MB, and refuses events that cannot stream', async () => {
    const app = streamingApp({ gate: gate(), finished: true, stopped: false, produced: 0 });
    app.route(route('GET', '/cookie', [], () => reply({ ok: true }, { headers: { 'set-cookie': ['a=1', 'b=2'] } })));
    const handler = lambdaStreamingHandler(app);
    const whole = new RuntimeResponseStream();
    await handler(httpEvent('function-url', { path: '/cookie' }), whole);
    assert.deepEqual(whole.parts(), {
      prelude: { statusCode: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, cookies: ['a=1', 'b=2'] },
      body: '{"ok":true}',
    });
    const huge = new RuntimeResponseStream();
    await handler(httpEvent('function-url', { path: '/huge' }), huge);
    assert.equal(Buffer.concat(huge.chunks).length > 7 * MB, true, 'a function URL streams past the 6 MB a buffered response holds');
    for (const [kind, name] of [
      ['rest-api', 'api-gateway-rest'],
      ['http-api', 'api-gateway-http'],
      ['alb', 'alb'],
    ] as const) {
      const stream = new RuntimeResponseStream();
      await assert.rejects(
        handler(httpEvent(kind, { path: '/cookie' }), stream),
        new RegExp(`answers function URL events \\(payload 2\\.0, .*\\); this is an ${name} event, which cannot stream`),
      );
      assert.equal(stream.chunks.length, 0, `nothing was written for an ${name} event`);
    }
  });
});
