/**
 * `trellis`: what an application calls — createApp, routes and their annotations, filters, services,
 * authentication, errors and results — and the types their signatures name. Sibling rooms import the core
 * through `../index.ts` instead; this file is what users get, and api/trellis.api.md records it.
 */
export { App, createApp } from '../index.js';
export type { CookieOptions, Cookies, ExecutionContext, ResourceState } from '../index.js';
export {
  AllowAnonymous,
  Authorize,
  Body,
  Cache,
  ETag,
  Controller,
  Cors,
  Delete,
  Describe,
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
} from '../index.js';
export type {
  Annotation,
  AnnotationDecorator,
  AnnotationKind,
  BodySettings,
  CacheSettings,
  CorsOptions,
  DescribeSettings,
  FeatureKind,
  MultipartLimits,
  RouteDefinition,
  UploadedFile,
  ValidateAnnotation,
  ValidatedContext,
} from '../index.js';
export { FilterOrder, HttpError, Logger, failure, problem, reply, serverSentEvents } from '../index.js';
export type { ErrorHandler, FailureCode, Filter, Next, Principal, ProblemDetails, Reply, RouteInfo, UsageErrorCode } from '../index.js';
export { Lifetime, RegistrationType, createToken } from '../index.js';
export type { TypedToken } from '../index.js';
export { ApiKeyAuthenticator, Authenticator, JwtBearerAuthenticator } from '../index.js';
export type { ApiKeyIdentity, AuthenticationResult } from '../index.js';
export { ResponseCacheStore } from '../index.js';
export type { CachedResponse } from '../index.js';
