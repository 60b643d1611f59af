// Area charts of time series: each series filled down to zero under its line.
import type { SafeHtml } from '../html.js';
import { PathWriter } from './path.js';
import { drawLines, lineCss, linePaths } from './line.js';
import { timeSeriesChart, type Plot, type TimeSeriesChartOptions, type TimeSeriesKind } from './time-series.js';
import type { Visible } from './time-rows.js';

/**
 * What `areaChart` takes.
 *
 * @example
 * const options: AreaChartOptions = { title: 'Requests', series: [{ name: 'GET', points }], legend: true };
 */
export type AreaChartOptions = TimeSeriesChartOptions;

/** Each series' area: a closed shape per run of values, down to the base (zero). */
function areaPaths(series: readonly Visible[], plot: Plot): string[] {
  return series.map((s) => {
    const p = new PathWriter();
    let lastX = NaN;
    const close = () => {
      if (!Number.isNaN(lastX)) p.line(lastX, plot.base).close();
      lastX = NaN;
    };
    for (let i = s.from; i < s.to; i++) {
      const v = s.values[i]!;
      if (Number.isNaN(v)) {
        close();
        continue;
      }
      const x = plot.x(s.times[i]!);
      if (Number.isNaN(lastX)) p.move(x, plot.base);
      p.line(x, plot.y(v));
      lastX = x;
    }
    close();
    return p.toString();
  });
}

const AREA: TimeSeriesKind = {
  kind: 'area',
  name: 'Area chart',
  zero: true,
  draw: (series, plot) => {
    let fills = '';
    areaPaths(series, plot).forEach((d, k) => {
      if (d !== '') fills += `<path class="a f${k}" d="${d}"/>`;
    });
    return fills + drawLines(linePaths(series, plot));
  },
  css: (s) => `${lineCss(s)}${s} .a{fill-opacity:.2;stroke:none}`,
};

/**
 * An area chart of time series: like `lineChart`, with each series filled down to zero (the value axis
 * always includes zero). Areas overlap, translucent; the lines stay on top.
 *
 * @example
 * areaChart({
 *   context: event,
 *   title: 'Requests',
 *   unit: 'Count',
 *   series: [{ name: 'GET', points: [[Date.parse('2024-05-01T12:00Z'), 120], [Date.parse('2024-05-01T12:05Z'), 98]] }],
 * });
 */
export function areaChart(options: AreaChartOptions): SafeHtml {
  return timeSeriesChart('areaChart', AREA, options);
}
