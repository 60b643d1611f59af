// `trellis harness --template`: a stack run from its SAM or CloudFormation template, as a user starts it — the
// repository's example with no other flag, warnings for what exists only in AWS, and refusals that name the place.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { HarnessClient } from '../../packages/harness/src/harness/index.js';
import { checkingFetch } from './harness-support.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = 'packages/harness/dist/cli/main.js';
const ARN = 'arn:aws:lambda:us-east-1:123456789012:function:trellis-service-status';

interface Started {
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; stderr: string }>;
}

/** Starts `trellis harness` from the built package and waits for `count` lines on stdout (or its exit). */
function startCli(args: string[], count: number): Promise<Started> {
  const child = spawn(process.execPath, [MAIN, 'harness', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; stderr: string }>((done) => child.on('exit', (code) => done({ code, stderr })));
  const lines: string[] = [];
  return new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      if (lines.length === count) resolve({ child, lines, exited });
    });
    void exited.then(() => resolve({ child, lines, exited }));
  });
}

/** Runs the command to its end (it exits at once when it refuses to start). */
function refused(...args: string[]): { status: number | null; stderr: string } {
  const run = spawnSync(process.execPath, [MAIN, 'harness', ...args, '--port', '0'], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  return { status: run.status, stderr: run.stderr };
}

const work = mkdtempSync(join(tmpdir(), 'trellis-template-cli-'));
after(() => rmSync(work, { recursive: true, force: true }));

describe('trellis harness --template', { timeout: 120_000 }, () => {
  it('runs examples/lambda-widget/template.yaml with no other flag: its dashboard preloaded, its widget rendered by the TypeScript handler', async () => {
    const { child, lines, exited } = await startCli(['--template', 'examples/lambda-widget/template.yaml', '--port', '0'], 2);
    try {
      assert.match(lines[0]!, /^Trellis harness listening on http:\/\/127\.0\.0\.1:\d+$/);
      const [word, id, name, file] = lines[1]!.split(' ');
      assert.deepEqual([word, name, file], ['dashboard', 'service-status', 'examples/lambda-widget/template.yaml']);
      const client = new HarnessClient(lines[0]!.split(' ').pop()!, { fetch: checkingFetch });
      const dash = await client.getDashboard(id!);
      assert.deepEqual(
        dash.widgets.map((w) => [w.type, w.title, w.endpoint]),
        [
          ['custom', 'Service status', ARN],
          ['custom', 'Failing services', ARN],
        ],
      );
      const widget = await client.readWidget(id!, 0);
      assert.equal(widget.error, null, JSON.stringify(widget.error));
      assert.match(widget.html, /Services in eu-west-1/);
      assert.equal((await client.listDashboards()).length, 1, 'the bundled example is not loaded');
    } finally {
      child.kill('SIGTERM');
    }
    const { code, stderr } = await exited;
    assert.equal(code, 0, stderr);
  });

  it('says what exists only in AWS on stderr and runs the rest; --parameter, --region, --account-id and --stack-name shape the stack', async () => {
    const template = join(work, 'stack.yaml');
    writeFileSync(
      template,
      `Parameters:
  Greeting: { Type: String, Default: Hello }
Resources:
  Widget:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: nodejs20.x
      Handler: index.handler
      Code:
        ZipFile: |
          exports.handler = async (event) => '<p>' + process.env.GREETING + ', ' + event.name + ' (' + (process.env.TOKEN || 'no token') + ')</p>';
      Environment:
        Variables:
          GREETING: !Ref Greeting
          TOKEN: '{{resolve:ssm:/ops/token}}'
  Board:
    Type: AWS::CloudWatch::Dashboard
    Properties:
      DashboardName: !Sub '\${AWS::StackName}-board'
      DashboardBody: !Sub '{"widgets":[{"type":"custom","width":6,"height":3,"properties":{"endpoint":"\${Widget.Arn}","params":{"name":"Ada"}}}]}'
`,
    );
    const { child, lines, exited } = await startCli(
      [
        '--template',
        template,
        '--parameter',
        'Greeting=Hi',
        '--region',
        'eu-west-1',
        '--account-id',
        '111122223333',
        '--stack-name',
        'ops',
        '--port',
        '0',
      ],
      2,
    );
    try {
      const [, id, name] = lines[1]!.split(' ');
      assert.equal(name, 'ops-board');
      const client = new HarnessClient(lines[0]!.split(' ').pop()!, { fetch: checkingFetch });
      assert.equal((await client.getDashboard(id!)).widgets[0]!.endpoint, 'arn:aws:lambda:eu-west-1:111122223333:function:ops-Widget');
      assert.equal((await client.readWidget(id!, 0)).html, '<p>Hi, Ada (no token)</p>');
    } finally {
      child.kill('SIGTERM');
    }
    const { code, stderr } = await exited;
    assert.equal(code, 0, stderr);
    assert.match(
      stderr,
      /trellis harness: .*stack\.yaml:15:18: Resources\.Widget\.Properties\.Environment\.Variables\.TOKEN: the dynamic reference \{\{resolve:ssm:…\}\} .*; TOKEN is left out of the function's environment\n/,
    );
  });

  it('refuses a function configured by both the functions file and a template, naming both', () => {
    const run = refused('--functions', 'examples/lambda-widget/functions.json', '--template', 'examples/lambda-widget/template.yaml');
    assert.equal(run.status, 1);
    assert.match(
      run.stderr,
      /the function arn:aws:lambda:us-east-1:123456789012:function:trellis-service-status is configured twice: by the functions file examples\/lambda-widget\/functions\.json as trellis-service-status and by examples\/lambda-widget\/template\.yaml \(Resources\.ServiceStatusFunction\)/,
    );
    const twice = refused('--template', 'examples/lambda-widget/template.yaml', '--template', 'examples/lambda-widget/template.yaml');
    assert.equal(twice.status, 1);
    assert.match(twice.stderr, /configured twice/);
  });

  it('refuses a malformed template with its file, line and column, and flags that need a template', () => {
    const bad = join(work, 'bad.yaml');
    writeFileSync(bad, 'Resources:\n  Fn:\n    Type: AWS::Serverless::Function\n    Properties:\n      Handler: !Reff x\n');
    const run = refused('--template', bad);
    assert.equal(run.status, 1);
    assert.match(run.stderr, /^trellis harness: .*bad\.yaml:5:16: Unresolved tag: !Reff/);
    const parameter = refused('--template', 'examples/lambda-widget/template.yaml', '--parameter', 'Nope=1');
    assert.equal(parameter.status, 1);
    assert.match(parameter.stderr, /--parameter Nope: no template declares a parameter of that name/);
    const region = refused('--region', 'eu-west-1');
    assert.equal(region.status, 2);
    assert.match(region.stderr, /--region applies to templates: give --template <file>/);
    assert.match(refused('--template', 'x.yaml', '--parameter', 'bad').stderr, /--parameter takes Name=Value/);
    assert.match(refused('--template', 'missing.yaml').stderr, /missing\.yaml: cannot read the template: no such file/);
  });
});
