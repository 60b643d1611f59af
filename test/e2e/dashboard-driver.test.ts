import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createInterpreter,
  DashboardValidationError,
  NotFoundError,
  OverBudgetError,
  UnprocessableError,
  type WidgetView,
} from '../../packages/harness/src/dashboard/index.js';
import { arn, fakeClock, inProcessFunctions, type Handler } from '../fixtures/dashboards/in-process-functions.js';

const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);

function setup(handlers: Record<string, Handler>) {
  const clock = fakeClock(NOW);
  const functions = inProcessFunctions(handlers);
  const harness = createInterpreter({ functions, clock: clock.now });
  return { harness, functions, clock };
}

const custom = (name: string, props: object = {}, extra: object = {}) => ({
  type: 'custom',
  properties: { endpoint: arn(name), ...props },
  ...extra,
});

test('the event: params at the top level plus a widgetContext with every console field', async () => {
  const { harness, functions } = setup({ echo: () => '<p>ok</p>' });
  const dash = await harness.load(
    { widgets: [custom('echo', { title: 'Echo', params: { region: 'eu-west-1', n: 3, nested: { a: [1] } } })] },
    { name: 'ops' },
  );
  await dash.readWidget(0);
  const event = functions.calls[0]!.event;
  assert.equal(event.region, 'eu-west-1');
  assert.equal(event.n, 3);
  assert.deepEqual(event.nested, { a: [1] });
  assert.deepEqual(event.widgetContext, {
    dashboardName: 'ops',
    widgetId: 'widget-0',
    accountId: '123456789012',
    locale: 'en',
    timezone: { label: 'UTC', offsetISO: '+00:00', offsetInMinutes: 0 },
    period: 300,
    isAutoPeriod: true,
    timeRange: { mode: 'relative', start: NOW - 3 * 3600_000, end: NOW, relativeStart: 3 * 3600_000 },
    theme: 'light',
    linkCharts: true,
    title: 'Echo',
    forms: { all: {} },
    params: { region: 'eu-west-1', n: 3, nested: { a: [1] } },
    width: 588,
    height: 369,
  });
});

test('the dashboard start/end set the default time range; the grid cell at the default dashboard width sets the pixel size', async () => {
  const { harness, functions } = setup({ echo: () => '' });
  const dash = await harness.load({
    start: '2024-04-01T00:00:00Z',
    end: '2024-04-02T00:00:00Z',
    widgets: [custom('echo', {}, { width: 12, height: 3 })],
  });
  await dash.readWidget('widget-0');
  const ctx = functions.calls[0]!.event.widgetContext;
  assert.deepEqual(ctx.timeRange, { mode: 'absolute', start: Date.UTC(2024, 3, 1), end: Date.UTC(2024, 3, 2) });
  // round(12 × 2392 / 24) − 10 and 3 × 68 − 39
  assert.equal(ctx.width, 1186);
  assert.equal(ctx.height, 165);
  assert.deepEqual(dash.getState().timeRange, { start: Date.UTC(2024, 3, 1), end: Date.UTC(2024, 3, 2) });
});

