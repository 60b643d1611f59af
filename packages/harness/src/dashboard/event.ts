import { isRecord } from './functions/index.js';
import type { FormValues } from './forms.js';
import type { WidgetModel } from './model.js';
import { AUTO_PERIOD_SECONDS, resolveTimeRange, type DashboardState } from './state.js';
import type { WidgetContext, WidgetEvent } from 'trellis/widgets';
import { widgetTimezone } from './timezone.js';
import { widgetPixelSize } from './geometry.js';

/**
 * Builds `widgetContext` for a widget in a state at an instant.
 *
 * @example
 * buildWidgetContext(widget, state, Date.now(), {}).width; // 588 for a 6-column widget on a 2392 px dashboard
 */
export function buildWidgetContext(widget: WidgetModel, state: DashboardState, now: number, forms: FormValues): WidgetContext {
  const auto = state.period === 'auto';
  const size = widgetPixelSize(widget, state);
  return {
    dashboardName: state.dashboardName,
    widgetId: widget.widgetId,
    accountId: state.accountId,
    locale: state.locale,
    timezone: widgetTimezone(state.timezone, now),
    period: auto ? AUTO_PERIOD_SECONDS : (state.period as number),
    isAutoPeriod: auto,
    timeRange: resolveTimeRange(state.timeRange, now),
    theme: state.theme,
    linkCharts: state.linkCharts,
    title: widget.title ?? '',
    forms: { all: forms },
    params: cloneJson(widget.params),
    width: size.width,
    height: size.height,
  };
}

/**
 * The event for a widget's own function: its params spread at the top level (when they are an object) plus
 * `widgetContext`.
 *
 * @example
 * buildEvent({ name: 'x' }, ctx); // { name: 'x', widgetContext: ctx }
 */
export function buildEvent(topLevel: unknown, widgetContext: WidgetContext): WidgetEvent {
  return { ...(isRecord(topLevel) ? (cloneJson(topLevel) as Record<string, unknown>) : {}), widgetContext };
}

/** A deep copy so a function that mutates its event cannot change the dashboard. */
function cloneJson(v: unknown): unknown {
  return v === undefined ? undefined : structuredClone(v);
}
