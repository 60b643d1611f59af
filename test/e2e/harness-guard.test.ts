// Who can drive the harness: only requests addressed to it by an IP address, a loopback name or an allowed
// name (no DNS rebinding), only same-origin or non-browser calls to the API, and with a token only the
// calls that carry it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { chromiumSkipReason, launchChromium } from '../support/chromium.js';
import { sendRaw as send } from './harness-support.js';
import { HarnessApiError, HarnessClient, isLoopback, startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';

const DASHBOARD = JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'greeter' } }] });
const GREETER = `<p>hi</p><a>Again</a><cwdb-action action="call" endpoint="greeter"></cwdb-action>`;

describe('harness request guard', () => {
  let running: RunningHarness;
  let port: number;
  let id: string;
  let calls = 0;

  before(async () => {
    running = await startHarness({
      port: 0,
      allowedHosts: ['devbox.internal', '.team.example'],
      functions: { functions: { greeter: { handler: () => (calls++, GREETER) } } },
    });
    port = running.port;
    id = (await new HarnessClient(running.url).createDashboard(DASHBOARD)).id;
  });
  after(() => running.close());

  it('refuses a Host name a web page could rebind to 127.0.0.1 with 403, before any handler runs', async () => {
    const res = await send(running.url, 'GET', '/api/dashboards', { host: `rebind.attacker.example:${port}` });
    assert.equal(res.status, 403);
    assert.equal(res.headers['content-type'], 'application/problem+json; charset=utf-8');
    assert.match(res.body.detail, /does not answer to the host "rebind\.attacker\.example:\d+".*--allowed-host/);
    const widget = await send(running.url, 'GET', `/api/dashboards/${id}/widgets/0`, { host: 'rebind.attacker.example' });
    assert.equal(widget.status, 403);
    assert.equal(calls, 0);
  });

  it('answers IP addresses, loopback names and the allowed names', async () => {
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST.:${port}`,
      `app.localhost:${port}`,
      `[::1]:${port}`,
      `192.168.1.20:${port}`,
      `devbox.internal:${port}`,
      `ci.team.example`,
      'team.example',
    ]) {
      assert.equal((await send(running.url, 'GET', '/api/dashboards', { host })).status, 200, host);
    }
    for (const host of ['devbox.internal.attacker.example', 'evilteam.example', 'localhost.attacker.example', '127.0.0.1.nip.io']) {
      assert.equal((await send(running.url, 'GET', '/api/dashboards', { host })).status, 403, host);
    }
  });

  it('refuses API calls from another origin: a bodiless cross-site POST runs no function', async () => {
    const host = `127.0.0.1:${port}`;
    const attempts: Array<Record<string, string>> = [
      { origin: 'http://attacker.example' },
      { origin: 'null' },
      { origin: `http://localhost:${port + 1}` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const headers of attempts) {
      for (const path of [
        `/api/dashboards/${id}/widgets/0/actions/0`,
        `/api/dashboards/${id}/refresh`,
        `/api/dashboards/${id}/widgets/0`,
      ]) {
        const res = await send(running.url, path.endsWith('/0') && !path.includes('actions') ? 'GET' : 'POST', path, { host, ...headers });
        assert.equal(res.status, 403, `${JSON.stringify(headers)} ${path}`);
        assert.match(res.body.detail, /refuses requests from other web pages/);
      }
    }
    assert.equal(calls, 0);
    // The page's own calls (same origin) and calls from no browser at all still work.
    const own = await send(running.url, 'GET', `/api/dashboards/${id}/widgets/0`, {
      host,
      origin: `http://${host}`,
      'sec-fetch-site': 'same-origin',
    });
    assert.equal(own.status, 200);
    assert.equal((await send(running.url, 'POST', `/api/dashboards/${id}/refresh`, { host })).status, 200);
    // Opening the page from a link on another site is fine: the page holds no data.
    assert.equal((await send(running.url, 'GET', '/', { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' })).status, 200);
  });

  it('needs no token on loopback; a non-loopback address is never loopback', () => {
    assert.equal(running.token, null);
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost']) assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '::', '192.168.1.20', 'devbox.internal', '::ffff:10.0.0.1']) assert.equal(isLoopback(host), false, host);
  });
});

describe('harness with a token', () => {
  let running: RunningHarness;
  before(async () => {
    running = await startHarness({ port: 0, token: 's3cret-token', functions: { functions: {} } });
  });
  after(() => running.close());

  it('refuses API calls without the token or with a wrong one (401), and serves them with it', async () => {
    const missing = await send(running.url, 'GET', '/api/dashboards', {});
    assert.equal(missing.status, 401);
    assert.equal(missing.headers['www-authenticate'], 'Bearer realm="trellis-harness"');
    assert.match(missing.body.detail, /Authorization: Bearer <token>/);
    assert.equal((await send(running.url, 'GET', '/api/dashboards', { authorization: 'Bearer s3cret-tokem' })).status, 401);
    await assert.rejects(new HarnessClient(running.url).listDashboards(), (e: unknown) => e instanceof HarnessApiError && e.status === 401);
    assert.deepEqual(await new HarnessClient(running.url, { token: 's3cret-token' }).listDashboards(), []);
    // The page itself loads without the token (it holds no data) and takes the token from the URL.
    assert.equal((await send(running.url, 'GET', '/', {})).status, 200);
  });

  it(
    'the page works with the token from the printed URL and says what is missing without it',
    { skip: chromiumSkipReason(), timeout: 60_000 },
    async () => {
      await new HarnessClient(running.url, { token: 's3cret-token' }).createDashboard('{"widgets":[]}', { name: 'tokened' });
      const browser = await launchChromium();
      try {
        const page = await browser.context.newPage();
        await page.goto(`${running.url}/#token=s3cret-token`);
        await page.locator('.dash-link', { hasText: 'tokened' }).waitFor({ timeout: 15_000 });
        assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
        await page.reload();
        await page.locator('.dash-link', { hasText: 'tokened' }).waitFor({ timeout: 15_000 });
        const other = await browser.context.newPage();
        await other.goto(`${running.url}/`);
        await other.locator('body[data-ready="true"]').waitFor({ timeout: 15_000 });
        assert.match(await other.locator('body').innerText(), /401/);
      } finally {
        await browser.close();
      }
    },
  );
});

describe('trellis harness with TRELLIS_HARNESS_TOKEN', () => {
  it('prints the token line with the page URL and refuses API calls without the token', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/harness/src/cli/main.ts', 'harness', '--port', '0'], {
      env: { ...process.env, TRELLIS_HARNESS_TOKEN: 'from-env-123' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines: string[] = [];
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (line) => {
          lines.push(line);
          if (line.startsWith('token ')) resolve();
        });
        child.once('exit', () => reject(new Error(`exited early: ${lines.join('\n')}`)));
      });
      const url = lines[0]!.split(' ').pop()!;
      assert.equal(lines.at(-1), `token from-env-123 (send "Authorization: Bearer <token>"; the page: ${url}/#token=from-env-123)`);
      assert.equal((await send(url, 'GET', '/api/dashboards', {})).status, 401);
      assert.equal((await send(url, 'GET', '/api/dashboards', { authorization: 'Bearer from-env-123' })).status, 200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
