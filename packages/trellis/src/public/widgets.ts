/** `trellis/widgets`: helpers for writing CloudWatch custom-widget functions (plain Lambda handlers). */
export { escapeHtml, html, trusted } from '../widgets/index.js';
export type { SafeHtml } from '../widgets/index.js';
export { callAction, htmlAction } from '../widgets/index.js';
export { checkbox, radioGroup, select, textInput, textarea } from '../widgets/index.js';
export { documented, markdown } from '../widgets/index.js';
export { areaChart, barChart, dataTable, lineChart, pieChart, sparkline } from '../widgets/index.js';
export type { LambdaContext, MarkdownResult, WidgetContext, WidgetEvent, WidgetHandler, WidgetTimezone } from '../widgets/index.js';
