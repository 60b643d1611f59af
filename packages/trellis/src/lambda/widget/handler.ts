// The widget front door: a CloudWatch custom-widget event in, through the app's own pipeline, widget output out.
import { ResponseHeaders, failure } from '../../index.js';
import type { App, OutgoingResponse } from '../../index.js';
import type { LambdaContext } from '../../widgets/index.js';
import { describeWidgetRoutes, type DescribeOptions } from './describe.js';
import { isWidgetEvent } from './event.js';
import { messageHtml, widgetOutput } from './output.js';
import { DEFAULT_ROUTE_PARAM, mergeParams, queryOf, routeProblem } from './params.js';
import { makeWidgetInvocation, widgetRequest, type WidgetInvocation } from './request.js';
import { usageError } from '../../errors/index.js';

export interface WidgetEventOptions {
  /** The parameter that picks the route; default `route`. Its value is a path such as `/` or `/orders/42`. */
  readonly routeParam?: string;
  /** How `describe` events are answered. */
  readonly describe?: DescribeOptions;
  /**
   * Development mode: a failure outside the app's pipeline shows its message and stack in the widget.
   * Default: `NODE_ENV === 'development'`, as for `createApp`. (Errors inside the pipeline follow the app's
   * own development mode: its 500 problems carry a stack only then, and the widget shows what they carry.)
   */
  readonly development?: boolean;
}

/** The output of a widget function: HTML, `{ markdown }`, or any JSON value. */
export type WidgetOutput = unknown;

const ROUTE_PARAM = /^[A-Za-z_$][\w$-]*$/;

/** Checks widget options when a handler is made; returns the route parameter's name. */
export function checkWidgetOptions(options: WidgetEventOptions): string {
  const routeParam = options.routeParam ?? DEFAULT_ROUTE_PARAM;
  if (typeof routeParam !== 'string' || !ROUTE_PARAM.test(routeParam) || routeParam === 'widgetContext' || routeParam === 'describe') {
    throw usageError(
      'TRELLIS_INVALID_LAMBDA_OPTIONS',
      `routeParam must be a parameter name such as "route" (not widgetContext or describe), got ${JSON.stringify(routeParam)}.`,
    );
  }
  return routeParam;
}

const describeCache = new WeakMap<App, Map<string, string>>();

function describeOnce(app: App, routeParam: string, options: DescribeOptions | undefined): string {
  if (options?.include) return describeWidgetRoutes(app, routeParam, options);
  let byKey = describeCache.get(app);
  if (!byKey) describeCache.set(app, (byKey = new Map<string, string>()));
  const key = JSON.stringify([routeParam, options?.title, options?.introduction]);
  let text = byKey.get(key);
  if (text === undefined) byKey.set(key, (text = describeWidgetRoutes(app, routeParam, options)));
  return text;
}

/** Lambda's limit on a function's response; a widget's output has to fit in it. */
const MAX_WIDGET_RESPONSE_BYTES = 6 * 1024 * 1024;

/**
 * The route's answer, written the way every door writes one (a streamed body is read whole, within Lambda's
 * limit). A widget event is a GET, unless its path answers POST and not GET (an action that changes something).
 */
async function runRoute(app: App, path: string, query: string, invocation: WidgetInvocation): Promise<OutgoingResponse> {
  const methods = app.methodsOf(path);
  const method = methods.includes('POST') && !methods.includes('GET') ? 'POST' : 'GET';
  const recorded = await app.respond(widgetRequest(method, path, query, invocation), { maxBodyBytes: MAX_WIDGET_RESPONSE_BYTES });
  return { status: recorded.statusCode, headers: new ResponseHeaders(recorded.headers), body: recorded.rawBody };
}

/**
 * Answers one CloudWatch custom-widget event with the app: the route named by the `route` parameter runs
 * through the app's pipeline (rate limits, authentication, cache, validation, serialization) and its
 * result becomes widget output; a refusal or error becomes a readable HTML message; `describe` events get
 * Markdown generated from the routes. Never rejects for a widget event; rejects with a TypeError for any other. `routeParam` is the options' route parameter, checked when
 * the handler was made.
 */
export async function answerWidgetEvent(
  app: App,
  event: unknown,
  context: Partial<LambdaContext> | undefined,
  routeParam: string,
  options: WidgetEventOptions,
): Promise<WidgetOutput> {
  if (!isWidgetEvent(event)) {
    throw usageError(
      'TRELLIS_INVALID_EVENT',
      'A widget handler takes a CloudWatch custom-widget event (an object with widgetContext, or { describe: true }).',
    );
  }
  const development = options.development ?? process.env.NODE_ENV === 'development';
  try {
    if (event.describe === true) return describeOnce(app, routeParam, options.describe);
    const { route, values } = mergeParams(event, routeParam);
    const problem = routeProblem(route, routeParam);
    if (problem !== null) return messageHtml(failure('TRELLIS_BAD_TARGET', problem)).toString();
    const invocation = makeWidgetInvocation(event, context, values, routeParam);
    return widgetOutput(await runRoute(app, route as string, queryOf(values), invocation));
  } catch (error) {
    const shown = development && error instanceof Error;
    const message = shown ? error.message : 'The widget function failed.';
    return messageHtml(failure('TRELLIS_PIPELINE_FAILED', message, shown && error.stack ? { stack: error.stack } : {})).toString();
  }
}

/**
 * A Node.js Lambda handler for a function that only serves CloudWatch custom widgets. The app is built
 * here, once per execution environment (a declaration conflict fails the cold start, not an event).
 *
 * @example
 * const app = createApp();
 * app.route(route('GET', '/', () => html`<h1>Hello</h1>`));
 * export const handler = widgetHandler(app);
 */
export function widgetHandler(
  app: App,
  options: WidgetEventOptions = {},
): (event: unknown, context?: Partial<LambdaContext>) => Promise<WidgetOutput> {
  const routeParam = checkWidgetOptions(options);
  app.build();
  return (event, context) => answerWidgetEvent(app, event, context, routeParam, options);
}
