import { App, BufferBodySource, type IncomingRequest } from '../index.js';
import { Logger, USER_CODE_FAILED, aBoolean, callUserCodeSync, failedMarker, guardedLogger, type UserHook } from '../pipeline/index.js';
import { isBinaryContentType } from './binary-body.js';
import { httpEventKind, notAnHttpEvent } from './event-kind.js';
import { checkEventFields } from './event-fields.js';
import type { GivenLambdaContext, LambdaEventKind, LambdaHttpEvent, LambdaHttpResult } from './events.js';
import { invocationItem, makeLambdaInvocation } from './invocation.js';
import { requestFromEvent } from './request-from-event.js';
import { resultForEvent } from './result-for-event.js';
import { answerWidgetEvent, checkWidgetOptions, type WidgetEventOptions, type WidgetOutput } from './widget/handler.js';
import { isWidgetEvent, type WidgetLambdaEvent } from './widget/event.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_LAMBDA_OPTIONS', message);

export interface LambdaHandlerOptions {
  /**
   * Whether a response body of this `Content-Type` is sent base64-encoded (`isBase64Encoded: true`).
   * Default `isBinaryContentType`: everything but text, JSON, XML and the like. Bodies with a
   * `Content-Encoding` are always binary; others that are not valid UTF-8 are too, whatever their type. It must
   * answer at once with true or false: one that throws or answers anything else (a promise included) is
   * logged, and `isBinaryContentType` decides.
   */
  isBinary?: (contentType: string) => boolean;
  /**
   * A path prefix in front of the app's routes that the app does not know about, removed when present: the
   * base path of a custom domain's API mapping (`/v1`), which REST API events (payload 1.0) include in
   * `path`. An HTTP API's named stage is removed from `rawPath` without it.
   */
  basePath?: string;
  /**
   * How CloudWatch custom-widget events (an event with `widgetContext`, or `{ describe: true }`) are answered:
   * the parameter that picks the route, the `describe` text, development mode. The same handler answers
   * both kinds, so one function can serve an API and a dashboard's widgets.
   */
  widget?: WidgetEventOptions;
}

/**
 * A Node.js Lambda handler: an HTTP event gets an HTTP result in the shape its front door expects; a
 * custom-widget event gets widget output (HTML, `{ markdown }` or JSON).
 */
export interface LambdaHttpHandler {
  (event: LambdaHttpEvent, context?: GivenLambdaContext): Promise<LambdaHttpResult>;
  (event: WidgetLambdaEvent, context?: GivenLambdaContext): Promise<WidgetOutput>;
}

/** An app, or a function that makes one (for setup that must wait, such as reading a secret). */
export type AppSource = App | (() => App | Promise<App>);

const noContext: GivenLambdaContext = Object.freeze({});

const IS_BINARY: UserHook<boolean, typeof USER_CODE_FAILED> = {
  where: 'LambdaHandlerOptions.isBinary',
  instead: 'isBinaryContentType decided',
  accept: aBoolean,
  fallback: failedMarker,
};

/** The application's `isBinary`, called through the guard, with the app's logger for its failures. */
function guardedIsBinary(isBinary: (contentType: string) => boolean, app: App): (contentType: string) => boolean {
  return (contentType) => {
    const binary = callUserCodeSync(app.provider, IS_BINARY, () => isBinary(contentType), contentType);
    return binary === USER_CODE_FAILED ? isBinaryContentType(contentType) : binary;
  };
}

/** Lambda's limit on a (buffered) function response, in bytes. */
export const MAX_BUFFERED_RESPONSE_BYTES = 6 * 1024 * 1024;

/**
 * The app of a handler: an App is built now (in the init phase, at module scope); a factory runs on the
 * first event (once; if it fails, that invocation fails and the next one tries again).
 */
export function lazyApp(source: AppSource): () => App | Promise<App> {
  let app: App | undefined;
  let making: Promise<App> | undefined;
  if (source instanceof App) app = source.build();
  else if (typeof source !== 'function') throw invalid('lambdaHandler takes an App (from createApp()) or a function that returns one.');
  return () => {
    if (app) return app;
    making ??= (async () => {
      try {
        const made = await (source as () => App | Promise<App>)();
        if (!(made instanceof App)) throw invalid('The app factory given to lambdaHandler must return an App (from createApp()).');
        app = made.build();
        return app;
      } finally {
        making = undefined;
      }
    })();
    return making;
  };
}

