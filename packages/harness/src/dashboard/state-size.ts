// The sizes a state sets for single widgets: which widgets they may name (their shape is state-schema.ts's).
import { UnprocessableError } from './errors.js';
import type { WidgetSizeOverride } from './geometry.js';
import type { WidgetModel } from './model.js';

/**
 * `widgetSizes` (already of the schema's shape) keyed by widget index or id, checked against the dashboard's
 * `widgets` (when given): the same sizes keyed by widget id, in widget order.
 */
export function widgetSizesOf(
  v: Record<string, WidgetSizeOverride>,
  widgets: readonly WidgetModel[] | undefined,
): Record<string, WidgetSizeOverride> {
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
    found.set(index, { ...size });
  }
  return Object.fromEntries([...found].sort(([a], [b]) => a - b).map(([index, size]) => [`widget-${index}`, size]));
}
