// Timezones as the state names them (UTC, offsets, IANA zones) and as the console sends them.
import type { WidgetTimezone } from 'trellis/widgets';

/**
 * The UTC offset in minutes (east positive) of a state timezone at an instant, or null when it is not a zone.
 *
 * @example
 * timezoneOffset('+05:30', 0); // 330
 */
export function timezoneOffset(zone: string, at: number): number | null {
  if (zone === 'UTC' || zone === 'Z') return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (m) {
    const h = Number(m[2]);
    const min = Number(m[3]);
    if (h > 23 || min > 59) return null;
    return (m[1] === '-' ? -1 : 1) * (h * 60 + min);
  }
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    if (!name) return null;
    const o = /GMT(?:([+-])(\d{2}):(\d{2}))?/.exec(name);
    if (!o) return null;
    return o[1] ? (o[1] === '-' ? -1 : 1) * (Number(o[2]) * 60 + Number(o[3])) : 0;
  } catch {
    return null;
  }
}

/**
 * The console's timezone object for a state timezone at an instant. `UTC` is labelled `UTC`; any other zone
 * is what the console calls `Local`. `offsetInMinutes` has the sign of `Date.prototype.getTimezoneOffset()`
 * (positive west of UTC, the opposite of `offsetISO`), so `utc - offsetInMinutes * 60000` is the local time.
 *
 * @example
 * widgetTimezone('+02:00', Date.now()); // { label: 'Local', offsetISO: '+02:00', offsetInMinutes: -120 }
 */
export function widgetTimezone(zone: string, at: number): WidgetTimezone {
  const minutes = timezoneOffset(zone, at) ?? 0;
  const abs = Math.abs(minutes);
  const offsetISO = `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return { label: zone === 'UTC' || zone === 'Z' ? 'UTC' : 'Local', offsetISO, offsetInMinutes: minutes === 0 ? 0 : -minutes };
}
