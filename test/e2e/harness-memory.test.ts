// Memory is bounded by bytes: stored dashboards by what they hold, widget results by Lambda's payload limit,
// and one huge log write is dropped as it streams instead of being held and parsed.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { FunctionRegistry } from '../../packages/harness/src/dashboard/index.js';
import { createHarnessApp } from '../../packages/harness/src/harness/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/functions/', import.meta.url));
const JSON_TYPE = { 'content-type': 'application/json' };
const LIMIT_ERROR = 'Response payload size exceeded maximum allowed payload size (6291556 bytes).';

describe('stored dashboards are bounded by bytes', () => {
  it('refuses a dashboard past maxDashboardBytes with 413 while the stored ones are in use, keeping every one; forgets remembered content least recently used first', async () => {
    const { app, harness } = createHarnessApp({
      web: false,
      maxDashboardBytes: 1_000_000,
      functions: { functions: { big: { handler: () => `<p>${'b'.repeat(600_000)}</p>` } } },
    });
    try {
      const post = (params: string) => {
        const text = JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'big', params: { pad: params } } }] });
        return app.inject({ method: 'POST', url: '/api/dashboards', headers: JSON_TYPE, body: JSON.stringify(text) });
      };
      const ids = [(await post('a'.repeat(400_000))).json().id as string, (await post('a'.repeat(400_000))).json().id as string];
      const refused = await post('a'.repeat(400_000));
      assert.equal(refused.statusCode, 413);
      assert.equal(refused.json().budget, 'maxDashboardBytes');
      assert.equal(refused.json().limit, 1_000_000);
      assert.match(
        refused.json().detail,
        /dashboard budget of 1000000 bytes \(maxDashboardBytes\), and the dashboards that would have to go are in use or were used in the last 60 s/,
      );
      const listed = async () => (await app.inject({ url: '/api/dashboards' })).json().map((d: { id: string }) => d.id);
      assert.deepEqual(await listed(), ids, 'nothing stored is dropped');
      // Reading widgets adds their content; past the budget the least recently read dashboard's content goes.
      const read = async (id: string) => (await app.inject({ url: `/api/dashboards/${id}/widgets/0` })).json().invocations as number;
      assert.equal(await read(ids[0]!), 1);
      assert.equal(await read(ids[1]!), 1);
      assert.equal(await read(ids[1]!), 1, 'content within the budget is remembered');
      // Content may take as much as the budget again: 2 × 600,000 is past it, so the first dashboard's went.
      await new Promise((r) => setImmediate(r));
      assert.ok(harness.store.bytes <= 2_000_000, String(harness.store.bytes));
      assert.equal(await read(ids[0]!), 2, 'its widget runs again when next read');
      assert.deepEqual(await listed(), ids);
      // Deleting makes room again.
      assert.equal((await app.inject({ method: 'DELETE', url: `/api/dashboards/${ids[0]}` })).statusCode, 204);
      assert.equal((await post('a'.repeat(400_000))).statusCode, 201);
    } finally {
      await harness.close();
    }
  });
});

describe('the dashboard budget bounds memory', () => {
  it(
    'with the defaults, a full budget of dashboards whose every widget is read grows RSS by less than 448 MiB, and the next dashboard gets 413',
    { timeout: 120_000 },
    async () => {
      const html = `<p>${'c'.repeat(200_000)}</p>`;
      const { app, harness } = createHarnessApp({ web: false, functions: { functions: { f: { handler: () => html } } } });
      const widgets = Array.from({ length: 100 }, (_, i) => ({
        type: 'custom',
        x: 0,
        y: i,
        width: 6,
        height: 6,
        properties: { endpoint: 'f', params: { pad: 'p'.repeat(46_000), n: i } },
      }));
      const text = JSON.stringify({ widgets });
      const before = process.memoryUsage().rss;
      let peak = 0;
      const ids: string[] = [];
      try {
        for (;;) {
          const res = await app.inject({ method: 'POST', url: '/api/dashboards', headers: JSON_TYPE, body: JSON.stringify(text) });
          if (res.statusCode !== 201) {
            assert.equal(res.statusCode, 413);
            assert.equal(res.json().budget, 'maxDashboardBytes');
            break;
          }
          ids.push(res.json().id as string);
          peak = Math.max(peak, process.memoryUsage().rss - before);
        }
        assert.equal(ids.length, 7, 'seven 4.7 MB dashboards fit in 32 MiB');
        for (const id of ids) {
          for (let i = 0; i < widgets.length; i++) {
            assert.equal((await app.inject({ url: `/api/dashboards/${id}/widgets/${i}` })).statusCode, 200);
            if (i % 10 === 0) peak = Math.max(peak, process.memoryUsage().rss - before);
          }
        }
        assert.equal((await app.inject({ url: '/api/dashboards' })).json().length, 7, 'nothing stored was dropped');
        assert.ok(peak < 448 * 1024 * 1024, `RSS grew by ${(peak / 1024 / 1024).toFixed(0)} MiB`);
      } finally {
        await harness.close();
      }
    },
  );
});

