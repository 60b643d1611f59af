// `trellis aws-samples` on a small checkout of stand-in samples (written for these tests, in the layout of
// AWS's sample repository): the table it prints and its exit code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CHECKOUT = fileURLToPath(new URL('../fixtures/aws-samples-checkout/', import.meta.url));

function runScript(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['packages/harness/dist/cli/main.js', 'aws-samples', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const rowOf = (table: string, sample: string, runtime: string): string | undefined =>
  table.split('\n').find((line) => line.startsWith(`| ${sample} | ${runtime} |`));

describe('trellis aws-samples', { timeout: 300_000 }, () => {
  it('prints a row per sample and runtime; the S3, EC2 and metric samples render through the emulator and stubs; a sample that cannot load fails the run', () => {
    const run = runScript(CHECKOUT);
    assert.equal(run.status, 1, run.stderr);
    assert.match(run.stdout, /^\| Sample \| Runtime \| Run with \| Result \|\n\|---\|---\|---\|---\|\n/);
    assert.match(rowOf(run.stdout, 's3GetObject', 'Node.js') ?? '', /\| awsEndpoint: s3rver \| renders \(1\/1 widgets\) \|$/);
    assert.match(
      rowOf(run.stdout, 'ec2Table', 'Node.js') ?? '',
      /\| setup: stub-ec2\.cjs, stub-cloudwatch\.cjs \| renders \(1\/1 widgets\) \|$/,
    );
    assert.match(
      rowOf(run.stdout, 'cloudWatchMetricDataTable', 'Node.js') ?? '',
      /\| setup: stub-cloudwatch\.cjs \| renders \(1\/1 widgets\) \|$/,
    );
    assert.match(rowOf(run.stdout, 'helloWorld', 'Node.js') ?? '', /renders \(1\/1 widgets\)/);
    assert.match(rowOf(run.stdout, 'helloWorld', 'Python') ?? '', /renders \(1\/1 widgets\)/);
    assert.match(rowOf(run.stdout, 'broken', 'Node.js') ?? '', /Runtime\.ImportModuleError: .*client-not-provided/);
    assert.match(run.stderr, /not loaded: broken; not rendered: none/);
  });

  it('--only runs one sample, and exits with 0 when it loads', () => {
    const run = runScript(CHECKOUT, '--only', 'helloWorld');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout.trim().split('\n').length, 4);
  });

  it('a folder without samples is a usage error', () => {
    const run = runScript(ROOT + 'docs');
    assert.equal(run.status, 2);
    assert.match(run.stderr, /no samples\/ folder/);
  });
});