test('every widget is sized from its own cell at the dashboard width; a size set for one widget replaces its cell; only widgets whose size changed resize', async () => {
  const { harness, functions } = setup({ f: () => '' });
  const dash = await harness.load({
    widgets: [
      custom('f', {}, { x: 0, y: 0, width: 6, height: 6 }),
      custom('f', {}, { x: 6, y: 0, width: 12, height: 3 }),
      // Placed at x 20, a 6-column widget is cut to the 4 columns left of the grid's edge, as the page draws it.
      custom('f', {}, { x: 20, y: 10, width: 6, height: 6 }),
      custom('f', {}, { width: 1, height: 1 }),
      { type: 'text', properties: { markdown: '' } },
    ],
  });
  const told = async (n: number) => {
    const ctx = ((await dash.readWidget(n)).invocation!.event as { widgetContext: { width: number; height: number } }).widgetContext;
    return [ctx.width, ctx.height];
  };
  const all = async () => Promise.all([0, 1, 2, 3].map(told));
  assert.equal(dash.getState().dashboardWidth, 2392);
  assert.deepEqual(await all(), [
    [588, 369],
    [1186, 165],
    [389, 369],
    [90, 29],
  ]);
  const narrow = await dash.putState({ dashboardWidth: 1280 });
  assert.deepEqual(narrow.updated, ['widget-0', 'widget-1', 'widget-2', 'widget-3']);
  assert.deepEqual(await all(), [
    [310, 369],
    [630, 165],
    [203, 369],
    [43, 29],
  ]);
  assert.equal((await dash.readWidget(0)).event, 'resize');
  const own = await dash.putState({ dashboardWidth: 1280, widgetSizes: { 1: { width: 500 } } });
  assert.deepEqual(own.updated, ['widget-1']);
  assert.deepEqual(own.state.widgetSizes, { 'widget-1': { width: 500 } });
  assert.deepEqual(await told(1), [500, 165]);
  // One pixel wider: only the 4-column widget's rounded width changes (213.5 → 214); widget-1 keeps its own.
  const calls = functions.calls.length;
  const wider = await dash.putState({ dashboardWidth: 1281, widgetSizes: { 'widget-1': { width: 500 } } });
  assert.deepEqual(wider.updated, ['widget-2']);
  assert.equal(functions.calls.length, calls + 1);
  assert.deepEqual(await told(2), [204, 369]);
  await assert.rejects(
    dash.putState({ widgetSizes: { 4: { width: 100 } } }),
    (e) => e instanceof UnprocessableError && e.field === 'widgetSizes.4' && /text/.test(e.message),
  );
  assert.equal(dash.getState().dashboardWidth, 1281, 'a refused state changes nothing');
});

test('the first read invokes; later reads do not', async () => {
  const { harness, functions } = setup({ hello: (e) => `<h1>Hello ${e.name}</h1>` });
  const dash = await harness.load({ widgets: [custom('hello', { params: { name: 'Ada' } })] });
  const first = await dash.readWidget(0);
  const second = await dash.readWidget('0');
  assert.equal(first.html, '<h1>Hello Ada</h1>');
  assert.equal(first.event, 'load');
  assert.equal(first.display, 'widget');
  assert.equal(first.raw, '<h1>Hello Ada</h1>');
  assert.deepEqual(first.findings, []);
  assert.equal(second.invocations, 1);
  assert.equal(functions.calls.length, 1);
});

test('return values: string, markdown, other JSON as escaped <pre>, errors with empty html', async () => {
  const { harness } = setup({
    md: () => ({ markdown: '# Title\n\n**bold**' }),
    json: () => ({ a: '<b>', list: [1, 2] }),
    boom: () => {
      throw new TypeError('bad input');
    },
    str: () => {
      throw 'plain string';
    },
    script: () => '<p>hi</p><script>alert(1)</script>',
  });
  const dash = await harness.load({ widgets: ['md', 'json', 'boom', 'str', 'script', 'missing'].map((n) => custom(n)) });
  const md = await dash.readWidget(0);
  assert.match(md.html, /<h1>Title<\/h1>/);
  assert.match(md.html, /<strong>bold<\/strong>/);
  assert.deepEqual(md.raw, { markdown: '# Title\n\n**bold**' });
  const json = await dash.readWidget(1);
  assert.equal(json.html, `<pre>${JSON.stringify({ a: '&lt;b&gt;', list: [1, 2] }, null, 2).replace(/"/g, '&quot;')}</pre>`);
  const boom = await dash.readWidget(2);
  assert.deepEqual(boom.error, { type: 'TypeError', message: 'bad input' });
  assert.equal(boom.html, '');
  assert.deepEqual(boom.findings, []);
  assert.equal(boom.invocations, 1);
  assert.deepEqual((await dash.readWidget(3)).error, { type: 'string', message: 'plain string' });
  const script = await dash.readWidget(4);
  assert.equal(script.findings.length, 1);
  assert.equal(script.findings[0]!.element, 'script');
  assert.equal((await dash.readWidget(5)).error?.type, 'FunctionNotFound');
});

