import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startS3Emulator, type S3Emulator } from '../../packages/harness/src/cli/s3-emulator.js';
import {
  createInterpreter,
  FunctionRegistry,
  FunctionsConfigError,
  validateFunctionsConfig,
  type FunctionsConfig,
  type Interpreter,
  type InvokeOutcome,
} from '../../packages/harness/src/dashboard/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/functions/', import.meta.url));
const examples = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));
const repoSdk = realpathSync(fileURLToPath(new URL('../../node_modules/@aws-sdk/', import.meta.url)));
const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);

function valueOf(outcome: InvokeOutcome): any {
  assert.equal(outcome.ok, true, `expected a value, got ${JSON.stringify(outcome.error)}\n${outcome.logs}`);
  return outcome.value;
}

function registry(config: FunctionsConfig): FunctionRegistry {
  const r = new FunctionRegistry(config);
  after(() => r.close());
  return r;
}

/** A one-widget dashboard for an endpoint, read through the harness: what the console would show. */
async function render(harness: Interpreter, endpoint: string, params: object): Promise<{ html: string; error: unknown }> {
  const dash = await harness.load(
    { widgets: [{ type: 'custom', width: 12, height: 6, properties: { endpoint, params } }] },
    { name: endpoint },
  );
  const widget = await dash.readWidget(0);
  return { html: widget.html, error: widget.error };
}

describe('the AWS SDK a Node.js function finds, as on Lambda', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-sdk-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('require, static import and dynamic import() all find the SDK the harness provides, outside any project', async () => {
    const widget = join(dir, 'outside');
    mkdirSync(widget);
    const probe = `
      const required = require.resolve('@aws-sdk/client-s3');
      exports.handler = async () => {
        const dynamic = await import('@aws-sdk/client-cloudwatch');
        return { required, dynamic: typeof dynamic.CloudWatchClient, s3: typeof require('@aws-sdk/client-s3').S3Client };
      };`;
    writeFileSync(join(widget, 'probe.cjs'), probe);
    writeFileSync(
      join(widget, 'probe-esm.mjs'),
      `import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';\nexport const handler = async () => typeof CloudWatchClient;\n`,
    );
    const r = registry({ functions: { cjs: { handler: 'probe.handler' }, esm: { handler: 'probe-esm.handler' } }, baseDir: widget });
    const cjs = valueOf(await r.invoke('cjs', {}));
    assert.ok(realpathSync(cjs.required).startsWith(repoSdk), cjs.required);
    assert.deepEqual([cjs.dynamic, cjs.s3], ['function', 'function']);
    assert.equal(valueOf(await r.invoke('esm', {})), 'function');
  });

  test("a function's own node_modules comes first, for require and import alike", async () => {
    const widget = join(dir, 'own');
    const own = join(widget, 'node_modules', '@aws-sdk', 'client-s3');
    mkdirSync(own, { recursive: true });
    writeFileSync(join(own, 'package.json'), JSON.stringify({ name: '@aws-sdk/client-s3', version: '3.0.0-own', main: 'index.js' }));
    writeFileSync(join(own, 'index.js'), `exports.S3Client = class S3Client {}; exports.origin = 'own copy';\n`);
    writeFileSync(join(widget, 'uses.cjs'), `exports.handler = async () => require('@aws-sdk/client-s3').origin;\n`);
    writeFileSync(
      join(widget, 'uses-esm.mjs'),
      `import s3 from '@aws-sdk/client-s3';\nexport const handler = async () => s3.origin + ' (esm)';\n`,
    );
    const r = registry({ functions: { cjs: { handler: 'uses.handler' }, esm: { handler: 'uses-esm.handler' } }, baseDir: widget });
    assert.equal(valueOf(await r.invoke('cjs', {})), 'own copy');
    assert.equal(valueOf(await r.invoke('esm', {})), 'own copy (esm)');
  });

  test("only the SDK is provided: the harness's other dependencies stay out of reach, as they are on Lambda", async () => {
    const widget = join(dir, 'other');
    mkdirSync(widget);
    writeFileSync(join(widget, 'other.cjs'), `require('jose');\nexports.handler = async () => 'loaded';\n`);
    writeFileSync(join(widget, 'other-esm.mjs'), `import 'jose';\nexport const handler = async () => 'loaded';\n`);
    const r = registry({ functions: { cjs: { handler: 'other.handler' }, esm: { handler: 'other-esm.handler' } }, baseDir: widget });
    for (const name of ['cjs', 'esm']) {
      const outcome = await r.invoke(name, {});
      assert.equal(outcome.error?.type, 'Runtime.ImportModuleError', JSON.stringify(outcome.error));
      assert.match(outcome.error.message, /jose/);
    }
  });

  test('awsSdkPath adds a node_modules folder searched before the provided SDK; a folder without an SDK is refused', async () => {
    const extra = join(dir, 'layer', 'node_modules', '@aws-sdk', 'client-dynamodb');
    mkdirSync(extra, { recursive: true });
    writeFileSync(join(extra, 'package.json'), JSON.stringify({ name: '@aws-sdk/client-dynamodb', version: '3.0.0', main: 'index.js' }));
    writeFileSync(join(extra, 'index.js'), `exports.DynamoDBClient = class DynamoDBClient {}; exports.from = 'layer';\n`);
    const widget = join(dir, 'layered');
    mkdirSync(widget);
    writeFileSync(
      join(widget, 'dynamo.mjs'),
      `import { from } from '@aws-sdk/client-dynamodb';\nimport { S3Client } from '@aws-sdk/client-s3';\nexport const handler = async () => from + ' ' + typeof S3Client;\n`,
    );
    const config = validateFunctionsConfig(
      { functions: { dynamo: { handler: 'dynamo.handler' } }, awsSdkPath: join(dir, 'layer') },
      widget,
    );
    assert.equal(config.awsSdkPath, join(dir, 'layer', 'node_modules'));
    const r = registry(config);
    assert.equal(valueOf(await r.invoke('dynamo', {})), 'layer function');
    assert.throws(
      () => validateFunctionsConfig({ functions: {}, awsSdkPath: widget }, dir),
      (e: unknown) => e instanceof FunctionsConfigError && /holds no AWS SDK/.test(e.message) && e.entry === 'awsSdkPath',
    );
  });
});

