/**
 * Trellis core: routes, handlers with annotations, the filter pipeline with recorded refusals, services,
 * authentication, grant authorization, the response cache, serialization, the Node host and inject(). This is
 * the core's surface for the rooms that plug into it (rate limiting, the Lambda doors, OpenAPI); `trellis`
 * publishes what users call from it (src/public/index.ts).
 */
export { App, createApp, normalizeAddress } from './app/index.js';
export type {
  AppOptions,
  BoundAddress,
  IncomingRequest,
  InjectRequest,
  InjectResponse,
  ListenOptions,
  RecordedResponse,
  TrustProxy,
} from './app/index.js';
export {
  AllowAnonymous,
  Authorize,
  Body,
  multipartLimits,
  Cache,
  ETag,
  Controller,
  Delete,
  Get,
  Head,
  Options,
  Patch,
  Post,
  Put,
  Validate,
  annotation,
  group,
  route,
} from './annotations/index.js';
export { Describe, DescribeKind } from './annotations/index.js';
export type { DescribeSettings, DescribedResponse } from './annotations/index.js';
export type {
  AnnotationDecorator,
  BodyFormat,
  BodySettings,
  MultipartLimits,
  CacheSettings,
  CacheVary,
  Handler,
  PathParamNames,
  PathParams,
  RouteContext,
  RouteDefinition,
  ValidateAnnotation,
  ValidateSchemas,
  ValidatedContext,
} from './annotations/index.js';
export {
  ExecutionContext,
  FilterOrder,
  HttpError,
  failureError,
  PayloadTooLargeError,
  ClientAbortedError,
  PipelineError,
  RequestHeaders,
  ResponseHeaders,
  BufferBodySource,
  FAILURES,
  failure,
  isThenable,
  Logger,
  consoleLogger,
  errorText,
  problem,
  statusTitle,
} from './pipeline/index.js';
export type {
  Annotation,
  BodySource,
  UploadedFile,
  AnnotationKind,
  CookieOptions,
  Cookies,
  FailureCode,
  ResourceState,
  Feature,
  FeatureKind,
  Filter,
  HttpMethod,
  Next,
  OutgoingResponse,
  Principal,
  ProblemDetails,
  Refusal,
  RequestInfo,
  RouteInfo,
} from './pipeline/index.js';
export type { UsageErrorCode } from './errors/index.js';
export {
  Lifetime,
  RegistrationType,
  ServiceCollection,
  ServiceCycleError,
  ServiceLifetimeError,
  ServiceNotFoundError,
  createToken,
} from './services/index.js';
export type { Factory, RegistrationOptions, ServiceResolver, Token, TypedToken } from './services/index.js';
export { Authenticator, Cors, MemoryResponseCache, Reply, ResponseCacheStore, reply, serverSentEvents } from './filters/index.js';
export type {
  AuthenticationResult,
  CacheClock,
  CachedResponse,
  CorsOptions,
  CorsOrigins,
  ErrorClass,
  ErrorHandler,
  ServerSentEvent,
} from './filters/index.js';
export { ApiKeyAuthenticator, JwtBearerAuthenticator } from './auth/index.js';
export type { ApiKeyAuthenticatorOptions, ApiKeyIdentity, JsonWebKeySet, JwtBearerAuthenticatorOptions } from './auth/index.js';
