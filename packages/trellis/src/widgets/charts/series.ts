// Time series as authors give them (pairs, or CloudWatch's parallel Timestamps and Values), checked and put in
// time order.
import { checkedValue, refuse, toTime, type ChartColor, type ChartValue } from './options.js';
import { themeColors } from './palette.js';
import { usageError } from '../../errors/index.js';

/**
 * A time: epoch milliseconds or a `Date`.
 *
 * @example
 * const times: ChartTime[] = [Date.now(), new Date('2024-05-01T12:00:00Z')];
 */
export type ChartTime = number | Date;

interface SeriesCommon {
  /** The series' name in the legend, readouts and table. Default `Series 1`, `Series 2`, … */
  name?: string;
  /** Overrides the palette colour. */
  color?: ChartColor;
}

/**
 * A series as `[time, value]` pairs.
 *
 * @example
 * const cpu: PointSeries = { name: 'web-1', points: [[Date.parse('2024-05-01T12:00Z'), 41.5], [Date.parse('2024-05-01T12:01Z'), 43]] };
 */
export interface PointSeries extends SeriesCommon {
  points: readonly (readonly [ChartTime, ChartValue])[];
  timestamps?: never;
  values?: never;
}

/**
 * A series as parallel arrays, the shape of CloudWatch's `GetMetricData` results; newest-first input is fine.
 *
 * @example
 * const series: ParallelSeries[] = result.MetricDataResults!.map((r) => ({ name: r.Label, timestamps: r.Timestamps ?? [], values: r.Values ?? [] }));
 */
export interface ParallelSeries extends SeriesCommon {
  timestamps: readonly ChartTime[];
  values: readonly ChartValue[];
  points?: never;
}

/**
 * One series of a time-series chart: pairs, or parallel timestamps and values.
 *
 * @example
 * const series: TimeSeries[] = [{ name: 'a', points: [[t0, 1]] }, { name: 'b', timestamps: [t0], values: [2] }];
 */
export type TimeSeries = PointSeries | ParallelSeries;

/** A series checked and in time order; gaps are NaN. */
export interface NormalSeries {
  readonly name: string;
  readonly times: Float64Array;
  readonly values: Float64Array;
  readonly color: { light: string; dark: string } | undefined;
}

function timeAt(fn: string, option: string, value: unknown): number {
  return toTime(value) ?? refuse(fn, option, 'a time: epoch milliseconds or a Date', value);
}

/** Sorts both arrays by time (stable) unless they already are. */
function ordered(times: Float64Array, values: Float64Array): [Float64Array, Float64Array] {
  let sorted = true;
  for (let i = 1; i < times.length && sorted; i++) sorted = times[i - 1]! <= times[i]!;
  if (sorted) return [times, values];
  const order = Array.from(times.keys()).sort((a, b) => times[a]! - times[b]! || a - b);
  return [Float64Array.from(order, (i) => times[i]!), Float64Array.from(order, (i) => values[i]!)];
}

function one(fn: string, s: unknown, i: number): NormalSeries {
  const at = `series[${i}]`;
  if (!s || typeof s !== 'object') refuse(fn, at, 'an object: { name, points } or { name, timestamps, values }', s);
  const { name, points, timestamps, values, color } = s as Record<string, unknown>;
  if (name !== undefined && typeof name !== 'string') refuse(fn, `${at}.name`, 'a string', name);
  let times: Float64Array;
  let vals: Float64Array;
  if (points !== undefined) {
    if (timestamps !== undefined || values !== undefined) refuse(fn, at, 'either { points } or { timestamps, values }, not both', s);
    if (!Array.isArray(points)) refuse(fn, `${at}.points`, 'an array of [time, value] pairs', points);
    times = new Float64Array(points.length);
    vals = new Float64Array(points.length);
    for (let j = 0; j < points.length; j++) {
      const p: unknown = points[j];
      if (!Array.isArray(p) || p.length < 2) refuse(fn, `${at}.points[${j}]`, 'a [time, value] pair', p);
      times[j] = timeAt(fn, `${at}.points[${j}][0]`, p[0]);
      vals[j] = checkedValue(fn, `${at}.points[${j}][1]`, p[1]);
    }
  } else {
    if (!Array.isArray(timestamps)) refuse(fn, `${at}.timestamps`, 'an array of times (or give points)', timestamps);
    if (!Array.isArray(values)) refuse(fn, `${at}.values`, 'an array of numbers', values);
    if (timestamps.length !== values.length) {
      throw usageError(
        'TRELLIS_INVALID_ARGUMENT',
        `${fn}: ${at}.timestamps and ${at}.values must have the same length; got ${timestamps.length} timestamps and ${values.length} values`,
      );
    }
    times = new Float64Array(timestamps.length);
    vals = new Float64Array(timestamps.length);
    for (let j = 0; j < timestamps.length; j++) {
      times[j] = timeAt(fn, `${at}.timestamps[${j}]`, timestamps[j]);
      vals[j] = checkedValue(fn, `${at}.values[${j}]`, values[j]);
    }
  }
  [times, vals] = ordered(times, vals);
  return {
    name: name ?? `Series ${i + 1}`,
    times,
    values: vals,
    color: color === undefined ? undefined : themeColors(fn, `${at}.color`, color as ChartColor),
  };
}

/** Checks and orders every series of a time-series chart. */
export function normalizeSeries(fn: string, series: unknown): NormalSeries[] {
  if (!Array.isArray(series)) refuse(fn, 'series', 'an array of { name, points } or { name, timestamps, values }', series);
  return series.map((s, i) => one(fn, s, i));
}
