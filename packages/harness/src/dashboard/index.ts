/**
 * An interpreter that behaves like the CloudWatch console for dashboards with custom widgets, a store of
 * dashboards for an HTTP layer, and an in-process driver for TypeScript tests. This is the room's surface for the
 * other rooms and the tests; `trellis-harness/dashboard` publishes what users call from it (src/public/dashboard.ts).
 */
export {
  DashboardError,
  DashboardValidationError,
  NotFoundError,
  OverBudgetError,
  UnprocessableError,
  type ValidationMessage,
} from './errors.js';
export { parseDashboard } from './validate.js';
export type { UpdateOn, WidgetModel, WidgetSummary } from './model.js';
export { STATE_FIELDS, type DashboardState, type StateInput, type Zoom } from './state.js';
export { dashboardWidthSchema, stateInputSchema, timeRangeSchema, widgetSizesSchema, zoomSchema } from './state-schema.js';
export {
  schemaCheck,
  schemaProblemMessage,
  type JsonSchema,
  type SchemaProblem,
  FunctionRegistry,
  FunctionsConfigError,
  loadFunctionsFile,
  validateFunctionsConfig,
  type FunctionInfo,
  type FunctionSpec,
  type FunctionsConfig,
  type InvokeOptions,
  type InvokeOutcome,
  type LambdaContext,
} from './functions/index.js';
export {
  DEFAULT_DASHBOARD_WIDTH,
  GRID_COLUMNS,
  ROW_HEIGHT,
  WIDGET_CHROME,
  WIDGET_GUTTER,
  cellPixelSize,
  gridColumns,
  widgetPixelSize,
  type PixelSize,
} from './geometry.js';
// What a custom widget's function receives: the authoring toolkit's types, one meaning each.
export type { WidgetContext, WidgetEvent, WidgetTimezone } from 'trellis/widgets';
export { htmlOfValue, type WidgetError } from './render.js';
export { MAX_MARKDOWN_LENGTH } from './markdown.js';
export { MAX_JSON_DEPTH, tooDeep } from './json-depth.js';
export type { ActionEntry, CancelledAction, DescribeResult, RefreshResult, StateUpdate, WidgetReading } from './results.js';
export type { Finding, FormField, FunctionInvoker, WidgetAction } from './ports.js';
export { Dashboard, type RefreshOptions, type RunActionOptions, type WidgetRef } from './dashboard.js';
export { logsOf } from './widget-session.js';
export { DashboardStore } from './store.js';
export { ActionHandle, DashboardDriver, WidgetView } from './driver.js';
export { Interpreter, createInterpreter } from './interpreter.js';
export {
  TemplateError,
  loadTemplate,
  parseTemplateText,
  resolveTemplate,
  type LoadedTemplate,
  type TemplateOptions,
} from './template/index.js';
