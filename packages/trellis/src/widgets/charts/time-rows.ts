// The rows of a time-series chart's readouts and data table: one per time when there are few enough, else one
// per time bucket (15 minutes, an hour, … on the zone's clock) with each series' average, minimum and maximum.
// Readouts and table share the rows, so what the pointer shows is what the table says.
import { boundaries, chooseInterval, type Interval } from './time-axis.js';
import type { Zone } from './time-zone.js';

/** A series' part inside the chart's time range. */
export interface Visible {
  readonly times: Float64Array;
  readonly values: Float64Array;
  /** Indices `[from, to)` inside the range. */
  readonly from: number;
  readonly to: number;
}

/** One series in one bucket: NaN everywhere when it has no data there. */
export interface Stats {
  avg: number;
  min: number;
  max: number;
}

export interface TimeRow {
  /** The time (exact rows), or the bucket `[from, to)`. */
  readonly from: number;
  readonly to: number;
  /** Exact rows: one value per series (NaN for none). Buckets: `Stats` per series. */
  readonly values: readonly number[];
  readonly stats: readonly Stats[] | undefined;
}

export interface TimeRows {
  readonly rows: readonly TimeRow[];
  /** Set when the rows are buckets. */
  readonly interval: Interval | undefined;
}

/** Every distinct time of the visible points, in order; stops early once past `limit`. */
function distinctTimes(series: readonly Visible[], limit: number): number[] | undefined {
  const seen = new Set<number>();
  for (const s of series) {
    for (let i = s.from; i < s.to; i++) {
      seen.add(s.times[i]!);
      if (seen.size > limit) return undefined;
    }
  }
  return [...seen].sort((a, b) => a - b);
}

/** The rows for series over `[start, end]`: exact when at most `maxRows` distinct times, else buckets. */
export function timeRows(series: readonly Visible[], zone: Zone, start: number, end: number, maxRows: number): TimeRows {
  const times = distinctTimes(series, maxRows);
  if (times) {
    const index = new Map(times.map((t, i) => [t, i]));
    const values = times.map(() => series.map(() => NaN));
    series.forEach((s, k) => {
      for (let i = s.from; i < s.to; i++) values[index.get(s.times[i]!)!]![k] = s.values[i]!;
    });
    return { rows: times.map((t, i) => ({ from: t, to: t, values: values[i]!, stats: undefined })), interval: undefined };
  }
  // Buckets: the interval leaves at most maxRows of them, edges on the zone's clock.
  const interval = chooseInterval(end - start, maxRows - 1);
  const edges = boundaries(zone, start, end, interval).filter((t) => t > start && t < end);
  edges.unshift(start);
  edges.push(end);
  const buckets = edges.length - 1;
  const acc = series.map(() => Array.from({ length: buckets }, () => ({ n: 0, sum: 0, min: Infinity, max: -Infinity })));
  series.forEach((s, k) => {
    let b = 0;
    for (let i = s.from; i < s.to; i++) {
      const t = s.times[i]!;
      while (b < buckets - 1 && t >= edges[b + 1]!) b++;
      const v = s.values[i]!;
      if (Number.isNaN(v)) continue;
      const a = acc[k]![b]!;
      a.n++;
      a.sum += v;
      if (v < a.min) a.min = v;
      if (v > a.max) a.max = v;
    }
  });
  const rows: TimeRow[] = [];
  for (let b = 0; b < buckets; b++) {
    if (!acc.some((a) => a[b]!.n > 0)) continue;
    const stats = acc.map((a) => {
      const { n, sum, min, max } = a[b]!;
      return n === 0 ? { avg: NaN, min: NaN, max: NaN } : { avg: sum / n, min, max };
    });
    rows.push({ from: edges[b]!, to: edges[b + 1]!, values: stats.map((s) => s.avg), stats });
  }
  return { rows, interval };
}