describe("widget results are held to Lambda's 6 MB response limit", () => {
  const registry = new FunctionRegistry({
    baseDir: fixtures,
    functions: {
      inProcessOver: { handler: () => 'x'.repeat(6_291_557 - 2) },
      inProcessAt: { handler: () => 'x'.repeat(6_291_556 - 2) },
      moduleOver: { handler: 'esm/sizes.overLimit', timeoutSeconds: 20 },
      moduleAt: { handler: 'esm/sizes.atLimit', timeoutSeconds: 20 },
      // A 100 MiB string and its JSON need memory, as on Lambda.
      hugeLog: { handler: 'esm/sizes.hugeLog', timeoutSeconds: 20, memoryMB: 1024 },
    },
  });
  after(() => registry.close());

  it('refuses a result over 6,291,556 bytes with Function.ResponseSizeTooLarge, in process and in a child', async () => {
    for (const name of ['inProcessOver', 'moduleOver']) {
      const outcome = await registry.invoke(name, {});
      assert.equal(outcome.ok, false, name);
      assert.equal(outcome.error!.type, 'Function.ResponseSizeTooLarge', name);
      assert.ok(outcome.error!.message.startsWith(LIMIT_ERROR), outcome.error!.message);
    }
    for (const name of ['inProcessAt', 'moduleAt']) {
      const outcome = await registry.invoke(name, {});
      assert.equal(outcome.ok, true, `${name}: ${JSON.stringify(outcome.error)}`);
      assert.equal((outcome.value as string).length, 6_291_554);
    }
  });

  it('drops a 100 MiB log write as it streams, keeps the rest of the log, and returns the result', { timeout: 60_000 }, async () => {
    const outcome = await registry.invoke('hugeLog', {});
    assert.equal(outcome.ok, true, JSON.stringify(outcome.error));
    assert.equal(outcome.value, '<p>done</p>');
    assert.match(outcome.logs, /\[a write of \d+ bytes to the log was dropped: one write may be at most 6292580 bytes\]/);
    assert.match(outcome.logs, /after the huge line/);
    assert.ok(outcome.logs.length < 10_000);
  });
});

describe('an Invoke API target', () => {
  it('does not follow a redirect (to another host or anywhere): the signed request stays where it was sent', async () => {
    let elsewhere = 0;
    const other = createServer((_req, res) => {
      elsewhere++;
      res.end('"stolen"');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherUrl = `http://localhost:${(other.address() as AddressInfo).port}/collect`;
    const redirecting = createServer((_req, res) => {
      res.writeHead(307, { location: otherUrl });
      res.end();
    });
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    const registry = new FunctionRegistry({ functions: {}, invokeUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}` });
    try {
      const outcome = await registry.invoke('anything', {});
      assert.equal(outcome.ok, false);
      assert.equal(outcome.error!.type, 'TargetUnreachable');
      assert.match(
        outcome.error!.message,
        /answered 307 \(a redirect to http:\/\/localhost:\d+\/collect\); the harness does not follow redirects/,
      );
      assert.equal(elsewhere, 0);
    } finally {
      await registry.close();
      redirecting.close();
      other.close();
    }
  });
});
