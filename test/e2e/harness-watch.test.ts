// Watch mode: editing a widget's files (its handler or a module it loads) restarts its function, and the next
// read — through the API and on the page, without reloading it — shows what the new code renders. Other
// functions keep their environments, and a change under node_modules is not a change of the widget.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { loadFunctionsFile } from '../../packages/harness/src/dashboard/index.js';
import { HarnessClient, startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, type ChromiumHandle } from '../support/chromium.js';
import { checkingFetch } from './harness-support.js';

const STEP = { timeout: 15_000 };

/** A widget project: `widgets/hello.js` (CommonJS) loads `widgets/lib/words.js`; `other/stay.js` counts its loads. */
function makeProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-watch-'));
  mkdirSync(join(dir, 'widgets', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'widgets', 'node_modules', 'dep'), { recursive: true });
  mkdirSync(join(dir, 'other'));
  writeHello(dir, 'v1');
  writeFileSync(join(dir, 'widgets', 'lib', 'words.js'), `exports.greeting = 'Hello';\n`);
  writeFileSync(
    join(dir, 'other', 'stay.js'),
    `const loadedAt = process.pid;\nexports.handler = async () => '<p class="stay">' + loadedAt + '</p>';\n`,
  );
  writeFileSync(
    join(dir, 'functions.json'),
    JSON.stringify({ functions: { hello: { handler: 'widgets/hello.handler' }, stay: { handler: 'other/stay.handler' } } }),
  );
  return dir;
}

function writeHello(dir: string, version: string): void {
  writeFileSync(
    join(dir, 'widgets', 'hello.js'),
    `const { greeting } = require('./lib/words.js');\nexports.handler = async () => '<p class="hello">' + greeting + ' ${version}</p>';\n`,
  );
}

const DASHBOARD = {
  widgets: [
    { type: 'custom', x: 0, y: 0, width: 12, height: 4, properties: { endpoint: 'hello', title: 'Hello' } },
    {
      type: 'custom',
      x: 12,
      y: 0,
      width: 12,
      height: 4,
      properties: { endpoint: 'arn:aws:lambda:eu-west-1:111122223333:function:stay', title: 'Stay' },
    },
  ],
};

