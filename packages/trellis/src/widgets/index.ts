// trellis/widgets: helpers for writing CloudWatch custom-widget functions (plain Lambda handlers).
export { html, trusted, escapeHtml, SafeHtml } from './html.js';
export { callAction, htmlAction, jsonContent, type CallActionOptions, type HtmlActionOptions } from './actions.js';
export { textInput, textarea, checkbox, radioGroup, select, type Choice } from './forms.js';
export { markdown, describe } from './results.js';
export type {
  WidgetEvent,
  WidgetContext,
  WidgetTimezone,
  WidgetTimeRange,
  LambdaContext,
  LambdaCallback,
  WidgetHandler,
  WidgetResult,
  MarkdownResult,
} from './types.js';