describe('a local AWS endpoint: widgets read an S3 emulator with data in it', () => {
  let s3: S3Emulator;
  let harness: Interpreter;
  before(async () => {
    s3 = await startS3Emulator(['reports']);
    await s3.put('reports', 'daily.html', '<h2>Daily report</h2><p>All 12 checks passed.</p>');
    const config = validateFunctionsConfig(
      {
        functions: {
          s3Report: { handler: 'aws/s3-report.handler' },
          s3ReportEsm: { handler: 'aws/s3-report-esm.handler' },
          awsCall: { handler: 'aws/aws-call.handler' },
        },
        awsEndpoint: s3.endpointWithCredentials,
      },
      fixtures,
    );
    harness = createInterpreter({ functions: config, clock: () => NOW });
  });
  after(async () => {
    await harness?.close();
    await s3?.close();
  });

  test('GetObject by require (CommonJS) and by a static import (ESM) renders the object put there', async () => {
    const params = { bucket: 'reports', key: 'daily.html' };
    const cjs = await render(harness, 's3Report', params);
    assert.equal(cjs.error, null);
    assert.equal(cjs.html, '<h2>Daily report</h2><p>All 12 checks passed.</p>');
    const esm = await render(harness, 's3ReportEsm', params);
    assert.equal(esm.error, null);
    assert.equal(esm.html, '<div class="esm"><h2>Daily report</h2><p>All 12 checks passed.</p></div>');
  });

  test('a client loaded by a dynamic import() reaches the emulator too', async () => {
    const listed = await render(harness, 'awsCall', { service: 'S3', api: 'ListObjectsV2', params: { Bucket: 'reports' } });
    assert.equal(listed.error, null);
    assert.match(listed.html, /"Key": "daily.html"/);
  });

  test('a missing object is the widget error the SDK raises, not a harness failure', async () => {
    const missing = await render(harness, 's3Report', { bucket: 'reports', key: 'nope.html' });
    assert.equal((missing.error as { type: string }).type, 'NoSuchKey');
  });
});