test('text widgets render markdown; other widget types load but cannot be read', async () => {
  const { harness } = setup({});
  const dash = await harness.load({
    widgets: [
      { type: 'text', properties: { markdown: '## Notes\n\n- one' } },
      { type: 'metric', properties: { metrics: [] } },
    ],
  });
  const text = await dash.readWidget(0);
  assert.match(text.html, /<h2>Notes<\/h2>/);
  assert.equal(text.invocations, 0);
  await assert.rejects(dash.readWidget(1), (e) => e instanceof UnprocessableError && e.field === 'type' && /metric/.test(e.message));
});

test('unknown widget ids are not found', async () => {
  const { harness } = setup({ a: () => '' });
  const dash = await harness.load({ widgets: [custom('a')] });
  for (const wid of [1, '1', 'widget-1', 'abc', '-1', 'widget-', '01']) {
    await assert.rejects(dash.readWidget(wid), (e) => e instanceof NotFoundError && e.target === 'widget', String(wid));
  }
});

const FORM_WIDGET = `
<form>
  <input name="q" value="cpu">
  <label><input type="radio" name="size" value="small" checked> S</label>
  <label><input type="radio" name="size" value="large"> L</label>
  <select name="region"><option value="eu">EU</option><option value="us" selected>US</option></select>
  <input type="checkbox" name="live" checked>
</form>
<button>  Apply
   filters </button>
<cwdb-action action="call" endpoint="${arn('apply')}" display="widget">{ "step": 2 }</cwdb-action>
<a>Details</a>
<cwdb-action action="html" display="popup"><p>more</p></cwdb-action>
<a>Replace</a>
<cwdb-action action="html"><p>replaced</p><a>Back</a><cwdb-action action="call" endpoint="${arn('apply')}" display="popup"></cwdb-action></cwdb-action>
<a>Delete</a>
<cwdb-action action="call" endpoint="${arn('apply')}" confirmation="Really delete?" display="popup"></cwdb-action>
`;

async function formDashboard() {
  const s = setup({ form: () => FORM_WIDGET, apply: (e) => `<pre>${JSON.stringify(e)}</pre>` });
  const dash = await s.harness.load({ widgets: [custom('form', { params: { original: true } })] });
  return { ...s, dash, w: await dash.readWidget(0) };
}

test('actions are listed with text, kind, display, event and params or html', async () => {
  const { w } = await formDashboard();
  assert.deepEqual(
    w.actions.map((a) => [a.index, a.text, a.action, a.display, a.event, a.confirmation]),
    [
      [0, 'Apply filters', 'call', 'widget', 'click', null],
      [1, 'Details', 'html', 'popup', 'click', null],
      [2, 'Replace', 'html', 'widget', 'click', null],
      [3, 'Delete', 'call', 'popup', 'click', 'Really delete?'],
    ],
  );
  assert.deepEqual(w.actions[0]!.params, { step: 2 });
  assert.equal(w.actions[0]!.endpoint, arn('apply'));
  assert.equal(w.actions[1]!.html, '<p>more</p>');
});

test('a call action sends its params, the original widget params and the form values (HTML defaults, posted overrides)', async () => {
  const { w, functions } = await formDashboard();
  const after = await w.action('Apply filters').click({ forms: { size: 'large', q: 'memory' } });
  const event = functions.calls.at(-1)!.event;
  assert.equal(event.step, 2);
  assert.deepEqual(event.widgetContext.params, { original: true });
  assert.deepEqual(event.widgetContext.forms.all, { q: 'memory', size: 'large', region: 'us', live: 'on' });
  assert.equal(after.event, 'click');
  assert.equal(after.display, 'widget');
  assert.equal(after.invocations, 2);
  assert.deepEqual(after.actions, [], 'the replaced content has no actions');
  assert.equal(after.toJSON().html, after.html);
});

