// Cross-origin resource sharing: the `Cors` annotation, app-wide settings, preflights and response headers.
export { Cors, CorsKind, corsOf } from './annotation.js';
export { CorsPolicy, DEFAULT_EXPOSED_HEADERS } from './policy.js';
export type { CorsOptions, CorsOrigins } from './policy.js';
export { addCorsHeaders, isPreflight, preflightResponse } from './responses.js';
