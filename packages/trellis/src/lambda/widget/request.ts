// A widget event as a request for the app's own pipeline, and the typed way handlers read the event back.
import { BufferBodySource, type ExecutionContext, type IncomingRequest } from '../../index.js';
import { RequestItem } from '../request-item.js';
import type { LambdaContext, WidgetContext } from '../../widgets/index.js';
import { contextOf, type WidgetLambdaEvent } from './event.js';
import { usageError } from '../../errors/index.js';

/** What a handler can read of the widget event that started its request. */
export interface WidgetInvocation<WidgetParams = unknown> {
  /** The event exactly as the console sent it. */
  readonly event: WidgetLambdaEvent;
  /** The event's `widgetContext`. */
  readonly widgetContext: WidgetContext<WidgetParams>;
  /** The Lambda context of the invocation, when the host passed one. */
  readonly lambdaContext: Partial<LambdaContext> | undefined;
  /** The merged parameters (also the request body and query), without the route parameter. */
  readonly values: Readonly<Record<string, unknown>>;
  /** The name of the parameter that picks the route. */
  readonly routeParam: string;
}

/** How the widget door hands the event to the pipeline (the handlers' `widgetInvocation(ctx)`). */
const widgetItem = new RequestItem<WidgetInvocation>('trellis.lambda.widget');

/** Request headers that describe the widget, so `@Cache({ varyBy })` can tell widgets and time ranges apart. */
function widgetHeaders(context: WidgetContext | undefined, length: number): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'content-length': String(length) };
  if (!context) return headers;
  const put = (name: string, value: unknown): void => {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      headers[name] = String(value).replace(/\p{Cc}/gu, ' ');
    }
  };
  put('x-widget-dashboard', context.dashboardName);
  put('x-widget-id', context.widgetId);
  put('x-widget-account', context.accountId);
  put('x-widget-theme', context.theme);
  put('x-widget-locale', context.locale);
  put('x-widget-timezone', context.timezone?.offsetISO);
  put('x-widget-period', context.period);
  if (typeof context.width === 'number' && typeof context.height === 'number') put('x-widget-size', `${context.width}x${context.height}`);
  const range = context.timeRange;
  if (range && typeof range === 'object') {
    let text =
      range.mode === 'relative' && typeof range.relativeStart === 'number'
        ? `relative:${range.relativeStart}`
        : `${range.start}/${range.end}`;
    if (range.zoom && typeof range.zoom === 'object') text += `;zoom=${range.zoom.start}/${range.zoom.end}`;
    put('x-widget-time-range', text);
  }
  return headers;
}

/** The request a widget event becomes: `method` on the route's path, the values as query and JSON body. */
export function widgetRequest(method: string, path: string, query: string, invocation: WidgetInvocation): IncomingRequest {
  const json = Buffer.from(JSON.stringify(invocation.values));
  return {
    method,
    url: query ? `${path}?${query}` : path,
    headers: widgetHeaders(invocation.widgetContext, json.length),
    body: new BufferBodySource(json),
    items: new Map([widgetItem.entry(invocation)]),
    signal: () => new AbortController().signal,
  };
}

/** Builds what handlers read of an event. */
export function makeWidgetInvocation(
  event: WidgetLambdaEvent,
  lambdaContext: Partial<LambdaContext> | undefined,
  values: Record<string, unknown>,
  routeParam: string,
): WidgetInvocation {
  return { event, widgetContext: contextOf(event) as WidgetContext, lambdaContext, values, routeParam };
}

/**
 * The widget event behind a request, or undefined for a request that did not come from one (HTTP, inject()).
 *
 * @example
 * const invocation = widgetInvocation(ctx);
 * if (invocation) console.log(invocation.lambdaContext?.awsRequestId);
 */
export function widgetInvocation<WidgetParams = unknown>(ctx: ExecutionContext): WidgetInvocation<WidgetParams> | undefined {
  return widgetItem.of(ctx) as WidgetInvocation<WidgetParams> | undefined;
}

/**
 * The `widgetContext` of the widget event behind a request: dashboard, widget id, account, time range,
 * theme, form values, the widget's own params, size. Throws a TypeError for a request that did not come
 * from a widget event; check with `widgetInvocation(ctx)` on routes that also answer HTTP.
 *
 * @example
 * route('GET', '/', (ctx) => html`<p>${widgetContext(ctx).dashboardName}</p>`);
 */
export function widgetContext<WidgetParams = unknown>(ctx: ExecutionContext): WidgetContext<WidgetParams> {
  const invocation = widgetInvocation<WidgetParams>(ctx);
  if (!invocation?.widgetContext) {
    throw usageError(
      'TRELLIS_INVALID_ARGUMENT',
      `${ctx.route.id} read widgetContext(ctx), but this request did not come from a CloudWatch custom-widget event (check widgetInvocation(ctx) !== undefined first).`,
    );
  }
  return invocation.widgetContext;
}
