// What the page shows for widget types the harness cannot run (metric, log, alarm, explorer, …): the type and
// what the widget would query in the console, read from the dashboard source. Nothing is asked of the API, so
// no request is refused and the browser logs nothing.
import { escapeHtml } from './sanitize.js';

const NAMES = { metric: 'Metric', log: 'Logs Insights', alarm: 'Alarm status', explorer: 'Metrics explorer' };

/** One metric line of a `metrics` array: `[namespace, name, dim, value, …, { options }]` or `[{ expression }]`. */
function metricLine(line) {
  if (!Array.isArray(line)) return null;
  const options = line.find((p) => p && typeof p === 'object' && !Array.isArray(p)) ?? {};
  const parts = line.filter((p) => typeof p === 'string');
  if (options.expression) return `expression <code>${escapeHtml(options.expression)}</code>${options.label ? ` (${escapeHtml(options.label)})` : ''}`;
  if (parts.length === 0) return null;
  // "." repeats the previous line's value in the console's shorthand.
  const [namespace, name, ...dims] = parts;
  const pairs = [];
  for (let i = 0; i + 1 < dims.length; i += 2) pairs.push(`${dims[i]}=${dims[i + 1]}`);
  const extra = [options.stat, options.period ? `${options.period} s` : null, options.label].filter(Boolean);
  return `<code>${escapeHtml(namespace)} ${escapeHtml(name ?? '')}</code>${pairs.length ? ` ${escapeHtml(pairs.join(', '))}` : ''}${extra.length ? ` (${escapeHtml(extra.join(', '))})` : ''}`;
}

function list(items) {
  const shown = items.filter(Boolean);
  return shown.length ? `<ul>${shown.map((i) => `<li>${i}</li>`).join('')}</ul>` : '';
}

/** The facts of a widget's properties worth naming: view, region, stat, period. */
function facts(p) {
  const out = [];
  if (p.view) out.push(`view ${escapeHtml(p.view)}`);
  if (p.region) out.push(`region ${escapeHtml(p.region)}`);
  if (p.stat) out.push(`stat ${escapeHtml(p.stat)}`);
  if (p.period) out.push(`period ${escapeHtml(p.period)} s`);
  return out.length ? `<p class="ph-facts">${out.join(' · ')}</p>` : '';
}

/**
 * The placeholder's HTML for a widget of a type the harness cannot read.
 * @param {string} type the widget's type
 * @param {object} properties its properties as written
 */
export function placeholderHtml(type, properties) {
  const p = properties && typeof properties === 'object' ? properties : {};
  const name = NAMES[type] ?? type;
  let body;
  if (type === 'metric' || type === 'explorer') {
    const metrics = Array.isArray(p.metrics) ? p.metrics : [];
    body = metrics.length
      ? `<p>Would graph ${metrics.length} metric${metrics.length === 1 ? '' : 's'}:</p>${list(metrics.slice(0, 8).map(metricLine))}${metrics.length > 8 ? `<p>… and ${metrics.length - 8} more.</p>` : ''}`
      : '<p>Would graph the metrics of its properties (none are listed).</p>';
    if (Array.isArray(p.annotations?.alarms)) body += `<p>Alarm annotations: ${p.annotations.alarms.map((a) => `<code>${escapeHtml(a)}</code>`).join(', ')}</p>`;
  } else if (type === 'log') {
    body = typeof p.query === 'string'
      ? `<p>Would run this Logs Insights query:</p><pre>${escapeHtml(p.query)}</pre>`
      : '<p>Would run a Logs Insights query (none is written).</p>';
  } else if (type === 'alarm') {
    const alarms = Array.isArray(p.alarms) ? p.alarms : [];
    body = alarms.length
      ? `<p>Would show the state of ${alarms.length} alarm${alarms.length === 1 ? '' : 's'}:</p>${list(alarms.slice(0, 8).map((a) => `<code>${escapeHtml(a)}</code>`))}`
      : '<p>Would show the state of its alarms (none are listed).</p>';
  } else {
    body = `<p>Properties: ${Object.keys(p).map((k) => `<code>${escapeHtml(k)}</code>`).join(', ') || 'none'}</p>`;
  }
  return `<div class="placeholder" tabindex="0"><p class="ph-type"><strong>${escapeHtml(name)} widget</strong> <span class="muted">(${escapeHtml(type)})</span></p>
    <p class="muted small">The harness runs only custom and text widgets; in the console this widget would query CloudWatch.</p>
    ${facts(p)}${body}</div>`;
}
