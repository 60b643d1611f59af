// A path whose percent-encoding is malformed is the client's mistake: 400 with the stable code
// TRELLIS_BAD_TARGET on every door that sees the path as the client wrote it, never a 404 or a handler's answer.
// API Gateway and function URLs hand the path over decoded, so a `%` there is one the client encoded (`%25`).
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { createApp, route, type App } from '../../packages/trellis/src/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';

const MALFORMED = ['/files/%zz', '/files/a%', '/files/%C0%AF', '/files/%E0%A4%A', '/%zz/files/x', '/files/%'];

function makeApp(): App {
  const app = createApp();
  app.route(route('GET', '/files/:name', (ctx) => ({ name: ctx.params.name })));
  return app;
}

function get(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request({ port, host: '127.0.0.1', path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

const badTarget = (status: number, body: string, where: string) => {
  assert.equal(status, 400, `${where}: ${body}`);
  const problem = JSON.parse(body) as { code?: string; detail?: string };
  assert.equal(problem.code, 'TRELLIS_BAD_TARGET', where);
  assert.match(problem.detail ?? '', /percent-encoding/);
};

describe('malformed percent-encoding in the path', () => {
  let app: App;
  let port: number;
  before(async () => {
    app = makeApp();
    port = (await app.listen({ port: 0 })).port;
  });
  after(() => app.close());

  it('listen(): 400 TRELLIS_BAD_TARGET over a real socket', async () => {
    for (const path of MALFORMED) {
      const res = await get(port, path);
      badTarget(res.status, res.body, `listen ${path}`);
    }
    assert.deepEqual(JSON.parse((await get(port, '/files/a%20b')).body), { name: 'a b' }, 'a well-formed escape is decoded');
  });

  it('inject(): 400 TRELLIS_BAD_TARGET', async () => {
    for (const path of MALFORMED) {
      const res = await app.inject({ url: path });
      badTarget(res.statusCode, res.body, `inject ${path}`);
    }
  });

  it('a load balancer passes the path as written: 400 TRELLIS_BAD_TARGET, single and multi-value headers alike', async () => {
    const handler = lambdaHandler(makeApp());
    for (const kind of ['alb', 'alb-multi-value'] as const) {
      for (const path of MALFORMED) {
        const res = readResult(await handler(httpEvent(kind, { path }), lambdaContext()));
        badTarget(res.statusCode, res.body, `${kind} ${path}`);
      }
      const ok = readResult(await handler(httpEvent(kind, { path: '/files/a%20b' }), lambdaContext()));
      assert.deepEqual(JSON.parse(ok.body), { name: 'a b' });
    }
  });

  it('API Gateway and function URLs hand the path over decoded: a literal % is the one the client encoded', async () => {
    const handler = lambdaHandler(makeApp());
    for (const kind of ['rest-api', 'http-api', 'function-url'] as const) {
      const res = readResult(await handler(httpEvent(kind, { path: '/files/100%25' }), lambdaContext()));
      assert.deepEqual([res.statusCode, JSON.parse(res.body)], [200, { name: '100%' }], kind);
    }
  });
});
