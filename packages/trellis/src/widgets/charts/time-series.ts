// What line and area charts share: the options, the time range, the layout, both axes, the hover columns
// and the data table. The kinds differ only in how a series is drawn.
import type { SafeHtml } from '../html.js';
import { contextRange, refuse, resolveCommon, toTime, type ChartOptions, type Resolved } from './options.js';
import { normalizeSeries, type ChartTime, type NormalSeries, type TimeSeries } from './series.js';
import { resolveZone, type ChartTimeZone, type Zone } from './time-zone.js';
import { dateTimeLabeller, pointLabeller, spanLabeller, type Interval } from './time-axis.js';
import { extent, linearScale, valueTicks } from './scales.js';
import { textWidth, tickFormatter, valueFormatter, withUnit, type ValueFormatter } from './format.js';
import { timeRows, type TimeRows, type Visible } from './time-rows.js';
import { legend } from './legend.js';
import { seriesColors } from './palette.js';
import { timeAxis, valueAxis, type Plot } from './axes.js';
import { hoverColumns, type RowWords } from './time-readouts.js';
import { tableHtml, NO_DATA } from './table.js';
import { frame } from './frame.js';
import { emptySvg } from './empty.js';

export type { Plot } from './axes.js';

/**
 * Options of line and area charts.
 *
 * @example
 * const options: TimeSeriesChartOptions = { context: event, unit: '%', yMin: 0, yMax: 100, series: [{ name: 'cpu', points }] };
 */
export interface TimeSeriesChartOptions extends ChartOptions {
  /** The series to draw. An empty array (or only gaps) draws the empty state. */
  series: readonly TimeSeries[];
  /** The zone the time axis, readouts and table are written in. Default: the context's, else UTC. */
  timezone?: ChartTimeZone;
  /** The start of the time axis. Default: the context's time range (its zoom, when zoomed), else the first point. */
  start?: ChartTime;
  /** The end of the time axis. Default: the context's time range, else the last point. Points outside are left out. */
  end?: ChartTime;
  /** Fixes the bottom of the value axis (values below are drawn at the bottom). Default: from the data. */
  yMin?: number;
  /** Fixes the top of the value axis (values above are drawn at the top). Default: from the data. */
  yMax?: number;
  /** Whether to show the legend. Default: with more than one series. */
  legend?: boolean;
  /**
   * The most rows of the data table and hover readouts (2 to 1,000). Series with more distinct times are summed
   * up per time bucket (average, minimum, maximum) on the zone's clock: 1,440 points of a day give 48 rows of
   * 30 minutes. This keeps the HTML small (about 25 KB for those 1,440 points); each row costs about 250 bytes.
   * Default 60.
   */
  maxRows?: number;
}

/** How a kind draws its series and what it adds to the base rules. */
export interface TimeSeriesKind {
  readonly kind: 'line' | 'area';
  readonly name: string;
  /** Whether the value axis must include zero. */
  readonly zero: boolean;
  readonly draw: (series: readonly Visible[], plot: Plot) => string;
  readonly css: (scope: string) => string;
}

function optionalNumber(fn: string, option: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) refuse(fn, option, 'a finite number', value);
  return value;
}

function timeOption(fn: string, option: string, value: unknown): number | undefined {
  return value === undefined ? undefined : (toTime(value) ?? refuse(fn, option, 'a time: epoch milliseconds or a Date', value));
}

/** The first index with a time at or after `t` (or, `after`, past it); times in order. */
function bound(times: Float64Array, t: number, after = false): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! < t || (after && times[mid] === t)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The time axis's range: the options', the context's, else the data's. */
function timeRange(
  fn: string,
  options: TimeSeriesChartOptions,
  r: Resolved,
  series: readonly NormalSeries[],
): { start: number; end: number } | undefined {
  const fromContext = contextRange(r.context.timeRange);
  let first = Infinity;
  let last = -Infinity;
  for (const s of series) {
    if (s.times.length === 0) continue;
    first = Math.min(first, s.times[0]!);
    last = Math.max(last, s.times[s.times.length - 1]!);
  }
  let start = timeOption(fn, 'start', options.start) ?? fromContext?.start ?? (first <= last ? first : undefined);
  let end = timeOption(fn, 'end', options.end) ?? fromContext?.end ?? (first <= last ? last : undefined);
  if (start === undefined || end === undefined) return undefined;
  if (end < start) refuse(fn, 'end', `a time after start (${new Date(start).toISOString()})`, options.end ?? end);
  // One instant: five minutes either side, so the point has an axis around it.
  if (end === start) {
    start -= 300_000;
    end += 300_000;
  }
  return { start, end };
}

