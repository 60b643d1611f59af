// The Lambda API example built the way its SAM template builds it (esbuild with the template's
// BuildProperties), then loaded from the bundle alone, as the Node.js runtime would load handler.mjs (with the
// AWS SDK the runtime brings, here a stand-in for SSM), and sent an HTTP API event.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { readTemplate } from '../support/cloudformation-yaml.js';
import { httpEvent } from '../support/lambda-events.js';
import { writeSsmStandIn } from '../support/runtime-sdk.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/lambda-api/', import.meta.url));

describe('the Lambda API example as SAM builds it', { timeout: 120_000 }, () => {
  let out: string;
  before(() => {
    out = mkdtempSync(join(tmpdir(), 'trellis-lambda-bundle-'));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it('bundles into one handler.mjs that answers an event with nothing else installed', async () => {
    const template = readTemplate(join(EXAMPLE, 'template.yaml')) as any;
    const fn = template.Resources.OrdersFunction;
    const props = fn.Metadata.BuildProperties;
    const root = join(EXAMPLE, fn.Properties.CodeUri);
    const outExtension = Object.fromEntries((props.OutExtension as string[]).map((s) => s.split('=') as [string, string]));
    const banner = Object.fromEntries((props.Banner as string[]).map((s) => [s.slice(0, s.indexOf('=')), s.slice(s.indexOf('=') + 1)]));
    await build({
      absWorkingDir: root,
      entryPoints: props.EntryPoints,
      bundle: true,
      platform: props.Platform,
      format: props.Format,
      target: props.Target,
      sourcemap: props.Sourcemap,
      outExtension,
      banner,
      external: props.External,
      outdir: out,
      logLevel: 'silent',
    });
    const [module, method] = (fn.Properties.Handler as string).split('.');
    assert.ok(readdirSync(out).includes(`${module}.mjs`), `the build makes ${module}.mjs`);
    // A fresh process in the bundle's folder, with only the runtime's AWS SDK in reach: the bundle must stand alone.
    writeSsmStandIn(out, { '/orders-api/api-keys': JSON.stringify({ k1: { subject: 'ana' } }) });
    const event = httpEvent('http-api', { path: '/whoami', headers: { 'x-api-key': 'k1' }, sourceIp: '203.0.113.77' });
    const script = `const m = await import(${JSON.stringify(join(out, `${module}.mjs`))}); const r = await m.${method}(${JSON.stringify(event)}, { awsRequestId: 'r1' }); process.stdout.write(JSON.stringify(r));`;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: out,
      env: { PATH: process.env.PATH, API_KEYS_PARAMETER: '/orders-api/api-keys' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    const result = JSON.parse(run.stdout);
    assert.equal(result.statusCode, 200);
    assert.deepEqual(JSON.parse(result.body), {
      subject: 'ana',
      sourceIp: '203.0.113.77',
      requestId: 'JKJaXmPLvHcESHA=',
      stage: '$default',
    });
  });
});
