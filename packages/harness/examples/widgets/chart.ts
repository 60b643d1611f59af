// A line chart drawn by the function with lineChart: a deterministic series across the dashboard's time range,
// so it redraws when the range changes. Sized to the widget, its time axis on the dashboard's clock, its
// colours following the console's theme.
import { lineChart, type WidgetEvent } from 'trellis/widgets';

const POINTS = 24;

interface Params {
  metric?: string;
}

/** A smooth, repeatable curve in [0, 100] for a point in time. */
function value(ms: number): number {
  const hours = ms / 3_600_000;
  return 50 + 30 * Math.sin(hours / 2) + 15 * Math.sin(hours * 1.7);
}

const DOCUMENTATION = 'Draws a line chart as inline SVG over the dashboard time range. Params: `metric` (the label).';

export const handler = async (event: WidgetEvent<Params>) => {
  if (event.describe) return DOCUMENTATION;
  const metric = event.metric ?? 'Metric';
  const { start, end } = event.widgetContext.timeRange;
  const step = (end - start) / (POINTS - 1);
  const points = Array.from({ length: POINTS }, (_, i) => [start + i * step, value(start + i * step)] as const);
  return lineChart({
    context: event,
    title: `${metric} over the time range`,
    unit: '%',
    yMin: 0,
    yMax: 100,
    series: [{ name: metric, points }],
  }).toString();
};
