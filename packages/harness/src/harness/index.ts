/**
 * The dashboard harness over HTTP — a Trellis app that serves the interpreter of `trellis-harness/dashboard` so
 * that click-through tests can be written in any language — with its OpenAPI document and a typed client. This is
 * the room's surface for the command line and the tests; `trellis-harness` publishes what users call from it
 * (src/public/index.ts).
 */
export { DEFAULT_BODY_LIMIT, createHarnessApp, startHarness } from './app.js';
export type { HarnessApp, HarnessAppOptions, RunningHarness, StartHarnessOptions } from './app.js';
export { harnessRoutes } from './routes.js';
export { ChangeFeed } from './change-feed.js';
export type { ChangesAnswer, HarnessChange } from './change-feed.js';
export { changesRoutes, MAX_CHANGES_WAIT_SECONDS } from './changes-route.js';
export { watchFunctions } from './function-watch.js';
export type { FunctionWatch, WatchOptions } from './function-watch.js';
export { requestGuard } from './request-guard.js';
export type { RequestGuardOptions } from './request-guard.js';
export { isAllowedHost, isLoopback } from './hosts.js';
export { dashboardErrorToProblem } from './errors.js';
export { Accepts, AcceptsKind } from './accepts.js';
export { openApiDocument } from './openapi.js';
export { HarnessApiError, HarnessClient } from './client.js';
export { WidgetImages, compareWidgetImage } from '../snapshot/index.js';
export type { ImageComparison, WidgetImage } from '../snapshot/index.js';
export type { CreatedDashboard, DashboardDetails, HarnessClientOptions } from './client.js';
