// Rebuilds the event a widget's function was sent, from what the API exposes: the dashboard state, the
// widget's definition in the source and the form values the page posted. Times are resolved when the
// response arrived, so relative ranges can differ from the function's by the request's duration.

const PX_PER_COLUMN = 98;
const PX_PER_ROW = 61.5;
const AUTO_PERIOD = 300;
const DURATION = /^-P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

// Years and months move the UTC calendar (clamped to the target month's last day); the rest are fixed lengths.
function relativeStart(text, now) {
  const m = DURATION.exec(text ?? '');
  if (!m) return now - 3 * 3600_000;
  const [, y, mo, w, d, h, mi, s] = m.map((v) => Number(v ?? 0));
  const date = new Date(now);
  if (y || mo) {
    const day = date.getUTCDate();
    date.setUTCDate(1);
    date.setUTCFullYear(date.getUTCFullYear() - y);
    date.setUTCMonth(date.getUTCMonth() - mo);
    date.setUTCDate(Math.min(day, new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate()));
  }
  return Math.round(date.getTime() - (((w * 7 + d) * 24 + h) * 3600 + mi * 60 + s) * 1000);
}

function offsetMinutes(zone, at) {
  if (zone === 'UTC' || zone === 'Z') return 0;
  const fixed = /^([+-])(\d\d):?(\d\d)$/.exec(zone);
  if (fixed) return (fixed[1] === '-' ? -1 : 1) * (Number(fixed[2]) * 60 + Number(fixed[3]));
  try {
    const name = new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
    const m = /GMT([+-])(\d\d):(\d\d)/.exec(name);
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
  } catch {
    return 0;
  }
}

function timezone(zone, at) {
  const min = offsetMinutes(zone, at);
  const abs = Math.abs(min);
  const iso = `${min < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return { label: zone === 'UTC' || zone === 'Z' ? 'UTC' : 'Local', offsetISO: iso, offsetInMinutes: min };
}

function timeRange(range, now) {
  const zoom = range?.zoom ? { zoom: { start: range.zoom.start, end: range.zoom.end } } : {};
  if (range && typeof range.relative === 'string') {
    const start = relativeStart(range.relative, now);
    return { mode: 'relative', start, end: now, relativeStart: now - start, ...zoom };
  }
  return { mode: 'absolute', start: range?.start ?? now, end: range?.end ?? now, ...zoom };
}

/**
 * @param {{ topLevel: unknown, widget: { widgetId: string, title: string|null, params: unknown, width: number, height: number },
 *           state: object, forms: Record<string, string|string[]>, now: number }} input
 */
export function rebuildEvent({ topLevel, widget, state, forms, now }) {
  const spread = topLevel && typeof topLevel === 'object' && !Array.isArray(topLevel) ? topLevel : {};
  const auto = state.period === 'auto';
  return {
    ...spread,
    widgetContext: {
      dashboardName: state.dashboardName,
      widgetId: widget.widgetId,
      accountId: state.accountId,
      locale: state.locale,
      timezone: timezone(state.timezone, now),
      period: auto ? AUTO_PERIOD : state.period,
      isAutoPeriod: auto,
      timeRange: timeRange(state.timeRange, now),
      theme: state.theme,
      linkCharts: state.linkCharts,
      title: widget.title ?? '',
      forms: { all: forms },
      params: widget.params,
      width: state.width ?? widget.width * PX_PER_COLUMN,
      height: state.height ?? Math.round(widget.height * PX_PER_ROW),
    },
  };
}
