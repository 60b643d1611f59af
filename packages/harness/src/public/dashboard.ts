/**
 * `trellis-harness/dashboard`: an interpreter that behaves like the CloudWatch console for dashboards with custom
 * widgets, and its in-process driver for TypeScript tests; the functions file and templates it runs.
 */
export { createInterpreter, logsOf } from '../dashboard/index.js';
// Made by createInterpreter() and its driver, never by a user: their types only.
export type { ActionHandle, DashboardDriver, Interpreter, WidgetView } from '../dashboard/index.js';
export type { ActionEntry, DashboardState, WidgetReading } from '../dashboard/index.js';
export { DashboardError, DashboardValidationError, NotFoundError, OverBudgetError, UnprocessableError } from '../dashboard/index.js';
export { FunctionRegistry, FunctionsConfigError, loadFunctionsFile, validateFunctionsConfig } from '../dashboard/index.js';
export type { FunctionsConfig } from '../dashboard/index.js';
export { TemplateError, loadTemplate, resolveTemplate } from '../dashboard/index.js';
export type { LoadedTemplate } from '../dashboard/index.js';
export { cellPixelSize, widgetPixelSize } from '../dashboard/index.js';
export type { PixelSize } from '../dashboard/index.js';
export { MAX_JSON_DEPTH, MAX_MARKDOWN_LENGTH } from '../dashboard/index.js';
