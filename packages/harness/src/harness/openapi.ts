import type { Interpreter } from '../dashboard/index.js';
import { IMAGE_FAILURES, type WidgetImages } from '../snapshot/index.js';
import { Describe, createApp, route, type RouteDefinition } from 'trellis';
import { createOpenApiDocument } from 'trellis/openapi';
import { apiRoutes, guardResponses } from './api-routes.js';
import { ChangeFeed } from './change-feed.js';
import { changesRoutes } from './changes-route.js';
import { imageRoutes } from './image-route.js';
import { schemas } from './openapi-schemas.js';

const { Problem: problem, ...named } = schemas as Record<string, { properties?: Record<string, Record<string, unknown>> }>;

/** The members the harness's problems carry beyond the framework's (the interpreter's refusals). */
const problemExtensions = Object.fromEntries(['validationMessages', 'target', 'budget'].map((name) => [name, problem!.properties![name]!]));

let cached: object | null = null;

/**
 * The OpenAPI 3.1 description of the harness HTTP API (served at `/api/openapi.json`), made by `trellis/openapi`
 * from the API's routes and their annotations; the request guard's token is its security scheme.
 *
 * @example
 * const doc = openApiDocument() as { openapi: string }; // doc.openapi === '3.1.0'
 */
export function openApiDocument(): object {
  if (cached) return cached;
  // The routes only: nothing runs, so they need no interpreter and no feed that anything writes to.
  const app = createApp().route(
    apiRoutes({} as Interpreter),
    imageRoutes({} as Interpreter, {} as WidgetImages),
    changesRoutes(new ChangeFeed(false)),
    openApiDocumentRoute(),
  );
  const document = createOpenApiDocument(app, {
    info: {
      title: 'Trellis dashboard harness',
      version: '0.1.0',
      description:
        'Loads CloudWatch dashboards with custom widgets and behaves like the console: widget reads, actions with forms, state changes and refreshes. Errors are RFC 9457 problem details. Bodies over the limit (default 5 MiB) are a 413.',
    },
    servers: [{ url: 'http://127.0.0.1:4600' }],
    schemas: named,
    problemExtensions,
    problemCodes: Object.keys(IMAGE_FAILURES),
  });
  cached = {
    ...document,
    // The token is needed only when the harness listens beyond loopback.
    security: [{}, { token: [] }],
    components: {
      ...document.components,
      securitySchemes: {
        token: {
          type: 'http',
          scheme: 'bearer',
          description: 'Needed when the harness listens on an address other than loopback: the token it printed at start-up.',
        },
      },
    },
  };
  return cached;
}

/** `GET /api/openapi.json`: the document. */
export function openApiDocumentRoute(): RouteDefinition {
  return route(
    'GET',
    '/api/openapi.json',
    [
      guardResponses,
      Describe({
        operationId: 'openapi',
        summary: 'This document',
        responses: { 200: { description: 'OpenAPI 3.1', schema: { type: 'object' } } },
      }),
    ],
    () => openApiDocument(),
  );
}