describe('setup modules: AWS calls stubbed with aws-sdk-client-mock before the handler loads', () => {
  let harness: Interpreter;
  before(() => {
    const config = validateFunctionsConfig(
      {
        functions: {
          instances: { handler: 'aws/instances.handler', setup: [`${examples}aws/stub-ec2.cjs`, `${examples}aws/stub-cloudwatch.cjs`] },
          metrics: { handler: 'aws/metric-table.handler', setup: ['aws/stub-cloudwatch.mjs'] },
          unstubbed: { handler: 'aws/metric-table.handler' },
          broken: { handler: 'aws/instances.handler', setup: ['aws/setup-fails.cjs'] },
        },
      },
      fixtures,
    );
    harness = createInterpreter({ functions: config, clock: () => NOW });
  });
  after(() => harness?.close());

  test('an EC2 DescribeInstances table with CloudWatch CPU renders the stubbed instances (CommonJS setup modules)', async () => {
    const table = await render(harness, 'instances', {});
    assert.equal(table.error, null);
    const rows = [...table.html.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) =>
      m.slice(1),
    );
    assert.deepEqual(rows, [
      ['web-1', 'i-0a1b2c3d4e5f00001', 't3.micro', '21.5%'],
      ['web-2', 'i-0a1b2c3d4e5f00002', 't3.micro', '34.0%'],
      ['batch', 'i-0a1b2c3d4e5f00003', 'c6g.large', '46.5%'],
    ]);
  });

  test('a CloudWatch GetMetricData table renders the stubbed series (an ES-module setup module and handler)', async () => {
    const table = await render(harness, 'metrics', {
      MetricDataQueries: [
        { Id: 'errors', Label: 'Errors' },
        { Id: 'calls', Label: 'Invocations' },
      ],
    });
    assert.equal(table.error, null);
    assert.equal(
      table.html,
      '<table class="metrics"><tr><th>Errors</th><td>100</td></tr><tr><th>Invocations</th><td>101</td></tr></table>',
    );
  });

  test('without a stub or an endpoint the same widget fails at once for want of credentials', async () => {
    const bare = await render(harness, 'unstubbed', { MetricDataQueries: [{ Id: 'errors', Label: 'Errors' }] });
    assert.equal((bare.error as { type: string }).type, 'CredentialsProviderError');
  });

  test('a setup module that throws is an init error that names it', async () => {
    const broken = await render(harness, 'broken', {});
    const error = broken.error as { type: string; message: string };
    assert.equal(error.type, 'Error');
    assert.match(error.message, /in the setup module .*setup-fails\.cjs: the stub could not start/);
  });

  test('setup paths are checked when the configuration is', () => {
    const bad = (setup: unknown, runtime?: string): string => {
      try {
        validateFunctionsConfig(
          {
            functions: {
              f: { handler: runtime ? 'py/inventory.lambda_handler' : 'aws/instances.handler', setup, ...(runtime ? { runtime } : {}) },
            },
          },
          fixtures,
        );
      } catch (error) {
        assert.ok(error instanceof FunctionsConfigError);
        assert.match(error.entry, /^functions\["f"\]\.setup/);
        return error.message;
      }
      return 'accepted';
    };
    assert.match(bad('aws/stub.cjs'), /setup must be an array/);
    assert.match(bad(['aws/missing.cjs']), /no module at/);
    assert.match(bad(['aws/s3-report.cjs'], 'python'), /a Python function's setup module ends with \.py/);
    assert.match(bad(['../../../README.md']), /ends with \.js, \.mjs/);
    assert.throws(
      () =>
        validateFunctionsConfig({ functions: { f: { invokeUrl: 'http://127.0.0.1:1', setup: ['aws/stub-cloudwatch.mjs'] } } }, fixtures),
      /applies only to a module "handler"/,
    );
  });
});