test('display: widget replaces the content for later reads; display: popup leaves it', async () => {
  const { dash, w } = await formDashboard();
  const popup = await w.action('Details').click();
  assert.equal(popup.display, 'popup');
  assert.equal(popup.html, '<p>more</p>');
  assert.equal(popup.invocations, 1);
  assert.equal((await dash.readWidget(0)).html, FORM_WIDGET);
  const replaced = await w.action('Replace').click();
  assert.equal(
    replaced.html,
    '<p>replaced</p><a>Back</a><cwdb-action action="call" endpoint="arn:aws:lambda:us-east-1:123456789012:function:apply" display="popup"></cwdb-action>',
  );
  const reread = await dash.readWidget(0);
  assert.equal(reread.html, replaced.html);
  assert.equal(reread.event, 'click');
  assert.deepEqual(
    reread.actions.map((a) => a.text),
    ['Back'],
  );
});

test('confirmation: confirm false cancels and calls nothing; otherwise the action runs', async () => {
  const { w, functions } = await formDashboard();
  const before = functions.calls.length;
  const cancelled = await w.action('Delete').click({ confirm: false });
  assert.deepEqual(cancelled, { cancelled: true, confirmation: 'Really delete?' });
  assert.deepEqual(await w.action('Delete').cancel(), { cancelled: true, confirmation: 'Really delete?' });
  assert.equal(functions.calls.length, before);
  const ran = await w.action('Delete').click();
  assert.equal(ran.display, 'popup');
  assert.equal(functions.calls.length, before + 1);
  // confirm on an action without a confirmation is ignored
  const popup = (await w.action('Details').click({ confirm: false })) as WidgetView;
  assert.equal(popup.html, '<p>more</p>');
});

test('forms: unknown names list the known ones; values outside radio/select options are refused; nothing runs', async () => {
  const { w, functions } = await formDashboard();
  const before = functions.calls.length;
  await assert.rejects(
    w.action('Apply filters').click({ forms: { colour: 'red' } }),
    (e) => e instanceof UnprocessableError && e.field === 'forms.colour' && /"q", "size", "region", "live"/.test(e.message),
  );
  await assert.rejects(
    w.action('Apply filters').click({ forms: { size: 'huge' } }),
    (e) => e instanceof UnprocessableError && e.field === 'forms.size' && /"small", "large"/.test(e.message),
  );
  await assert.rejects(w.action('Apply filters').click({ forms: { region: 'ap' } }), UnprocessableError);
  await assert.rejects(w.action('Apply filters').click({ forms: { q: ['a', 'b'] } }), UnprocessableError);
  await assert.rejects(w.action('Apply filters').click({ forms: { q: 3 as unknown as string } }), UnprocessableError);
  assert.equal(functions.calls.length, before);
});

test('find by text: exact after whitespace normalisation, substring or RegExp on request, errors list candidates', async () => {
  const { w } = await formDashboard();
  assert.equal(w.action('  Apply   filters ').index, 0);
  assert.throws(
    () => w.action('Apply'),
    (e) => e instanceof NotFoundError && /"Apply filters"/.test(e.message) && /#1 "Details"/.test(e.message),
  );
  assert.equal(w.action({ text: 'Apply', exact: false }).index, 0);
  assert.equal(w.action(/^del/i).index, 3);
  assert.throws(
    () => w.action(/e/),
    (e) => e instanceof NotFoundError && /4 actions/.test(e.message),
  );
  assert.throws(() => w.action({ text: 'e', exact: false }), NotFoundError);
  assert.equal(w.action({ index: 2 }).text, 'Replace');
  assert.throws(() => w.action({ index: 9 }), NotFoundError);
});

test('refresh: auto per updateOn.refresh, manual for all, only widgets read before, restoring replaced content', async () => {
  const { harness, functions } = setup({ a: () => FORM_WIDGET, b: () => '<p>b</p>', c: () => '<p>c</p>', apply: () => '<p>applied</p>' });
  const dash = await harness.load({
    widgets: [
      custom('a'),
      custom('b', { updateOn: { refresh: false, timeRange: true } }),
      custom('c'),
      { type: 'text', properties: { markdown: 'x' } },
    ],
  });
  const a = await dash.readWidget(0);
  await dash.readWidget(1);
  await a.action('Apply filters').click();
  assert.equal((await dash.readWidget(0)).html, '<p>applied</p>');
  assert.deepEqual(await dash.refresh(), { refreshed: ['widget-0'], skipped: ['widget-1', 'widget-2', 'widget-3'] });
  const restored = await dash.readWidget(0);
  assert.equal(restored.html, FORM_WIDGET);
  assert.equal(restored.event, 'refresh');
  assert.equal(restored.invocations, 3);
  // the refresh sent the form values of what the widget showed
  assert.deepEqual(functions.calls.at(-1)!.event.widgetContext.forms.all, {});
  assert.deepEqual(await dash.refresh({ mode: 'manual' }), { refreshed: ['widget-0', 'widget-1'], skipped: ['widget-2', 'widget-3'] });
  assert.equal((await dash.readWidget(1)).invocations, 2);
  const c = await dash.readWidget(2);
  assert.equal(c.invocations, 1);
  assert.equal(c.event, 'load');
  await assert.rejects(dash.refresh({ mode: 'sometimes' as 'auto' }), (e) => e instanceof UnprocessableError && e.field === 'mode');
});

