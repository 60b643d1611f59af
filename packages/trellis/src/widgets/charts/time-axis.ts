// The time axis: intervals that read well (1, 5, 15 minutes; 1, 3, 6 hours; days; months), boundaries on
// the zone's wall clock, and labels formatted with Intl in the chart's locale.
import { instant, wall, type Zone } from './time-zone.js';

type Unit = 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year';

/** A step of the time axis; `ms` is exact below a month and an average above. */
export interface Interval {
  readonly unit: Unit;
  readonly count: number;
  readonly ms: number;
}

const S = 1000;
const M = 60_000;
const H = 3_600_000;
const D = 86_400_000;
const step = (unit: Unit, count: number, ms: number): Interval => ({ unit, count, ms: count * ms });

let intervals: readonly Interval[] | undefined;

/** Every interval, shortest first (made on first use, so that a bundle without charts drops them). */
function allIntervals(): readonly Interval[] {
  return (intervals ??= [
    ...[1, 5, 10, 15, 30].map((n) => step('second', n, S)),
    ...[1, 2, 5, 10, 15, 30].map((n) => step('minute', n, M)),
    ...[1, 2, 3, 6, 12].map((n) => step('hour', n, H)),
    ...[1, 2].map((n) => step('day', n, D)),
    ...[1, 2, 3, 6].map((n) => step('month', n, 30.44 * D)),
    // Years up to a million, so that even the widest range of Dates (±273,790 years) has few boundaries.
    ...[1, 10, 100, 1000, 10_000, 100_000].flatMap((p) => [1, 2, 5].map((m) => step('year', m * p, 365.25 * D))),
    step('year', 1_000_000, 365.25 * D),
  ]);
}

/** The shortest interval that cuts `span` into at most `count` parts (at least one). */
export function chooseInterval(span: number, count: number): Interval {
  const most = Math.max(1, count);
  const all = allIntervals();
  return all.find((i) => span / i.ms <= most) ?? all[all.length - 1]!;
}

/** The first of a month at midnight (as wall time), for any year: Date.UTC reads years 0 to 99 as 1900 to 1999. */
function monthStart(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 1);
  return d.getTime();
}

/** The instants in `[start, end]` that fall on the interval's boundaries on the zone's wall clock, in order. */
export function boundaries(zone: Zone, start: number, end: number, interval: Interval): number[] {
  const out: number[] = [];
  const push = (w: number) => {
    const t = instant(zone, w);
    if (t >= start && t <= end && (out.length === 0 || t > out[out.length - 1]!)) out.push(t);
    return t;
  };
  const first = wall(zone, start);
  if (interval.unit === 'month' || interval.unit === 'year') {
    const d = new Date(first);
    const months = interval.unit === 'year' ? interval.count * 12 : interval.count;
    let index = d.getUTCFullYear() * 12 + d.getUTCMonth();
    index = Math.floor(index / months) * months;
    for (let i = 0; i < 10_000; i++, index += months) {
      if (push(monthStart(Math.floor(index / 12), index - Math.floor(index / 12) * 12)) > end) break;
    }
    return out;
  }
  for (let w = Math.ceil(first / interval.ms) * interval.ms, i = 0; i < 10_000; w += interval.ms, i++) {
    if (push(w) > end) break;
  }
  return out;
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = dateFormats.get(key);
  if (!f) {
    if (dateFormats.size > 200) dateFormats.clear();
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    dateFormats.set(key, f);
  }
  return f;
}

const TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
const SECONDS: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', second: '2-digit' };
const DATE: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };

/** A time as text, on the zone's wall clock. */
export type TimeFormatter = (t: number) => string;

function formatter(zone: Zone, locale: string, options: Intl.DateTimeFormatOptions): TimeFormatter {
  const f = dateFormat(locale, options);
  return (t) => f.format(wall(zone, t));
}

/** Labels for ticks of an interval: times of day, with the date at midnight; dates; months, with the year in January. */
export function tickLabeller(zone: Zone, locale: string, interval: Interval): TimeFormatter {
  const date = formatter(zone, locale, DATE);
  const year = formatter(zone, locale, { year: 'numeric' });
  switch (interval.unit) {
    case 'second':
    case 'minute':
    case 'hour': {
      const time = formatter(zone, locale, interval.unit === 'second' ? SECONDS : TIME);
      return (t) => (wall(zone, t) % D === 0 ? date(t) : time(t));
    }
    case 'day':
      return date;
    case 'month': {
      const month = formatter(zone, locale, { month: 'short' });
      return (t) => (new Date(wall(zone, t)).getUTCMonth() === 0 ? year(t) : month(t));
    }
    case 'year':
      return year;
  }
}

/**
 * How readouts and tables write a time of a chart spanning `[start, end]` with points `spacing` apart: the time
 * of day within one day, with the date over several, with seconds when points are closer than a minute.
 */
export function pointLabeller(zone: Zone, locale: string, start: number, end: number, spacing: number): TimeFormatter {
  const oneDay = Math.floor(wall(zone, start) / D) === Math.floor(wall(zone, end) / D);
  const time = spacing < M ? SECONDS : TIME;
  if (spacing >= D) return formatter(zone, locale, end - start > 360 * D ? { ...DATE, year: 'numeric' } : DATE);
  if (oneDay) return formatter(zone, locale, time);
  return formatter(zone, locale, end - start > 360 * D ? { ...DATE, year: 'numeric', ...time } : { ...DATE, ...time });
}

/** A span of time as text: `12:00–12:15`, the end without its date when it is the start's day. */
export function spanLabeller(
  zone: Zone,
  locale: string,
  start: number,
  end: number,
  interval: Interval,
): (from: number, to: number) => string {
  const long = pointLabeller(zone, locale, start, end, interval.ms);
  if (interval.ms >= D) return (from, to) => `${long(from)}–${long(to)}`;
  const short = formatter(zone, locale, interval.ms < M ? SECONDS : TIME);
  return (from, to) => `${long(from)}–${short(to)}`;
}

/** A time with its full date: `May 1, 2024, 12:00`. */
export function dateTimeLabeller(zone: Zone, locale: string): TimeFormatter {
  return formatter(zone, locale, { ...DATE, year: 'numeric', ...TIME });
}
