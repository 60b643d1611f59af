import type { BodySource, OutgoingResponse, RouteInfo } from '../pipeline/index.js';
import { ExecutionContext, bodyEntityTag, evaluatePreconditions, failure, preconditionFailed, problemResponse } from '../pipeline/index.js';
import { addCorsHeaders, isPreflight, preflightResponse } from '../filters/index.js';
import type { CorsPolicy } from '../filters/index.js';
import type { ServiceProvider } from '../services/index.js';
import { LazyRequestInfo, splitTarget, type TrustFunction } from './request-info.js';
import type { Router } from './router.js';

/** A request as the dispatcher sees it, from a socket or from inject(). */
export interface IncomingRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: BodySource;
  readonly signal: () => AbortSignal;
  /** The connection's peer address, when there is a connection. */
  readonly remoteAddress?: string | undefined;
  /** Values the host hands the pipeline (ctx.items starts with them), e.g. a Lambda event; made per request. */
  readonly items?: Map<unknown, unknown> | undefined;
}

/** A route with its filters sorted and composed once, at build time. */
export interface CompiledRoute {
  readonly info: RouteInfo;
  readonly run: (ctx: ExecutionContext) => void | Promise<void>;
  /** Its cross-origin settings (its own annotation's, else the app's), or undefined. */
  readonly cors: CorsPolicy | undefined;
  /** It has the `ETag` annotation: its whole GET and HEAD answers get an entity tag of their bytes. */
  readonly etag: boolean;
}

export interface DispatchDeps {
  readonly router: Router<CompiledRoute>;
  readonly provider: ServiceProvider;
  readonly onError: (error: unknown, where: string) => void;
  /** Which proxies may say who the client is. */
  readonly trust: TrustFunction;
  /** The app-wide cross-origin settings, for answers no route gives (404, 405). */
  readonly cors: CorsPolicy | undefined;
  /** Longest accepted request target, in bytes. */
  readonly maxUrlLength: number;
}

/**
 * Runs one request through routing and its route's pipeline; never rejects. The answer is a promise only when
 * a filter or the handler waited on something.
 */
export function dispatch(deps: DispatchDeps, req: IncomingRequest): OutgoingResponse | Promise<OutgoingResponse> {
  // Every door alike: a target past the limit is refused before it is parsed or routed.
  if (req.url.length > deps.maxUrlLength && Buffer.byteLength(req.url) > deps.maxUrlLength) {
    return problemResponse(
      failure('TRELLIS_URL_TOO_LONG', `The request target is longer than the limit of ${deps.maxUrlLength} bytes.`, {
        limit: deps.maxUrlLength,
      }),
    );
  }
  const target = splitTarget(req.url);
  if (target === null)
    return problemResponse(failure('TRELLIS_BAD_TARGET', 'The request target is not a valid path (check its percent-encoding).'));
  // A CORS preflight is answered here, before any filter: no authentication, rate limit or handler runs.
  if (req.method === 'OPTIONS' && isPreflight(req.method, req.headers)) {
    const preflight = answerPreflight(deps, target.path, req.headers);
    if (preflight !== undefined) return preflight;
  }
  const match = deps.router.find(req.method, target.path);
  if (match === null) return withCors(deps, deps.cors, req, unrouted(deps, req.method, target.path));
  const route = match.entry;
  const ctx = new ExecutionContext({
    request: new LazyRequestInfo(req.method, req.url, target.path, target.query, req.headers, req.remoteAddress, deps.trust),
    route: route.info,
    params: match.params,
    services: deps.provider.createScope(),
    body: req.body,
    signal: req.signal,
    items: req.items,
  });
  let pending: void | Promise<void>;
  try {
    pending = route.run(ctx);
  } catch (error) {
    return finished(deps, route, req, ctx, error);
  }
  if (pending === undefined) return finished(deps, route, req, ctx);
  return pending.then(
    () => finished(deps, route, req, ctx),
    (error: unknown) => finished(deps, route, req, ctx, error),
  );
}

/** Marks a pipeline that ended without an error. */
const NO_ERROR = Symbol('no error');

/**
 * The response the pipeline produced (or, when it threw or produced none, a 500 problem, and the error
 * reported), with the headers filters set and the route's CORS headers.
 */
