/**
 * Render time of a day of one-minute data (1,440 points) as a `lineChart`, in the light and dark themes and
 * following the console's theme, against the peer in the same run: the same points as a hand-written SVG
 * polyline (no axes, readouts, accessibility or table), what the bundled example drew before — the floor
 * any chart of these points pays. Rounds alternate between the contenders; the median round is reported
 * with the spread, and the HTML's size beside it. The acceptance bound is 5 ms and 40 KB per chart.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/charts.bench.mjs
 */
import { pathToFileURL } from 'node:url';
import { lineChart, type ChartTheme } from '../packages/trellis/src/widgets/index.js';
import { median, roundsFromEnvironment } from './rounds.js';

const T0 = Date.UTC(2024, 4, 1);
const POINTS = Array.from(
  { length: 1440 },
  (_, i) => [T0 + i * 60_000, 50 + 30 * Math.sin(i / 50) + 10 * Math.sin(i / 7) + ((i * 7919) % 13) / 2] as [number, number],
);

function chart(theme: ChartTheme): () => string {
  return () =>
    String(
      lineChart({
        title: 'CPUUtilization',
        unit: 'Percent',
        theme,
        timezone: 'Europe/Berlin',
        series: [{ name: 'CPUUtilization', points: POINTS }],
      }),
    );
}

/** The peer: the points scaled into a viewBox and written as one polyline. */
function polyline(): string {
  const width = 600;
  const height = 300;
  let min = Infinity;
  let max = -Infinity;
  for (const [, v] of POINTS) {
    min = Math.min(min, v);
    max = Math.max(max, v);
  }
  const first = POINTS[0]![0];
  const span = POINTS[POINTS.length - 1]![0] - first;
  const points = POINTS.map(
    ([t, v]) => `${(((t - first) / span) * width).toFixed(1)},${(height - ((v - min) / (max - min)) * height).toFixed(1)}`,
  ).join(' ');
  return `<svg viewBox="0 0 ${width} ${height}" width="100%" height="${height}"><polyline fill="none" stroke="#0972d3" stroke-width="2" points="${points}"/></svg>`;
}

const CONTENDERS: Record<string, () => string> = {
  'lineChart, light': chart('light'),
  'lineChart, dark': chart('dark'),
  'lineChart, auto': chart('auto'),
  'hand-written polyline': polyline,
};

/** Milliseconds per render over about `ms` milliseconds of renders. */
function round(render: () => string, ms: number): number {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < ms) {
    render();
    n++;
  }
  return (performance.now() - start) / n;
}

/** Runs the rounds and prints a Markdown table of milliseconds per render and bytes per chart. */
export function runChartsBench(): void {
  const rounds = roundsFromEnvironment(7);
  const results: Record<string, number[]> = Object.fromEntries(Object.keys(CONTENDERS).map((k) => [k, []]));
  for (const render of Object.values(CONTENDERS)) round(render, 300); // warm-up
  for (let r = 0; r < rounds; r++) for (const [name, render] of Object.entries(CONTENDERS)) results[name]!.push(round(render, 500));
  const floor = median(results['hand-written polyline']!);
  console.log(`\nA 1,440-point line chart, ${rounds} alternating rounds, median (spread); Node ${process.version}`);
  console.log('| contender | ms per chart | spread | bytes | vs the polyline |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, xs] of Object.entries(results)) {
    const m = median(xs);
    const bytes = Buffer.byteLength(CONTENDERS[name]!(), 'utf8');
    console.log(
      `| ${name} | ${m.toFixed(3)} | ${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)} | ${bytes} | ${(m / floor).toFixed(1)}× |`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) runChartsBench();
