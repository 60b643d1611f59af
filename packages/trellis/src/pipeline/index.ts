export { FilterOrder } from './filter-order.js';
export type { Filter, FilterRun, Next } from './filter.js';
export { ExecutionContext } from './context.js';
export type { HttpMethod, OutgoingResponse, Principal, Refusal, RequestInfo, RouteInfo } from './context.js';
export type { Annotation, AnnotationKind } from './annotation.js';
export { featureOf } from './feature.js';
export type { Feature, FeatureKind } from './feature.js';
export { RequestHeaders, ResponseHeaders } from './headers.js';
export { CookieKeys, Cookies, cookieKeys } from './cookies.js';
export { bodyEntityTag, evaluatePreconditions, preconditionFailed } from './conditional.js';
export type { ResourceState } from './conditional.js';
export type { CookieOptions } from './cookies.js';
export type { HeaderValue } from './headers.js';
export { addVary } from './vary.js';
export { FAILURES, failure, problem, statusTitle } from './problem.js';
export { problemResponse } from './problem-response.js';
export type { FailureCode } from './problem.js';
export type { ProblemDetails } from './problem.js';
export { HttpError, failureError } from './http-error.js';
export { BufferBodySource, ClientAbortedError, MemoryBodySource, PayloadTooLargeError, bodyStream } from './body-source.js';
export type { BodySource } from './body-source.js';
export type { UploadedFile } from './uploaded-file.js';
export { isReadable, nodeStream } from './node-stream.js';
export { PipelineError, assertApplicationFilter, composeFilters, isThenable } from './runner.js';
export { Authenticator } from './authenticator.js';
export type { AuthenticationResult } from './authenticator.js';
export { Logger, consoleLogger } from './logger.js';
export {
  USER_CODE_FAILED,
  UserCodeFailed,
  aBoolean,
  callUserCode,
  callUserCodeSync,
  errorText,
  failedMarker,
  guardedLogger,
} from './user-code.js';
export type { FailureLog, UserCodeFailure, UserHook } from './user-code.js';
