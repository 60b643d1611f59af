// Widgets for the page's layout tests, made to reproduce the layout patterns of AWS's public custom-widget
// samples: an SVG sized with `calc(100% - 25px)` above a legend, a table wider than its widget, a full-width
// text widget, metric / log / alarm widgets, short and long titles in 6-column widgets, a failing function,
// HTML the console would strip, Markdown documentation (describe) and a widget that prints its context.
import type { FunctionsConfig } from '../../packages/harness/src/dashboard/index.js';

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728'];

/** A pie in a 400 × 400 viewBox that takes the widget's height minus a 25 px legend, as the pie sample does. */
function pie(slices: { label: string; value: number }[]): string {
  const total = slices.reduce((t, s) => t + s.value, 0);
  let angle = -Math.PI / 2;
  const paths = slices.map((s, i) => {
    const next = angle + (2 * Math.PI * s.value) / total;
    const at = (a: number) => `${(200 + 195 * Math.cos(a)).toFixed(1)},${(200 + 195 * Math.sin(a)).toFixed(1)}`;
    const d = `M200,200 L${at(angle)} A195,195 0 ${next - angle > Math.PI ? 1 : 0},1 ${at(next)} z`;
    angle = next;
    return `<path d="${d}" fill="${PALETTE[i % PALETTE.length]}"></path>`;
  });
  const legend = slices
    .map((s, i) => `<span class="key"><span class="swatch" style="background:${PALETTE[i % PALETTE.length]}"></span>${s.label}</span>`)
    .join(' ');
  return `<style>
  svg { display: block; height: calc(100% - 25px); width: 100%; }
  .legend { height: 25px; line-height: 25px; white-space: nowrap; overflow: hidden; font-size: 14px; }
  .swatch { display: inline-block; width: 12px; height: 12px; border-radius: 3px; margin: 0 4px 0 8px; }
</style>
<svg class="pie" viewBox="0 0 400 400">${paths.join('')}</svg>
<div class="legend">${legend}</div>`;
}

function wideTable(): string {
  const head = Array.from({ length: 12 }, (_, i) => `<th>Column number ${i + 1}</th>`).join('');
  const rows = Array.from(
    { length: 4 },
    (_, r) => `<tr>${Array.from({ length: 12 }, (_, i) => `<td>r${r}c${i} value</td>`).join('')}</tr>`,
  ).join('');
  return `<table class="wide" style="width:auto;white-space:nowrap"><tr>${head}</tr>${rows}</table><p class="last">After the table</p>`;
}

const DOCS = `## Context printer
Prints the **widgetContext** it receives.

| Param | Meaning |
|---|---|
| none | – |
`;

/** The fixture functions, by endpoint name; `received` collects every event they got. */
export function fixtureFunctions(received: any[]): FunctionsConfig['functions'] {
  return {
    'fixture-pie': {
      handler: () =>
        pie([
          { label: 'Sky', value: 135 },
          { label: 'Shady', value: 22.5 },
          { label: 'Sunny', value: 45 },
        ]),
    },
    'fixture-wide': { handler: () => wideTable() },
    'fixture-hi': { handler: () => '<p>Hi there</p><b onclick="alert(1)">stripped handler</b><script>window.x = 1</script>' },
    'fixture-bad': {
      handler: () => '<p>Bad <b onclick="go()">HTML</b></p><a href="javascript:go()">link</a><iframe src="https://example.com"></iframe>',
    },
    'fixture-broken': {
      handler: () => {
        throw new RangeError('the fixture failed on purpose');
      },
    },
    'fixture-context': {
      handler: (event: any) => {
        if (event.describe) return DOCS;
        received.push(event);
        const c = event.widgetContext;
        return `<dl class="ctx"><dt>Timezone</dt><dd class="tz">${c.timezone.label} ${c.timezone.offsetISO} ${c.timezone.offsetInMinutes}</dd>
<dt>Period</dt><dd class="period">${c.period} ${c.isAutoPeriod ? 'auto' : 'fixed'}</dd>
<dt>Size</dt><dd class="size">${c.width}x${c.height}</dd></dl>
<a class="btn">Popup</a><cwdb-action action="html" display="popup"><p class="in-popup">From the context widget</p></cwdb-action>
<a class="btn">Ask</a><cwdb-action action="call" endpoint="fixture-context" confirmation="Run it again?"></cwdb-action>`;
      },
    },
  };
}