test('state changes re-invoke per updateOn, with the event kind rule', async () => {
  const { harness, functions, clock } = setup({ f: () => '<p>f</p>' });
  const dash = await harness.load({
    widgets: [
      custom('f'),
      custom('f', { updateOn: { timeRange: true } }),
      custom('f', { updateOn: { resize: true } }),
      custom('f', { updateOn: {} }),
      custom('f'),
    ],
  });
  for (const i of [0, 1, 2, 3]) await dash.readWidget(i);
  const t = await dash.putState({ timeRange: { relative: '-P7D' } });
  assert.deepEqual(t.updated, ['widget-0', 'widget-1']);
  assert.deepEqual(t.state.timeRange, { relative: '-P7D' });
  assert.equal((await dash.readWidget(0)).event, 'timeRange');
  assert.equal(functions.calls.at(-1)!.event.widgetContext.timeRange.start, NOW - 7 * 86_400_000);
  clock.advance(60_000);
  assert.deepEqual((await dash.putState({ timeRange: { relative: '-P7D' } })).updated, [], 'now moving is not a change');
  assert.deepEqual((await dash.putState({ timeRange: { relative: '-P7D' }, dashboardWidth: 1200 })).updated, ['widget-0', 'widget-2']);
  assert.equal((await dash.readWidget(2)).event, 'resize');
  assert.equal(functions.calls.at(-1)!.event.widgetContext.width, 290);
  const both = await dash.putState({ period: 60, dashboardWidth: 1200, widgetSizes: { 2: { height: 200 } } });
  // timeRange back to the default and period changed → timeRange; widget-2's own height changed → resize
  assert.deepEqual(both.updated, ['widget-0', 'widget-1', 'widget-2']);
  assert.equal((await dash.readWidget(0)).event, 'timeRange');
  assert.equal((await dash.readWidget(2)).event, 'resize');
  assert.deepEqual([functions.calls.at(-1)!.event.widgetContext.width, functions.calls.at(-1)!.event.widgetContext.height], [290, 200]);
  const theme = await dash.putState({ period: 60, dashboardWidth: 1200, widgetSizes: { 'widget-2': { height: 200 } }, theme: 'dark' });
  assert.deepEqual(theme.updated, ['widget-0', 'widget-1', 'widget-2', 'widget-3']);
  assert.equal((await dash.readWidget(3)).event, 'state');
  assert.equal(functions.calls.at(-1)!.event.widgetContext.theme, 'dark');
  // the never-read widget is read later with the current state
  await dash.readWidget(4);
  const last = functions.calls.at(-1)!.event.widgetContext;
  assert.equal(last.theme, 'dark');
  assert.equal(last.period, 60);
  assert.equal(last.isAutoPeriod, false);
  assert.deepEqual([last.width, last.height], [290, 369]);
});

