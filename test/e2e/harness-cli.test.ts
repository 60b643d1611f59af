// `trellis harness` as a user runs it: the bundled example, preloaded dashboards, refusing bad files, and a
// clean shutdown on SIGINT/SIGTERM that takes the widget processes along.
import assert from 'node:assert/strict';
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, it } from 'node:test';
import { commands } from '../../packages/harness/src/cli/commands.js';
import { HarnessClient } from '../../packages/harness/src/harness/index.js';
import { checkingFetch } from './harness-support.js';
import { alive } from '../support/process-alive.js';

const CLI = ['--import', 'tsx', 'packages/harness/src/cli/main.ts', 'harness'];

interface Started {
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; stderr: string }>;
}

/** Starts the CLI and waits for `count` stdout lines (or its exit). */
function startCli(args: string[], count: number): Promise<Started> {
  const child = spawn(process.execPath, [...CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; stderr: string }>((done) => child.on('exit', (code) => done({ code, stderr })));
  const lines: string[] = [];
  return new Promise((resolve) => {
    const rl = createInterface({ input: child.stdout });
    rl.on('line', (line) => {
      lines.push(line);
      if (lines.length === count) resolve({ child, lines, exited });
    });
    void exited.then(() => resolve({ child, lines, exited }));
  });
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

/** Waits up to `ms` for processes to end: helpers such as the TypeScript loader's service exit on their own. */
async function stillAlive(pids: number[], ms = 5000): Promise<number[]> {
  const until = Date.now() + ms;
  let left = pids.filter(alive);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 50));
    left = left.filter(alive);
  }
  return left;
}

