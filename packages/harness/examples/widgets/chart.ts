// An SVG chart drawn by the function: a deterministic series across the dashboard's time range, so it redraws
// when the range changes. Colours follow the dashboard theme.
import { html, type WidgetEvent } from 'trellis/widgets';

const POINTS = 24;
const WIDTH = 480;
const HEIGHT = 160;

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
  const { start, end } = event.widgetContext.timeRange;
  const step = (end - start) / (POINTS - 1);
  const values = Array.from({ length: POINTS }, (_, i) => value(start + i * step));
  const points = values.map((v, i) => `${((i * WIDTH) / (POINTS - 1)).toFixed(1)},${(HEIGHT - (v / 100) * HEIGHT).toFixed(1)}`).join(' ');
  const stroke = event.widgetContext.theme === 'dark' ? '#7fb8ff' : '#0972d3';
  const max = Math.max(...values);
  return html`<svg class="chart" role="img" aria-label="${event.metric ?? 'Metric'} over the time range" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" height="${HEIGHT}">
<line x1="0" y1="${HEIGHT}" x2="${WIDTH}" y2="${HEIGHT}" stroke="#879596"/>
<polyline fill="none" stroke="${stroke}" stroke-width="2" points="${points}"/>
</svg>
<p>${event.metric ?? 'Metric'}: ${POINTS} points, max ${max.toFixed(1)} %</p>`.toString();
};