test('state: every field, defaults for omitted ones, and errors naming the field that change nothing', async () => {
  const { harness, functions } = setup({ f: () => '' });
  const dash = await harness.load({ widgets: [custom('f')] }, { name: 'ops' });
  const full = await dash.putState({
    timeRange: {
      start: '2024-04-01T00:00:00Z',
      end: Date.UTC(2024, 3, 2),
      zoom: { start: Date.UTC(2024, 3, 1, 6), end: '2024-04-01T12:00:00Z' },
    },
    period: 3600,
    theme: 'dark',
    timezone: '+02:00',
    locale: 'de-DE',
    accountId: '111122223333',
    dashboardName: 'other',
    linkCharts: false,
    dashboardWidth: 1600,
    widgetSizes: { 0: { width: 800, height: 400 } },
  });
  assert.deepEqual(full.state, {
    timeRange: {
      start: Date.UTC(2024, 3, 1),
      end: Date.UTC(2024, 3, 2),
      zoom: { start: Date.UTC(2024, 3, 1, 6), end: Date.UTC(2024, 3, 1, 12) },
    },
    period: 3600,
    theme: 'dark',
    timezone: '+02:00',
    locale: 'de-DE',
    accountId: '111122223333',
    dashboardName: 'other',
    linkCharts: false,
    dashboardWidth: 1600,
    widgetSizes: { 'widget-0': { width: 800, height: 400 } },
  });
  await dash.readWidget(0);
  const ctx = functions.calls.at(-1)!.event.widgetContext;
  assert.deepEqual(ctx.timezone, { label: 'Local', offsetISO: '+02:00', offsetInMinutes: -120 });
  assert.deepEqual(ctx.timeRange, {
    mode: 'absolute',
    start: Date.UTC(2024, 3, 1),
    end: Date.UTC(2024, 3, 2),
    zoom: { start: Date.UTC(2024, 3, 1, 6), end: Date.UTC(2024, 3, 1, 12) },
  });
  const bad: [unknown, string][] = [
    [{ colour: 'x' }, 'colour'],
    [{ theme: 'blue' }, 'theme'],
    [{ period: 0 }, 'period'],
    [{ period: 'often' }, 'period'],
    [{ timezone: 'Mars/Base' }, 'timezone'],
    [{ locale: 'not a locale!' }, 'locale'],
    [{ accountId: '123' }, 'accountId'],
    [{ linkCharts: 'yes' }, 'linkCharts'],
    [{ width: 500 }, 'width'],
    [{ height: 500 }, 'height'],
    [{ dashboardWidth: 239 }, 'dashboardWidth'],
    [{ dashboardWidth: 1280.5 }, 'dashboardWidth'],
    [{ dashboardWidth: '1280' }, 'dashboardWidth'],
    [{ widgetSizes: [] }, 'widgetSizes'],
    [{ widgetSizes: { 1: { width: 10 } } }, 'widgetSizes.1'],
    [{ widgetSizes: { 'widget-7': { width: 10 } } }, 'widgetSizes.widget-7'],
    [{ widgetSizes: { first: { width: 10 } } }, 'widgetSizes.first'],
    [{ widgetSizes: { '00': { width: 10 } } }, 'widgetSizes.00'],
    [{ widgetSizes: { 0: {} } }, 'widgetSizes.0'],
    [{ widgetSizes: { 0: null } }, 'widgetSizes.0'],
    [{ widgetSizes: { 0: { width: 0 } } }, 'widgetSizes.0.width'],
    [{ widgetSizes: { 0: { width: 10, height: 100_001 } } }, 'widgetSizes.0.height'],
    [{ widgetSizes: { 0: { width: 10, depth: 3 } } }, 'widgetSizes.0.depth'],
    [{ widgetSizes: { 0: { width: 10 }, 'widget-0': { width: 20 } } }, 'widgetSizes.widget-0'],
    [{ timeRange: { relative: '3h' } }, 'timeRange.relative'],
    [{ timeRange: { start: 'yesterday' } }, 'timeRange.start'],
    [{ timeRange: { start: 10, end: 5 } }, 'timeRange.end'],
    [{ timeRange: { relative: '-PT1H', start: 1 } }, 'timeRange'],
    [{ timeRange: { relative: '-PT1H', bogus: 1 } }, 'timeRange.bogus'],
    [[], 'state'],
  ];
  for (const [input, field] of bad) {
    await assert.rejects(dash.putState(input as never), (e) => e instanceof UnprocessableError && e.field === field, JSON.stringify(input));
  }
  assert.deepEqual(dash.getState(), full.state);
  const reset = await dash.putState({});
  assert.deepEqual(reset.state.timeRange, { relative: '-PT3H' });
  assert.equal(reset.state.dashboardName, 'ops');
  assert.equal(reset.state.theme, 'light');
});

