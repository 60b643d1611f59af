// The harness page: one more client of the public HTTP API. It lists the loaded dashboards, lays the chosen
// one out on the console's grid, shows each widget in a sandboxed frame and wires its actions, and keeps per
// widget what the console never shows (see inspector.js).
/* global document, window, fetch, DOMParser */
import { api, problemText } from './api.js';
import { placeWidgets } from './layout.js';
import { bindActions, createFrame } from './frame.js';
import { readForms } from './forms.js';
import { askConfirmation, openPopup } from './dialogs.js';
import { renderInspector } from './inspector.js';
import { setupControls, showState } from './controls.js';
import { setupLoader } from './loader.js';
import { rebuildEvent } from './event.js';
import { escapeHtml } from './sanitize.js';

const page = { defaultCss: '', current: null, inspected: null, generation: 0 };
const $ = (id) => document.getElementById(id);

function status(text, bad = false) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('bad', bad);
}

function logRequest(w, method, path, res, note = '') {
  w.log.push({ method, path, status: res.status, ms: res.ms, note });
  if (w.log.length > 50) w.log.shift();
}

async function listDashboards() {
  const res = await api.list();
  const list = $('dashboards');
  if (!res.ok) {
    status(`Could not list dashboards: ${problemText(res)}`, true);
    return [];
  }
  list.replaceChildren(
    ...res.body.map((d) => {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'dash-link';
      b.textContent = d.name;
      b.title = `Dashboard ${d.id}`;
      b.dataset.id = d.id;
      if (page.current?.id === d.id) b.setAttribute('aria-current', 'page');
      b.addEventListener('click', () => {
        window.location.hash = `#/dashboards/${encodeURIComponent(d.id)}`;
      });
      li.append(b);
      return li;
    }),
  );
  $('no-dashboards').hidden = res.body.length > 0;
  return res.body;
}

function parseSource(text) {
  try {
    const parsed = typeof text === 'string' ? JSON.parse(text) : text;
    return Array.isArray(parsed?.widgets) ? parsed.widgets : [];
  } catch {
    return [];
  }
}

async function openDashboard(id) {
  const generation = ++page.generation;
  const [info, source] = await Promise.all([api.info(id), api.source(id)]);
  if (generation !== page.generation) return;
  if (!info.ok) {
    status(`Could not open dashboard ${id}: ${problemText(info)}`, true);
    return;
  }
  const written = parseSource(source.body);
  const places = placeWidgets(info.body.widgets.map((s) => written[s.index] ?? {}));
  page.current = {
    id,
    name: info.body.name,
    state: info.body.state,
    widgets: info.body.widgets.map((s) => ({
      ...s,
      params: written[s.index]?.properties?.params,
      place: places[s.index],
      result: null,
      actions: [],
      log: [],
      frame: null,
    })),
  };
  page.inspected = null;
  renderInspector(null, inspectorHandlers);
  $('dashboard-title').textContent = info.body.name;
  for (const b of document.querySelectorAll('.dash-link')) {
    if (b.dataset.id === id) b.setAttribute('aria-current', 'page');
    else b.removeAttribute('aria-current');
  }
  showState(page.current.state);
  renderGrid();
  status(`${page.current.widgets.length} widget${page.current.widgets.length === 1 ? '' : 's'}`);
  await Promise.all(page.current.widgets.map((w) => readWidget(w)));
}

function renderGrid() {
  const grid = $('grid');
  grid.replaceChildren(
    ...page.current.widgets.map((w) => {
      const card = document.createElement('section');
      card.className = 'widget';
      card.dataset.widgetId = w.widgetId;
      card.dataset.state = 'loading';
      card.setAttribute('aria-labelledby', `title-${w.widgetId}`);
      card.style.gridColumn = `${w.place.x + 1} / span ${w.place.width}`;
      card.style.gridRow = `${w.place.y + 1} / span ${w.place.height}`;
      card.innerHTML = `<header class="widget-head">
          <h3 id="title-${w.widgetId}" class="widget-title">${escapeHtml(w.title || (w.type === 'text' ? '' : w.widgetId))}</h3>
          <span class="badges"></span>
          <button type="button" class="btn btn-small inspect" aria-pressed="false" aria-controls="inspector">Inspect</button>
        </header>
        <div class="widget-body"></div>`;
      card.querySelector('.inspect').addEventListener('click', () => inspect(w));
      w.card = card;
      w.body = card.querySelector('.widget-body');
      return card;
    }),
  );
}

