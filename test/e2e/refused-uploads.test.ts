// A refusal sent while the client is still uploading reaches the client: the server answers, half-closes, and
// drains what keeps coming for a bounded time before it lets go — so a client that writes its body back to back
// still reads its 413 (or 401) instead of EPIPE or a reset. The server runs from the built package in a process of
// its own, as it does in use: in one process the client would read every answer before the reset came.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';

const SERVER = fileURLToPath(new URL('../fixtures/uploads/refusing-server.mjs', import.meta.url));
const CHUNK = Buffer.alloc(64 * 1024, 0x61);

/** POSTs `chunks` writes of 64 KiB back to back, with or without a Content-Length; resolves with what the client saw. */
function upload(port: number, path: string, chunks: number, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/octet-stream' };
    if (!chunked) headers['content-length'] = chunks * CHUNK.length;
    const req = request({ port, host: '127.0.0.1', method: 'POST', path, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(`status ${res.statusCode}`));
      res.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code}`));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code}`));
    for (let i = 0; i < chunks; i++) req.write(CHUNK);
    req.end();
  });
}

const tally = (results: string[]) => results.reduce<Record<string, number>>((t, r) => ({ ...t, [r]: (t[r] ?? 0) + 1 }), {});

describe('a refusal sent before the body ends', { timeout: 120_000 }, () => {
  let server: ChildProcess;
  let port: number;

  before(async () => {
    server = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = Number(await new Promise<string>((resolve) => createInterface({ input: server.stdout! }).once('line', resolve)));
  });
  after(() => {
    server.kill();
  });

  for (const chunked of [false, true]) {
    it(`20 back-to-back uploads past the limit (${chunked ? 'chunked' : 'announced length'}) each read their 413`, async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => upload(port, '/upload', 128, chunked)));
      assert.deepEqual(tally(results), { 'status 413': 20 });
    });
  }

  it('20 back-to-back uploads refused before their body is read each read their 401', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => upload(port, '/closed', 128, false)));
    assert.deepEqual(tally(results), { 'status 401': 20 });
  });

  it('a refused client that keeps sending is let go: the drain is bounded', async () => {
    const result = await new Promise<{ head: string; sent: number }>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      let sent = 0;
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => (received += d));
      socket.on('error', () => {});
      socket.on('close', () => resolve({ head: received.split('\r\n')[0] ?? '', sent }));
      socket.on('connect', () => {
        socket.write(
          `POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/octet-stream\r\ncontent-length: ${1024 ** 4}\r\n\r\n`,
        );
        const pump = () => {
          while (!socket.destroyed && socket.write(CHUNK)) sent += CHUNK.length;
          if (!socket.destroyed) socket.once('drain', pump);
        };
        pump();
      });
    });
    assert.match(result.head, /^HTTP\/1\.1 413/);
    assert.ok(result.sent < 128 * 1024 * 1024, `the server stopped reading after the drain's bound (the client sent ${result.sent} bytes)`);
  });

  it('a refused client that goes quiet without closing is let go once it has been idle', async () => {
    const outcome = await new Promise<{ head: string; error: string | undefined }>((resolve) => {
      // Half-open: the client keeps its side open after the server's answer and FIN, and sends nothing more.
      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      let received = '';
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => (received += d));
      socket.on('end', () => {
        // Past the server's idle bound, a byte is answered with a reset: the server has let the connection go.
        setTimeout(() => {
          socket.write('x');
          setTimeout(() => socket.write('x'), 200);
        }, 2_500);
      });
      socket.on('error', (e: NodeJS.ErrnoException) => resolve({ head: received.split('\r\n')[0] ?? '', error: e.code }));
      socket.write('POST /closed HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/octet-stream\r\ncontent-length: 1000000\r\n\r\n');
    });
    assert.match(outcome.head, /^HTTP\/1\.1 401/);
    assert.match(outcome.error ?? '', /^(ECONNRESET|EPIPE)$/);
  });
});