test('describe calls the function with describe: true without counting an invocation', async () => {
  const { harness } = setup({ doc: (e) => (e.describe ? '## Doc\n\nParams: none' : '<p>x</p>') });
  const dash = await harness.load({ widgets: [custom('doc'), { type: 'text', properties: { markdown: '' } }] });
  const d = await dash.describeWidget(0);
  assert.equal(d.markdown, '## Doc\n\nParams: none');
  assert.match(d.html, /<h2>Doc<\/h2>/);
  assert.equal(d.error, null);
  assert.equal((await dash.readWidget(0)).invocations, 1);
  await assert.rejects(dash.describeWidget(1), UnprocessableError);
});

test('loading keeps the exact text and reports every validation problem', async () => {
  const { harness } = setup({});
  const text = '{ "widgets" : [ ],\n  "start": "-PT5M" }';
  const dash = await harness.load(text, { name: 'exact' });
  assert.equal(dash.source, text);
  assert.equal(dash.name, 'exact');
  await assert.rejects(
    harness.load('{"widgets":[{"type":"custom","properties":{},"width":30}]}'),
    (e) =>
      e instanceof DashboardValidationError &&
      e.kind === 'validation' &&
      JSON.stringify(e.validationMessages.map((m) => m.dataPath)) === JSON.stringify(['/widgets/0/width', '/widgets/0/properties']),
  );
});

test('dashboards are isolated; past maxDashboards a new one is refused and none is dropped; the list keeps its order', async () => {
  const clock = fakeClock(NOW);
  const harness = createInterpreter({ functions: inProcessFunctions({ f: () => '<p>f</p>' }), clock: clock.now, maxDashboards: 2 });
  const a = await harness.load({ widgets: [custom('f')] }, { name: 'a' });
  const b = await harness.load({ widgets: [custom('f')] }, { name: 'b' });
  await a.putState({ theme: 'dark' });
  assert.equal(b.getState().theme, 'light');
  await a.readWidget(0);
  assert.equal((await b.readWidget(0)).invocations, 1);
  harness.dashboard(a.id);
  await assert.rejects(
    harness.load({ widgets: [] }, { name: 'c' }),
    (e) => e instanceof OverBudgetError && e.budget === 'maxDashboards' && /at most 2 dashboards/.test(e.message),
  );
  assert.deepEqual(
    harness.store.list().map((d) => d.name),
    ['a', 'b'],
    'reading a dashboard does not move it',
  );
  harness.store.delete(a.id);
  assert.throws(() => harness.store.get(a.id), NotFoundError);
  await harness.load({ widgets: [] }, { name: 'c' });
  assert.deepEqual(
    harness.store.list().map((d) => d.name),
    ['b', 'c'],
  );
});

test('operations on one dashboard run one at a time: concurrent first reads invoke once', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const { harness, functions } = setup({
    slow: async () => {
      await gate;
      return '<p>slow</p>';
    },
  });
  const dash = await harness.load({ widgets: [custom('slow')] });
  const reads = [dash.readWidget(0), dash.readWidget(0), dash.readWidget(0)];
  release();
  const results = await Promise.all(reads);
  assert.deepEqual(
    results.map((r) => r.invocations),
    [1, 1, 1],
  );
  assert.equal(functions.calls.length, 1);
});

test('the store surface refuses malformed ids with typed errors, changing nothing', async () => {
  // Request bodies are checked where they enter, by the harness's routes (test/e2e/harness-bad-requests.test.ts).
  const { dash, harness, functions } = await formDashboard();
  const d = harness.store.get(dash.id);
  const before = functions.calls.length;
  for (const index of ['abc', '-1', 4, '1.5']) {
    await assert.rejects(d.runAction(0, index), (e) => e instanceof NotFoundError && e.target === 'action', String(index));
  }
  assert.deepEqual(await d.refresh(), { refreshed: ['widget-0'], skipped: [] });
  assert.equal(functions.calls.length, before + 1);
  assert.equal((await d.readWidget('widget-0')).html, FORM_WIDGET);
  assert.deepEqual(d.info().widgets, [
    {
      widgetId: 'widget-0',
      index: 0,
      type: 'custom',
      title: null,
      endpoint: arn('form'),
      updateOn: { refresh: true, resize: true, timeRange: true },
    },
  ]);
  assert.throws(() => harness.store.create(42), UnprocessableError);
  assert.throws(
    () => harness.store.create('{"widgets":[]}', { name: '' }),
    (e) => e instanceof UnprocessableError && e.field === 'name',
  );
});