function inspect(w) {
  page.inspected = w;
  for (const b of document.querySelectorAll('.widget .inspect')) b.setAttribute('aria-pressed', String(b.closest('.widget') === w.card));
  renderInspector(w, inspectorHandlers);
}

function updateBadges(w) {
  const r = w.result;
  const badges = [];
  if (r && w.type === 'custom') {
    badges.push(`<span class="badge" title="How many times a function ran for this widget">${r.invocations} call${r.invocations === 1 ? '' : 's'}</span>`);
  }
  if (r) {
    if (w.lastMs !== undefined) badges.push(`<span class="badge" title="Duration of the last request">${Math.round(w.lastMs)} ms</span>`);
    if (r.findings?.length) badges.push(`<span class="badge warn" title="HTML the console would strip">${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}</span>`);
    if (r.error) badges.push(`<span class="badge bad">${escapeHtml(r.error.type)}</span>`);
  }
  w.card.querySelector('.badges').innerHTML = badges.join('');
  w.card.dataset.invocations = String(r?.invocations ?? 0);
  if (page.inspected === w) renderInspector(w, inspectorHandlers);
}

function formsOfHtml(html) {
  return readForms(new DOMParser().parseFromString(html ?? '', 'text/html'));
}

function noteSent(w, topLevel, forms) {
  w.sent = {
    note: 'Rebuilt by the page from the dashboard state, the widget definition and the form values; time ranges are resolved when the response arrived.',
    event: rebuildEvent({ topLevel, widget: { ...w, width: w.place.width, height: w.place.height }, state: page.current.state, forms, now: Date.now() }),
  };
}

async function readWidget(w) {
  const previous = w.result;
  w.card.dataset.state = 'loading';
  w.card.setAttribute('aria-busy', 'true');
  const res = await api.widget(page.current.id, w.widgetId);
  logRequest(w, 'GET', `/widgets/${w.widgetId}`, res);
  w.lastMs = res.ms;
  if (!res.ok) {
    w.problem = problemText(res);
    w.card.dataset.state = 'unavailable';
    w.card.removeAttribute('aria-busy');
    w.body.innerHTML = `<div class="widget-message">${escapeHtml(w.problem)}</div>`;
    updateBadges(w);
    return;
  }
  w.problem = null;
  if (w.type === 'custom' && (!previous || res.body.invocations !== previous.invocations)) {
    noteSent(w, w.params, previous ? formsOfHtml(previous.html) : {});
  }
  await show(w, res.body);
}

async function show(w, result) {
  w.result = result;
  w.card.dataset.state = 'loading';
  const theme = page.current.state.theme;
  if (result.error) {
    w.body.innerHTML = `<div class="widget-error" role="alert"><strong>${escapeHtml(result.error.type)}</strong><p>${escapeHtml(result.error.message)}</p></div>`;
    w.frame = null;
  } else {
    w.frame = await createFrame(w.body, { html: result.html, theme, defaultCss: page.defaultCss, title: w.title || w.widgetId });
  }
  if (w.type === 'custom') {
    const res = await api.actions(page.current.id, w.widgetId);
    logRequest(w, 'GET', `/widgets/${w.widgetId}/actions`, res);
    w.actions = res.ok ? res.body : [];
    if (w.frame) bindActions(w.frame, w.actions, (entry) => void runAction(w, entry));
  }
  w.card.dataset.state = result.error ? 'error' : 'ready';
  w.card.removeAttribute('aria-busy');
  updateBadges(w);
}

