// The time zone a time axis is labelled in: the console's widgetContext.timezone (a fixed offset), an offset,
// UTC or an IANA zone name. Times are formatted by shifting them to the zone's wall clock and formatting that
// as UTC, which works for fixed offsets on every Node.js version (Intl takes offset zones only from Node 22).
import type { WidgetTimezone } from '../types.js';
import { refuse } from './options.js';

/**
 * A time zone: the console's `widgetContext.timezone`, `UTC`, an offset such as `+05:30`, or an IANA name such
 * as `Europe/Berlin`.
 *
 * @example
 * lineChart({ series, timezone: 'Europe/Berlin' });
 * lineChart({ series, timezone: event.widgetContext.timezone });
 */
export type ChartTimeZone = WidgetTimezone | string;

/** A resolved zone. */
export interface Zone {
  /** How tables and descriptions name it: `UTC`, `UTC+02:00`, `Europe/Berlin`. */
  readonly name: string;
  /** Minutes east of UTC at an instant. */
  offset(t: number): number;
}

const UTC: Zone = { name: 'UTC', offset: () => 0 };

function offsetName(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `UTC${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

function fixed(minutes: number): Zone {
  return minutes === 0 ? UTC : { name: offsetName(minutes), offset: () => minutes };
}

const zones = new Map<string, Zone>();

/** An IANA zone; offsets are looked up per quarter hour (zone changes fall on quarter hours) and kept. */
function iana(name: string): Zone | undefined {
  let zone = zones.get(name);
  if (zone) return zone;
  let parts: Intl.DateTimeFormat;
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
  } catch {
    return undefined;
  }
  const resolved = parts.resolvedOptions().timeZone;
  const known = new Map<number, number>();
  zone = {
    name: resolved === 'UTC' || resolved === 'Etc/UTC' ? 'UTC' : resolved,
    offset(t: number): number {
      const slot = Math.floor(t / 900_000);
      let minutes = known.get(slot);
      if (minutes === undefined) {
        const at = slot * 900_000;
        const p: Record<string, number> = {};
        for (const { type, value } of parts.formatToParts(at)) p[type] = Number(value);
        const wall = Date.UTC(p.year!, p.month! - 1, p.day, p.hour, p.minute);
        minutes = Math.round((wall - at) / 60_000);
        if (known.size > 20_000) known.clear();
        known.set(slot, minutes);
      }
      return minutes;
    },
  };
  if (zones.size > 50) zones.clear();
  zones.set(name, zone);
  return zone;
}

const OFFSET = /^([+-])(\d{2}):?(\d{2})$/;

/** The zone of a `timezone` option; `undefined` is UTC. */
export function resolveZone(fn: string, value: unknown): Zone {
  const expected = 'the console\'s widgetContext.timezone, "UTC", an offset like "+02:00" or an IANA name like "Europe/Berlin"';
  if (value === undefined || value === null) return UTC;
  if (typeof value === 'object') {
    const minutes = (value as Partial<WidgetTimezone>).offsetInMinutes;
    if (typeof minutes !== 'number' || !Number.isFinite(minutes) || Math.abs(minutes) > 24 * 60)
      refuse(fn, 'timezone.offsetInMinutes', 'minutes west of UTC (as Date.prototype.getTimezoneOffset)', minutes);
    return fixed(-Math.round(minutes));
  }
  if (typeof value !== 'string') return refuse(fn, 'timezone', expected, value);
  if (value === 'UTC' || value === 'Z') return UTC;
  const m = OFFSET.exec(value);
  if (m) {
    const h = Number(m[2]);
    const min = Number(m[3]);
    if (h > 23 || min > 59) refuse(fn, 'timezone', expected, value);
    return fixed((m[1] === '-' ? -1 : 1) * (h * 60 + min));
  }
  return iana(value) ?? refuse(fn, 'timezone', expected, value);
}

/** The wall-clock time of an instant in a zone, as epoch milliseconds to read with the UTC getters. */
export function wall(zone: Zone, t: number): number {
  return t + zone.offset(t) * 60_000;
}

/** The instant a wall-clock time names in a zone (for a time skipped or repeated by a zone change, the first fit). */
export function instant(zone: Zone, wallTime: number): number {
  const guess = wallTime - zone.offset(wallTime) * 60_000;
  return wallTime - zone.offset(guess) * 60_000;
}
