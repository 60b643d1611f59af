import { ResponseHeaders, addVary, failure, problemResponse } from '../../pipeline/index.js';
import type { FailureLog, OutgoingResponse } from '../../pipeline/index.js';
import type { CorsPolicy } from './policy.js';

const PREFLIGHT_VARY = 'origin, access-control-request-method, access-control-request-headers';

/** Whether a request is a CORS preflight: OPTIONS with an origin and the method it asks for. */
export function isPreflight(method: string, headers: Record<string, string | string[] | undefined>): boolean {
  return method === 'OPTIONS' && typeof headers.origin === 'string' && typeof headers['access-control-request-method'] === 'string';
}

/**
 * The answer to a preflight for a route with CORS: 204 with what the page may do, or 403 naming what is not
 * allowed (the browser then blocks the request, and the handler never runs).
 */
export function preflightResponse(
  policy: CorsPolicy,
  headers: Record<string, string | string[] | undefined>,
  pathMethods: readonly string[],
  log: FailureLog,
): OutgoingResponse {
  const origin = headers.origin as string;
  const method = (headers['access-control-request-method'] as string).toUpperCase();
  const vary = new ResponseHeaders({ vary: PREFLIGHT_VARY });
  if (!policy.allows(origin, log))
    return problemResponse(failure('TRELLIS_CORS_REFUSED', `Pages of ${origin} may not call this resource.`), vary);
  const methods = policy.methods ?? pathMethods.join(', ');
  if (!methods.split(', ').includes(method))
    return problemResponse(
      failure('TRELLIS_CORS_REFUSED', `Pages of other origins may not use ${method} here; allowed: ${methods}.`),
      vary,
    );
  const out = vary;
  out.set('access-control-allow-origin', policy.anyOrigin ? '*' : origin);
  if (policy.credentials) out.set('access-control-allow-credentials', 'true');
  out.set('access-control-allow-methods', methods);
  const requested = headers['access-control-request-headers'];
  const allowHeaders = policy.allowedHeaders ?? (typeof requested === 'string' ? requested : undefined);
  if (allowHeaders) out.set('access-control-allow-headers', allowHeaders);
  out.set('access-control-max-age', policy.maxAge);
  return { status: 204, headers: out, body: null };
}

/**
 * Adds the CORS headers of an actual (not preflight) request's response. Any origin (`'*'`): a literal `*` on
 * every response, which is then the same for every page. Restricted origins: `Vary: Origin` on every response,
 * with an `Origin` or without, refusals too, so a shared cache keeps one answer per origin; the
 * `Access-Control-*` headers only for an allowed origin.
 */
export function addCorsHeaders(policy: CorsPolicy, origin: string | undefined, headers: ResponseHeaders, log: FailureLog): void {
  if (policy.anyOrigin) {
    headers.set('access-control-allow-origin', '*');
  } else {
    addVary(headers, 'origin');
    if (origin === undefined || !policy.allows(origin, log)) return;
    headers.set('access-control-allow-origin', origin);
    if (policy.credentials) headers.set('access-control-allow-credentials', 'true');
  }
  if (policy.exposedHeaders) headers.set('access-control-expose-headers', policy.exposedHeaders);
}
