// Which route a widget event asks for, and the values its handler reads: three sources merged in one order.
import { isRecord } from '../event-kind.js';
import { contextOf, type WidgetLambdaEvent } from './event.js';

/** The default name of the parameter that picks the route. */
export const DEFAULT_ROUTE_PARAM = 'route';
/** The route of an event that names none. */
export const DEFAULT_ROUTE = '/';

/** Top-level keys of the event that are not parameters. */
const NOT_PARAMS = new Set(['widgetContext', 'describe']);

export interface WidgetParams {
  /** The path the event asks for (the reserved parameter's value, or `/`). */
  readonly route: unknown;
  /** Every other parameter, merged. */
  readonly values: Record<string, unknown>;
}

/**
 * Merges an event's parameters, later sources winning:
 *   1. `widgetContext.params` — the widget's own params, set once on the dashboard: defaults;
 *   2. the event's top-level fields — the params of this call: the widget's params on a load or refresh,
 *      the clicked `<cwdb-action>`'s params on an action;
 *   3. `widgetContext.forms.all` — the form fields the widget shows, as the user left them.
 * Form values are the newest input and what the user sees on screen: they win, so a refresh (which sends
 * the widget's params again) keeps the user's choices, and a field may start from a widget param of the
 * same name. An action's params override the widget's defaults; a button should not reuse a form field's
 * name for a value the form must not change.
 */
export function mergeParams(event: WidgetLambdaEvent, routeParam: string): WidgetParams {
  const merged = new Map<string, unknown>();
  const context = contextOf(event);
  if (context) {
    if (isRecord(context.params)) for (const [k, v] of Object.entries(context.params)) merged.set(k, v);
  }
  for (const [k, v] of Object.entries(event)) if (!NOT_PARAMS.has(k)) merged.set(k, v);
  const forms = context && isRecord(context.forms) ? context.forms.all : undefined;
  if (isRecord(forms)) for (const [k, v] of Object.entries(forms)) merged.set(k, v);
  const route = merged.has(routeParam) ? merged.get(routeParam) : DEFAULT_ROUTE;
  merged.delete(routeParam);
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return { route, values: Object.fromEntries(merged) };
}

/** The query string of the values: strings as they are, numbers and booleans as text, arrays repeated, objects as JSON. */
export function queryOf(values: Record<string, unknown>): string {
  const query = new URLSearchParams();
  const add = (key: string, v: unknown): void => {
    if (v === undefined) return;
    query.append(key, v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  };
  for (const [key, value] of Object.entries(values)) {
    if (Array.isArray(value)) for (const item of value) add(key, item);
    else add(key, value);
  }
  return query.toString();
}

/** Why a route value cannot be used, or null when it is a path. */
export function routeProblem(route: unknown, routeParam: string): string | null {
  if (typeof route !== 'string' || !route.startsWith('/') || /[?#\s]/.test(route) || route.startsWith('//')) {
    return `The "${routeParam}" parameter must be a path starting with "/" (such as "/" or "/orders/42"), got ${JSON.stringify(route) ?? String(route)}.`;
  }
  return null;
}
