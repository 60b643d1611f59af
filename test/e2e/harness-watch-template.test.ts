// `trellis harness --template <file> --watch` with no functions file watches what the template names (each
// function's code folder, the template itself) and nothing else of the working folder: a change to another
// file there is neither a restart nor a change published on /api/changes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { HarnessClient } from '../../packages/harness/src/harness/index.js';
import { checkingFetch } from './harness-support.js';

const MAIN = fileURLToPath(new URL('../../packages/harness/dist/cli/main.js', import.meta.url));
// The harness's own Node.js runs the function where it can, so that nothing is fetched for it.
const major = Number(process.versions.node.split('.')[0]);
const RUNTIME = [20, 22, 24].includes(major) ? `nodejs${major}.x` : 'nodejs24.x';
const ARN = 'arn:aws:lambda:us-east-1:123456789012:function:hello';

/** A working folder: template.yaml, the function's code in widget/ (handler in widget/src/), and notes.txt. */
const dir = mkdtempSync(join(tmpdir(), 'trellis-watch-template-'));
after(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'widget', 'src'), { recursive: true });
mkdirSync(join(dir, 'widget', 'lib'));
mkdirSync(join(dir, 'docs'));
writeFileSync(join(dir, 'widget', 'lib', 'words.js'), `exports.greeting = 'Hello';\n`);
writeFileSync(
  join(dir, 'widget', 'src', 'hello.js'),
  `const { greeting } = require('../lib/words.js');\nexports.handler = async () => '<p>' + greeting + '</p>';\n`,
);
writeFileSync(join(dir, 'notes.txt'), 'not code\n');
writeFileSync(join(dir, 'docs', 'readme.md'), '# not code\n');
writeFileSync(
  join(dir, 'template.yaml'),
  `Resources:
  Hello:
    Type: AWS::Serverless::Function
    Properties:
      FunctionName: hello
      CodeUri: widget/
      Handler: src/hello.handler
      Runtime: ${RUNTIME}
`,
);

describe('trellis harness --template --watch', { timeout: 60_000 }, () => {
  it('publishes a change to the function code, and nothing for another file of the working folder', async () => {
    const child = spawn(process.execPath, [MAIN, 'harness', '--template', 'template.yaml', '--port', '0', '--watch'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const errLines: string[] = [];
    createInterface({ input: child.stderr }).on('line', (line) => errLines.push(line));
    const stderrSays = async (pattern: RegExp): Promise<string> => {
      for (let i = 0; i < 200; i++) {
        const line = errLines.find((l) => pattern.test(l));
        if (line) return line;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail(`no stderr line ${pattern}:\n${errLines.join('\n')}`);
    };
    try {
      const first = await new Promise<string>((found) => createInterface({ input: child.stdout }).once('line', found));
      const url = /^Trellis harness listening on (\S+)$/.exec(first)?.[1];
      assert.ok(url, first);
      const client = new HarnessClient(url, { fetch: checkingFetch });
      const watching = await stderrSays(/ watching /);
      assert.equal(watching, `trellis harness: watching ${join(dir, 'widget')}, ${join(dir, 'template.yaml')} for changes`);

      const { seq } = await client.changes();
      writeFileSync(join(dir, 'notes.txt'), 'still not code\n');
      writeFileSync(join(dir, 'docs', 'readme.md'), '# still not code\n');
      writeFileSync(join(dir, 'other.js'), 'exports.x = 1;\n');
      appendFileSync(join(dir, 'template.yaml'), '# edited\n');
      assert.match(
        await stderrSays(/template\.yaml changed/),
        /^trellis harness: the template template\.yaml changed: it is read at start only, so start the harness again to apply it$/,
      );
      assert.deepEqual((await client.changes(seq, 1)).changes, [], 'nothing published for files the template does not name');

      writeFileSync(join(dir, 'widget', 'src', 'hello.js'), `exports.handler = async () => '<p>edited</p>';\n`);
      const answer = await client.changes(seq, 10);
      assert.deepEqual(
        answer.changes.map((c) => [c.files, c.functions]),
        [[[join(dir, 'widget', 'src', 'hello.js')], [ARN]]],
      );
      // A module beside the handler's folder, in the function's code folder (CodeUri), is its code too.
      writeFileSync(join(dir, 'widget', 'lib', 'words.js'), `exports.greeting = 'Bonjour';\n`);
      const next = await client.changes(answer.seq, 10);
      assert.deepEqual(
        next.changes.map((c) => c.files),
        [[join(dir, 'widget', 'lib', 'words.js')]],
      );
      assert.ok(!errLines.some((l) => /notes\.txt|readme\.md|other\.js/.test(l)), errLines.join('\n'));
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
  });
});
