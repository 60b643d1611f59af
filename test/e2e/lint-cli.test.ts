// `trellis lint` as a user runs it: a real process, files and standard input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../../packages/harness/src/cli/main.ts', import.meta.url));
const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/lint/${name}`, import.meta.url));

function trellis(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', main, 'lint', ...args], { input, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('a clean widget: exit 0 and a short all-clear', () => {
  const r = trellis([fixture('clean-widget.html')]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^no findings in .*clean-widget\.html\n$/);
});

test('findings are printed one per line with file:line:column, severity, rule and message; exit 1', () => {
  const r = trellis([fixture('dirty-widget.html')]);
  assert.equal(r.code, 1);
  const lines = r.stdout.trim().split('\n');
  assert.match(lines[0]!, /dirty-widget\.html:1:1 +error +script +<script> is stripped/);
  assert.match(lines[1]!, /dirty-widget\.html:2:4 +error +javascript-url /);
  assert.match(lines[2]!, /dirty-widget\.html:2:27 +error +event-handler /);
  assert.match(lines[3]!, /dirty-widget\.html:3:1 +error +action-missing-endpoint /);
  assert.match(r.stdout, /4 findings \(4 errors, 0 warnings\)\n$/);
});

test('--json prints the findings as JSON, reading standard input with "-"', () => {
  const r = trellis(['--json', '-'], '<p>ok</p>\n<iframe src="x"></iframe>');
  assert.equal(r.code, 1);
  assert.deepEqual(JSON.parse(r.stdout), [
    {
      file: '<stdin>',
      rule: 'iframe',
      severity: 'error',
      message: '<iframe> is stripped by the console (the console does not allow embedded content); it is removed with its content',
      line: 2,
      column: 1,
      element: 'iframe',
    },
  ]);
  assert.deepEqual(JSON.parse(trellis(['--json', '-'], '<p>fine</p>').stdout), []);
});

test('usage errors and unreadable files exit 2 with a message on stderr', () => {
  const none = trellis([]);
  assert.equal(none.code, 2);
  assert.match(none.stderr, /no file given/);
  const bad = trellis(['--frobnicate', 'x.html']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown option --frobnicate/);
  const missing = trellis(['/nonexistent/widget.html']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /cannot read \/nonexistent\/widget\.html: no such file/);
  assert.equal(trellis(['--help']).code, 0);
});

test('--max-warnings N: warnings within N exit 0, one more or any error exits 1; --errors-only drops warnings', () => {
  const warnings = '<a href="foo:bar">a</a><input name="name">';
  assert.equal(trellis(['--max-warnings', '2', '-'], warnings).code, 0);
  assert.equal(trellis(['--max-warnings=1', '-'], warnings).code, 1);
  assert.equal(trellis(['--max-warnings', '5', fixture('dirty-widget.html')]).code, 1, 'errors always fail');
  const quiet = trellis(['--errors-only', '-'], warnings);
  assert.equal(quiet.code, 0);
  assert.match(quiet.stdout, /^no findings in <stdin>\n$/);
  const bad = trellis(['--max-warnings', 'many', '-'], warnings);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--max-warnings takes a whole number/);
});

test('output piped into a reader that stops early ends quietly, with no EPIPE trace', () => {
  const many = '<p onclick="x()">a</p>\n'.repeat(20_000);
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', `"${process.execPath}" --import tsx "${main}" lint - | head -n 1`], {
    input: many,
    encoding: 'utf8',
  });
  assert.match(r.stdout, /^<stdin>:1:4 +error +event-handler/);
  assert.doesNotMatch(r.stderr, /EPIPE|Error/);
});
