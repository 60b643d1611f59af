import type { Interpreter } from '../dashboard/index.js';
import type { RouteDefinition } from 'trellis';
import { apiRoutes } from './api-routes.js';
import { openApiDocumentRoute } from './openapi.js';

/**
 * The routes of the harness HTTP API over one in-process harness, its OpenAPI document (`GET /api/openapi.json`)
 * among them.
 *
 * @example
 * app.route(harnessRoutes(createInterpreter({ functions: config })));
 */
export function harnessRoutes(harness: Interpreter): RouteDefinition[] {
  return [...apiRoutes(harness), openApiDocumentRoute()];
}
