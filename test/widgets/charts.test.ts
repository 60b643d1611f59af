// The charts of trellis/widgets as a widget author and the console see them: what they draw, what they refuse,
// and that the console's sanitizer (the harness's linter) would strip nothing from any of them.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  areaChart,
  barChart,
  dataTable,
  html,
  lineChart,
  pieChart,
  sparkline,
  type WidgetContext,
  type WidgetEvent,
} from 'trellis/widgets';
import { SafeHtml } from '../../packages/trellis/src/widgets/index.js';
import { lint } from 'trellis-harness/lint';
import { chartGeometry, outside, tableRows } from './chart-geometry.js';

const T0 = Date.UTC(2024, 4, 1, 12, 0, 0);
const MIN = 60_000;
const points = (n: number, f: (i: number) => number | null = (i) => 50 + 40 * Math.sin(i / 5), step = MIN) =>
  Array.from({ length: n }, (_, i) => [T0 + i * step, f(i)] as [number, number | null]);

/** Zero findings, every coordinate inside the viewBox. */
function clean(out: SafeHtml | string, what: string): string {
  const s = String(out);
  assert.deepEqual(lint(s), [], `${what} has nothing the console would strip`);
  assert.deepEqual(outside(chartGeometry(s)), [], `${what} draws inside its viewBox`);
  return s;
}

const HOSTILE = `</style><script>alert(1)</script><img src=x onerror=alert(2)>"'&<!-- --> ]]>`;

function context(overrides: Partial<WidgetContext> = {}): WidgetContext {
  return {
    dashboardName: 'ops',
    widgetId: 'widget-1',
    accountId: '123456789012',
    locale: 'en',
    timezone: { label: 'UTC', offsetISO: '+00:00', offsetInMinutes: 0 },
    period: 60,
    isAutoPeriod: true,
    timeRange: { mode: 'absolute', start: T0, end: T0 + 59 * MIN },
    theme: 'light',
    linkCharts: true,
    title: 'CPU',
    forms: { all: {} },
    params: {},
    width: 624,
    height: 344,
    ...overrides,
  };
}