describe('trellis harness --watch', { timeout: 120_000 }, () => {
  let dir: string;
  let harness: RunningHarness;
  let client: HarnessClient;
  let id: string;

  before(async () => {
    dir = makeProject();
    harness = await startHarness({ port: 0, functions: await loadFunctionsFile(join(dir, 'functions.json')), watch: { debounceMs: 50 } });
    client = new HarnessClient(harness.url, { fetch: checkingFetch });
    ({ id } = await client.createDashboard(DASHBOARD));
  });

  after(async () => {
    await harness?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a changed handler file restarts only its function; the next API read runs the new code', async () => {
    assert.equal((await client.readWidget(id, 0)).html, '<p class="hello">Hello v1</p>');
    const stay = (await client.readWidget(id, 1)).html;
    const { seq, watching } = await client.changes();
    assert.equal(watching, true);
    writeHello(dir, 'v2');
    const answer = await client.changes(seq, 10);
    assert.equal(answer.changes.length, 1);
    const [change] = answer.changes;
    assert.deepEqual(change!.functions, ['hello']);
    assert.deepEqual(change!.widgets, { [id]: ['widget-0'] });
    assert.deepEqual(change!.files, [join(dir, 'widgets', 'hello.js')]);
    const read = await client.readWidget(id, 0);
    assert.equal(read.html, '<p class="hello">Hello v2</p>');
    assert.equal(read.event, 'load');
    assert.equal(read.invocations, 2);
    const other = await client.readWidget(id, 1);
    assert.equal(other.html, stay, 'the other function kept its content');
    assert.equal(other.invocations, 1);
  });

  it('a module the handler loads counts as its file; node_modules below it does not', async () => {
    const { seq } = await client.changes();
    writeFileSync(join(dir, 'widgets', 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    await new Promise((r) => setTimeout(r, 300));
    writeFileSync(join(dir, 'widgets', 'lib', 'words.js'), `exports.greeting = 'Bonjour';\n`);
    const answer = await client.changes(seq, 10);
    assert.deepEqual(
      answer.changes.map((c) => c.files),
      [[join(dir, 'widgets', 'lib', 'words.js')]],
    );
    assert.equal((await client.readWidget(id, 0)).html, '<p class="hello">Bonjour v2</p>');
  });

  it('a change outside every handler folder (a shared file beside the functions file) restarts every function', async () => {
    const { seq } = await client.changes();
    const before = (await client.readWidget(id, 1)).html;
    writeFileSync(join(dir, 'shared.js'), 'exports.x = 1;\n');
    const answer = await client.changes(seq, 10);
    assert.deepEqual([...answer.changes[0]!.functions].sort(), ['hello', 'stay']);
    const after = await client.readWidget(id, 1);
    assert.notEqual(after.html, before, 'a new process loaded the module');
    assert.equal(after.invocations, 2);
  });

  it('answers at once without "after", refuses bad numbers, and a harness that does not watch says so without waiting', async () => {
    const bad = await checkingFetch(`${harness.url}/api/changes?after=-1`);
    assert.equal(bad.status, 400);
    assert.match(((await bad.json()) as { detail: string }).detail, /"after" should be given once, a whole number/);
    assert.equal((await checkingFetch(`${harness.url}/api/changes?after=1&wait=61`)).status, 400);
    // The request guard covers it as every API route: another web page cannot follow the changes.
    assert.equal((await checkingFetch(`${harness.url}/api/changes`, { headers: { origin: 'http://evil.example' } })).status, 403);
    const plain = await startHarness({ port: 0, functions: { functions: { x: { handler: () => 'x' } } } });
    try {
      const started = Date.now();
      assert.deepEqual(await new HarnessClient(plain.url, { fetch: checkingFetch }).changes(0, 30), {
        watching: false,
        seq: 0,
        changes: [],
      });
      assert.ok(Date.now() - started < 5_000);
    } finally {
      await plain.close();
    }
    await assert.rejects(
      startHarness({
        port: 0,
        functions: { invoke: async () => ({ ok: true, value: '', logs: '', durationMs: 0, awsRequestId: '' }) },
        watch: true,
      }),
      /watch needs "functions" to be a functions configuration/,
    );
  });

  it('close() answers a client that is waiting for a change and does not wait for it', async () => {
    const other = await startHarness({ port: 0, functions: await loadFunctionsFile(join(dir, 'functions.json')), watch: true });
    const c = new HarnessClient(other.url);
    const { seq } = await c.changes();
    const waiting = c.changes(seq, 60).catch((e: Error) => e);
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    await other.close();
    assert.ok(Date.now() - started < 5_000, 'closed without waiting out the poll');
    const answered = await waiting;
    assert.ok(!(answered instanceof Error) && answered.changes.length === 0, String(answered));
  });
});

describe('trellis harness --watch from the command line', { timeout: 60_000 }, () => {
  it('says what it watches and which function it restarted, on stderr', async () => {
    const dir = makeProject();
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'packages/harness/src/cli/main.ts',
        'harness',
        '--functions',
        join(dir, 'functions.json'),
        '--port',
        '0',
        '--watch',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const errLines: string[] = [];
    const waitErr = (pattern: RegExp) =>
      new Promise<string>((found, fail) => {
        const check = () => errLines.find((l) => pattern.test(l));
        const hit = check();
        if (hit) return found(hit);
        const timer = setTimeout(() => fail(new Error(`no stderr line ${pattern}: ${errLines.join('\n')}`)), 20_000);
        child.stderr.on('data', () => {
          const line = check();
          if (line) {
            clearTimeout(timer);
            found(line);
          }
        });
      });
    createInterface({ input: child.stderr }).on('line', (l) => errLines.push(l));
    try {
      const first = await new Promise<string>((found) => createInterface({ input: child.stdout }).once('line', found));
      const url = /^Trellis harness listening on (\S+)$/.exec(first)?.[1];
      assert.ok(url, first);
      assert.match(await waitErr(/watching/), new RegExp(`^trellis harness: watching .*${join(dir, 'widgets')}`));
      const c = new HarnessClient(url);
      const { id } = await c.createDashboard(DASHBOARD);
      assert.match((await c.readWidget(id, 0)).html, /Hello v1/);
      writeHello(dir, 'v9');
      assert.match(await waitErr(/restarted/), /^trellis harness: restarted hello after a change to .*hello\.js$/);
      assert.match((await c.readWidget(id, 0)).html, /Hello v9/);
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the page in watch mode (chromium)', { skip: chromiumSkipReason(), timeout: 120_000 }, () => {
  let dir: string;
  let harness: RunningHarness;
  let browser: ChromiumHandle;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    dir = makeProject();
    harness = await startHarness({ port: 0, functions: await loadFunctionsFile(join(dir, 'functions.json')), watch: { debounceMs: 50 } });
    const { id } = await new HarnessClient(harness.url).createDashboard(DASHBOARD);
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(STEP.timeout);
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${harness.url}/#/dashboards/${id}`);
    await page.locator('body[data-watching="true"]').waitFor(STEP);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows the new rendering of an edited widget without a reload, and says what changed', async () => {
    const hello = page.frameLocator('[data-widget-id="widget-0"] iframe').locator('.hello');
    assert.equal(await hello.innerText(), 'Hello v1');
    const stayCalls = await page.locator('[data-widget-id="widget-1"]').getAttribute('data-invocations');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    writeHello(dir, 'v2');
    await page.frameLocator('[data-widget-id="widget-0"] iframe').locator('.hello', { hasText: 'Hello v2' }).waitFor(STEP);
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 42, 'the page was not reloaded');
    assert.match(await page.locator('#status').innerText(), /hello\.js changed: restarted hello; read 1 widget again/);
    assert.equal(await page.locator('[data-widget-id="widget-0"]').getAttribute('data-invocations'), '2');
    assert.equal(await page.locator('[data-widget-id="widget-1"]').getAttribute('data-invocations'), stayCalls);
    assert.deepEqual(problems, []);
  });
});
