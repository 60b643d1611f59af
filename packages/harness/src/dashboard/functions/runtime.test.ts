import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pythonCommand } from './module-targets.js';

const runtime = (name: string) => fileURLToPath(new URL(`./runtime/${name}`, import.meta.url));

test('the Python bootstrap compiles', () => {
  const file = runtime('python-bootstrap.py');
  // compile() rather than py_compile, so no __pycache__ is written beside the shipped file
  const r = spawnSync(pythonCommand(), ['-c', 'import sys; compile(open(sys.argv[1]).read(), sys.argv[1], "exec")', file], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
});

test('the Node.js bootstrap is valid CommonJS', () => {
  const r = spawnSync(process.execPath, ['--check', runtime('node-bootstrap.cjs')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
});
