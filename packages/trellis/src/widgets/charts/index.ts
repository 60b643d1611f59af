// The charts of trellis/widgets: SVG and HTML the CloudWatch console keeps, with no script.
export { lineChart, type LineChartOptions } from './line.js';
export { areaChart, type AreaChartOptions } from './area.js';
export { barChart, type Bar, type BarSeries, type BarChartOptions } from './bar.js';
export { pieChart, type Slice, type PieChartOptions } from './pie.js';
export { sparkline, type SparklineOptions } from './sparkline.js';
export { dataTable, type DataTableOptions, type DataTableColumn, type TableCell } from './table.js';
export { CHART_PALETTES, type ChartPalette } from './palette.js';
export type { TimeSeriesChartOptions } from './time-series.js';
export type { TimeSeries, PointSeries, ParallelSeries, ChartTime } from './series.js';
export type { ChartTimeZone } from './time-zone.js';
export type { ChartOptions, ChartContext, ChartContextFields, ChartTheme, ChartValue, ChartColor } from './options.js';
