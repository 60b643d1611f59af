// Helpers for writing CloudWatch custom-widget functions (plain Lambda handlers), for the other rooms and the
// tests; `trellis/widgets` publishes what users call from it (src/public/widgets.ts).
export { html, trusted, escapeHtml, SafeHtml } from './html.js';
export { callAction, htmlAction, jsonContent, type CallActionOptions, type HtmlActionOptions } from './actions.js';
export { textInput, textarea, checkbox, radioGroup, select, type Choice } from './forms.js';
export { markdown, documented } from './results.js';
export {
  lineChart,
  areaChart,
  barChart,
  pieChart,
  sparkline,
  dataTable,
  CHART_PALETTES,
  type LineChartOptions,
  type AreaChartOptions,
  type TimeSeriesChartOptions,
  type TimeSeries,
  type PointSeries,
  type ParallelSeries,
  type ChartTime,
  type ChartTimeZone,
  type Bar,
  type BarSeries,
  type BarChartOptions,
  type Slice,
  type PieChartOptions,
  type SparklineOptions,
  type DataTableOptions,
  type DataTableColumn,
  type TableCell,
  type ChartPalette,
  type ChartOptions,
  type ChartContext,
  type ChartContextFields,
  type ChartTheme,
  type ChartValue,
  type ChartColor,
} from './charts/index.js';
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