function finished(
  deps: DispatchDeps,
  route: CompiledRoute,
  req: IncomingRequest,
  ctx: ExecutionContext,
  error: unknown = NO_ERROR,
): OutgoingResponse {
  let response = error === NO_ERROR ? ctx.response : null;
  if (response === null) {
    deps.onError(error === NO_ERROR ? new Error(`The pipeline of ${route.info.id} produced no response.`) : error, route.info.id);
    response = problemResponse(failure('TRELLIS_PIPELINE_FAILED', 'The request failed inside the pipeline.'));
  }
  if (response.status === 200 && (req.method === 'GET' || req.method === 'HEAD')) response = conditional(route, req, ctx, response);
  // Every response object is made for this request, so filter headers go straight into it (a 304's and a 412's too).
  if (ctx.hasResponseHeaders) response.headers.fillFrom(ctx.responseHeaders);
  return withCors(deps, route.cors, req, response);
}

/** Headers a 304 leaves out: they describe a body, and a 304 has none. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-range'];

/** Whether a request carries any precondition header, read from its raw headers (most carry none: one look each). */
function hasPreconditions(headers: IncomingRequest['headers']): boolean {
  return (
    headers['if-none-match'] !== undefined ||
    headers['if-modified-since'] !== undefined ||
    headers['if-match'] !== undefined ||
    headers['if-unmodified-since'] !== undefined
  );
}

/**
 * A GET or HEAD answer of 200 weighed against the request's preconditions: with its entity tag (the handler's,
 * or of its bytes on an `ETag` route), a 304 with no body when the client's copy is current, the 412 problem
 * when an `If-Match` or `If-Unmodified-Since` fails, or the answer itself.
 */
function conditional(route: CompiledRoute, req: IncomingRequest, ctx: ExecutionContext, response: OutgoingResponse): OutgoingResponse {
  let etag = response.headers.get('etag');
  if (etag === undefined && route.etag && (typeof response.body === 'string' || Buffer.isBuffer(response.body))) {
    etag = bodyEntityTag(response.body);
    response.headers.set('etag', etag);
  }
  if (!hasPreconditions(req.headers)) return response;
  const lastModified = response.headers.get('last-modified');
  const outcome = evaluatePreconditions((name) => ctx.request.headers.get(name), req.method, {
    etag: typeof etag === 'string' ? etag : undefined,
    lastModified: typeof lastModified === 'string' ? new Date(lastModified) : undefined,
  });
  if (outcome === 'proceed') return response;
  if (outcome === 'failed') return problemResponse(preconditionFailed().problem);
  (response.body as { destroy?: () => void } | null)?.destroy?.();
  for (const name of BODY_HEADERS) response.headers.delete(name);
  return { status: 304, headers: response.headers, body: null };
}

/** 405 naming the methods the path has, or 404. */
function unrouted(deps: DispatchDeps, method: string, path: string): OutgoingResponse {
  const allowed = deps.router.allowedMethods(path);
  if (allowed.length > 0) {
    const response = problemResponse(failure('TRELLIS_METHOD_NOT_ALLOWED', `${method} is not allowed here; use ${allowed.join(', ')}.`));
    response.headers.set('allow', allowed.join(', '));
    return response;
  }
  return problemResponse(failure('TRELLIS_NOT_FOUND', `No handler for ${method} ${path}.`));
}

/** The preflight's answer when the route it asks about has CORS settings; undefined otherwise (routed as usual). */
function answerPreflight(deps: DispatchDeps, path: string, headers: IncomingRequest['headers']): OutgoingResponse | undefined {
  const asked = (headers['access-control-request-method'] as string).toUpperCase();
  const route = deps.router.find(asked, path)?.entry;
  const policy = route === undefined ? deps.cors : route.cors;
  if (policy === undefined) return undefined;
  return preflightResponse(policy, headers, deps.router.allowedMethods(path), deps.provider);
}

/**
 * A response with the CORS headers of its route's settings: `Vary: Origin` whatever the request (when origins
 * are restricted), and the `Access-Control-*` headers its origin earns.
 */
function withCors(deps: DispatchDeps, policy: CorsPolicy | undefined, req: IncomingRequest, response: OutgoingResponse): OutgoingResponse {
  if (policy === undefined) return response;
  const origin = req.headers.origin;
  addCorsHeaders(policy, typeof origin === 'string' ? origin : undefined, response.headers, deps.provider);
  return response;
}
