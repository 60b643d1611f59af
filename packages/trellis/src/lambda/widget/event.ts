// Recognising a CloudWatch custom-widget event, and reading its parts without trusting their shapes.
import { isRecord } from '../event-kind.js';
import type { WidgetContext } from '../../widgets/index.js';

/**
 * The event the CloudWatch console sends a custom widget's function: the widget's params (or a clicked
 * action's params) at the top level, `widgetContext`, and `describe: true` when it asks for documentation.
 */
export type WidgetLambdaEvent = Record<string, unknown> & {
  widgetContext?: WidgetContext;
  describe?: boolean;
};

/** Keys that only HTTP events carry: an event with one of them is never taken for a widget event. */
const HTTP_KEYS = ['requestContext', 'httpMethod', 'rawPath', 'routeKey'] as const;

/**
 * True for an event of a CloudWatch custom widget: one that carries a `widgetContext` object, or a bare
 * documentation request `{ describe: true }`. API Gateway, function URL and load balancer events are never
 * widget events (they carry `requestContext`, `httpMethod` or `rawPath`).
 *
 * @example
 * const widgets = widgetHandler(app);
 * export const handler = (event, context) => (isWidgetEvent(event) ? widgets(event, context) : httpHandler(event, context));
 */
export function isWidgetEvent(event: unknown): event is WidgetLambdaEvent {
  if (!isRecord(event)) return false;
  for (const key of HTTP_KEYS) if (key in event) return false;
  return isRecord(event.widgetContext) || event.describe === true;
}

/** The event's `widgetContext` when it is an object, else undefined. */
export function contextOf(event: WidgetLambdaEvent): WidgetContext | undefined {
  return isRecord(event.widgetContext) ? event.widgetContext : undefined;
}
