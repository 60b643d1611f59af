export { Authenticator, authenticationFilter } from './authentication/index.js';
export type { AuthenticationResult } from './authentication/index.js';
export { authorizationFilter } from './authorization/index.js';
export { MemoryResponseCache, ResponseCacheStore, responseCacheFilter } from './response-cache/index.js';
export type { CacheClock, CachedResponse } from './response-cache/index.js';
export {
  Reply,
  SerializationSettings,
  formatServerSentEvent,
  reply,
  serializationFilter,
  serverSentEvents,
} from './serialization/index.js';
export type { ServerSentEvent } from './serialization/index.js';
export type { ErrorClass, ErrorHandler, ErrorMapping } from './serialization/index.js';
export {
  Cors,
  CorsKind,
  CorsPolicy,
  DEFAULT_EXPOSED_HEADERS,
  addCorsHeaders,
  corsOf,
  isPreflight,
  preflightResponse,
} from './cors/index.js';
export type { CorsOptions, CorsOrigins } from './cors/index.js';
