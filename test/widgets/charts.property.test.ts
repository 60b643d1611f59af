// Invariants of the charts over any input they accept: the console strips nothing (the harness's linter finds
// nothing), everything is drawn inside the viewBox, and text arrives in the data table exactly as given.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { areaChart, barChart, lineChart, pieChart, sparkline } from 'trellis/widgets';
import type { ChartTheme, ChartTimeZone } from '../../packages/trellis/src/widgets/index.js';
import { lint } from 'trellis-harness/lint';
import { chartGeometry, outside, tableRows } from './chart-geometry.js';

const T0 = Date.UTC(2024, 4, 1);
const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const value = fc.oneof({ weight: 8, arbitrary: finite }, { weight: 1, arbitrary: fc.constantFrom(null, NaN, Infinity, undefined) });
const theme = fc.constantFrom<ChartTheme>('auto', 'light', 'dark');
const zone = fc.constantFrom<ChartTimeZone>('UTC', 'Europe/Berlin', 'Asia/Kathmandu', '-03:30', {
  label: 'Local',
  offsetISO: '+09:00',
  offsetInMinutes: -540,
});
const size = fc.record({ width: fc.integer({ min: 40, max: 1400 }), height: fc.integer({ min: 30, max: 900 }) });
/** Text as authors' data has it, markup and entities included. */
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('</style>', '<script>alert(1)</script>', '"\'><img src=x onerror=1>', '&amp;', '<!--', ']]>', 'Ω ≠ 💥'),
);

function clean(html: string): void {
  assert.deepEqual(lint(html), []);
  const g = chartGeometry(html);
  assert.deepEqual(outside(g), [], `inside 0 0 ${g.width} ${g.height}`);
}

test('any time series gives a line or area chart with no findings, drawn inside its viewBox', () => {
  const series = fc.array(
    fc.record({
      name: text,
      points: fc.array(fc.tuple(fc.integer({ min: T0 - 4e10, max: T0 + 4e10 }), value), { maxLength: 150 }),
    }),
    { maxLength: 4 },
  );
  fc.assert(
    fc.property(
      series,
      size,
      theme,
      zone,
      fc.boolean(),
      fc.integer({ min: 2, max: 150 }),
      (s, { width, height }, t, timezone, area, maxRows) => {
        const chart = area ? areaChart : lineChart;
        const html = String(chart({ series: s, width, height, theme: t, timezone, maxRows }));
        clean(html);
        assert.ok(tableRows(html).length - 1 <= maxRows, 'no more rows than maxRows');
      },
    ),
    { numRuns: 150 },
  );
});

test('values of any size, and fixed axis ends they overflow, stay inside the plot', () => {
  fc.assert(
    fc.property(fc.array(finite, { minLength: 1, maxLength: 50 }), fc.option(finite, { nil: undefined }), (values, yMax) => {
      const points = values.map((v, i) => [T0 + i * 60_000, v] as [number, number]);
      const yMin = yMax === undefined ? undefined : yMax - Math.abs(yMax / 2) - 1;
      clean(
        String(
          lineChart({
            series: [{ name: 'v', points }],
            ...(yMax !== undefined && yMin! < yMax && Number.isFinite(yMin) ? { yMin, yMax } : {}),
          }),
        ),
      );
    }),
  );
});

test('any bars give a bar chart with no findings, drawn inside its viewBox', () => {
  const grouped = fc.integer({ min: 1, max: 12 }).chain((n) =>
    fc.record({
      categories: fc.array(text, { minLength: n, maxLength: n }),
      series: fc.array(fc.record({ name: text, values: fc.array(value, { minLength: n, maxLength: n }) }), { minLength: 1, maxLength: 4 }),
    }),
  );
  fc.assert(
    fc.property(grouped, size, theme, fc.boolean(), fc.boolean(), (data, { width, height }, t, stacked, horizontal) => {
      clean(String(barChart({ ...data, width, height, theme: t, stacked, horizontal })));
    }),
  );
  fc.assert(
    fc.property(fc.array(fc.record({ label: text, value }), { maxLength: 30 }), size, (bars, { width, height }) => {
      clean(String(barChart({ bars, width, height })));
    }),
  );
});

test('any shares give a pie or donut with no findings, drawn inside its viewBox, its table listing every slice', () => {
  const share = fc.oneof(
    { weight: 8, arbitrary: fc.double({ min: 0, noNaN: true, noDefaultInfinity: true }) },
    { weight: 1, arbitrary: fc.constantFrom(null, NaN) },
  );
  fc.assert(
    fc.property(
      fc.array(fc.record({ label: text, value: share }), { maxLength: 20 }),
      size,
      theme,
      fc.oneof(fc.boolean(), fc.double({ min: 0, max: 0.9, noNaN: true })),
      (slices, { width, height }, t, donut) => {
        const html = String(pieChart({ slices, width, height, theme: t, donut }));
        clean(html);
        assert.equal(tableRows(html).length - 1, Math.max(1, slices.length));
      },
    ),
  );
});

test('any values give a sparkline with no findings, drawn inside its viewBox', () => {
  fc.assert(
    fc.property(fc.array(value, { maxLength: 200 }), size, (values, { width, height }) => {
      clean(String(sparkline({ values, width, height })));
    }),
  );
});

test('series names arrive in the data table exactly as given', () => {
  // The HTML parser itself turns CR into LF and NUL into U+FFFD; those are not the charts' doing.
  const name = text.filter((s) => !/[\r\0]/.test(s));
  fc.assert(
    fc.property(fc.array(name, { minLength: 1, maxLength: 3 }), (names) => {
      const html = String(lineChart({ series: names.map((n) => ({ name: n, points: [[T0, 1]] })) }));
      assert.deepEqual(tableRows(html)[0], ['Time (UTC)', ...names]);
    }),
  );
});
