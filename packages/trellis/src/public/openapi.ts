/**
 * `trellis/openapi`: OpenAPI 3.1 documents of Trellis apps, made from their routes — `createOpenApiDocument(app,
 * options)` builds one, `openApiRoute(app, options)` serves it.
 */
export { createOpenApiDocument, openApiRoute } from '../openapi/index.js';
export type { OpenApiDocument } from '../openapi/index.js';
