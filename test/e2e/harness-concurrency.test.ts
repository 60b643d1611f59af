// 50 concurrent clients, each with its own dashboard, never see each other's state or widget content.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { HarnessClient, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { checkingFetch, startTestHarness, testDashboard } from './harness-support.js';

let running: RunningHarness;
before(async () => {
  running = await startTestHarness();
});
after(() => running.close());

it('50 concurrent clients on their own dashboards see only their own state, forms and content', async () => {
  const themes = ['light', 'dark'] as const;
  const results = await Promise.all(
    Array.from({ length: 50 }, async (_, n) => {
      const client = new HarnessClient(running.url, { fetch: checkingFetch });
      const { id } = await client.createDashboard(testDashboard, { name: `client-${n}` });
      const theme = themes[n % 2]!;
      const seen: string[] = [];
      for (let round = 0; round < 4; round++) {
        const who = `client-${n}-round-${round}`;
        await client.putState(id, {
          theme,
          dashboardName: `board-${n}`,
          dashboardWidth: 1000 + n,
          timeRange: { relative: `-PT${n + 1}H` },
        });
        const greet = await client.findAction(id, 0, 'Greet');
        const after = await client.runAction(id, 0, greet.index, { forms: { who } });
        assert.ok('html' in after);
        seen.push(after.html);
        const read = await client.readWidget(id, 0);
        assert.match(read.html, new RegExp(`Hello, ${who}<`), `client ${n} reads its own greeting`);
        assert.match(read.html, new RegExp(`<h2>${theme}</h2>`));
        const state = await client.getState(id);
        assert.equal(state.dashboardName, `board-${n}`);
        assert.equal(state.dashboardWidth, 1000 + n);
        assert.deepEqual(state.timeRange, { relative: `-PT${n + 1}H` });
      }
      const details = await client.getDashboard(id);
      assert.equal(details.name, `client-${n}`);
      return { n, id, seen };
    }),
  );
  assert.equal(new Set(results.map((r) => r.id)).size, 50);
  for (const { n, seen } of results) {
    for (const html of seen) {
      const names = [...html.matchAll(/client-(\d+)-round/g)].map((m) => Number(m[1]));
      assert.deepEqual([...new Set(names)], [n], `client ${n} saw only its own name`);
    }
  }
});
