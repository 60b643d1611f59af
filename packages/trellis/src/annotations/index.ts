import './symbol-metadata.js';

export { annotation, combineAnnotations, isAnnotation, stableJson } from './annotation.js';
export type { AnnotationDecorator } from './annotation.js';
export { Controller, Delete, Get, Head, Options, Patch, Post, Put } from './routes.js';
export {
  AllowAnonymous,
  AllowAnonymousKind,
  Authorize,
  AuthorizeKind,
  Cache,
  CacheKind,
  ETag,
  ETagKind,
  Validate,
  ValidateKind,
} from './builtin.js';
export type { CacheSettings, CacheVary, ValidateSchemas } from './builtin.js';
export { Body, BodyKind, multipartLimits } from './body.js';
export type { PathParamNames, PathParams, RouteContext, ValidateAnnotation, ValidatedContext } from './typed-input.js';
export type { BodyFormat, BodySettings, MultipartLimits } from './body.js';
export { describeController, group, route, toRouteInfo } from './descriptor.js';
export type { Handler, RouteDefinition } from './descriptor.js';
export { Describe, DescribeKind } from './describe.js';
export type { DescribeSettings, DescribedResponse } from './describe.js';