/** How long an interval is, in words: "15 minutes", "1 hour". */
function intervalWords(i: Interval): string {
  return `${i.count} ${i.unit}${i.count === 1 ? '' : 's'}`;
}

/** Draws a line or area chart. */
export function timeSeriesChart(fn: string, kind: TimeSeriesKind, options: TimeSeriesChartOptions): SafeHtml {
  const r = resolveCommon(fn, options, { kind: kind.name, width: 600, height: 300, table: true });
  const zone = resolveZone(fn, options.timezone ?? r.context.timezone);
  const series = normalizeSeries(fn, options.series);
  const yMin = optionalNumber(fn, 'yMin', options.yMin);
  const yMax = optionalNumber(fn, 'yMax', options.yMax);
  if (yMin !== undefined && yMax !== undefined && yMax <= yMin) refuse(fn, 'yMax', `a number above yMin (${yMin})`, yMax);
  const maxRows = options.maxRows ?? 60;
  if (!Number.isInteger(maxRows) || maxRows < 2 || maxRows > 1000) refuse(fn, 'maxRows', 'a whole number from 2 to 1,000', maxRows);
  if (options.legend !== undefined && typeof options.legend !== 'boolean') refuse(fn, 'legend', 'true or false', options.legend);
  const colors = series.map((s, i) => seriesColors(i, s.color));
  const { width, height } = r;
  const format = valueFormatter(r.locale, r.formatValue);
  const range = timeRange(fn, options, r, series);
  const visible: Visible[] = series.map((s) => ({
    times: s.times,
    values: s.values,
    from: range ? bound(s.times, range.start) : 0,
    to: range ? bound(s.times, range.end, true) : 0,
  }));
  const values = extent(visibleValues(visible));
  const head = [`Time (${zone.name})`];
  if (!range || !values) {
    for (const s of series) head.push(withUnit(s.name, r.unit ? `(${r.unit})` : ''));
    return frame(r, width, height, {
      kind: kind.kind,
      svg: emptySvg(width, height, r.emptyText),
      description: `${kind.name}: ${r.emptyText}.`,
      table: tableHtml({ head, rows: [], end: head.map(() => true), summary: r.tableSummary, emptyText: r.emptyText, styled: true }),
      colors,
    });
  }
  const { start, end } = range;

  // Layout: legend on top, then a row for readouts and the unit, the plot, the time axis below.
  const compact = width < 200 || height < 100;
  const showLegend = !compact && (options.legend ?? series.length > 1);
  const key = showLegend
    ? legend(
        series.map((s) => s.name),
        4,
        4,
        width - 8,
        3,
      )
    : { svg: '', height: 0 };
  const y0 = compact ? 4 : 4 + key.height + 16;
  const y1 = height - (compact ? 4 : 22);
  const ticks = valueTicks(
    kind.zero ? Math.min(values.min, 0) : values.min,
    kind.zero ? Math.max(values.max, 0) : values.max,
    Math.max(2, Math.min(8, Math.round((y1 - y0) / 40))),
    { ...(yMin === undefined ? {} : { min: yMin }), ...(yMax === undefined ? {} : { max: yMax }) },
  );
  const tickText = tickFormatter(r.locale, ticks, r.formatValue);
  const labels = ticks.ticks.map(tickText);
  const x0 = compact ? 4 : Math.min(width / 3, Math.max(24, ...labels.map(textWidth)) + 10);
  const x1 = width - (compact ? 4 : 12);
  const ys = linearScale(ticks.min, ticks.max, y1, y0);
  const plot: Plot = {
    x0,
    x1,
    y0,
    y1,
    x: linearScale(start, end, x0, x1),
    y: (v) => Math.min(y1, Math.max(y0, ys(v))),
    base: Math.min(y1, Math.max(y0, ys(0))),
  };

  let svg = key.svg;
  if (!compact) svg += valueAxis(plot, ticks.ticks, labels, r.unit) + timeAxis(plot, zone, r.locale, start, end, width);
  svg += kind.draw(visible, plot);
  const rows = timeRows(visible, zone, start, end, maxRows);
  const spacing = rows.interval ? rows.interval.ms : minSpacing(rows);
  const when = pointLabeller(zone, r.locale, start, end, spacing);
  const span = rows.interval ? spanLabeller(zone, r.locale, start, end, rows.interval) : undefined;
  // Each row's words, formatted once for both its readout and its table row.
  const words: RowWords[] = rows.rows.map((row) => ({
    time: span ? span(row.from, row.to) : when(row.from),
    cells: row.stats
      ? row.stats.map((s) => (Number.isNaN(s.avg) ? undefined : [format(s.avg), format(s.min), format(s.max)]))
      : row.values.map((v) => (Number.isNaN(v) ? undefined : [format(v)])),
  }));
  svg += hoverColumns(plot, rows, words, series, r.unit, compact);

  for (const s of series) {
    if (rows.interval) head.push(`${s.name} average`, `${s.name} minimum`, `${s.name} maximum`);
    else head.push(s.name);
  }
  if (r.unit) for (let i = 1; i < head.length; i++) head[i] = `${head[i]} (${r.unit})`;
  const table = tableHtml({
    head,
    rows: words.map((w) => [w.time, ...w.cells.flatMap((c) => c ?? (rows.interval ? [NO_DATA, NO_DATA, NO_DATA] : [NO_DATA]))]),
    end: head.map((_, i) => i > 0),
    caption: rows.interval ? `Every ${intervalWords(rows.interval)}: the average, minimum and maximum of each series.` : undefined,
    summary: r.tableSummary,
    emptyText: r.emptyText,
    styled: true,
  });
  const description = describeSeries(kind.name, series, visible, zone, r.locale, start, end, format, r.unit);
  return frame(r, width, height, { kind: kind.kind, svg, description, table, colors, css: kind.css });
}

