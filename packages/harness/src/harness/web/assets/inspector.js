// The inspector: for one widget, what the console never shows — the event the function received, the raw
// return value, the findings (highlighted in the HTML), error details, what the function printed, how often it
// ran and how long it took.
/* global document */
import { escapeHtml } from './sanitize.js';
import { createFrame, fitFrame } from './frame.js';
import { widgetSize } from './geometry.js';
import { page } from './page.js';

// The configured functions (GET /api/functions): which got real AWS credentials, an endpoint, setup modules.
let functionList = [];
/** Sets the configured functions; the inspector shows what the function behind a widget may reach. */
export function setFunctions(list) {
  functionList = Array.isArray(list) ? list : [];
}

/** A function's name from a name or an ARN (`arn:aws:lambda:region:account:function:name[:qualifier]`). */
const functionName = (endpoint) => (endpoint.startsWith('arn:') ? endpoint.split(':')[6] ?? endpoint : endpoint.split(':')[0]);

/** The configured function that answers an endpoint: the same ARN, else the same function name. */
function functionFor(endpoint) {
  const unqualified = endpoint.startsWith('arn:') ? endpoint.split(':').slice(0, 7).join(':') : null;
  return functionList.find((f) => f.name === unqualified) ?? functionList.find((f) => functionName(f.name) === functionName(endpoint));
}

/** One line on what the widget's function may reach of AWS. */
function awsLine(endpoint) {
  const f = functionFor(endpoint);
  if (!f) return '';
  const credentials = {
    none: 'no AWS credentials',
    host: "the harness's own environment (runs in its process)",
    environment: 'real AWS credentials from the environment',
  }[f.awsCredentials ?? ''] ?? (f.awsCredentials?.startsWith('profile:') ? `real AWS credentials from profile ${f.awsCredentials.slice(8)}` : 'credentials of the program that runs it');
  const real = f.awsCredentials === 'environment' || f.awsCredentials?.startsWith('profile:');
  const parts = [`<span class="aws-credentials${real ? ' real' : ''}">${escapeHtml(credentials)}</span>`];
  if (f.awsEndpoint) parts.push(`AWS endpoint <code>${escapeHtml(f.awsEndpoint)}</code>`);
  if (f.setup.length) parts.push(`setup ${f.setup.map((s) => `<code>${escapeHtml(s.split(/[\\/]/).pop())}</code>`).join(', ')}`);
  return `<p class="muted aws-access" id="insp-aws">${escapeHtml(f.runtime)} · ${parts.join(' · ')}</p>`;
}

const json = (v) => (v === undefined ? 'undefined' : JSON.stringify(v, null, 2));

// Which sections a person opened or closed, so re-rendering keeps them as they were.
const remembered = new Map();

function section(title, bodyHtml, { open = true, id } = {}) {
  const key = id ?? title.replace(/\s*\(.*$/, '');
  const isOpen = remembered.get(key) ?? open;
  return `<details class="section" data-key="${escapeHtml(key)}"${isOpen ? ' open' : ''}${id ? ` id="${id}"` : ''}><summary>${escapeHtml(title)}</summary>${bodyHtml}</details>`;
}

function stat(label, value, extra = '') {
  return `<div class="stat${extra}"><dt>${escapeHtml(label)}</dt><dd>${value}</dd></div>`;
}

/** The HTML source with line numbers; lines holding a finding are marked and carry its messages. */
function sourceWithFindings(html, findings) {
  const byLine = new Map();
  for (const f of findings) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f]);
  const lines = html.split('\n');
  const rows = lines.map((text, i) => {
    const hits = byLine.get(i + 1);
    const note = hits ? `<span class="src-note">${hits.map((f) => escapeHtml(`${f.line}:${f.column} ${f.rule}`)).join(', ')}</span>` : '';
    return `<tr class="${hits ? 'src-hit' : ''}"><td class="src-ln">${i + 1}</td><td class="src-code"><code>${escapeHtml(text)}</code>${note}</td></tr>`;
  });
  return `<div class="src"><table class="src-table">${rows.join('')}</table></div>`;
}

