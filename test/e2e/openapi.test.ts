// OpenAPI documents of real apps: the Lambda API example's, checked by an OpenAPI 3.1 validator and against what
// the app answers; the document served by the app; and `trellis openapi` as a user runs it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { App } from 'trellis';
import { createOpenApiDocument, openApiRoute } from 'trellis/openapi';
import { createOrdersApp } from '../../examples/lambda-api/app.js';
import { checkDocument } from '../../packages/trellis/src/openapi/document-check.test-suite.js';

const run = promisify(execFile);
const info = { title: 'Orders API', version: '1.0.0' };
const ordersApp = () =>
  createOrdersApp({
    apiKeys: {
      'key-ana': { subject: 'ana', grants: ['orders:read', 'orders:write'] },
      'key-bob': { subject: 'bob', grants: ['orders:read'] },
    },
  });

/** Checks an answer of the app against its document: the status is documented, and a JSON body fits its schema. */
function fitsDocument(
  doc: any,
  app: App,
  method: string,
  url: string,
  answer: { statusCode: number; headers: Record<string, unknown>; body: string },
): void {
  const path = new URL(url, 'http://x').pathname;
  const routeInfo = app.routes.find((r) => r.method === method && new RegExp(`^${r.path.replace(/:[^/]+/g, '[^/]+')}$`).test(path));
  assert.ok(routeInfo, `${method} ${path} is a route`);
  const template = routeInfo.path.replace(/:([^/]+)/g, '{$1}');
  const operation = doc.paths[template][method.toLowerCase()];
  const response = operation.responses[String(answer.statusCode)] ?? (answer.statusCode < 300 ? operation.responses['2XX'] : undefined);
  assert.ok(response, `${method} ${template} documents ${answer.statusCode}`);
  for (const name of Object.keys(response.headers ?? {})) {
    if (name !== 'WWW-Authenticate')
      assert.ok(answer.headers[name.toLowerCase()] !== undefined, `${method} ${template} ${answer.statusCode} carries ${name}`);
  }
  const media = String(answer.headers['content-type'] ?? '').split(';')[0]!;
  const entry = response.content?.[media];
  if (!entry) return;
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'urn:trellis:answer', components: doc.components, $defs: { answer: entry.schema } });
  const validate = ajv.getSchema('urn:trellis:answer#/$defs/answer')!;
  assert.ok(validate(JSON.parse(answer.body)), `${method} ${template} ${answer.statusCode}: ${JSON.stringify(validate.errors)}`);
}

