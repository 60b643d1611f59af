/**
 * A Trellis app on AWS Lambda. HTTP front doors — API Gateway REST APIs (payload 1.0), HTTP APIs (2.0), function
 * URLs and Application Load Balancers — and CloudWatch custom-widget events, answered by the same pipeline as
 * `listen()` and `inject()`. The room's surface for the tests; `trellis/lambda` publishes what users call from it
 * (src/public/lambda.ts).
 */
export { lambdaHandler } from './handler.js';
export type { AppSource, LambdaHandlerOptions, LambdaHttpHandler } from './handler.js';
export { lambdaStreamingHandler } from './streaming.js';
export type { LambdaResponseStream, LambdaStreamingHandler } from './streaming.js';
export { lambdaInvocation } from './invocation.js';
export type { LambdaInvocation } from './invocation.js';
export { isBinaryContentType } from './binary-body.js';
export { httpEventKind } from './event-kind.js';
export type {
  AlbEvent,
  ApiGatewayHttpEvent,
  ApiGatewayRestEvent,
  AuthorizerFacts,
  GivenLambdaContext,
  LambdaEventKind,
  LambdaHttpEvent,
  LambdaHttpResult,
} from './events.js';
export type { LambdaContext } from '../widgets/index.js';
// CloudWatch custom-widget events (src/lambda/widget).
export * from './widget/index.js';