function findingsList(findings) {
  if (findings.length === 0) return '<p class="muted">No findings: the console would show this HTML as it is.</p>';
  return `<ul class="findings">${findings
    .map(
      (f) => `<li class="finding ${f.severity === 'error' ? 'sev-error' : 'sev-warning'}"><span class="sev">${escapeHtml(f.severity)}</span>
        <strong>${escapeHtml(f.rule)}</strong> at ${f.line}:${f.column} on <code>&lt;${escapeHtml(f.element)}&gt;</code>${f.attribute ? ` <code>${escapeHtml(f.attribute)}</code>` : ''}
        <div>${escapeHtml(f.message)}</div></li>`,
    )
    .join('')}</ul>`;
}

function actionsList(actions) {
  if (!actions || actions.length === 0) return '<p class="muted">No &lt;cwdb-action&gt; in the current content.</p>';
  return `<table class="plain"><thead><tr><th>#</th><th>Text</th><th>Action</th><th>Event</th><th>Display</th><th>Confirmation</th></tr></thead><tbody>${actions
    .map(
      (a) => `<tr><td>${a.index}</td><td>${escapeHtml(a.text)}</td><td>${escapeHtml(a.action)}${a.endpoint ? ` → <code>${escapeHtml(a.endpoint)}</code>` : ''}</td>
        <td>${escapeHtml(a.event)}</td><td>${escapeHtml(a.display)}</td><td>${a.confirmation === null ? '—' : escapeHtml(a.confirmation)}</td></tr>`,
    )
    .join('')}</tbody></table>`;
}

// The event exactly as the API reports the function received it; nothing is rebuilt in the page.
function eventBody(call) {
  if (!call) return '<p class="muted small">No function produced this content (a text widget or an html action).</p>';
  const id = call.awsRequestId ? `request <code>${escapeHtml(call.awsRequestId)}</code>, ` : '';
  return `<p class="muted small">As the function received it (${id}ran ${call.durationMs.toFixed(1)} ms).</p><pre class="json">${escapeHtml(json(call.event))}</pre>`;
}

function logsBody(logs) {
  return logs ? `<pre class="logs">${escapeHtml(logs)}</pre>` : '<p class="muted small">The function printed nothing.</p>';
}

function popupCall(call) {
  if (!call) return '<p class="muted small">No function was called for this popup.</p>';
  return `<p class="muted small">Event received (function ran ${call.durationMs.toFixed(1)} ms):</p><pre class="json popup-event">${escapeHtml(json(call.event))}</pre>${logsBody(call.logs)}`;
}

function requestLog(log) {
  if (log.length === 0) return '<p class="muted">No requests yet.</p>';
  return `<ol class="log" reversed>${[...log]
    .reverse()
    .map((r) => `<li><code>${escapeHtml(r.method)} ${escapeHtml(r.path)}</code> → <span class="${r.status >= 400 || r.status === 0 ? 'bad' : 'good'}">${r.status}</span> in ${r.ms.toFixed(1)} ms${r.note ? ` — ${escapeHtml(r.note)}` : ''}</li>`)
    .join('')}</ol>`;
}

// The function's documentation (`describe`): its Markdown rendered, as the console shows it, or the raw text.
function documentation(d) {
  if (d.problem) return `<p class="bad">${escapeHtml(d.problem)}</p>`;
  const toggle = d.markdown === null || d.markdown === undefined
    ? ''
    : `<p><button type="button" class="btn btn-small" id="insp-doc-raw" aria-pressed="${d.raw}">Raw Markdown</button></p>`;
  return `${toggle}${d.raw ? `<pre class="json" id="insp-doc-text">${escapeHtml(d.markdown)}</pre>` : '<div class="doc-frame" id="insp-doc-body"></div>'}`;
}

async function showDocumentation(w, handlers) {
  const d = w.describe;
  if (!d || d.problem) return;
  document.getElementById('insp-doc-raw')?.addEventListener('click', () => {
    d.raw = !d.raw;
    renderInspector(w, handlers);
    document.getElementById('insp-doc-raw')?.focus();
  });
  const container = document.getElementById('insp-doc-body');
  if (!container) return;
  const theme = document.documentElement.dataset.theme === 'dark' ? 'dark' : 'light';
  const frame = await createFrame(container, { html: d.html, theme, defaultCss: handlers.defaultCss?.() ?? '', title: `Documentation of ${w.title || w.widgetId}`, fill: false });
  fitFrame(frame, 480);
}