test('params that are not an object are not spread but still reach widgetContext.params', async () => {
  const { harness, functions } = setup({ f: () => '' });
  const dash = await harness.load({ widgets: [custom('f', { params: ['a', 'b'] }), custom('f', { params: 'text' })] });
  await dash.readWidget(0);
  await dash.readWidget(1);
  assert.deepEqual(Object.keys(functions.calls[0]!.event), ['widgetContext']);
  assert.deepEqual(functions.calls[0]!.event.widgetContext.params, ['a', 'b']);
  assert.equal(functions.calls[1]!.event.widgetContext.params, 'text');
});

test('functions run through the registry: a Lambda context, callback style, unknown endpoints named', async () => {
  const clock = fakeClock(NOW);
  const harness = createInterpreter({
    clock: clock.now,
    functions: {
      functions: {
        ctx: {
          handler: (_e: unknown, context: { functionName: string; invokedFunctionArn: string }) =>
            `<p>${context.functionName} ${context.invokedFunctionArn}</p>`,
        },
        cb: {
          handler: (_e: unknown, _c: unknown, callback?: (err: unknown, result: unknown) => void) => {
            callback?.(null, { markdown: '*cb*' });
          },
        },
      },
    },
  });
  const dash = await harness.load({ widgets: [custom('ctx'), custom('cb'), { type: 'custom', properties: { endpoint: 'nowhere' } }] });
  assert.equal((await dash.readWidget(0)).html, `<p>ctx ${arn('ctx')}</p>`);
  assert.equal((await dash.readWidget(1)).html, '<p><em>cb</em></p>\n');
  const missing = await dash.readWidget(2);
  assert.equal(missing.error?.type, 'FunctionNotFound');
  assert.match(missing.error.message, /"nowhere".*ctx, cb/);
  assert.equal(missing.html, '');
  await harness.close();
});

test('action events other than click, a top-level zoom, and an IANA timezone reach the result and the event', async () => {
  const html = `<span>Hover</span><cwdb-action action="html" event="mouseenter" display="popup"><p>tip</p></cwdb-action>
<b>Twice</b><cwdb-action action="call" event="dblclick" endpoint="${arn('f')}">{"again":1}</cwdb-action>`;
  const { harness, functions } = setup({ f: () => html });
  const dash = await harness.load({ widgets: [custom('f')] });
  await dash.putState({ zoom: { start: NOW - 3600_000, end: NOW - 1800_000 }, timezone: 'Asia/Kolkata' });
  const w = await dash.readWidget(0);
  const hover = await w.action('Hover').click();
  assert.equal(hover.event, 'mouseenter');
  assert.equal(hover.display, 'popup');
  const twice = await w.action('Twice').click();
  assert.equal(twice.event, 'dblclick');
  const ctx = functions.calls.at(-1)!.event.widgetContext;
  assert.equal(functions.calls.at(-1)!.event.again, 1);
  assert.deepEqual(ctx.timeRange.zoom, { start: NOW - 3600_000, end: NOW - 1800_000 });
  assert.deepEqual(ctx.timezone, { label: 'Local', offsetISO: '+05:30', offsetInMinutes: -330 });
  assert.deepEqual(dash.getState().timeRange, { relative: '-PT3H', zoom: { start: NOW - 3600_000, end: NOW - 1800_000 } });
  await assert.rejects(
    dash.putState({ zoom: { start: 1, end: 2 }, timeRange: { relative: '-PT1H', zoom: { start: 1, end: 2 } } }),
    (e) => e instanceof UnprocessableError && e.field === 'zoom',
  );
});
