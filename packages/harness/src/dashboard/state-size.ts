// The size fields of a dashboard state: the dashboard's width and the sizes set for single widgets.
import { isRecord } from './functions/index.js';
import { UnprocessableError } from './errors.js';
import type { WidgetSizeOverride } from './geometry.js';
import type { WidgetModel } from './model.js';
import { showValue } from './show-value.js';

/** The largest pixel size a state holds. */
export const MAX_PIXELS = 100_000;
/** The narrowest dashboard: ten pixels a column. */
export const MIN_DASHBOARD_WIDTH = 240;

/** A `dashboardWidth`: a whole number of pixels from 240 to 100,000. */
export function dashboardWidthOf(v: unknown): number {
  if (!(typeof v === 'number' && Number.isInteger(v) && v >= MIN_DASHBOARD_WIDTH && v <= MAX_PIXELS)) {
    throw new UnprocessableError(
      'dashboardWidth',
      `"dashboardWidth" should be a whole number of pixels from ${MIN_DASHBOARD_WIDTH} to ${MAX_PIXELS}; got ${showValue(v)}`,
    );
  }
  return v;
}

/**
 * `widgetSizes` keyed by widget index or id, checked against the dashboard's `widgets` (when given): the same
 * sizes keyed by widget id, in widget order.
 */
export function widgetSizesOf(v: unknown, widgets: readonly WidgetModel[] | undefined): Record<string, WidgetSizeOverride> {
  if (!isRecord(v)) {
    throw new UnprocessableError(
      'widgetSizes',
      `"widgetSizes" should be an object of widget index or id to { width, height }, e.g. { "3": { "width": 400 } }; got ${showValue(v)}`,
    );
  }
  const found = new Map<number, WidgetSizeOverride>();
  for (const [key, size] of Object.entries(v)) {
    const field = `widgetSizes.${key}`;
    const match = /^(?:widget-)?(0|[1-9]\d{0,8})$/.exec(key);
    const index = match ? Number(match[1]) : -1;
    const widget = widgets?.[index];
    if (!match || (widgets && !widget)) {
      const known = widgets ? `; this dashboard has ${widgets.length === 0 ? 'no widgets' : `widgets 0 to ${widgets.length - 1}`}` : '';
      throw new UnprocessableError(field, `"${key}" in "widgetSizes" should be a widget index ("3") or id ("widget-3")${known}`);
    }
    if (widget && widget.type !== 'custom') {
      throw new UnprocessableError(field, `${widget.widgetId} is a "${widget.type}" widget; only custom widgets are told a size`);
    }
    if (found.has(index)) throw new UnprocessableError(field, `"widgetSizes" gives the size of widget-${index} twice; give it once`);
    found.set(index, sizeOf(size, field));
  }
  return Object.fromEntries([...found].sort(([a], [b]) => a - b).map(([index, size]) => [`widget-${index}`, size]));
}

function sizeOf(v: unknown, field: string): WidgetSizeOverride {
  if (!isRecord(v))
    throw new UnprocessableError(field, `"${field}" should be an object { width, height } (either or both); got ${showValue(v)}`);
  const extra = Object.keys(v).find((k) => k !== 'width' && k !== 'height');
  if (extra)
    throw new UnprocessableError(`${field}.${extra}`, `Unknown field "${field}.${extra}"; a widget size has only width and height`);
  if (v.width === undefined && v.height === undefined)
    throw new UnprocessableError(field, `"${field}" should give "width", "height" or both`);
  const out: WidgetSizeOverride = {};
  for (const side of ['width', 'height'] as const) {
    const n = v[side];
    if (n === undefined) continue;
    if (!(typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_PIXELS)) {
      throw new UnprocessableError(
        `${field}.${side}`,
        `"${field}.${side}" should be a whole number of pixels from 1 to ${MAX_PIXELS}; got ${showValue(n)}`,
      );
    }
    out[side] = n;
  }
  return out;
}