const LONG = 'A very long widget title that the console shortens with an ellipsis in six columns';

/** The fixture dashboard: the layout patterns of the samples, on a 24-column grid. */
export const FIXTURE_DASHBOARD = {
  widgets: [
    {
      type: 'text',
      x: 0,
      y: 0,
      width: 24,
      height: 2,
      properties: {
        markdown:
          '# Fixture dashboard\nLayout patterns of the console samples. [button:primary:Go](https://example.com/go) [button:Docs](https://example.com/docs)',
      },
    },
    {
      type: 'custom',
      x: 0,
      y: 2,
      width: 12,
      height: 6,
      properties: { title: 'Pyramid', endpoint: 'fixture-pie', updateOn: { refresh: true } },
    },
    {
      type: 'custom',
      x: 12,
      y: 2,
      width: 12,
      height: 9,
      properties: { title: 'Context', endpoint: 'fixture-context', updateOn: { refresh: true, resize: true, timeRange: true } },
    },
    { type: 'custom', x: 0, y: 8, width: 6, height: 3, properties: { title: 'Hi', endpoint: 'fixture-hi' } },
    { type: 'custom', x: 6, y: 8, width: 6, height: 3, properties: { title: 'Bad HTML', endpoint: 'fixture-bad' } },
    { type: 'custom', x: 0, y: 11, width: 6, height: 4, properties: { title: LONG, endpoint: 'fixture-wide' } },
    { type: 'custom', x: 6, y: 11, width: 6, height: 4, properties: { title: 'Broken', endpoint: 'fixture-broken' } },
    {
      type: 'metric',
      x: 12,
      y: 11,
      width: 12,
      height: 4,
      properties: {
        title: 'Lambda invocations',
        metrics: [['AWS/Lambda', 'Invocations']],
        view: 'timeSeries',
        stat: 'Sum',
        period: 300,
        region: 'us-east-1',
      },
    },
    {
      type: 'log',
      x: 0,
      y: 15,
      width: 12,
      height: 4,
      properties: {
        title: 'Errors in the log',
        query: "SOURCE '/aws/lambda/orders' | fields @timestamp, @message | filter @message like /ERROR/",
        region: 'us-east-1',
        view: 'table',
      },
    },
    {
      type: 'alarm',
      x: 12,
      y: 15,
      width: 12,
      height: 4,
      properties: { title: 'Alarms', alarms: ['arn:aws:cloudwatch:us-east-1:123456789012:alarm:orders-errors'] },
    },
  ],
};

export const LONG_TITLE = LONG;

const NARROW_TITLE = 'A one-column widget with a title far longer than its title bar';

/**
 * The title bar at its narrowest: one-column custom widgets with long titles and badges (findings, an error),
 * a one-column text widget and metric placeholder, and two- and three-column widgets beside them.
 */
export const NARROW_DASHBOARD = {
  widgets: [
    ...['fixture-hi', 'fixture-broken', 'fixture-context', 'fixture-bad'].map((endpoint, x) => ({
      type: 'custom',
      x,
      y: 0,
      width: 1,
      height: 4,
      properties: { title: NARROW_TITLE, endpoint },
    })),
    { type: 'custom', x: 4, y: 0, width: 1, height: 4, properties: { endpoint: 'fixture-hi' } },
    { type: 'text', x: 5, y: 0, width: 1, height: 4, properties: { markdown: 'Narrow text' } },
    { type: 'metric', x: 6, y: 0, width: 1, height: 4, properties: { title: 'Narrow metric', metrics: [['AWS/Lambda', 'Errors']] } },
    { type: 'custom', x: 7, y: 0, width: 2, height: 4, properties: { title: NARROW_TITLE, endpoint: 'fixture-bad' } },
    { type: 'custom', x: 9, y: 0, width: 3, height: 4, properties: { title: 'Three columns', endpoint: 'fixture-context' } },
    {
      type: 'custom',
      x: 12,
      y: 0,
      width: 12,
      height: 4,
      properties: { title: 'Twelve columns', endpoint: 'fixture-context', updateOn: { resize: false } },
    },
  ],
};
