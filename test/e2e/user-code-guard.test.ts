// User code is called through one guard. Every function-typed member of trellis's public declarations is either
// a hook, with a scenario in test/support/user-code-hooks.ts, or listed there as not a hook with the reason: a
// new one fails here until it is sorted. Each scenario runs with a hook that throws, one whose promise rejects
// and one that answers something unusable, in a process started with --unhandled-rejections=strict: every
// request is answered with the documented default, each failure is logged once naming the hook, and the
// process is still there to answer a last request and exit with 0.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { functionTypedOptions } from '../support/function-typed-options.js';
import { REPO } from '../support/packed-package.js';
import { SOURCE_NODE_ARGS } from '../support/source-node.js';
import type { Run } from '../support/user-code-child.js';
import { HOOKS, NOT_HOOKS } from '../support/user-code-hooks.js';

/** The child's output: its runs, its last line, its exit code and what it wrote to stderr. */
async function runScenarios(): Promise<{ runs: Run[]; final: unknown; code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    ['--unhandled-rejections=strict', ...SOURCE_NODE_ARGS, join(REPO, 'test', 'support', 'user-code-child.ts')],
    { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const lines = stdout.split('\n').filter(Boolean);
  const parsed = lines.map((line) => JSON.parse(line) as Run | { final: number });
  const final = parsed.find((p) => 'final' in p);
  return { runs: parsed.filter((p): p is Run => 'hook' in p), final, code, stderr };
}

describe('user code is called through one guard', { timeout: 240_000 }, () => {
  it('every function-typed member of the public declarations is a hook with a scenario, or listed as not a hook', () => {
    const declared = functionTypedOptions();
    assert.ok(declared.size > 40, `found: ${[...declared.keys()].join(', ')}`);
    const sorted = new Set([...Object.keys(HOOKS), ...Object.keys(NOT_HOOKS)]);
    const unsorted = [...declared].filter(([name]) => !sorted.has(name)).map(([name, file]) => `${name} (${file})`);
    assert.deepEqual(unsorted, [], 'a function-typed member that is neither a hook with a scenario nor listed as not a hook');
    const gone = [...sorted].filter((name) => !declared.has(name));
    assert.deepEqual(gone, [], 'listed, but no longer declared');
    const both = Object.keys(HOOKS).filter((name) => name in NOT_HOOKS);
    assert.deepEqual(both, [], 'listed as a hook and as not a hook');
  });

  it('a hook that throws, rejects or answers something unusable: the default answer, one line naming it, and the process stays up', async () => {
    const { runs, final, code, stderr } = await runScenarios();
    assert.equal(code, 0, `the scenarios' process exited with ${code}:\n${stderr}`);
    assert.deepEqual(final, { final: 200, body: 'still here' }, 'a last request is answered');
    for (const [hook, scenario] of Object.entries(HOOKS)) {
      const named = scenario.logs ?? hook;
      const breakages = runs.filter((r) => r.hook === hook).map((r) => r.breakage);
      assert.deepEqual(breakages, scenario.unusable === undefined ? ['throws', 'rejects'] : ['throws', 'rejects', 'unusable'], hook);
      for (const run of runs.filter((r) => r.hook === hook)) {
        const what = `${hook}, ${run.breakage}`;
        assert.equal(run.error, undefined, `${what}: the app did not answer`);
        assert.deepEqual(run.answers, scenario.expect, `${what}: the default answer`);
        assert.ok(run.calls > 0, `${what}: the scenario calls the hook`);
        assert.equal(run.failures.length, run.calls, `${what}: one line per failure:\n${run.failures.map((f) => f.line).join('\n')}`);
        for (const failure of run.failures) {
          assert.equal(failure.hook, named, `${what}: ${failure.line}`);
          assert.ok(failure.line.includes(named), `${what}: the line names the hook: ${failure.line}`);
        }
      }
    }
  });
});
