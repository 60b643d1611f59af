/**
 * An interpreter that behaves like the CloudWatch console for dashboards with custom widgets, a store of
 * dashboards for an HTTP layer, and an in-process driver for TypeScript tests. This is the room's surface for the
 * other rooms and the tests; `trellis-harness/dashboard` publishes what users call from it (src/public/dashboard.ts).
 */
export { DashboardError, DashboardValidationError, NotFoundError, OverBudgetError, UnprocessableError } from './errors.js';
export type { DashboardErrorKind, NotFoundTarget, ValidationMessage } from './errors.js';
export { parseDashboard } from './validate.js';
export { WIDGET_TYPES, summarizeWidget } from './model.js';
export type { DashboardModel, UpdateOn, WidgetModel, WidgetSummary, WidgetType } from './model.js';
export { AUTO_PERIOD_SECONDS, STATE_FIELDS, defaultState, normalizeState, resolveTimeRange } from './state.js';
export type { DashboardState, ResolvedTimeRange, StateInput, StateTimeRange, Zoom, ZoomInput } from './state.js';
export { dashboardWidthSchema, stateInputSchema, timeRangeSchema, widgetSizesSchema, zoomSchema } from './state-schema.js';
export { schemaCheck, schemaProblemMessage, type JsonSchema, type SchemaProblem } from './functions/index.js';
export { parseIsoDateTime, parseRelative, resolveRelative } from './time-range.js';
export type { DurationParts } from './time-range.js';
export { buildEvent, buildWidgetContext } from './event.js';
export {
  DEFAULT_DASHBOARD_WIDTH,
  GRID_COLUMNS,
  ROW_HEIGHT,
  WIDGET_CHROME,
  WIDGET_GUTTER,
  cellPixelSize,
  gridColumns,
  widgetPixelSize,
} from './geometry.js';
export type { PixelSize, WidgetSizeOverride } from './geometry.js';
export type { WidgetContext, WidgetEvent, WidgetTimezone } from './event.js';
export { htmlOfValue, renderMarkdown } from './render.js';
export { MAX_MARKDOWN_LENGTH, MarkdownTooLargeError } from './markdown.js';
export { MAX_JSON_DEPTH, tooDeep } from './json-depth.js';
export type { WidgetError } from './render.js';
export type {
  ActionEntry,
  CancelledAction,
  DashboardInfo,
  DescribeResult,
  RefreshResult,
  StateUpdate,
  WidgetEventKind,
  WidgetCall,
  WidgetReading,
} from './results.js';
export type { Finding, FormField, FunctionInvoker, HtmlAnalyzer, WidgetAction } from './ports.js';
export { FunctionRegistry, FunctionsConfigError, loadFunctionsFile, validateFunctionsConfig } from './functions/index.js';
export type {
  AwsCredentialsSource,
  AwsEndpoint,
  FunctionInfo,
  FunctionSpec,
  FunctionsConfig,
  InProcessHandler,
  InvokeError,
  InvokeOptions,
  InvokeOutcome,
  LambdaContext,
} from './functions/index.js';
export { Dashboard } from './dashboard.js';
export { logsOf } from './widget-session.js';
export type { DashboardContext, RefreshOptions, RunActionOptions, WidgetRef } from './dashboard.js';
export { DashboardStore } from './store.js';
export type { DashboardStoreOptions } from './store.js';
export { lintAnalyzer } from './html-analyzer.js';
export { ActionHandle, DashboardDriver, WidgetView } from './driver.js';
export type { ActionQuery } from './find-action.js';
export { Interpreter, createInterpreter } from './interpreter.js';
export type { InterpreterOptions } from './interpreter.js';
export {
  DEFAULT_ACCOUNT_ID,
  DEFAULT_REGION,
  TemplateError,
  defaultStackName,
  loadTemplate,
  parseTemplateText,
  resolveTemplate,
} from './template/index.js';
export type {
  LoadedTemplate,
  ParsedTemplateText,
  TemplateDashboard,
  TemplateOptions,
  TemplatePath,
  TemplatePosition,
} from './template/index.js';