/**
 * The widget's pixel size: what its function was told, its cell on the page, and a form that sets a size for
 * this widget alone (the state's `widgetSizes`) or goes back to its cell.
 */
function sizeSection(w, handlers) {
  const at = handlers.size?.(w);
  if (!at?.state || !w.place) return '';
  const told = w.result?.invocation?.event?.widgetContext;
  const own = at.state.widgetSizes?.[w.widgetId];
  const cell = widgetSize(w, { widgetSizes: {} }, at.state.dashboardWidth);
  const value = (side) => (own?.[side] === undefined ? '' : String(own[side]));
  return section('Size', `<p class="small">Told <strong id="insp-size-told">${told ? `${told.width} × ${told.height}` : '—'}</strong> px
      (<code>widgetContext.width</code> × <code>height</code>); its cell is ${cell.width} × ${cell.height} px on a
      ${at.state.dashboardWidth} px dashboard${own ? ', and a size of its own is set' : ''}.</p>
    <form id="insp-size-form" class="size-form">
      <label>Width <input type="number" name="width" min="1" max="100000" step="1" value="${value('width')}" placeholder="${cell.width}"></label>
      <label>Height <input type="number" name="height" min="1" max="100000" step="1" value="${value('height')}" placeholder="${cell.height}"></label>
      <button type="submit" class="btn btn-small">Set its size</button>
      <button type="button" class="btn btn-small" id="insp-size-cell"${own ? '' : ' disabled'}>Use its cell</button>
    </form>`, { open: false, id: 'insp-size' });
}

function bindSizeForm(w, handlers) {
  const form = document.getElementById('insp-size-form');
  if (!form || !handlers.onSize) return;
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const size = {};
    for (const side of ['width', 'height']) {
      const text = form.elements[side].value.trim();
      if (text === '') continue;
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1 || n > 100000) return;
      size[side] = n;
    }
    handlers.onSize(w, Object.keys(size).length ? size : null);
  });
  document.getElementById('insp-size-cell')?.addEventListener('click', () => handlers.onSize(w, null));
}

/**
 * The last word on each widget's image download (by dashboard and widget): the inspector is drawn again whenever
 * its widget changes (a refresh, a new size), and shows it again then.
 */
const imageStatuses = new Map();
const imageKey = (widgetId) => `${page.current?.id ?? ''} ${widgetId}`;

/** Shows a widget's image status in the inspector, if the inspector shows that widget. */
function showImageStatus(widgetId) {
  const el = document.getElementById('insp-image-status');
  const status = imageStatuses.get(imageKey(widgetId));
  if (!el || el.dataset.imageOf !== widgetId || !status) return;
  el.textContent = status.text;
  el.classList.toggle('bad', status.bad);
}

/** Says in the inspector how a widget's image download went. */
function imageStatusOf(widgetId) {
  return (text, bad = false) => {
    imageStatuses.set(imageKey(widgetId), { text, bad });
    showImageStatus(widgetId);
  };
}

/**
 * Renders the inspector for a widget record (see app.js) into the aside.
 * @param {object|null} w
 * @param {{ onDescribe: (w: object) => void }} handlers
 */
