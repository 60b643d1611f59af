// `trellis harness` with the AWS flags: an emulator endpoint for every function, credentials only on request,
// and the API saying which functions got what.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { HarnessClient } from '../../packages/harness/src/harness/index.js';
import { startS3Emulator, type S3Emulator } from '../../packages/harness/src/cli/s3-emulator.js';
import { checkingFetch } from './harness-support.js';

const CLI = ['--import', 'tsx', 'packages/harness/src/cli/main.ts', 'harness'];
const fixtures = fileURLToPath(new URL('../fixtures/functions/', import.meta.url));

interface Started {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the CLI with an environment of its own and waits for `count` stdout lines (or its exit). */
function startCli(args: string[], count: number, env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const lines: string[] = [];
  return new Promise((resolve) => {
    const started = { child, lines, stderr: () => stderr, exited };
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (lines.length === count) resolve(started);
    });
    void exited.then(() => resolve(started));
  });
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  assert.equal(await started.exited, 0);
}

describe('trellis harness --aws-endpoint / --aws-credentials', () => {
  let dir: string;
  let s3: S3Emulator;
  let functionsFile: string;
  let dashboardFile: string;
  const hostEnv = { ...process.env, AWS_ACCESS_KEY_ID: 'AKIAHOSTKEY', AWS_SECRET_ACCESS_KEY: 'host-secret', SECRET_X: 'shh' };
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-cli-aws-'));
    s3 = await startS3Emulator(['reports']);
    await s3.put('reports', 'today.html', '<p>Everything is fine.</p>');
    functionsFile = join(dir, 'functions.json');
    writeFileSync(
      functionsFile,
      JSON.stringify({
        baseDir: fixtures,
        functions: {
          report: { handler: 'aws/s3-report.handler' },
          environment: { handler: 'aws/environment.handler' },
          optedOut: { handler: 'aws/environment.handler', awsCredentials: 'none' },
        },
      }),
    );
    dashboardFile = join(dir, 'reports.json');
    writeFileSync(
      dashboardFile,
      JSON.stringify({
        widgets: [
          { type: 'custom', width: 12, height: 6, properties: { endpoint: 'report', params: { bucket: 'reports', key: 'today.html' } } },
          { type: 'custom', width: 12, height: 6, properties: { endpoint: 'environment' } },
        ],
      }),
    );
  });
  after(async () => {
    await s3?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('--aws-endpoint points every function at the emulator: the S3 widget renders the object; the API shows the endpoint without its key', async () => {
    const started = await startCli(
      ['--functions', functionsFile, '--dashboard', dashboardFile, '--port', '0', '--aws-endpoint', s3.endpointWithCredentials],
      2,
      hostEnv,
    );
    try {
      const url = started.lines[0]!.replace('Trellis harness listening on ', '');
      const id = started.lines[1]!.split(' ')[1]!;
      const client = new HarnessClient(url, { fetch: checkingFetch });
      const report = await client.readWidget(id, 0);
      assert.equal(report.error, null);
      assert.equal(report.html, '<p>Everything is fine.</p>');
      const functions = await client.listFunctions();
      assert.deepEqual(
        functions.map((f) => [f.name, f.awsCredentials, f.awsEndpoint]),
        [
          ['report', 'none', s3.url],
          ['environment', 'none', s3.url],
          ['optedOut', 'none', s3.url],
        ],
      );
      const env = (await client.readWidget(id, 1)).html;
      assert.doesNotMatch(env, /AKIAHOSTKEY|host-secret|shh/);
      assert.doesNotMatch(started.stderr(), /real AWS credentials/);
    } finally {
      await stop(started);
    }
  });

  it('--aws-credentials environment gives the host credentials to every function that does not opt out, and says so', async () => {
    const started = await startCli(
      [
        '--functions',
        functionsFile,
        '--dashboard',
        dashboardFile,
        '--port',
        '0',
        '--aws-credentials',
        'environment',
        '--pass-env',
        'SECRET_X',
      ],
      2,
      hostEnv,
    );
    try {
      const url = started.lines[0]!.replace('Trellis harness listening on ', '');
      const client = new HarnessClient(url, { fetch: checkingFetch });
      const functions = await client.listFunctions();
      assert.deepEqual(
        functions.map((f) => [f.name, f.awsCredentials]),
        [
          ['report', 'environment'],
          ['environment', 'environment'],
          ['optedOut', 'none'],
        ],
      );
      assert.match(started.stderr(), /real AWS credentials for report \(environment\), environment \(environment\)\n/);
      const id = started.lines[1]!.split(' ')[1]!;
      const env = (await client.readWidget(id, 1)).html;
      assert.match(env, /AKIAHOSTKEY/);
      assert.match(env, /shh/);
    } finally {
      await stop(started);
    }
  });

  it('a bad flag value stops the start with exit code 1 and names the flag', async () => {
    const bad = await startCli(['--functions', functionsFile, '--port', '0', '--aws-credentials', 'yes'], 1, hostEnv);
    assert.equal(await bad.exited, 1);
    assert.match(bad.stderr(), /--aws-credentials: awsCredentials must be "none", "environment"/);
    const { AWS_ACCESS_KEY_ID: _key, AWS_SECRET_ACCESS_KEY: _secret, ...withoutKeys } = hostEnv;
    const missing = await startCli(['--functions', functionsFile, '--port', '0', '--aws-credentials', 'environment'], 1, withoutKeys);
    assert.equal(await missing.exited, 1);
    assert.match(missing.stderr(), /AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set/);
    const endpoint = await startCli(['--functions', functionsFile, '--port', '0', '--aws-endpoint', 'localhost:4566'], 1, hostEnv);
    assert.equal(await endpoint.exited, 1);
    assert.match(endpoint.stderr(), /--aws-endpoint: awsEndpoint must be an http\(s\) base URL/);
  });
});
