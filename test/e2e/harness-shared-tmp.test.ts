// A temporary folder shared with other users: what one of them plants there before or while the harness runs
// never runs as the developer and never overwrites a developer's file. The shared folder is made writable by
// everyone, as /tmp is, and given to the harness as TMPDIR; the plants are the ones the harness's earlier layout
// (fixed folder names in TMPDIR) let through.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { HarnessClient } from '../../packages/harness/src/harness/index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'packages/harness/dist/cli/main.js');
// The runtime of this Node.js when Lambda has one (the harness then runs the function on itself), else the newest.
const MAJOR = process.versions.node.split('.')[0]!;
const RUNTIME = ['22', '24'].includes(MAJOR) ? `nodejs${MAJOR}.x` : 'nodejs24.x';

const root = mkdtempSync(join(tmpdir(), 'trellis-shared-tmp-'));
after(() => rmSync(root, { recursive: true, force: true }));
const project = join(root, 'project');
const evil = join(root, 'evil');
const marker = join(root, 'planted-code-ran');
const victim = join(root, 'victim.txt');
const VICTIM_TEXT = "the developer's file\n";
const INLINE = `exports.handler = async () => {
  const cw = require('@aws-sdk/client-cloudwatch');
  return '<p>inline ' + (cw.planted ? 'planted' : typeof cw.CloudWatchClient) + '</p>';
};`;
const S3_HANDLER = `exports.handler = async () => {
  const s3 = require('@aws-sdk/client-s3');
  return '<p>s3 ' + (s3.planted ? 'planted' : typeof s3.S3Client) + '</p>';
};`;

/** A package that records that it ran and exports a marker instead of the SDK's client. */
function plantPackage(folder: string, name: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name, main: 'index.js' }));
  writeFileSync(
    join(folder, 'index.js'),
    `require('node:fs').appendFileSync(${JSON.stringify(marker)}, ${JSON.stringify(name + '\n')}); exports.planted = true;`,
  );
}

function startCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [MAIN, 'harness', ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const m = /^Trellis harness listening on (\S+)$/.exec(line);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr });
    });
    child.on('exit', (code) => reject(new Error(`the harness exited (${code}): ${stderr}`)));
  });
}

/** The other user's moves: what they plant before the harness starts, and what they change once it runs. */
interface Attack {
  plant(shared: string): void;
  /** Keeps at it while the harness runs; returns how to stop. */
  meanwhile?(shared: string): () => void;
}

function writeProject(): void {
  mkdirSync(join(project, 's3'), { recursive: true });
  writeFileSync(join(project, 's3', 'index.js'), S3_HANDLER);
  writeFileSync(
    join(project, 'template.yaml'),
    `Transform: AWS::Serverless-2016-10-31
Resources:
  Inline:
    Type: AWS::Serverless::Function
    Properties:
      FunctionName: inline-fn
      Runtime: ${RUNTIME}
      Handler: index.handler
      InlineCode: |
${INLINE.split('\n')
  .map((l) => `        ${l}`)
  .join('\n')}
  Files:
    Type: AWS::Serverless::Function
    Properties:
      FunctionName: s3-fn
      Runtime: ${RUNTIME}
      Handler: index.handler
      CodeUri: s3/
`,
  );
}

/** The folder the harness's earlier layout kept the SDK link in. */
function sdkLinkFolder(shared: string): string {
  const scope = dirname(dirname(createRequire(join(ROOT, 'packages/harness/package.json')).resolve('@aws-sdk/client-s3/package.json')));
  return join(shared, `trellis-aws-sdk-${createHash('sha256').update(scope).digest('hex').slice(0, 16)}`);
}

