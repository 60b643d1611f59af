// The bundled example (examples/dashboard.json with examples/functions.json) through the in-process driver:
// the real widget files run as Lambda modules in child processes, exactly as `trellis harness` runs them.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createInterpreter,
  loadFunctionsFile,
  UnprocessableError,
  type DashboardDriver,
  type Interpreter,
  type WidgetView,
} from '../../packages/harness/src/dashboard/index.js';

const EXAMPLES = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));
const SOURCE = readFileSync(`${EXAMPLES}dashboard.json`, 'utf8');
const NOW = Date.UTC(2024, 4, 1, 12, 0, 0);

interface GridWidget {
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  properties: { title?: string; endpoint?: string; params?: Record<string, unknown> };
}
const WIDGETS = (JSON.parse(SOURCE) as { widgets: GridWidget[] }).widgets;

describe('the bundled example dashboard', { timeout: 120_000 }, () => {
  let harness: Interpreter;
  const load = (text: string | object = SOURCE): Promise<DashboardDriver> => harness.load(text, { name: 'examples' });
  /** The index of the widget with this title in the example dashboard. */
  const byTitle = (title: string): number => {
    const i = WIDGETS.findIndex((w) => w.properties.title === title);
    assert.ok(i >= 0, `the example has a widget titled ${title}`);
    return i;
  };
  const clean = (w: WidgetView, what: string) => {
    assert.equal(w.error, null, `${what}: ${JSON.stringify(w.error)}`);
    assert.deepEqual(w.findings, [], `${what} has nothing the console would strip`);
  };
  /** A one-widget dashboard for an example function with other params. */
  const single = (endpoint: string, params?: object) =>
    load({ widgets: [{ type: 'custom', width: 12, height: 6, properties: { endpoint, ...(params ? { params } : {}) } }] });

  before(async () => {
    harness = createInterpreter({ functions: await loadFunctionsFile(`${EXAMPLES}functions.json`), clock: () => NOW });
  });
  after(() => harness?.close());

  it('lays every widget out on the 24-column grid without overlaps; every widget file is configured, in JavaScript and TypeScript', async () => {
    for (const w of WIDGETS) assert.ok(w.x >= 0 && w.width >= 1 && w.x + w.width <= 24 && w.y >= 0 && w.height >= 1, JSON.stringify(w));
    const cells = new Set<string>();
    for (const [i, w] of WIDGETS.entries()) {
      for (let x = w.x; x < w.x + w.width; x++) {
        for (let y = w.y; y < w.y + w.height; y++) {
          assert.ok(!cells.has(`${x},${y}`), `widget ${i} overlaps another at ${x},${y}`);
          cells.add(`${x},${y}`);
        }
      }
    }
    const config = JSON.parse(readFileSync(`${EXAMPLES}functions.json`, 'utf8')) as { functions: Record<string, { handler: string }> };
    const endpoints = WIDGETS.flatMap((w) =>
      w.properties.endpoint ? [w.properties.endpoint.split(':').at(w.properties.endpoint.startsWith('arn:') ? 6 : 0)!] : [],
    );
    assert.deepEqual([...new Set(endpoints)].sort(), Object.keys(config.functions).sort(), 'each configured function is on the dashboard');
    const files = readdirSync(`${EXAMPLES}widgets`).sort();
    const handlers = Object.values(config.functions).map((f) => f.handler.replace(/^widgets\//, '').replace(/\.handler$/, ''));
    assert.deepEqual(files.map((f) => f.replace(/\.(ts|mjs|cjs|js)$/, '')).sort(), handlers.sort(), 'each widget file is configured');
    for (const ext of ['.ts', '.mjs', '.cjs', '.js'])
      assert.ok(
        files.some((f) => f.endsWith(ext)),
        `an example in ${ext}`,
      );
  });

  it('every widget renders without an error or a finding and describes itself', async () => {
    const dash = await load();
    assert.equal(dash.widgets().length, WIDGETS.length);
    for (const summary of dash.widgets()) {
      const w = await dash.readWidget(summary.index);
      clean(w, summary.widgetId);
      assert.ok(w.html.length > 0, `${summary.widgetId} shows something`);
      if (summary.type === 'custom') {
        const described = await dash.describeWidget(summary.index);
        assert.equal(described.error, null);
        assert.ok(described.markdown, `${summary.widgetId} describes itself`);
      }
    }
  });

  it('Hello greets the name from its params, escaped, and the world without one', async () => {
    const dash = await load();
    const w = await dash.readWidget(byTitle('Hello'));
    clean(w, 'Hello');
    assert.equal(w.html, '<h1 class="hello">Hello, Trellis!</h1>');
    assert.equal(
      (await (await single('trellis-example-hello', { name: '<b>Ada</b>' })).readWidget(0)).html,
      '<h1 class="hello">Hello, &lt;b&gt;Ada&lt;/b&gt;!</h1>',
    );
    assert.equal((await (await single('trellis-example-hello')).readWidget(0)).html, '<h1 class="hello">Hello, world!</h1>');
  });

  it('Echo returns the HTML of its echo param unchanged (a CommonJS callback handler)', async () => {
    const dash = await load();
    const w = await dash.readWidget(byTitle('Echo'));
    clean(w, 'Echo');
    assert.equal(w.html, WIDGETS[byTitle('Echo')]!.properties.params!.echo);
    assert.equal(w.raw, w.html);
    const risky = await (await single('trellis-example-echo', { echo: '<img src="x.png" onerror="alert(1)">' })).readWidget(0);
    assert.equal(risky.html, '<img src="x.png" onerror="alert(1)">');
    assert.ok(
      risky.findings.some((f) => /onerror/.test(JSON.stringify(f))),
      'echoed markup is linted like any other',
    );
    assert.match((await (await single('trellis-example-echo')).readWidget(0)).html, /Set the <code>echo<\/code> param/);
  });

  it('Event prints the event it was sent (params at the top level, the widgetContext) and logs a line', async () => {
    const dash = await load();
    const index = byTitle('Event');
    const w = await dash.readWidget(index);
    clean(w, 'Event');
    const json = w.html
      .replace(/^<pre class="event">/, '')
      .replace(/<\/pre>$/, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
    const event = JSON.parse(json) as { region: string; limit: number; widgetContext: Record<string, any> };
    assert.equal(event.region, 'eu-west-1');
    assert.equal(event.limit, 10);
    assert.equal(event.widgetContext.widgetId, `widget-${index}`);
    assert.equal(event.widgetContext.dashboardName, 'examples');
    assert.deepEqual(event.widgetContext.params, { region: 'eu-west-1', limit: 10 });
    assert.deepEqual(event.widgetContext.timeRange, {
      mode: 'relative',
      start: NOW - 3 * 3_600_000,
      end: NOW,
      relativeStart: 3 * 3_600_000,
    });
    assert.match(w.logs, new RegExp(`event for widget-${index} \\(request [0-9a-f-]{36}\\)`));
    await dash.putState({ theme: 'dark' });
    assert.match((await dash.readWidget(index)).html, /"theme": "dark"/);
  });

  it('Period: a radio form and a call action; the checked value reaches the function', async () => {
    const dash = await load();
    const w = await dash.readWidget(byTitle('Period'));
    clean(w, 'Period');
    assert.match(w.html, /No period applied yet/);
    assert.match(w.html, /<input type="radio" name="period" value="300" checked>/);
    const apply = w.action('Apply');
    assert.equal(apply.action, 'call');
    assert.equal(apply.endpoint, 'trellis-example-period');
    const hour = await apply.click({ forms: { period: '3600' } });
    clean(hour, 'Period after Apply');
    assert.equal(hour.display, 'widget');
    assert.match(hour.html, /Period set to 1 hour \(3600 s\)/);
    assert.match(hour.html, /value="3600" checked/);
    assert.deepEqual(
      hour.actions.map((a) => a.text),
      ['Apply'],
    );
    // Without overrides the form's own checked value is sent.
    const again = await hour.action('Apply').click();
    assert.match(again.html, /Period set to 1 hour/);
    assert.equal(again.invocations, 3);
    await assert.rejects(
      again.action('Apply').click({ forms: { periods: '60' } }),
      (e: unknown) => e instanceof UnprocessableError && /period/.test(e.message),
    );
  });

  it('Glossary: html actions open their content as a popup without calling the function', async () => {
    const dash = await load();
    const w = await dash.readWidget(byTitle('Glossary'));
    clean(w, 'Glossary');
    assert.deepEqual(
      w.actions.map((a) => [a.text, a.action, a.display]),
      [
        ['Period', 'html', 'popup'],
        ['Statistic', 'html', 'popup'],
        ['Alarm', 'html', 'popup'],
      ],
    );
    const popup = await w.action('Statistic').click();
    assert.equal(popup.display, 'popup');
    assert.match(popup.html, /<h4>Statistic<\/h4>/);
    assert.deepEqual(popup.findings, []);
    assert.equal(popup.invocations, 1, 'nothing was called');
    assert.match((await dash.readWidget(byTitle('Glossary'))).html, /Click a term/);
  });

  it('CPU chart: a lineChart across the time range, sized to the widget, that redraws when the range changes', async () => {
    const dash = await load();
    const index = byTitle('CPU chart');
    const w = await dash.readWidget(index);
    clean(w, 'CPU chart');
    assert.match(w.html, /^<div id="tc-\w+" class="trellis-chart trellis-chart-line"><style>/);
    assert.match(
      w.html,
      /<svg viewBox="0 0 (\d+) (\d+)" width="\1" height="\2" role="img" aria-labelledby="[\w-]+-t [\w-]+-d"><title id="[\w-]+-t">CPUUtilization over the time range<\/title>/,
    );
    const [, width, height] = /viewBox="0 0 (\d+) (\d+)"/.exec(w.html)!.map(Number);
    const event = w.invocation!.event as { widgetContext: { width: number; height: number } };
    assert.ok(
      width! < event.widgetContext.width && width! > event.widgetContext.width - 40,
      `${width} wide for a ${event.widgetContext.width} px widget`,
    );
    assert.ok(height! < event.widgetContext.height, `${height} high for a ${event.widgetContext.height} px widget`);
    const rows = (html: string) => [...html.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>([^<]+)<\/td><\/tr>/g)].map((m) => [m[1], m[2]]);
    assert.equal(rows(w.html).length, 24, 'one table row per point');
    assert.equal(w.html.match(/<g><rect x="/g)!.length, 24, 'one hover column with its readout per point');
    // The time axis is on the dashboard's clock (UTC by default); the colours of both themes are in the style.
    assert.equal(rows(w.html)[0]![0], '09:00');
    assert.match(w.html, /\.cwdb-theme-dark #tc-\w+\{[^}]*--c0:#539fe5/);
    const update = await dash.putState({ theme: 'dark', timeRange: { start: '2024-04-01T00:00:00Z', end: '2024-04-08T00:00:00Z' } });
    assert.ok(update.updated.includes(`widget-${index}`));
    const redrawn = await dash.readWidget(index);
    clean(redrawn, 'CPU chart redrawn');
    assert.equal(rows(redrawn.html)[0]![0], 'Apr 1, 00:00');
    assert.notDeepEqual(rows(redrawn.html), rows(w.html));
  });

  it('Invocations by function: a donut of the shares in its params, every slice in its data table', async () => {
    const dash = await load();
    const w = await dash.readWidget(byTitle('Invocations by function'));
    clean(w, 'Invocations by function');
    assert.match(w.html, /class="trellis-chart trellis-chart-pie"/);
    assert.match(w.html, /<desc id="[\w-]+-d">Donut chart of 4 slices, total 2,450 calls\./);
    const shares = [...w.html.matchAll(/<tr><th scope="row">([^<]+)<\/th><td>([^<]+)<\/td><td>([^<]+)<\/td><\/tr>/g)].map((m) =>
      m.slice(1),
    );
    assert.deepEqual(shares, [
      ['checkout', '1,200', '49%'],
      ['search', '800', '32.7%'],
      ['auth', '300', '12.2%'],
      ['reports', '150', '6.1%'],
    ]);
    assert.equal(w.html.match(/<path class="sl f\d"/g)!.length, 4);
    const hostile = await (await single('trellis-example-pie', { data: { '</style><script>alert(1)</script>': 1 } })).readWidget(0);
    clean(hostile, 'a pie with a hostile label');
    assert.ok(!hostile.html.includes('<script>'));
  });

  it('Inventory pages with call actions, opens instance details in a popup, and refresh restores page 1', async () => {
    const dash = await load();
    const index = byTitle('Inventory');
    const w = await dash.readWidget(index);
    clean(w, 'Inventory');
    assert.match(w.html, /Page 1 of 5/);
    const page2 = await w.action('Next page').click();
    clean(page2, 'Inventory page 2');
    assert.match(page2.html, /Page 2 of 5/);
    assert.match((await page2.action('Previous page').click()).html, /Page 1 of 5/);
    const page2again = await (await dash.readWidget(index)).action('Next page').click();
    const id = page2again.actions.find((a) => a.display === 'popup')!;
    const details = await page2again.action({ index: id.index }).click();
    assert.equal(details.display, 'popup');
    assert.match(details.html, new RegExp(`<h4>${id.text}</h4>`));
    assert.match((await dash.readWidget(index)).html, /Page 2 of 5/, 'a popup leaves the widget');
    const refreshed = await dash.refresh();
    assert.ok(refreshed.refreshed.includes(`widget-${index}`));
    assert.match((await dash.readWidget(index)).html, /Page 1 of 5/);
  });

  it('Greeter: a text field, a confirmation, and an html popup', async () => {
    const dash = await load();
    const w = await dash.readWidget(byTitle('Greeter'));
    clean(w, 'Greeter');
    assert.match(w.html, /Nobody greeted yet/);
    const greeted = await w.action('Greet').click({ forms: { visitor: '<Ada>' } });
    clean(greeted, 'Greeter after Greet');
    assert.match(greeted.html, /Hello, &lt;Ada&gt;/);
    assert.deepEqual(await greeted.action('Clear').cancel(), { cancelled: true, confirmation: 'Clear the greeting?' });
    assert.match((await dash.readWidget(byTitle('Greeter'))).html, /Hello, &lt;Ada&gt;/);
    assert.match((await greeted.action('Clear').click()).html, /Nobody greeted yet/);
    const about = await greeted.action('About').click();
    assert.equal(about.display, 'popup');
    assert.match(about.html, /About this widget/);
    await assert.rejects(
      w.action('Greet').click({ forms: { nickname: 'x' } }),
      (e: unknown) => e instanceof UnprocessableError && /visitor/.test(e.message),
    );
  });

  it('Widget context and Status follow the dashboard state', async () => {
    const dash = await load();
    await dash.putState({ theme: 'dark', timeRange: { start: '2024-05-01T00:00:00Z', end: '2024-05-01T06:00:00Z' } });
    const context = await dash.readWidget(byTitle('Widget context'));
    clean(context, 'Widget context');
    assert.match(context.html, /class="theme">dark</);
    assert.match(context.html, /absolute: 2024-05-01T00:00:00Z – 2024-05-01T06:00:00Z/);
    const status = await dash.readWidget(byTitle('Status'));
    clean(status, 'Status');
    assert.deepEqual(Object.keys(status.raw as object), ['markdown']);
    assert.match(status.html, /<h3>Orders status<\/h3>/);
    assert.match(status.html, /Window: 6\.0 h/);
  });
});
