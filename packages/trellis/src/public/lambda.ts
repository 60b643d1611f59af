/**
 * `trellis/lambda`: a Trellis app on AWS Lambda — API Gateway REST APIs (payload 1.0), HTTP APIs (2.0), function
 * URLs and Application Load Balancers, response streaming, and CloudWatch custom-widget events — answered by the
 * same pipeline as `listen()` and `inject()`.
 */
export { isBinaryContentType, lambdaHandler, lambdaInvocation, lambdaStreamingHandler } from '../lambda/index.js';
export type {
  ApiGatewayHttpEvent,
  LambdaHandlerOptions,
  LambdaHttpHandler,
  LambdaInvocation,
  LambdaStreamingHandler,
} from '../lambda/index.js';
export { routeAction, widgetContext, widgetHandler, widgetInvocation, WidgetRateLimitPartitioner } from '../lambda/index.js';
export type { WidgetInvocation } from '../lambda/index.js';