/** An HTTP event as the request every door hands the app, with the invocation's facts in its items. */
export function incomingFromEvent(
  kind: LambdaEventKind,
  event: LambdaHttpEvent,
  context: GivenLambdaContext | undefined,
  basePath: string | undefined,
): IncomingRequest {
  checkEventFields(kind, event as unknown as Record<string, unknown>);
  const request = requestFromEvent(kind, event, basePath);
  return {
    method: request.method,
    url: request.url,
    headers: request.headers,
    body: request.body ?? new BufferBodySource(null),
    signal: () => new AbortController().signal,
    remoteAddress: request.sourceIp,
    items: new Map([invocationItem.entry(makeLambdaInvocation(kind, event, context ?? noContext, request.sourceIp))]),
  };
}

export function checkBasePath(basePath: string | undefined): string | undefined {
  if (basePath === undefined || basePath === '' || basePath === '/') return undefined;
  if (typeof basePath !== 'string' || !basePath.startsWith('/') || basePath.endsWith('/')) {
    throw invalid(`basePath is a path prefix such as "/v1" (a leading "/", none at the end), got ${JSON.stringify(basePath)}.`);
  }
  return basePath;
}

/**
 * Turns an app into a Node.js Lambda handler for API Gateway REST APIs (payload 1.0), HTTP APIs (2.0),
 * function URLs and Application Load Balancers; which one sent an event is read from the event itself.
 * Every request runs through the same routing, pipeline and response writer as under `listen()` and
 * `inject()`. The app is built when the handler is made — once per execution environment, in Lambda's
 * init phase, when this runs at module scope. A factory runs on the first event instead (once; if it
 * fails, that invocation fails and the next one tries again). Events that are not HTTP events are refused
 * with a TypeError that names the kinds answered.
 *
 * @example
 * // handler.ts, deployed with Handler: handler.handler
 * const app = createApp();
 * app.route(route('GET', '/hello', () => ({ hello: 'world' })));
 * export const handler = lambdaHandler(app);
 */
export function lambdaHandler(source: AppSource, options: LambdaHandlerOptions = {}): LambdaHttpHandler {
  const basePath = checkBasePath(options.basePath);
  const isBinary = options.isBinary;
  if (isBinary !== undefined && typeof isBinary !== 'function')
    throw invalid('isBinary is a function of a Content-Type that says whether the body is binary.');
  const widget = options.widget ?? {};
  const routeParam = checkWidgetOptions(widget);
  const appFor = lazyApp(source);
  let cookiesDropped = false;
  const handler = async (event: unknown, context: GivenLambdaContext = noContext): Promise<WidgetOutput> => {
    // An HTTP result (LambdaHttpResult) for HTTP events; what the widget answers (any JSON) for widget events.
    const kind = httpEventKind(event);
    if (kind === null) {
      if (isWidgetEvent(event)) return answerWidgetEvent(await appFor(), event, context, routeParam, widget);
      throw notAnHttpEvent(event);
    }
    const httpEvent = event as LambdaHttpEvent;
    const request = incomingFromEvent(kind, httpEvent, context, basePath);
    // Lambda holds a buffered response to 6 MB: a streamed body past it is a clear 500, not a failed invocation.
    const app = await appFor();
    const recorded = await app.respond(request, { maxBodyBytes: MAX_BUFFERED_RESPONSE_BYTES });
    // The first response that loses cookies behind a load balancer is said in the log, once per handler.
    const lostCookies =
      cookiesDropped || kind !== 'alb'
        ? undefined
        : (cookies: number) => {
            cookiesDropped = true;
            guardedLogger(app.provider.get(Logger)).warn(
              "A response set several cookies, but the load balancer's target group does not use multi-value headers, so only the first was sent. Turn on multi-value headers for the target group to send them all (said once).",
              { cookies, path: request.url },
            );
          };
    return resultForEvent(
      kind,
      httpEvent,
      recorded,
      isBinary === undefined ? isBinaryContentType : guardedIsBinary(isBinary, app),
      lostCookies,
    );
  };
  return handler as LambdaHttpHandler;
}
