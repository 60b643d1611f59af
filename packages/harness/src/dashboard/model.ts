/** Widget types a CloudWatch dashboard can hold; only `custom` and `text` can be read here. */
export const WIDGET_TYPES = ['custom', 'text', 'metric', 'log', 'alarm', 'explorer'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** When a custom widget's function runs again. */
export interface UpdateOn {
  refresh: boolean;
  resize: boolean;
  timeRange: boolean;
}

/** One widget of a parsed dashboard. */
export interface WidgetModel {
  /** Zero-based position in `widgets`. */
  index: number;
  /** `widget-<index>`: what the function sees as `widgetContext.widgetId`. */
  widgetId: string;
  type: WidgetType;
  x: number | null;
  y: number | null;
  /** Grid columns (1–24), default 6. */
  width: number;
  /** Grid rows (1–1000), default 6. */
  height: number;
  properties: Record<string, unknown>;
  title: string | null;
  /** Custom widgets: the Lambda ARN or function name; otherwise null. */
  endpoint: string | null;
  /** Custom widgets: `properties.params` as written (undefined when absent). */
  params: unknown;
  /** Custom widgets: effective `updateOn`; otherwise null. */
  updateOn: UpdateOn | null;
}

/** A parsed and validated dashboard. */
export interface DashboardModel {
  widgets: WidgetModel[];
  /** `start` as written: a relative duration (`-PT3H`) or an ISO 8601 instant; null when absent. */
  start: string | null;
  end: string | null;
  periodOverride: 'auto' | 'inherit' | null;
}

/** The summary of a widget as the API lists it. */
export interface WidgetSummary {
  widgetId: string;
  index: number;
  type: WidgetType;
  title: string | null;
  endpoint: string | null;
  updateOn: UpdateOn | null;
}

/**
 * The list entry of a widget.
 *
 * @example
 * summarizeWidget(model.widgets[0]); // { widgetId: 'widget-0', index: 0, type: 'custom', title: 'Hello', … }
 */
export function summarizeWidget(w: WidgetModel): WidgetSummary {
  const { widgetId, index, type, title, endpoint } = w;
  return { widgetId, index, type, title, endpoint, updateOn: w.updateOn ? { ...w.updateOn } : null };
}