export function renderInspector(w, handlers) {
  const { onDescribe } = handlers;
  const body = document.getElementById('inspector-body');
  if (!w) {
    body.innerHTML = '<p class="muted">Choose “Inspect” on a widget to see the event its function received, the raw return value, findings, errors, logs, invocations and timing.</p>';
    return;
  }
  const r = w.result;
  const head = `<h3 class="insp-title">${escapeHtml(w.title || w.widgetId)} <span class="muted">${escapeHtml(w.widgetId)} · ${escapeHtml(w.type)}</span></h3>
    ${w.endpoint ? `<p class="muted">endpoint <code>${escapeHtml(w.endpoint)}</code>${w.updateOn ? ` · updateOn ${escapeHtml(Object.entries(w.updateOn).filter(([, v]) => v).map(([k]) => k).join(', ') || 'nothing')}` : ''}</p>${awsLine(w.endpoint)}` : ''}`;
  let html = head;
  if (w.type === 'custom') {
    html += `<p class="image-tools"><button type="button" class="btn btn-small" id="insp-image">Download image (PNG)</button> <span id="insp-image-status" class="muted small" role="status" data-image-of="${escapeHtml(w.widgetId)}"></span></p>`;
  }
  if (w.problem) html += `<div class="error-box" role="alert"><strong>Request failed</strong><div>${escapeHtml(w.problem)}</div></div>`;
  if (r) {
    const call = r.invocation ?? null;
    html += `<dl class="stats">
      ${stat('Invocations', String(r.invocations ?? '—'))}
      ${stat('Produced by', escapeHtml(r.event ?? '—'))}
      ${stat('Function', call ? `${call.durationMs.toFixed(1)} ms` : 'not called')}
      ${stat('Round trip', w.lastMs === undefined ? '—' : `${w.lastMs.toFixed(1)} ms`)}
      ${stat('Findings', String(r.findings?.length ?? 0), r.findings?.length ? ' warn' : '')}
      ${stat('Error', r.error ? escapeHtml(r.error.type) : 'none', r.error ? ' bad' : '')}
    </dl>`;
    if (r.error) {
      html += section('Error details', `<div class="error-box"><strong>${escapeHtml(r.error.type)}</strong><pre>${escapeHtml(r.error.message)}</pre></div>`, { id: 'insp-error' });
    }
    html += section('Event received', eventBody(call), { id: 'insp-event' });
    const rawNote = typeof r.raw === 'string' ? `<p class="muted small">A string of ${r.raw.length} characters (shown as HTML).</p>` : '';
    const rawText = typeof r.raw === 'string' ? r.raw : json(r.raw);
    html += section('Raw return value', `${rawNote}<pre class="json" id="insp-raw">${escapeHtml(rawText)}</pre>`, { id: 'insp-raw-section' });
    html += section(`Findings (${r.findings?.length ?? 0})`, findingsList(r.findings ?? []) + (r.findings?.length ? sourceWithFindings(r.html ?? '', r.findings) : ''), { id: 'insp-findings' });
    const p = w.lastPopup;
    if (p) {
      const error = p.error ? `<div class="error-box"><strong>${escapeHtml(p.error.type)}</strong><pre>${escapeHtml(p.error.message)}</pre></div>` : '';
      html += section(
        `Last popup (“${p.text}”)`,
        `${error}<p class="muted small">Produced by ${escapeHtml(p.event)}; raw return value:</p><pre class="json">${escapeHtml(typeof p.raw === 'string' ? p.raw : json(p.raw))}</pre>${findingsList(p.findings ?? [])}${popupCall(p.invocation ?? null)}`,
        { open: false, id: 'insp-popup' },
      );
    }
    if (call) html += section('Logs', logsBody(call.logs), { open: call.logs !== '', id: 'insp-logs' });
    html += section('HTML returned', `<pre class="json">${escapeHtml(r.html ?? '')}</pre>`, { open: false });
  }
  if (w.type === 'custom') html += sizeSection(w, handlers);
  if (w.type === 'custom') html += section('Actions', actionsList(w.actions), { open: false });
  html += section('Requests', requestLog(w.log), { open: false });
  if (w.type === 'custom') html += `<p><button type="button" class="btn" id="insp-describe">Show the function's documentation (describe)</button></p>`;
  if (w.describe) html += section('Documentation', documentation(w.describe), { id: 'insp-doc' });
  body.innerHTML = html;
  // Scrolling blocks are reachable from the keyboard.
  for (const el of body.querySelectorAll('pre, .src')) el.tabIndex = 0;
  void showDocumentation(w, handlers);
  for (const d of body.querySelectorAll('details[data-key]')) {
    d.addEventListener('toggle', () => remembered.set(d.dataset.key, d.open));
  }
  document.getElementById('insp-describe')?.addEventListener('click', () => onDescribe(w));
  document.getElementById('insp-image')?.addEventListener('click', () => handlers.onImage?.(w, imageStatusOf(w.widgetId)));
  showImageStatus(w.widgetId);
  bindSizeForm(w, handlers);
}
