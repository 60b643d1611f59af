import { Describe, reply, route } from '../index.js';
import type { RouteDefinition } from '../index.js';
import { buildDocument } from './document.js';
import type { DocumentedApp } from './document.js';
import type { OpenApiOptions } from './types.js';
import { usageError } from '../errors/index.js';

/** Options of `openApiRoute`: the document's, and where it is served. */
export interface OpenApiRouteOptions extends OpenApiOptions {
  /** Default `/openapi.json`. */
  readonly path?: string;
}

/**
 * A `GET` route that serves the app's OpenAPI document (`/openapi.json` unless told otherwise). The document is
 * made on the first request, from the app as it was built, and kept; it lists this route too.
 *
 * @example
 * const app = createApp();
 * app.controller(Orders);
 * app.route(openApiRoute(app, { info: { title: 'Orders API', version: '1.0.0' } }));
 */
export function openApiRoute(app: DocumentedApp, options: OpenApiRouteOptions): RouteDefinition {
  const { path = '/openapi.json', ...documentOptions } = options ?? ({} as OpenApiRouteOptions);
  if (app === null || typeof app !== 'object' || !('routes' in app))
    throw usageError(
      'TRELLIS_INVALID_OPENAPI_OPTIONS',
      'openApiRoute takes the app it describes, then options: openApiRoute(app, { info }).',
    );
  let text: string | undefined;
  const describe = Describe({
    summary: 'This OpenAPI document',
    description: 'The OpenAPI 3.1 description of every route of this API.',
    responses: { 200: { description: 'The OpenAPI document', schema: { type: 'object' } } },
  });
  return route('GET', path, [describe], (ctx) => {
    text ??= JSON.stringify(buildDocument(app.routes, app.provider ?? ctx.services, documentOptions));
    return reply(text, { headers: { 'content-type': 'application/json; charset=utf-8' } });
  });
}