async function runAction(w, entry) {
  if (w.running) return;
  w.running = true;
  const before = w.card.dataset.state;
  w.card.dataset.state = 'loading';
  w.card.setAttribute('aria-busy', 'true');
  try {
    const forms = w.frame?.contentDocument ? readForms(w.frame.contentDocument) : {};
    const body = { forms };
    if (entry.confirmation !== null) body.confirm = await askConfirmation(entry.confirmation);
    const res = await api.runAction(page.current.id, w.widgetId, entry.index, body);
    logRequest(w, 'POST', `/widgets/${w.widgetId}/actions/${entry.index}`, res, body.confirm === false ? 'cancelled' : `${entry.action} ${entry.event}`);
    w.lastMs = res.ms;
    if (!res.ok) {
      w.problem = problemText(res);
      status(`Action “${entry.text}” failed: ${w.problem}`, true);
      updateBadges(w);
      return;
    }
    w.problem = null;
    if (res.body.cancelled) {
      status(`Cancelled “${entry.text}”: nothing was called.`);
      updateBadges(w);
      return;
    }
    if (entry.action === 'call') noteSent(w, entry.params ?? {}, { ...formsOfHtml(w.result?.html), ...forms });
    if (res.body.display === 'popup') {
      // A popup leaves the widget as it was; its own result is kept apart for the inspector.
      w.result = { ...w.result, invocations: res.body.invocations };
      w.lastPopup = { ...res.body, text: entry.text };
      updateBadges(w);
      status(`Popup from “${entry.text}”.`);
      await openPopup({ title: entry.text || w.title || 'Popup', html: res.body.error ? `<p><strong>${escapeHtml(res.body.error.type)}</strong> ${escapeHtml(res.body.error.message)}</p>` : res.body.html, theme: page.current.state.theme, defaultCss: page.defaultCss });
      return;
    }
    status(`“${entry.text}” replaced ${w.title || w.widgetId}.`);
    await show(w, res.body);
  } finally {
    w.running = false;
    if (w.card.dataset.state === 'loading') {
      w.card.dataset.state = before;
      w.card.removeAttribute('aria-busy');
    }
  }
}

async function refresh(mode) {
  const d = page.current;
  if (!d) return;
  const res = await api.refresh(d.id, mode);
  if (!res.ok) {
    status(`Refresh failed: ${problemText(res)}`, true);
    return;
  }
  const ids = new Set(res.body.refreshed);
  await Promise.all(d.widgets.filter((w) => ids.has(w.widgetId)).map((w) => readWidget(w)));
  status(`Refreshed ${ids.size} widget${ids.size === 1 ? '' : 's'} (${mode}) at ${new Date().toLocaleTimeString()}.`);
}

// State changes run one after another: each PUT replaces the whole state, built from the previous answer.
let stateQueue = Promise.resolve();
function changeState(patch) {
  stateQueue = stateQueue.then(() => applyState(patch));
  return stateQueue;
}

async function applyState(patch) {
  const d = page.current;
  if (!d) return;
  const res = await api.putState(d.id, { ...d.state, ...patch });
  if (!res.ok) {
    status(`Could not change the state: ${problemText(res)}`, true);
    return;
  }
  const themeChanged = res.body.state.theme !== d.state.theme;
  d.state = res.body.state;
  showState(d.state);
  const updated = new Set(res.body.updated);
  await Promise.all(
    d.widgets.map((w) => {
      if (updated.has(w.widgetId)) return readWidget(w);
      // Content that did not change is shown again in the new theme.
      if (themeChanged && w.result) return show(w, w.result);
      return undefined;
    }),
  );
  status(updated.size ? `Updated ${updated.size} widget${updated.size === 1 ? '' : 's'}.` : 'No widget needed to run again.');
}

async function describe(w) {
  const res = await api.describe(page.current.id, w.widgetId);
  logRequest(w, 'GET', `/widgets/${w.widgetId}/describe`, res);
  if (!res.ok) w.describe = `<p class="bad">${escapeHtml(problemText(res))}</p>`;
  else if (res.body.error) w.describe = `<p class="bad">${escapeHtml(res.body.error.type)}: ${escapeHtml(res.body.error.message)}</p>`;
  else w.describe = `<pre class="json">${escapeHtml(res.body.markdown ?? res.body.html)}</pre>`;
  renderInspector(w, inspectorHandlers);
}

const inspectorHandlers = { onDescribe: (w) => void describe(w) };

function idFromHash() {
  const m = /^#\/dashboards\/(.+)$/.exec(window.location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

async function route() {
  const list = await listDashboards();
  const id = idFromHash() ?? list[0]?.id ?? null;
  if (id) await openDashboard(id);
}

async function main() {
  const css = await fetch('/web/widget.css');
  page.defaultCss = css.ok ? await css.text() : '';
  setupControls({
    onRange: (timeRange) => void changeState({ timeRange }),
    onRefresh: () => void refresh('manual'),
    onAutoTick: () => void refresh('auto'),
    onTheme: (theme) => void changeState({ theme }),
  });
  setupLoader((created) => {
    window.location.hash = `#/dashboards/${encodeURIComponent(created.id)}`;
    void listDashboards();
  });
  window.addEventListener('hashchange', () => void route());
  await route();
  document.body.dataset.ready = 'true';
}

void main();
