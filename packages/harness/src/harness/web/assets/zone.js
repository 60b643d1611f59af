// Wall-clock times in the dashboard's timezone (UTC, an offset such as +05:30, or an IANA zone), for the custom
// range: what a person types is read in that zone, and ranges are labelled in it.

/** The browser's own zone, which the console calls "Local". */
export const LOCAL_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Minutes east of UTC of `zone` at the instant `at` (0 for a zone the browser does not know). */
export function offsetEast(zone, at) {
  if (zone === 'UTC' || zone === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (m) return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const o = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    return o ? (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) : 0;
  } catch {
    return 0;
  }
}

/** `YYYY-MM-DDTHH:MM` (a datetime-local value) of the instant `ms` in `zone`. */
export function wallTime(zone, ms) {
  return new Date(ms + offsetEast(zone, ms) * 60_000).toISOString().slice(0, 16);
}

/**
 * The instant a wall-clock time (`YYYY-MM-DDTHH:MM`) names in `zone`, or null when it is not a time. In a
 * daylight-saving gap or overlap the offset in force just before is used.
 */
export function instantOf(zone, wall) {
  const asUtc = Date.parse(`${wall}:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(wall) || Number.isNaN(asUtc)) return null;
  let t = asUtc - offsetEast(zone, asUtc) * 60_000;
  t = asUtc - offsetEast(zone, t) * 60_000;
  return t;
}

/** A short name for a zone: `UTC`, `UTC+05:30`, or the IANA name. */
export function zoneLabel(zone) {
  if (zone === 'UTC' || zone === 'Z') return 'UTC';
  return /^[+-]\d{2}:?\d{2}$/.test(zone) ? `UTC${zone}` : zone;
}
