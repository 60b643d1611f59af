// A test suite that loads a dashboard per test into one long-running harness and never deletes them keeps
// working: at the cap, the least recently used dashboard unused for 60 s goes to make room, and a new one is
// refused (413, saying when room comes back) only while every dashboard is in use.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createInterpreter, NotFoundError, OverBudgetError } from '../../packages/harness/src/dashboard/index.js';
import { createHarnessApp } from '../../packages/harness/src/harness/index.js';
import { arn, fakeClock, inProcessFunctions } from '../fixtures/dashboards/in-process-functions.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const MINUTE = 60_000;
const custom = (name: string) => ({ type: 'custom', properties: { endpoint: arn(name) } });
const refusal = (budget: string, seconds: number | null) => (e: unknown) =>
  e instanceof OverBudgetError && e.budget === budget && e.retryAfterSeconds === seconds;

describe('a long test run against one harness', () => {
  it('with the default cap of 1,000 dashboards, the 1,001st takes the place of the oldest once it has been unused for 60 s; until then it gets 413 saying when room comes back', async () => {
    const clock = fakeClock();
    const { app, harness } = createHarnessApp({ web: false, clock: clock.now, functions: { functions: {} } });
    const post = (n: number) =>
      app.inject({ method: 'POST', url: `/api/dashboards?name=test-${n}`, headers: JSON_TYPE, body: JSON.stringify('{"widgets":[]}') });
    const ids: string[] = [];
    for (let n = 0; n < 1_000; n++) {
      const res = await post(n);
      assert.equal(res.statusCode, 201);
      ids.push(res.json().id);
      if (n === 0) clock.advance(1_000);
    }
    clock.advance(58_000);
    const refused = await post(1_000);
    assert.equal(refused.statusCode, 413);
    assert.equal(refused.json().budget, 'maxDashboards');
    assert.equal(refused.json().limit, 1_000);
    assert.equal(refused.headers['retry-after'], '1');
    assert.match(refused.json().detail, /at most 1000 dashboards, and each of the 1000 it holds is in use or was used in the last 60 s/);
    assert.match(refused.json().detail, /room comes back in 1 s if the least recently used is not used before then/);
    assert.equal((await app.inject({ url: '/api/dashboards' })).json().length, 1_000, 'nothing stored was dropped');

    clock.advance(1_000);
    const loaded = await post(1_000);
    assert.equal(loaded.statusCode, 201);
    const gone = await app.inject({ url: `/api/dashboards/${ids[0]}` });
    assert.equal(gone.statusCode, 404);
    assert.match(gone.json().detail, /dropped to make room after 60 s unused/);
    const listed = (await app.inject({ url: '/api/dashboards' })).json().map((d: { id: string }) => d.id);
    assert.deepEqual(listed, [...ids.slice(1), loaded.json().id], 'only the oldest went; the list keeps its order');
    // The others were loaded a second later: they are not idle yet.
    assert.equal((await post(1_001)).statusCode, 413);
    await harness.close();
  });

  it('any read, action, state change or lookup is a use: the least recently used idle dashboard goes, never one used in the last 60 s', async () => {
    const clock = fakeClock();
    const functions = inProcessFunctions({
      f: (event) =>
        event.clicked
          ? '<p>clicked</p>'
          : `<p>f</p><button>Click</button><cwdb-action action="call" endpoint="${arn('f')}">{"clicked":true}</cwdb-action>`,
    });
    const harness = createInterpreter({ functions, clock: clock.now, maxDashboards: 4 });
    const board = { widgets: [custom('f')] };
    const read = await harness.load(board, { name: 'read' });
    const clicked = await harness.load(board, { name: 'clicked' });
    const stated = await harness.load(board, { name: 'stated' });
    const looked = await harness.load(board, { name: 'looked' });
    const button = (await clicked.readWidget(0)).action('Click');
    clock.advance(MINUTE);
    await read.readWidget(0);
    await button.click();
    clock.advance(MINUTE - 1);
    await stated.putState({ theme: 'dark' });
    harness.dashboard(looked.id);
    // Each is used only by the one operation it is named after, the oldest of those 59.999 s ago: none is idle.
    await assert.rejects(harness.load({ widgets: [] }, { name: 'new' }), refusal('maxDashboards', 1));
    clock.advance(1);
    await harness.load({ widgets: [] }, { name: 'new' });
    assert.deepEqual(
      harness.store.list().map((d) => d.name),
      ['clicked', 'stated', 'looked', 'new'],
    );
    // A driver of a dashboard that went says so.
    assert.throws(
      () => read.getState(),
      (e) => e instanceof NotFoundError && /was dropped to make room for a new one: it had not been used for 60 s/.test(e.message),
    );
    await assert.rejects(read.readWidget(0), NotFoundError);
    assert.throws(() => harness.dashboard(read.id), NotFoundError);
    clock.advance(MINUTE);
    await harness.load({ widgets: [] }, { name: 'newer' });
    assert.deepEqual(
      harness.store.list().map((d) => d.name),
      ['stated', 'looked', 'new', 'newer'],
    );
    await harness.close();
  });

  it('a dashboard with an operation in progress is in use however long it runs; when nothing else can go, 413 says room comes back after it', async () => {
    const clock = fakeClock();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const harness = createInterpreter({
      functions: inProcessFunctions({ slow: () => gate.then(() => '<p>done</p>') }),
      clock: clock.now,
      maxDashboards: 1,
    });
    const slow = await harness.load({ widgets: [custom('slow')] }, { name: 'slow' });
    const reading = slow.readWidget(0);
    clock.advance(10 * MINUTE);
    await assert.rejects(harness.load({ widgets: [] }), (e) => {
      assert.ok(refusal('maxDashboards', null)(e), String(e));
      assert.match((e as Error).message, /room comes back 60 s after the operations in progress on 1 of them end/);
      return true;
    });
    release();
    assert.equal((await reading).html, '<p>done</p>');
    // The read ended now: that is its last use.
    await assert.rejects(harness.load({ widgets: [] }), refusal('maxDashboards', 60));
    clock.advance(MINUTE);
    await harness.load({ widgets: [] });
    await harness.close();
  });

  it('the byte budget makes room the same way: as many idle dashboards go as the new one needs, least recently used first', async () => {
    const clock = fakeClock();
    const harness = createInterpreter({ functions: { functions: {} }, clock: clock.now, maxDashboardBytes: 1_000 });
    const sized = (bytes: number) => {
      const text = JSON.stringify({ widgets: [], pad: '' });
      return JSON.stringify({ widgets: [], pad: 'p'.repeat(bytes - text.length) });
    };
    const a = await harness.load(sized(300), { name: 'a' });
    await harness.load(sized(300), { name: 'b' });
    await harness.load(sized(300), { name: 'c' });
    clock.advance(30_000);
    a.getState();
    clock.advance(29_000);
    // 500 bytes more need b and c to go (a was used after them), and they have been idle for 59 s.
    await assert.rejects(harness.load(sized(500), { name: 'd' }), refusal('maxDashboardBytes', 1));
    clock.advance(1_000);
    await harness.load(sized(500), { name: 'd' });
    assert.deepEqual(
      harness.store.list().map((d) => d.name),
      ['a', 'd'],
    );
    // 600 bytes need both a and d to go: room comes back when the later used, d, has been idle for 60 s.
    await assert.rejects(harness.load(sized(600), { name: 'e' }), (e) => {
      assert.ok(refusal('maxDashboardBytes', 60)(e), String(e));
      assert.match((e as Error).message, /room comes back in 60 s if the 2 least recently used are not used before then/);
      return true;
    });
    // Past the whole budget, a dashboard is refused whatever is stored, and nothing goes.
    clock.advance(10 * MINUTE);
    await assert.rejects(harness.load(sized(1_001)), (e) => {
      assert.ok(refusal('maxDashboardBytes', null)(e), String(e));
      assert.match((e as Error).message, /more than this harness's whole dashboard budget of 1000 bytes/);
      return true;
    });
    assert.deepEqual(
      harness.store.list().map((d) => d.name),
      ['a', 'd'],
    );
    await harness.close();
  });
});
