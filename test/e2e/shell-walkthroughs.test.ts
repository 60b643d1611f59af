// The shell walkthroughs users copy — README.md's click-through test and docs/harness.md's curl walkthrough —
// run as shown against a harness started as `npm start` starts it, and print what the page says they print.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { linesOf } from '../support/child-lines.js';
import { REPO } from '../support/packed-package.js';

function jqMissing(): string | false {
  if (spawnSync('jq', ['--version'], { stdio: 'ignore' }).status === 0) return false;
  const message = 'jq not found: install it (apt-get install -y jq) to run the documented shell walkthroughs';
  if (process.env.CI === 'true') throw new Error(message);
  return message;
}

/** The first ```sh block after a heading. */
function shellBlock(file: string, heading: string): string {
  const text = readFileSync(join(REPO, file), 'utf8');
  const at = text.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `${file} has "${heading}"`);
  return /```sh\n([\s\S]*?)```/.exec(text.slice(at))![1]!;
}

/** Runs a walkthrough against the harness at `url` (in place of the port it names) from the repository root. */
function runAgainst(script: string, url: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script.replace('H=http://127.0.0.1:4600', `H=${url}`)], {
    cwd: REPO,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('documented shell walkthroughs', { skip: jqMissing(), timeout: 120_000 }, () => {
  let harness: ChildProcess;
  let url: string;
  before(async () => {
    // As `npm start` runs it: the harness with its bundled example, no arguments but a free port.
    harness = spawn(process.execPath, [join(REPO, 'packages', 'harness', 'dist', 'cli', 'main.js'), 'harness', '--port', '0'], {
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [first] = await linesOf(harness, (lines) => lines.length === 1);
    url = /^Trellis harness listening on (\S+)$/.exec(first!)![1]!;
  });
  after(() => {
    harness?.kill('SIGTERM');
  });

  it("README.md's click-through test greets Ada", () => {
    const run = runAgainst(shellBlock('README.md', '## A click-through test from the shell'), url);
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /"findings": \[\]/);
    assert.match(run.stdout.trim(), /Hello, &lt;Ada&gt;$/);
  });

  it("docs/harness.md's curl walkthrough prints what its comments say", () => {
    const script = shellBlock('docs/harness.md', '## A walkthrough with curl');
    // The comment right after a command is what it prints (a note after two spaces is not part of it).
    const lines = script.split('\n');
    const expected = lines
      .filter((line, i) => line.startsWith('# ') && i > 0 && lines[i - 1]!.trim() !== '' && !lines[i - 1]!.startsWith('#'))
      .map((line) =>
        line
          .slice(2)
          .split(/\s{2,}\(/)[0]!
          .trim(),
      );
    assert.ok(expected.length >= 8, `the walkthrough shows its outputs (found ${expected.length})`);
    const run = runAgainst(script, url);
    assert.equal(run.status, 0, run.stderr);
    // curl prints bodies without a final newline: compare the outputs run together.
    assert.equal(run.stdout.replace(/\n/g, ''), expected.join(''));
  });
});
