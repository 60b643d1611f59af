// Line charts of time series: one <path> per series, gaps where there is no data.
import type { SafeHtml } from '../html.js';
import { PathWriter } from './path.js';
import { timeSeriesChart, type Plot, type TimeSeriesChartOptions, type TimeSeriesKind } from './time-series.js';
import type { Visible } from './time-rows.js';

/**
 * What `lineChart` takes.
 *
 * @example
 * const options: LineChartOptions = { title: 'p99 latency', unit: 'ms', series: [{ name: 'GET /orders', points }] };
 */
export type LineChartOptions = TimeSeriesChartOptions;

/** Each series' line as path data: a subpath per run of values, a dot for a value alone between gaps. */
export function linePaths(series: readonly Visible[], plot: Plot): string[] {
  return series.map((s) => {
    const p = new PathWriter();
    let open = false;
    for (let i = s.from; i < s.to; i++) {
      const v = s.values[i]!;
      if (Number.isNaN(v)) {
        if (open) p.end();
        open = false;
        continue;
      }
      const x = plot.x(s.times[i]!);
      const y = plot.y(v);
      if (open) p.line(x, y);
      else p.move(x, y);
      open = true;
    }
    if (open) p.end();
    return p.toString();
  });
}

/** The lines, series 9 and on dashed (the palette has eight colours). */
export function drawLines(paths: readonly string[]): string {
  let out = '';
  paths.forEach((d, k) => {
    if (d !== '') out += `<path class="l s${k}${k >= 8 ? ' d' : ''}" d="${d}"/>`;
  });
  return out;
}

export const lineCss = (s: string): string =>
  `${s} .l{fill:none;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}${s} .d{stroke-dasharray:6 3}`;

const LINE: TimeSeriesKind = {
  kind: 'line',
  name: 'Line chart',
  zero: false,
  draw: (series, plot) => drawLines(linePaths(series, plot)),
  css: lineCss,
};

/**
 * A line chart of time series, as SVG the CloudWatch console keeps: a time axis on the dashboard's clock,
 * a value axis, a legend for several series, a readout under the pointer (CSS only, no script) and the data as a
 * table in a `<details>`. Missing values (`null`, `NaN`) leave gaps. Pass the widget's event as `context` to
 * size the chart to the widget and take the dashboard's time range, time zone and locale.
 *
 * @example
 * export const handler = async (event: WidgetEvent) => {
 *   const { MetricDataResults: [cpu] = [] } = await cloudwatch.send(new GetMetricDataCommand({ … }));
 *   return lineChart({
 *     context: event,
 *     title: 'CPU utilization',
 *     unit: '%',
 *     series: [{ name: 'web-1', timestamps: cpu?.Timestamps ?? [], values: cpu?.Values ?? [] }],
 *   });
 * };
 */
export function lineChart(options: LineChartOptions): SafeHtml {
  return timeSeriesChart('lineChart', LINE, options);
}