function* visibleValues(visible: readonly Visible[]): Generator<number> {
  for (const s of visible) for (let i = s.from; i < s.to; i++) yield s.values[i]!;
}

/** The shortest distance between exact rows (a minute when there is one row, so its time of day shows). */
function minSpacing(rows: TimeRows): number {
  let min = Infinity;
  for (let i = 1; i < rows.rows.length; i++) min = Math.min(min, rows.rows[i]!.from - rows.rows[i - 1]!.from);
  return Number.isFinite(min) ? min : 60_000;
}

/** The default description: the kind, the range and each series' minimum, maximum and latest value. */
function describeSeries(
  name: string,
  series: readonly NormalSeries[],
  visible: readonly Visible[],
  zone: Zone,
  locale: string,
  start: number,
  end: number,
  format: ValueFormatter,
  unit: string,
): string {
  const long = dateTimeLabeller(zone, locale);
  const points = visible.reduce((n, s) => n + s.to - s.from, 0);
  let text = `${name} of ${series.length} series, ${points} points from ${long(start)} to ${long(end)} (${zone.name}).`;
  series.slice(0, 10).forEach((s, k) => {
    const v = visible[k]!;
    let min = Infinity;
    let max = -Infinity;
    let latest = NaN;
    for (let i = v.from; i < v.to; i++) {
      const x = v.values[i]!;
      if (Number.isNaN(x)) continue;
      if (x < min) min = x;
      if (x > max) max = x;
      latest = x;
    }
    text += Number.isNaN(latest)
      ? ` ${s.name}: no data.`
      : ` ${s.name}: minimum ${withUnit(format(min), unit)}, maximum ${withUnit(format(max), unit)}, latest ${withUnit(format(latest), unit)}.`;
  });
  if (series.length > 10) text += ` And ${series.length - 10} more series.`;
  return text;
}