describe('trellis harness', () => {
  it('serves the bundled example without arguments; every widget and action works; SIGTERM stops it and its widget processes', async () => {
    const { child, lines, exited } = await startCli(['--port', '0'], 2);
    assert.match(lines[0]!, /^Trellis harness listening on http:\/\/127\.0\.0\.1:\d+$/);
    const [, id, name, file] = lines[1]!.split(' ');
    assert.equal(name, 'dashboard');
    assert.match(file!, /examples\/dashboard\.json$/);
    const client = new HarnessClient(lines[0]!.split(' ').pop()!, { fetch: checkingFetch });
    const dash = await client.getDashboard(id!);
    assert.deepEqual(
      dash.widgets.map((w) => w.type),
      ['text', ...Array<string>(11).fill('custom')],
    );
    for (const w of dash.widgets) {
      const result = await client.readWidget(id!, w.index);
      assert.equal(result.error, null, `${w.widgetId}: ${JSON.stringify(result.error)}`);
      assert.deepEqual(result.findings, [], `${w.widgetId} has nothing the console would strip`);
      if (w.type === 'custom') assert.ok((await client.describeWidget(id!, w.index)).markdown, `${w.widgetId} describes itself`);
    }
    // a call action with display widget replaces the content
    const next = await client.runAction(id!, 1, (await client.findAction(id!, 1, 'Next page')).index);
    assert.ok('html' in next && next.html.includes('Page 2 of 5'));
    assert.match((await client.readWidget(id!, 1)).html, /Page 2 of 5/);
    // a call action with display popup leaves it
    const first = (await client.listActions(id!, 1)).find((a) => a.display === 'popup')!;
    const popup = await client.runAction(id!, 1, first.index);
    assert.ok('display' in popup && popup.display === 'popup' && popup.html.includes('<th>Region</th>'));
    assert.match((await client.readWidget(id!, 1)).html, /Page 2 of 5/);
    // a form value reaches the function, escaped
    const greet = await client.findAction(id!, 2, 'Greet');
    const greeted = await client.runAction(id!, 2, greet.index, { forms: { visitor: '<Ada>' } });
    assert.ok('html' in greeted && greeted.html.includes('Hello, &lt;Ada&gt;'));
    // an html popup and a confirmation
    const about = await client.runAction(id!, 2, (await client.findAction(id!, 2, 'About')).index);
    assert.ok('display' in about && about.display === 'popup' && about.html.includes('About this widget'));
    const clear = await client.findAction(id!, 2, 'Clear');
    assert.equal(clear.confirmation, 'Clear the greeting?');
    assert.deepEqual(await client.runAction(id!, 2, clear.index, { confirm: false }), {
      cancelled: true,
      confirmation: 'Clear the greeting?',
    });
    // the context widget shows the state; updateOn differs per widget
    const update = await client.putState(id!, { theme: 'dark', timeRange: { start: '2024-05-01T00:00:00Z', end: '2024-05-01T06:00:00Z' } });
    assert.deepEqual(
      update.updated,
      Array.from({ length: 11 }, (_, i) => `widget-${i + 1}`),
    );
    const context = await client.readWidget(id!, 3);
    assert.match(context.html, /class="theme">dark</);
    assert.match(context.html, /absolute: 2024-05-01T00:00:00Z – 2024-05-01T06:00:00Z/);
    const timeOnly = await client.putState(id!, { theme: 'dark', timeRange: { relative: '-PT1H' } });
    assert.deepEqual(timeOnly.updated, ['widget-3', 'widget-4', 'widget-9', 'widget-10'], 'the others ignore time range changes');
    assert.deepEqual(await client.refresh(id!), {
      refreshed: ['widget-1', 'widget-3', 'widget-4', 'widget-9', 'widget-10'],
      skipped: ['widget-0', 'widget-2', 'widget-5', 'widget-6', 'widget-7', 'widget-8', 'widget-11'],
    });

    const workers = childPids(child.pid!);
    assert.ok(workers.length >= 10, `widget processes running: ${workers.length}`);
    child.kill('SIGTERM');
    const { code } = await exited;
    assert.equal(code, 0);
    assert.deepEqual(await stillAlive(workers), [], 'every widget process stopped');
  });

  it('preloads --dashboard files with --functions and stops on SIGINT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-cli-'));
    writeFileSync(
      join(dir, 'functions.json'),
      JSON.stringify({ functions: { greeter: { handler: join(process.cwd(), 'packages/harness/examples/widgets/greeter.handler') } } }),
    );
    writeFileSync(join(dir, 'ops.json'), JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'greeter' } }] }));
    writeFileSync(join(dir, 'empty.json'), '{"widgets":[]}');
    const { child, lines, exited } = await startCli(
      [
        '--functions',
        join(dir, 'functions.json'),
        '--dashboard',
        join(dir, 'ops.json'),
        '--dashboard',
        join(dir, 'empty.json'),
        '--port',
        '0',
        '--host',
        '127.0.0.1',
      ],
      3,
    );
    assert.match(lines[1]!, new RegExp(`^dashboard [0-9a-f-]{36} ops ${join(dir, 'ops.json')}$`));
    assert.match(lines[2]!, /^dashboard [0-9a-f-]{36} empty /);
    const client = new HarnessClient(lines[0]!.split(' ').pop()!, { fetch: checkingFetch });
    const id = lines[1]!.split(' ')[1]!;
    assert.match((await client.readWidget(id, 0)).html, /Nobody greeted yet/);
    assert.equal(await client.getDashboardSource(lines[2]!.split(' ')[1]!), '{"widgets":[]}');
    child.kill('SIGINT');
    assert.equal((await exited).code, 0);
  });

  it('a functions file that does not validate stops the start with a message naming the bad entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-cli-'));
    const cases: Array<[unknown, RegExp]> = [
      [{ functions: { greeter: { handler: 'missing/file.handler' } } }, /greeter/],
      [{ functions: { report: { handler: 'x.handler', timeoutSeconds: -1 } } }, /report/],
      [
        {
          functions: {
            ok: { handler: join(process.cwd(), 'packages/harness/examples/widgets/greeter.handler'), environment: { AWS_REGION: 'x' } },
          },
        },
        /ok.*AWS_REGION|AWS_REGION/,
      ],
    ];
    for (const [config, message] of cases) {
      const file = join(dir, 'functions.json');
      writeFileSync(file, JSON.stringify(config));
      const { lines, exited } = await startCli(['--functions', file, '--port', '0'], 1);
      const { code, stderr } = await exited;
      assert.equal(code, 1);
      assert.deepEqual(lines, [], 'nothing is served');
      assert.match(stderr, message);
    }
    writeFileSync(join(dir, 'broken.json'), '{ nope');
    const notJson = await (await startCli(['--functions', join(dir, 'broken.json')], 1)).exited;
    assert.equal(notJson.code, 1);
    assert.match(notJson.stderr, /not valid JSON/);
    assert.match(notJson.stderr, /broken\.json:1:3: /, 'the line and column of the mistake');
  });

  it('says at start which functions do not load, and keeps serving the others', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-cli-'));
    writeFileSync(join(dir, 'widget.js'), 'exports.render = async () => "<p>hi</p>";\n');
    writeFileSync(
      join(dir, 'functions.json'),
      JSON.stringify({ functions: { typo: { handler: 'widget.handler' }, fine: { handler: 'widget.render' } } }),
    );
    const { child, lines, exited } = await startCli(['--functions', join(dir, 'functions.json'), '--port', '0'], 1);
    assert.match(lines[0] ?? '', /listening on/);
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    const until = Date.now() + 15_000;
    while (!/function typo does not load/.test(stderr) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    await exited;
    assert.match(
      stderr,
      /trellis harness: function typo does not load: Runtime\.HandlerNotFound: widget\.handler is undefined or not exported/,
    );
    assert.doesNotMatch(stderr, /function fine/);
  });

  it('refuses an invalid dashboard file (naming the data path), a missing file, and bad options', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-cli-'));
    writeFileSync(join(dir, 'bad.json'), '{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"width":40}]}');
    const bad = await (await startCli(['--dashboard', join(dir, 'bad.json'), '--port', '0'], 1)).exited;
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /\/widgets\/0\/width/);
    const missing = await (await startCli(['--dashboard', join(dir, 'nope.json'), '--port', '0'], 1)).exited;
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /no such file/);
    for (const args of [['--port', 'eighty'], ['--port', '70000'], ['--colour'], ['extra']]) {
      const usage = await (await startCli(args, 1)).exited;
      assert.equal(usage.code, 2, args.join(' '));
      assert.match(usage.stderr, /usage: trellis harness/);
    }
  });
});

describe('trellis --help', () => {
  it('lists every command with its name and its description apart, the descriptions in one column', () => {
    const help = spawnSync(process.execPath, ['--import', 'tsx', 'packages/harness/src/cli/main.ts', '--help'], { encoding: 'utf8' });
    assert.equal(help.status, 0, help.stderr);
    const listed =
      help.stdout
        .split('commands:\n')[1]
        ?.split('\n')
        .filter((line) => line.trim() !== '') ?? [];
    const rows = listed.map((line) => {
      const row = /^ {2}(\S+) {2,}(\S.*)$/.exec(line);
      assert.ok(row, `"${line}" has the command's name, two spaces or more, then its description`);
      return { name: row[1]!, summary: row[2]!, column: line.indexOf(row[2]!) };
    });
    assert.deepEqual(
      rows.map((r) => [r.name, r.summary]),
      Object.entries(commands).map(([name, c]) => [name, c.summary]),
    );
    assert.equal(new Set(rows.map((r) => r.column)).size, 1, 'the descriptions start in one column');
  });
});
