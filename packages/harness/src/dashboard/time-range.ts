/** The parts of an ISO 8601 duration such as `P1Y2M3W4DT5H6M7.5S`. */
export interface DurationParts {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const DURATION = /^-P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?!$)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

/**
 * Parses a relative start such as `-PT3H`, `-P7D`, `-P3M` or `-P1DT12H` (a negative ISO 8601 duration, as
 * CloudWatch dashboards write them). Returns `null` for anything else, including a zero duration.
 *
 * @example
 * parseRelative('-PT3H'); // { years: 0, months: 0, weeks: 0, days: 0, hours: 3, minutes: 0, seconds: 0 }
 */
export function parseRelative(text: string): DurationParts | null {
  const m = DURATION.exec(text);
  if (!m) return null;
  const [years = 0, months = 0, weeks = 0, days = 0, hours = 0, minutes = 0, seconds = 0] = [1, 2, 3, 4, 5, 6, 7].map((k) =>
    Number(m[k] ?? 0),
  );
  const parts: DurationParts = { years, months, weeks, days, hours, minutes, seconds };
  const values = Object.values(parts) as number[];
  if (values.every((v) => v === 0) || values.some((v) => !Number.isSafeInteger(Math.floor(v)))) return null;
  // Longer than about 10,000 years cannot be resolved to a date; refuse it here rather than later.
  const day = 86_400;
  const approxSeconds =
    (parts.years * 365.25 + parts.months * 30.44 + parts.weeks * 7 + parts.days) * day +
    parts.hours * 3600 +
    parts.minutes * 60 +
    parts.seconds;
  if (approxSeconds > 10_000 * 365.25 * day) return null;
  return parts;
}

/**
 * The epoch milliseconds a relative start points at, counted back from `now`. Years and months move the
 * calendar (in UTC); the rest are fixed lengths. `null` when the result would leave the range of dates.
 *
 * @example
 * resolveRelative(parseRelative('-PT3H')!, Date.UTC(2024, 0, 1)); // Date.UTC(2023, 11, 31, 21)
 */
export function resolveRelative(parts: DurationParts, now: number): number | null {
  const date = new Date(now);
  if (parts.years || parts.months) {
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCFullYear(date.getUTCFullYear() - parts.years);
    date.setUTCMonth(date.getUTCMonth() - parts.months);
    // Clamp to the target month's last day: 31 March minus one month is 28/29 February, not 3 March.
    const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
    date.setUTCDate(Math.min(day, lastDay));
  }
  const fixed = ((parts.weeks * 7 + parts.days) * 24 * 60 * 60 + parts.hours * 3600 + parts.minutes * 60 + parts.seconds) * 1000;
  const result = date.getTime() - fixed;
  return Number.isFinite(result) && Math.abs(result) <= 8.64e15 ? Math.round(result) : null;
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Parses an ISO 8601 date or date-time (`2024-05-01`, `2024-05-01T12:00:00Z`, `2024-05-01T12:00:00.000+02:00`)
 * to epoch milliseconds; no zone means UTC. Returns `null` for anything that is not a real calendar instant.
 *
 * @example
 * parseIsoDateTime('2024-05-01T12:00:00Z'); // 1714564800000
 */
export function parseIsoDateTime(text: string): number | null {
  const m = ISO_DATE_TIME.exec(text);
  if (!m) return null;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = [1, 2, 3, 4, 5, 6].map((k) => Number(m[k] ?? 0));
  const fraction = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > lastDay) return null;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const h = Number(digits.slice(0, 2));
    const min = Number(digits.slice(2));
    if (h > 23 || min > 59) return null;
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (h * 60 + min);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, fraction);
  return date.getTime() - offsetMinutes * 60_000;
}