describe('the OpenAPI document of the Lambda API example', () => {
  it('validates as OpenAPI 3.1 and describes every route, the API key scheme, the grants and the rate limit', async () => {
    const app = ordersApp();
    const doc: any = await checkDocument(createOpenApiDocument(app, { info }));
    const operations = Object.entries<any>(doc.paths).flatMap(([path, item]) =>
      Object.entries<any>(item).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
    );
    assert.deepEqual(
      operations.map((o) => o.id).sort(),
      app.routes.map((r) => `${r.method} ${r.path.replace(/:([^/]+)/g, '{$1}')}`).sort(),
      'every route, and nothing else',
    );
    assert.equal(Object.keys(doc.paths).length, 4);
    assert.equal(operations.length, 5);
    assert.deepEqual(Object.keys(doc.components.schemas), ['Problem']);
    assert.deepEqual(doc.components.securitySchemes, { ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } });
    assert.deepEqual(
      operations
        .filter((o) => o.op.responses['429'])
        .map((o) => o.id)
        .sort(),
      operations.map((o) => o.id).sort(),
      'a 429 on every route',
    );
    for (const { op } of operations) {
      assert.deepEqual(op['x-trellis-rate-limits'], [
        { name: 'per-caller', permitLimit: 20, windowSeconds: 60, scope: 'principal', cost: 1 },
      ]);
      assert.deepEqual(Object.keys(op.responses['429'].headers), [
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ]);
    }
    assert.deepEqual(doc.paths['/orders'].post.security, [{ ApiKey: ['orders:write'] }]);
    assert.deepEqual(doc.paths['/orders/{id}'].get.security, [{ ApiKey: ['orders:read'] }]);
    assert.deepEqual(doc.paths['/whoami'].get.security, [{ ApiKey: [] }]);
    assert.equal(doc.paths['/health'].get.security, undefined);
    assert.deepEqual(doc.paths['/orders/{id}'].get.parameters, [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    assert.deepEqual(Object.keys(doc.paths['/orders'].post.responses), ['400', '401', '403', '413', '415', '429', '2XX', 'default']);
  });

  it("documents what the app answers: successes, refusals and the rate limit's headers", async () => {
    const app = ordersApp();
    const doc = createOpenApiDocument(app, { info });
    const call = async (method: string, url: string, headers: Record<string, string> = {}, body?: string) => {
      const answer = await app.inject({ method, url, headers, body });
      fitsDocument(doc, app, method, url, answer);
      return answer.statusCode;
    };
    assert.equal(await call('GET', '/health'), 200);
    assert.equal(await call('GET', '/whoami'), 401);
    assert.equal(await call('GET', '/whoami', { 'x-api-key': 'nope' }), 401);
    assert.equal(
      await call('POST', '/orders', { 'x-api-key': 'key-bob', 'content-type': 'application/json' }, '{"item":"tea","quantity":1}'),
      403,
    );
    assert.equal(await call('POST', '/orders', { 'x-api-key': 'key-ana', 'content-type': 'application/json' }, '{"item":'), 400);
    assert.equal(await call('POST', '/orders', { 'x-api-key': 'key-ana', 'content-type': 'application/xml' }, '<order/>'), 415);
    assert.equal(
      await call('POST', '/orders', { 'x-api-key': 'key-ana', 'content-type': 'application/json' }, '{"item":"tea","quantity":1}'),
      201,
    );
    let status = 0;
    for (let i = 0; i < 25 && status !== 429; i++) status = await call('GET', '/orders/1', { 'x-api-key': 'key-ana' });
    assert.equal(status, 429);
  });

  it('is served by the app at the path given, describing the app it is part of', async () => {
    const app = ordersApp();
    app.route(openApiRoute(app, { info, path: '/openapi.json', servers: [{ url: 'https://orders.example.com' }] }));
    const answer = await app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(answer.statusCode, 200);
    const doc: any = await checkDocument(answer.json());
    assert.deepEqual(Object.keys(doc.paths), ['/health', '/openapi.json', '/orders', '/orders/{id}', '/whoami']);
    assert.deepEqual(doc.servers, [{ url: 'https://orders.example.com' }]);
    assert.equal(doc.paths['/openapi.json'].get.responses['429'], undefined, "the controller's rate limit is not the document route's");
    assert.deepEqual(
      doc,
      JSON.parse(JSON.stringify(createOpenApiDocument(app, { info, servers: [{ url: 'https://orders.example.com' }] }))),
    );
  });
});

describe('trellis openapi', () => {
  const CLI = ['--import', 'tsx', 'packages/harness/src/cli/main.ts', 'openapi'];
  const FIXTURE = 'test/fixtures/openapi/orders-app.ts';
  const cli = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(process.execPath, [...CLI, ...args], { encoding: 'utf8', timeout: 60_000 });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  };

  it("prints the document of a TypeScript module's app: the one createOpenApiDocument makes, titled from package.json", async () => {
    const { code, stdout, stderr } = await cli(FIXTURE);
    assert.equal(code, 0, stderr);
    const doc = await checkDocument(JSON.parse(stdout));
    const { app } = (await import('../fixtures/openapi/orders-app.js')) as { app: App };
    assert.deepEqual(
      doc,
      JSON.parse(JSON.stringify(createOpenApiDocument(app, { info: { title: 'trellis-repository', version: '0.0.0' } }))),
    );
    assert.equal(stdout, `${JSON.stringify(doc, null, 2)}\n`, 'two-space JSON, ready to commit');
  });

  it('writes to --out, with the title, version and servers given', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'trellis-openapi-')), 'openapi.json');
    const { code, stdout } = await cli(
      FIXTURE,
      '--out',
      out,
      '--title',
      'Orders',
      '--api-version',
      '2.0.0',
      '--server',
      'https://a.example.com',
      '--server',
      '/v1',
    );
    assert.equal(code, 0);
    assert.equal(stdout, `wrote ${out}: 4 paths, 5 operations\n`);
    const doc = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(doc.info, { title: 'Orders', version: '2.0.0' });
    assert.deepEqual(doc.servers, [{ url: 'https://a.example.com' }, { url: '/v1' }]);
  });

  it('takes --export: an app-making function without arguments; the process ends whatever the module left running', async () => {
    const { code, stdout, stderr } = await cli('test/fixtures/openapi/factory.ts', '--export', 'makeApp');
    assert.equal(code, 0, stderr);
    const doc = await checkDocument(JSON.parse(stdout));
    assert.deepEqual(Object.keys(doc.paths), ['/reports/{id}']);
  });

  it('says clearly what is wrong: a missing module or export, something that is not an app, a module that throws', async () => {
    const missing = await cli('test/fixtures/openapi/nowhere.ts');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^trellis openapi: cannot find the module test\/fixtures\/openapi\/nowhere\.ts/);
    const noExport = await cli('test/fixtures/openapi/factory.ts');
    assert.equal(noExport.code, 1);
    assert.match(
      noExport.stderr,
      /has no export "app" or "default" \(it exports "makeApp", "needsOptions", "settings"\); name the one holding the app with --export/,
    );
    const notApp = await cli('test/fixtures/openapi/factory.ts', '--export', 'settings');
    assert.equal(notApp.code, 1);
    assert.match(notApp.stderr, /the export "settings" of .* is not a Trellis app \(createApp\(\)\); it is an object \(region\)/);
    const withArguments = await cli('test/fixtures/openapi/factory.ts', '--export', 'needsOptions');
    assert.equal(withArguments.code, 1);
    assert.match(withArguments.stderr, /is a function that takes arguments/);
    const throws = await cli('test/fixtures/openapi/throws.mjs');
    assert.equal(throws.code, 1);
    assert.match(throws.stderr, /cannot load .*throws\.mjs: Error: no DATABASE_URL in this environment/);
    const notJs = join(mkdtempSync(join(tmpdir(), 'trellis-openapi-')), 'app.json');
    writeFileSync(notJs, '{}');
    assert.equal((await cli(notJs)).code, 1);
  });

  it('usage: --help, and exit 2 for no module or an unknown option', async () => {
    const help = await cli('--help');
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^usage: trellis openapi <module>/);
    const none = await cli();
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^trellis openapi: no module given\n\nusage:/);
    const unknown = await cli(FIXTURE, '--nope');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown option '--nope'/);
    const list = await run(process.execPath, ['--import', 'tsx', 'packages/harness/src/cli/main.ts', '--help'], { encoding: 'utf8' });
    assert.match(list.stdout, /\n {2}openapi +write the OpenAPI 3\.1 document of a module's Trellis app\n/);
  });
});
