import type { BodySource, OutgoingResponse, RouteInfo } from '../pipeline/index.js';
import { ExecutionContext, problem } from '../pipeline/index.js';
import { problemResponse } from '../filters/index.js';
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
  readonly run: (ctx: ExecutionContext) => Promise<void>;
}

export interface DispatchDeps {
  readonly router: Router<CompiledRoute>;
  readonly provider: ServiceProvider;
  readonly onError: (error: unknown, where: string) => void;
  /** Which proxies may say who the client is. */
  readonly trust: TrustFunction;
}

/** Runs one request through routing and its route's pipeline; never rejects. */
export async function dispatch(deps: DispatchDeps, req: IncomingRequest): Promise<OutgoingResponse> {
  const target = splitTarget(req.url);
  if (target === null) return problemResponse(problem(400, 'The request target is not a valid path (check its percent-encoding).'));
  const match = deps.router.find(req.method, target.path);
  if (match === null) {
    const allowed = deps.router.allowedMethods(target.path);
    if (allowed.length > 0) {
      const response = problemResponse(problem(405, `${req.method} is not allowed here; use ${allowed.join(', ')}.`));
      response.headers.set('allow', allowed.join(', '));
      return response;
    }
    return problemResponse(problem(404, `No handler for ${req.method} ${target.path}.`));
  }
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
  let response: OutgoingResponse | null;
  try {
    await route.run(ctx);
    response = ctx.response;
    if (response === null) throw new Error(`The pipeline of ${route.info.id} produced no response.`);
  } catch (error) {
    deps.onError(error, route.info.id);
    response = problemResponse(problem(500, 'The request failed inside the pipeline.'));
  }
  // Every response object is made for this request, so filter headers go straight into it.
  if (ctx.hasResponseHeaders) response.headers.fillFrom(ctx.responseHeaders);
  return response;
}
