// The testing recipes of docs/testing.md, each run with its own runner (node:test, Vitest, Jest, pytest) in a
// new project that installed the packed package, as a user's project would; and the page shows each file as it is.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { installPackedPackage, REPO, type InstalledProject } from '../support/packed-package.js';

const run = promisify(execFile);
const RECIPES = join(REPO, 'examples', 'recipes');
const FILES = [
  'widgets/greeting.js',
  'functions.json',
  'dashboard.json',
  'node-test/greeting.test.mjs',
  'vitest/greeting.test.mjs',
  'jest/greeting.test.js',
  'pytest/test_greeting.py',
  'github-actions.yml',
];

/** A Python with pytest: the one on PATH, else Debian's (where apt-get install python3-pytest puts it). */
function pythonWithPytest(): string | undefined {
  for (const python of ['python3', '/usr/bin/python3']) {
    try {
      execFileSync(python, ['-m', 'pytest', '--version'], { stdio: 'ignore' });
      return python;
    } catch {
      // not there, or without pytest
    }
  }
  return undefined;
}

const PYTHON = pythonWithPytest();

function pytestSkipReason(): string | false {
  if (PYTHON) return false;
  const message = 'pytest not found: install it (apt-get install -y python3-pytest) to run the pytest recipe';
  if (process.env.CI === 'true') throw new Error(message);
  return message;
}

let project: InstalledProject;

before(async () => {
  project = await installPackedPackage();
  cpSync(RECIPES, project.dir, { recursive: true });
  // The runners are this repository's pinned versions, as if the project had installed them.
  for (const runner of ['vitest', 'jest']) symlinkSync(join(REPO, 'node_modules', runner), join(project.dir, 'node_modules', runner));
});

after(() => project?.remove());

/** Runs a command in the project; fails with its output when it exits with an error. */
async function inProject(command: string, args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: project.dir, env: { ...process.env, NODE_TEST_CONTEXT: undefined, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' }, maxBuffer: 16 * 1024 * 1024, timeout: 120_000, killSignal: 'SIGKILL' });
    // eslint-disable-next-line no-control-regex
    return (stdout + stderr).replace(/\x1b\[[0-9;]*m/g, '');
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    assert.fail(`${command} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

describe('testing recipes, run by their own runners', { timeout: 240_000 }, () => {
  it('node:test', async () => {
    const out = await inProject(process.execPath, ['--test', 'node-test/greeting.test.mjs']);
    assert.match(out, /^# pass 2$/m);
    assert.match(out, /^# fail 0$/m);
  });

  it('Vitest', async () => {
    const out = await inProject(join(REPO, 'node_modules', '.bin', 'vitest'), ['run', 'vitest/']);
    assert.match(out, /Tests\s+2 passed \(2\)/);
  });

  it('Jest', async () => {
    const out = await inProject(join(REPO, 'node_modules', '.bin', 'jest'), ['jest/']);
    assert.match(out, /Tests:\s+2 passed, 2 total/);
  });

  it('pytest', { skip: pytestSkipReason() }, async () => {
    const out = await inProject(PYTHON!, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'pytest/']);
    assert.match(out, /^2 passed/m);
  });
});

describe('docs/testing.md', () => {
  it('shows every recipe file exactly as it is', () => {
    const page = readFileSync(join(REPO, 'docs', 'testing.md'), 'utf8');
    for (const file of FILES) {
      const text = readFileSync(join(RECIPES, file), 'utf8');
      assert.ok(page.includes(`\n${text}\`\`\``), `docs/testing.md shows examples/recipes/${file} as it is`);
    }
  });
});
