// Runs the standard-library Python click-through test (test/e2e/python/harness_flow.py) against the CLI.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { it } from 'node:test';

it('a Python client using only urllib drives the harness over HTTP', () => {
  const result = spawnSync('python3', ['test/e2e/python/harness_flow.py', '-v'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, NODE: process.execPath },
  });
  assert.equal(result.error, undefined, String(result.error));
  assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
  assert.match(result.stderr, /Ran 2 tests[\s\S]*OK/);
});
