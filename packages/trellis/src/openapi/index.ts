/**
 * OpenAPI 3.1 documents of Trellis apps, made from their routes: `createOpenApiDocument(app, options)` builds one,
 * `openApiRoute(app, options)` serves it. The room's surface for the tests; `trellis/openapi` publishes what users
 * call from it (src/public/openapi.ts).
 */
export { createOpenApiDocument } from './document.js';
export type { DocumentedApp } from './document.js';
export { openApiRoute } from './route.js';
export type { OpenApiRouteOptions } from './route.js';
export { UNCONVERTED } from './json-schema.js';
export type {
  JsonSchemaContext,
  JsonSchemaConverter,
  JsonSchemaObject,
  OpenApiDocument,
  OpenApiInfo,
  OpenApiOptions,
  OpenApiServer,
  SchemaPart,
} from './types.js';
