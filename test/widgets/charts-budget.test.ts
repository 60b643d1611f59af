// The acceptance bound of a day of one-minute data: a 1,440-point line chart is at most 40 KB of HTML with no
// linter findings, in both themes (and following the console's theme). Its render time is measured by
// `npm run bench -- charts`, not here: a benchmark is never a test with a time limit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineChart } from 'trellis/widgets';
import type { ChartTheme } from '../../packages/trellis/src/widgets/index.js';
import { lint } from 'trellis-harness/lint';
import { chartGeometry, outside } from './chart-geometry.js';

const T0 = Date.UTC(2024, 4, 1);
let seed = 42;
const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;

const SHAPES: Record<string, (i: number) => number> = {
  'a smooth curve': (i) => 50 + 30 * Math.sin(i / 50) + 10 * Math.sin(i / 7),
  'noise from 0 to 100': () => random() * 100,
  'noise of six-digit values': () => random() * 987_654.321,
};

for (const [shape, f] of Object.entries(SHAPES)) {
  const points = Array.from({ length: 1440 }, (_, i) => [T0 + i * 60_000, f(i)] as [number, number]);
  for (const theme of ['light', 'dark', 'auto'] as ChartTheme[]) {
    test(`1,440 points of ${shape}, ${theme} theme: at most 40 KB, no findings, inside the viewBox`, () => {
      const html = String(
        lineChart({
          title: 'CPUUtilization',
          unit: 'Percent',
          theme,
          timezone: 'Europe/Berlin',
          series: [{ name: 'CPUUtilization', points }],
        }),
      );
      const bytes = Buffer.byteLength(html, 'utf8');
      assert.ok(bytes <= 40 * 1024, `${bytes} bytes`);
      assert.deepEqual(lint(html), []);
      assert.deepEqual(outside(chartGeometry(html)), []);
      assert.equal(html.match(/<path class="l s0"/g)!.length, 1, 'one path for the series');
    });
  }
}
