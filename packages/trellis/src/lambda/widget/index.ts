// CloudWatch custom-widget events answered by a Trellis app.
export { widgetHandler } from './handler.js';
export type { WidgetEventOptions, WidgetOutput } from './handler.js';
export { isWidgetEvent } from './event.js';
export type { WidgetLambdaEvent } from './event.js';
export { widgetContext, widgetInvocation } from './request.js';
export type { WidgetInvocation } from './request.js';
export { Describe, DescribeKind, describeWidgetRoutes } from './describe.js';
export type { DescribeOptions } from './describe.js';
export { WidgetRateLimitPartitioner } from './partitioner.js';
export type { WidgetPartitionBy, WidgetRateLimitPartitionerOptions } from './partitioner.js';
export { routeAction } from './route-action.js';
export type { RouteActionOptions } from './route-action.js';
export { DEFAULT_ROUTE, DEFAULT_ROUTE_PARAM } from './params.js';