/** Runs the template's two functions with the shared folder as TMPDIR, after `attack` planted what it plants. */
async function runUnder(name: string, attack: Attack): Promise<void> {
  writeProject();
  writeFileSync(victim, VICTIM_TEXT, { mode: 0o600 });
  rmSync(marker, { force: true });
  const shared = join(root, name);
  mkdirSync(shared, { recursive: true });
  chmodSync(shared, 0o777);
  attack.plant(shared);
  const planted = new Set(readdirSync(shared));
  const stop = attack.meanwhile?.(shared);
  let started;
  try {
    started = await startCli(['--template', join(project, 'template.yaml'), '--port', '0'], { ...process.env, TMPDIR: shared });
  } catch (error) {
    stop?.();
    throw error;
  }
  const { child, url, stderr } = started;
  try {
    const client = new HarnessClient(url);
    const { id } = await client.createDashboard(
      JSON.stringify({
        widgets: [
          { type: 'custom', properties: { endpoint: 'inline-fn' } },
          { type: 'custom', properties: { endpoint: 's3-fn' } },
        ],
      }),
    );
    const inline = await client.readWidget(id, 0);
    const s3 = await client.readWidget(id, 1);
    assert.equal(existsSync(marker) ? readFileSync(marker, 'utf8') : '', '', 'no planted code ran');
    assert.deepEqual(
      [inline.error, inline.html],
      [null, '<p>inline function</p>'],
      `the inline code got the SDK the harness provides\n${stderr()}`,
    );
    assert.deepEqual([s3.error, s3.html], [null, '<p>s3 function</p>'], 'the function got the SDK the harness provides');
    // What the harness made in the shared folder is a folder of its own that no one else can enter.
    for (const entry of readdirSync(shared).filter((n) => !planted.has(n))) {
      const stat = statSync(join(shared, entry));
      assert.ok(stat.isDirectory(), entry);
      assert.equal(stat.mode & 0o077, 0, `${entry} is open to other users (mode ${(stat.mode & 0o777).toString(8)})`);
    }
  } finally {
    stop?.();
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
  }
  assert.equal(readFileSync(victim, 'utf8'), VICTIM_TEXT, "the developer's file was not written through a link");
  assert.deepEqual(
    readdirSync(shared).filter((n) => !planted.has(n)),
    [],
    'the harness removed its private folder when it stopped',
  );
}

describe('the harness in a temporary folder other users can write to', { timeout: 120_000 }, () => {
  it('a node_modules planted above where inline code is written is never loaded', () =>
    runUnder('plant-node-modules', {
      plant: (shared) => plantPackage(join(shared, 'node_modules', '@aws-sdk', 'client-cloudwatch'), 'client-cloudwatch'),
    }));

  it('an SDK folder made beforehand by another user, its link swapped while the harness runs, is never used', () =>
    runUnder('plant-sdk-folder', {
      plant(shared) {
        const folder = sdkLinkFolder(shared);
        mkdirSync(join(folder, 'node_modules'), { recursive: true });
        chmodSync(folder, 0o777);
        chmodSync(join(folder, 'node_modules'), 0o777);
        plantPackage(join(evil, '@aws-sdk', 'client-s3'), 'client-s3');
      },
      meanwhile(shared) {
        // The other user points the link in their folder back at their own SDK whenever it changes.
        const link = join(sdkLinkFolder(shared), 'node_modules', '@aws-sdk');
        const timer = setInterval(() => {
          try {
            if (readlinkSync(link) === join(evil, '@aws-sdk')) return;
          } catch {
            // no link yet
          }
          rmSync(link, { force: true });
          symlinkSync(join(evil, '@aws-sdk'), link);
        }, 2);
        return () => clearInterval(timer);
      },
    }));

  it("a link planted where inline code is written never makes the harness write a developer's file", () =>
    runUnder('plant-link', {
      plant(shared) {
        const code = `${INLINE}\n`;
        const top = join(shared, 'trellis-inline-code');
        const folder = join(top, createHash('sha256').update('index.js').update('\0').update(code).digest('hex').slice(0, 20));
        mkdirSync(folder, { recursive: true });
        chmodSync(top, 0o777);
        chmodSync(folder, 0o777);
        symlinkSync(victim, join(folder, 'index.js'));
      },
    }));
});