describe('lineChart', () => {
  test('is one accessible image: role img, labelled by its title and description, its data in a details table', () => {
    const out = clean(lineChart({ title: 'CPU utilization', unit: '%', series: [{ name: 'web-1', points: points(30) }] }), 'line');
    const id = /^<div id="(tc-\w+)" class="trellis-chart trellis-chart-line"><style>/.exec(out)![1]!;
    assert.match(
      out,
      new RegExp(
        `<svg viewBox="0 0 600 300" width="600" height="300" role="img" aria-labelledby="${id}-t ${id}-d"><title id="${id}-t">CPU utilization</title><desc id="${id}-d">`,
      ),
    );
    const desc = /<desc[^>]*>([^<]*)<\/desc>/.exec(out)![1]!;
    assert.equal(
      desc,
      'Line chart of 1 series, 30 points from May 1, 2024, 12:00 to May 1, 2024, 12:29 (UTC). web-1: minimum 10.15 %, maximum 89.98 %, latest 31.42 %.',
    );
    assert.equal(out.match(/<path class="l s0"/g)!.length, 1, 'one path per series');
    const rows = tableRows(out);
    assert.deepEqual(rows[0], ['Time (UTC)', 'web-1 (%)']);
    assert.deepEqual(rows[1], ['12:00', '50']);
    assert.equal(rows.length, 31);
    assert.match(out, /<details><summary>Data<\/summary><table>/);
  });

  test('readouts are CSS only: a hidden text per point, shown on hover of its column', () => {
    const out = clean(
      lineChart({
        series: [
          { name: 'a', points: points(10) },
          { name: 'b', points: points(10, (i) => i) },
        ],
      }),
      'two series',
    );
    const id = /id="(tc-\w+)"/.exec(out)![1]!;
    assert.ok(out.includes(`#${id} .h text,#${id} .r{visibility:hidden;`));
    assert.ok(out.includes(`#${id} .h>g:hover text,#${id} .k:hover .r{visibility:visible}`));
    const g = chartGeometry(out);
    const readouts = g.elements.filter((e) => e.tag === 'text' && e.attrs.y === '-5');
    assert.equal(readouts.length, 10);
    assert.equal(readouts[2]!.text, '12:02■ a: 65.58■ b: 2');
    assert.doesNotMatch(out, /<script|\bon\w+=/);
  });

  test('draws gaps for missing values and a dot for a value alone between them', () => {
    const out = clean(
      lineChart({ series: [{ name: 'a', points: points(9, (i) => (i === 3 || i === 5 ? null : i === 7 ? NaN : i)) }] }),
      'gaps',
    );
    const d = /<path class="l s0" d="([^"]+)"/.exec(out)![1]!;
    assert.equal(d.match(/M/g)!.length, 4, 'runs 0–2, 4, 6, 8');
    assert.equal(d.match(/h0/g)!.length, 3, 'the lone points 4, 6 and 8 are dots');
    assert.deepEqual(tableRows(out)[4], ['12:03', '–']);
    const one = clean(lineChart({ series: [{ name: 'a', points: [[T0, 5]] }] }), 'one point');
    assert.match(one, /<path class="l s0" d="M[\d.]+ [\d.]+h0"\/>/, 'a single point is a dot in the middle of ten minutes');
    assert.deepEqual(tableRows(one)[1], ['12:00', '5']);
  });

  test("takes CloudWatch's parallel timestamps and values, newest first, as GetMetricData returns them", () => {
    const timestamps = [new Date(T0 + 2 * MIN), new Date(T0 + MIN), new Date(T0)];
    const out = clean(lineChart({ series: [{ name: 'CPUUtilization', timestamps, values: [3, 2, 1] }] }), 'parallel');
    assert.deepEqual(tableRows(out).slice(1), [
      ['12:00', '1'],
      ['12:01', '2'],
      ['12:02', '3'],
    ]);
  });

  test("sizes itself from the widget event, its context or width and height, and takes the context's range, zone and locale", () => {
    const event: WidgetEvent = {
      widgetContext: context({ timezone: { label: 'Local', offsetISO: '+02:00', offsetInMinutes: -120 }, locale: 'de' }),
    };
    const series = [{ name: 'a', points: points(120, (i) => i * 1000.5) }];
    for (const ctx of [event, event.widgetContext]) {
      const out = clean(lineChart({ context: ctx, series }), 'from the context');
      const g = chartGeometry(out);
      assert.deepEqual([g.width, g.height], [600, 300], 'the widget less its padding and the table summary');
      assert.match(out, /<title id="[\w-]+">CPU<\/title>/, 'the widget title names the chart');
      const rows = tableRows(out);
      assert.equal(rows[0]![0], 'Time (UTC+02:00)');
      assert.equal(rows.length - 1, 60, "the points inside the context's hour");
      assert.deepEqual(rows[1], ['14:00', '0']);
      assert.deepEqual(rows[3], ['14:02', '2.001']);
    }
    assert.deepEqual(chartGeometry(String(lineChart({ context: { width: 400, height: 200 }, series, table: false }))).height, 184);
    assert.deepEqual(
      [
        chartGeometry(String(lineChart({ context: event, width: 320, height: 180, series }))).width,
        chartGeometry(String(lineChart({ series }))).width,
      ],
      [320, 600],
    );
  });

  test("labels the time axis on the dashboard's clock, with intervals that suit the range", () => {
    const axis = (out: string) =>
      chartGeometry(out)
        .elements.filter((e) => e.tag === 'text' && e.attrs.y === '293')
        .map((e) => e.text);
    const hour = String(lineChart({ series: [{ name: 'a', points: points(61) }] }));
    assert.deepEqual(axis(hour), ['12:00', '12:10', '12:20', '12:30', '12:40', '12:50', '13:00']);
    const day = String(lineChart({ series: [{ name: 'a', points: points(25, (i) => i, 60 * MIN) }], timezone: 'America/New_York' }));
    assert.deepEqual(axis(day), ['12:00', '18:00', 'May 2', '06:00'], 'every 6 hours of New York time, midnight as its date');
    const week = String(
      lineChart({
        series: [{ name: 'a', points: points(8, (i) => i, 24 * 60 * MIN) }],
        timezone: { label: 'Local', offsetISO: '-12:00', offsetInMinutes: 720 },
      }),
    );
    assert.deepEqual(axis(week), ['May 1', 'May 2', 'May 3', 'May 4', 'May 5', 'May 6', 'May 7', 'May 8']);
  });

  test('sums long series up per time bucket, in the readouts and the table alike, so the HTML stays small', () => {
    const out = clean(lineChart({ series: [{ name: 'a', points: points(1440, (i) => i % 60) }] }), '1,440 points');
    const rows = tableRows(out);
    assert.deepEqual(rows[0], ['Time (UTC)', 'a average', 'a minimum', 'a maximum']);
    assert.equal(rows.length - 1, 48);
    assert.deepEqual(rows[1], ['May 1, 12:00–12:30', '14.5', '0', '29']);
    assert.match(out, /<caption>Every 30 minutes: the average, minimum and maximum of each series\.<\/caption>/);
    assert.ok(out.includes('>May 1, 12:30–13:00  avg 44.5, min 30, max 59</text>'));
    assert.equal(tableRows(String(lineChart({ maxRows: 200, series: [{ name: 'a', points: points(1440) }] }))).length - 1, 144);
  });

  test('an empty series, or one of gaps only, draws the empty state', () => {
    for (const series of [[], [{ name: 'a', points: [] }], [{ name: 'a', points: points(5, () => null) }]]) {
      const out = clean(lineChart({ series, emptyText: 'Nothing yet' }), 'empty');
      assert.match(out, /<text class="e" x="300" y="154" text-anchor="middle">Nothing yet<\/text>/);
      assert.match(out, /<desc id="[\w-]+">Line chart: Nothing yet\.<\/desc>/);
      assert.deepEqual(tableRows(out).at(-1), ['Nothing yet']);
    }
  });

  test("its colours follow the console's theme class, or stay fixed to one theme", () => {
    const series = [{ name: 'a', points: points(5) }];
    const auto = String(lineChart({ series }));
    const id = /id="(tc-\w+)"/.exec(auto)![1]!;
    assert.ok(
      auto.includes(
        `<style>#${id}{--tx:#16191f;--mu:#5f6b7a;--gr:#e9ebed;--bg:#ffffff;--c0:#0972d3}.cwdb-theme-dark #${id}{--tx:#d1d5db;--mu:#95a5a6;--gr:#414750;--bg:#2a2e33;--c0:#539fe5}`,
      ),
    );
    const dark = String(lineChart({ series, theme: 'dark' }));
    assert.match(dark, /<style>#tc-\w+\{--tx:#d1d5db;[^}]*--c0:#539fe5\}#/);
    assert.doesNotMatch(dark, /cwdb-theme-dark|#0972d3/);
    assert.doesNotMatch(String(lineChart({ series, theme: 'light' })), /cwdb-theme-dark|#539fe5/);
    assert.match(
      String(lineChart({ series: [{ name: 'a', points: points(5), color: { light: '#123456', dark: '#abcdef' } }] })),
      /--c0:#123456\}\.cwdb-theme-dark [^{]+\{[^}]*--c0:#abcdef\}/,
    );
  });

  test('renders the same HTML for the same chart, with an id of its own per chart', () => {
    const a = String(lineChart({ series: [{ name: 'a', points: points(5) }] }));
    assert.equal(String(lineChart({ series: [{ name: 'a', points: points(5) }] })), a);
    assert.notEqual(
      /id="([\w-]+)"/.exec(String(lineChart({ series: [{ name: 'b', points: points(5) }] })))![1],
      /id="([\w-]+)"/.exec(a)![1],
    );
    assert.match(
      String(lineChart({ id: 'cpu-chart', series: [] })),
      /^<div id="cpu-chart" [^>]*>.*aria-labelledby="cpu-chart-t cpu-chart-d"/,
    );
  });

  test('areaChart fills each series down to zero, under its line', () => {
    const out = clean(areaChart({ series: [{ name: 'a', points: points(20, (i) => i - 5) }], unit: 'ms' }), 'area');
    assert.match(out, /class="trellis-chart trellis-chart-area"/);
    assert.equal(out.match(/<path class="a f0" d="[^"]+Z"/g)!.length, 1);
    assert.equal(out.match(/<path class="l s0"/g)!.length, 1);
    assert.match(out, /<desc[^>]*>Area chart of 1 series/);
  });
});

describe('barChart, pieChart, sparkline and dataTable', () => {
  test('barChart: a bar per category, negative values below zero, a readout per category', () => {
    const out = clean(
      barChart({
        unit: 'errors',
        bars: [
          { label: 'checkout', value: 12 },
          { label: 'search', value: -3 },
          { label: 'auth', value: null },
        ],
      }),
      'bars',
    );
    const g = chartGeometry(out);
    const bars = g.elements.filter((e) => e.tag === 'rect' && e.attrs.class === 'f0');
    assert.equal(bars.length, 2, 'no bar for no data');
    const zero = g.elements.find((e) => e.tag === 'text' && e.text === '0')!;
    assert.ok(
      Number(bars[1]!.attrs.y) < Number(zero.attrs.y) && Number(bars[1]!.attrs.y) + Number(bars[1]!.attrs.height) > Number(zero.attrs.y),
      'the negative bar hangs from zero',
    );
    assert.deepEqual(
      g.elements.filter((e) => e.attrs.class === 'r').map((e) => e.text),
      ['checkout: 12 errors', 'search: -3 errors', 'auth: –'],
    );
    assert.deepEqual(tableRows(out), [
      ['Category', 'Value (errors)'],
      ['checkout', '12'],
      ['search', '-3'],
      ['auth', '–'],
    ]);
    assert.match(out, /<desc[^>]*>Bar chart of 3 categories\. highest checkout \(12 errors\), lowest search \(-3 errors\)\.<\/desc>/);
  });

  test('barChart: grouped, stacked and lying down, with totals in the table when stacked', () => {
    const data = {
      categories: ['eu-west-1', 'us-east-1'],
      series: [
        { name: '2xx', values: [950, 1200] },
        { name: '5xx', values: [4, 19] },
      ],
    };
    const grouped = clean(barChart(data), 'grouped');
    assert.equal(
      chartGeometry(grouped).elements.filter((e) => e.tag === 'rect' && /^f[01]$/.test(e.attrs.class ?? '') && e.attrs.rx === undefined)
        .length,
      4,
    );
    const stacked = clean(barChart({ ...data, stacked: true, horizontal: true }), 'stacked');
    assert.deepEqual(tableRows(stacked), [
      ['Category', '2xx', '5xx', 'Total'],
      ['eu-west-1', '950', '4', '954'],
      ['us-east-1', '1,200', '19', '1,219'],
    ]);
    const g = chartGeometry(stacked);
    const [a, b] = g.elements.filter(
      (e) =>
        e.tag === 'rect' &&
        e.attrs.y === g.elements.find((x) => x.tag === 'rect' && x.attrs.class === 'f0' && x.attrs.rx === undefined)!.attrs.y &&
        e.attrs.rx === undefined &&
        /^f/.test(e.attrs.class ?? ''),
    );
    assert.equal(
      (Number(a!.attrs.x) + Number(a!.attrs.width)).toFixed(1),
      Number(b!.attrs.x).toFixed(1),
      'the 5xx bar starts where the 2xx bar ends',
    );
  });

  test('pieChart: slices clockwise from twelve, the smallest beyond eight as Other, a donut with its total', () => {
    const slices = Array.from({ length: 10 }, (_, i) => ({ label: `fn-${i}`, value: 10 - i }));
    const out = clean(pieChart({ slices, donut: true, unit: 'calls' }), 'donut');
    assert.equal(out.match(/<path class="sl f\d"/g)!.length, 8);
    assert.match(out, />Other: 6 calls \(10\.9%\)</);
    assert.match(out, /<text class="tot"[^>]*>Total 55 calls<\/text>/);
    assert.equal(tableRows(out).length - 1, 10, 'the table lists every slice');
    assert.deepEqual(tableRows(out)[1], ['fn-0', '10', '18.2%']);
    const whole = clean(
      pieChart({
        slices: [
          { label: 'all', value: 1 },
          { label: 'none', value: 0 },
        ],
      }),
      'one whole slice',
    );
    assert.equal(whole.match(/<path class="sl/g)!.length, 1);
    assert.match(whole, /d="M[\d.]+ [\d.]+A[^"]+A[^"]+Z"/, 'a whole circle is two arcs');
    assert.match(clean(pieChart({ slices: [{ label: 'a', value: 0 }] }), 'all zero'), /class="e"[^>]*>No data</);
  });

  test('sparkline: word-sized, inline, its latest value dotted, its summary as description; no table unless asked', () => {
    const out = clean(sparkline({ values: [1, 3, null, 2, 5], unit: 'errors' }), 'sparkline');
    assert.match(out, /^<span id="tc-\w+" class="trellis-chart trellis-chart-sparkline">/);
    assert.match(out, /viewBox="0 0 120 28"/);
    assert.match(out, /<desc[^>]*>Latest 5 errors, lowest 1 errors, highest 5 errors, over 5 values\.<\/desc>/);
    assert.match(out, /<circle class="f0" cx="117.5" cy="2.5" r="2"\/>/);
    assert.doesNotMatch(out, /<details>/);
    assert.match(String(sparkline({ values: [1, 2], table: true })), /<details><summary>Data<\/summary>/);
  });

  test('dataTable: numbers formatted and lined up at the end, text escaped, SafeHtml cells as they are', () => {
    const out = clean(
      html`<div>${dataTable({
        columns: ['Function', 'Errors', 'Trend'],
        rows: [
          ['checkout', 1234.5, sparkline({ values: [0, 1, 0, 2] })],
          [HOSTILE, null, null],
        ],
        summary: 'Errors',
        locale: 'de',
      })}</div>`
        .toString()
        .replace(/^<div>|<\/div>$/g, ''),
      'a table with a sparkline',
    );
    assert.deepEqual(tableRows(out).slice(0, 1), [['Function', 'Errors', 'Trend']]);
    assert.equal(tableRows(out)[1]![1], '1.234,5');
    assert.equal(tableRows(out).at(-1)![0], HOSTILE);
    assert.match(out, /<th scope="col" style="text-align:right">Errors<\/th>/);
    assert.match(out, /^<details><summary>Errors<\/summary><table>/);
    assert.throws(
      () => dataTable({ columns: ['a', 'b'], rows: [['x']] }),
      /^TypeError: dataTable: rows\[0\] must have one cell per column \(2\); got 1$/,
    );
  });
});

describe('hostile text and bad input', () => {
  test('series names, labels, titles and units never become markup', () => {
    const charts = [
      lineChart({
        title: HOSTILE,
        description: HOSTILE,
        unit: HOSTILE,
        series: [
          { name: HOSTILE, points: points(5) },
          { name: 'b', points: points(5) },
        ],
      }),
      areaChart({ title: HOSTILE, series: [{ name: HOSTILE, points: points(200) }] }),
      barChart({
        title: HOSTILE,
        categoryLabel: HOSTILE,
        categories: [HOSTILE],
        series: [{ name: HOSTILE, values: [1] }, { values: [2] }],
      }),
      pieChart({
        title: HOSTILE,
        otherLabel: HOSTILE,
        maxSlices: 2,
        slices: [
          { label: HOSTILE, value: 1 },
          { label: 'b', value: 2 },
          { label: 'c', value: 1 },
        ],
      }),
      sparkline({ title: HOSTILE, unit: HOSTILE, values: [1, 2], table: true, tableSummary: HOSTILE }),
    ];
    for (const c of charts) {
      const out = clean(c, 'a chart of hostile text');
      assert.doesNotMatch(out, /<script|<img|<!--/);
      assert.ok(
        tableRows(out)
          .flat()
          .some((cell) => cell.includes(HOSTILE)),
        'the text arrives whole',
      );
    }
  });

  test('mismatched lengths and wrong types are refused with a TypeError naming the option', () => {
    const refused = (run: () => unknown, message: RegExp) =>
      assert.throws(run, (e: unknown) => e instanceof TypeError && message.test(e.message), String(message));
    refused(
      () => lineChart({ series: [{ name: 'a', timestamps: [T0, T0 + 1], values: [1] }] }),
      /^lineChart: series\[0\]\.timestamps and series\[0\]\.values must have the same length; got 2 timestamps and 1 values$/,
    );
    refused(
      () => barChart({ categories: ['a', 'b'], series: [{ name: 's', values: [1] }] }),
      /^barChart: series\[0\]\.values must have one value per category \(2\); got 1$/,
    );
    refused(
      () => lineChart({ series: [{ name: 'a', points: [[T0, '5' as unknown as number]] }] }),
      /^lineChart: series\[0\]\.points\[0\]\[1\] must be a number, or null for no data; got "5"$/,
    );
    refused(
      () => lineChart({ series: [{ name: 'a', points: [[NaN, 5]] }] }),
      /^lineChart: series\[0\]\.points\[0\]\[0\] must be a time: epoch milliseconds or a Date; got NaN$/,
    );
    refused(() => areaChart({ series: 'cpu' as never }), /^areaChart: series must be an array/);
    refused(
      () => lineChart({ series: [{ name: 'a', points: [], timestamps: [], values: [] } as never] }),
      /^lineChart: series\[0\] must be either \{ points \} or \{ timestamps, values \}, not both/,
    );
    refused(() => lineChart({ series: [], width: 0 }), /^lineChart: width must be a number of pixels, at least 1; got 0$/);
    refused(() => lineChart({ series: [], timezone: 'Nowhere/Else' }), /^lineChart: timezone must be/);
    refused(() => lineChart({ series: [], start: T0, end: T0 - 1 }), /^lineChart: end must be a time after start/);
    refused(
      () => lineChart({ series: [], theme: 'blue' as never }),
      /^lineChart: theme must be one of "auto", "light", "dark"; got "blue"$/,
    );
    refused(
      () => lineChart({ series: [{ name: 'a', points: [], color: 'red' }] }),
      /^lineChart: series\[0\]\.color must be a hex colour like "#0972d3"; got "red"$/,
    );
    refused(() => lineChart({ series: [], id: '1 "x"' }), /^lineChart: id must be letters/);
    refused(() => barChart({ bars: [{ label: 'a', value: 1 }], categories: [] } as never), /^barChart: bars must be given alone/);
    refused(() => barChart({} as never), /^barChart: categories must be an array of labels \(with series\), or give bars; got undefined$/);
    refused(() => pieChart({ slices: [{ label: 'a', value: -1 }] }), /^pieChart: slices\[0\]\.value must be zero or more/);
    refused(() => pieChart({ slices: [], donut: 2 }), /^pieChart: donut must be/);
    refused(() => sparkline({ values: [1], min: 2, max: 1 }), /^sparkline: max must be a number above min \(2\); got 1$/);
  });
});
