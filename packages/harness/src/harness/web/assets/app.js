// The harness page: one more client of the public HTTP API. It lists the loaded dashboards, lays the chosen
// one out on the console's grid, shows each widget in a sandboxed frame and wires its actions, and keeps per
// widget what the console never shows (see inspector.js).
/* global document, window, fetch */
import { api, problemText } from './api.js';
import { placeWidgets } from './layout.js';
import { renderInspector, setFunctions } from './inspector.js';
import { setupControls, showState } from './controls.js';
import { setupLoader } from './loader.js';
import { $, page, status } from './page.js';
import { inspectorHandlers, readWidget, relayout, renderGrid, show, showAllBadges } from './widgets.js';
import { setupPanels } from './panels.js';
import { measureWidth, watchWidth } from './geometry.js';

const RESIZE_SETTLE_MS = 300;

async function listDashboards() {
  const res = await api.listDashboards();
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
  const [info, source] = await Promise.all([api.getDashboard(id), api.getDashboardSource(id)]);
  if (generation !== page.generation) return;
  if (!info.ok) {
    status(`Could not open dashboard ${id}: ${problemText(info)}`, true);
    return;
  }
  const written = parseSource(source.body);
  const places = placeWidgets(info.body.widgets.map((s) => written[s.index] ?? {}));
  const size = (v) => (Number.isInteger(v) && v > 0 ? v : 6);
  page.current = {
    id,
    name: info.body.name,
    state: info.body.state,
    widgets: info.body.widgets.map((s) => ({
      ...s,
      place: places[s.index],
      source: written[s.index] ?? {},
      model: { width: size(written[s.index]?.width), height: size(written[s.index]?.height) },
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
  page.width = measureWidth($('grid'));
  renderGrid();
  // Widgets are first read at the size they are drawn at: the page's dashboard width goes to the state first.
  await syncWidth({ read: false });
  if (generation !== page.generation) return;
  status(`${page.current.widgets.length} widget${page.current.widgets.length === 1 ? '' : 's'}`);
  await Promise.all(page.current.widgets.map((w) => readWidget(w)));
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
function changeState(patch, options) {
  stateQueue = stateQueue.then(() => applyState(patch, options));
  return stateQueue;
}

/**
 * Sends the page's dashboard width to the state when it differs, so the harness tells every widget the size
 * it is drawn at; widgets with updateOn.resize run again (`read: false` leaves reading them to the caller).
 */
function syncWidth({ read = true } = {}) {
  return changeState({}, { width: true, read });
}

async function applyState(patch, { width = false, read = true } = {}) {
  const d = page.current;
  if (!d) return;
  if (width) {
    if (d.state.dashboardWidth === page.width) {
      $('grid').dataset.dashboardWidth = String(d.state.dashboardWidth);
      return;
    }
    patch = { dashboardWidth: page.width };
  }
  const res = await api.putState(d.id, { ...d.state, ...patch });
  if (d !== page.current) return;
  if (!res.ok) {
    status(`Could not change the state: ${problemText(res)}`, true);
    return;
  }
  const themeChanged = res.body.state.theme !== d.state.theme;
  const sizesChanged = JSON.stringify(res.body.state.widgetSizes) !== JSON.stringify(d.state.widgetSizes);
  d.state = res.body.state;
  showState(d.state);
  relayout();
  if (sizesChanged) showAllBadges();
  // The width the widgets on screen were told, once those that run again on resize have been read.
  const told = () => {
    $('grid').dataset.dashboardWidth = String(d.state.dashboardWidth);
  };
  if (!read) return told();
  const updated = new Set(res.body.updated);
  await Promise.all(
    d.widgets.map((w) => {
      if (updated.has(w.widgetId)) return readWidget(w);
      // Content that did not change is shown again in the new theme.
      if (themeChanged && w.result) return show(w, w.result);
      return undefined;
    }),
  );
  told();
  if (width) {
    if (updated.size) status(`Resized to a ${d.state.dashboardWidth} px dashboard: updated ${updated.size} widget${updated.size === 1 ? '' : 's'}.`);
  } else status(updated.size ? `Updated ${updated.size} widget${updated.size === 1 ? '' : 's'}.` : 'No widget needed to run again.');
}

function idFromHash() {
  const m = /^#\/dashboards\/(.+)$/.exec(window.location.hash);
  return m ? decodeURIComponent(m[1]) : null;
}

async function route() {
  const list = await listDashboards();
  const id = idFromHash() ?? list[0]?.id ?? null;
  if (id) await openDashboard(id);
}

// Watch mode: when the harness restarts a function after its files changed, the widgets of the dashboard on
// screen that show its output are read again, which runs the new code.
async function applyChange(change) {
  const d = page.current;
  if (!d) return;
  const ids = new Set(change.widgets[d.id] ?? []);
  await Promise.all(d.widgets.filter((w) => ids.has(w.widgetId)).map((w) => readWidget(w)));
  const files = change.files.map((f) => f.split(/[\\/]/).pop()).join(', ');
  status(`${files} changed: restarted ${change.functions.join(', ')}; read ${ids.size} widget${ids.size === 1 ? '' : 's'} again at ${new Date().toLocaleTimeString()}.`);
}

async function followChanges() {
  const first = await api.changes();
  if (!first.ok || !first.body.watching) return;
  document.body.dataset.watching = 'true';
  let seq = first.body.seq;
  for (;;) {
    const res = await api.changes(seq);
    if (!res.ok) {
      // The harness is gone or refused: try again a little later rather than in a tight loop.
      await new Promise((resume) => window.setTimeout(resume, 2000));
      continue;
    }
    seq = res.body.seq;
    for (const change of res.body.changes) await applyChange(change);
    document.body.dataset.changeSeq = String(seq);
  }
}

async function main() {
  const css = await fetch('/web/widget.css');
  page.defaultCss = css.ok ? await css.text() : '';
  setupPanels();
  const grid = $('grid');
  page.width = measureWidth(grid);
  // A change of the dashboard's width reflows every card at once; the harness hears of it once the change
  // settles, and only then do widgets with updateOn.resize run again.
  let settle = null;
  watchWidth(grid, (width) => {
    page.width = width;
    relayout();
    window.clearTimeout(settle);
    settle = window.setTimeout(() => void syncWidth(), RESIZE_SETTLE_MS);
  });
  inspectorHandlers.onSize = (w, size) => {
    const sizes = { ...(page.current?.state.widgetSizes ?? {}) };
    if (size) sizes[w.widgetId] = size;
    else delete sizes[w.widgetId];
    void changeState({ widgetSizes: sizes });
  };
  setupControls({
    onState: (patch) => void changeState(patch),
    onRefresh: () => void refresh('manual'),
    onAutoTick: () => void refresh('auto'),
    onWidth: (value) => {
      // A fixed width lays the grid out that wide (the page scrolls sideways); "window" follows the window.
      grid.style.width = value === 'window' ? '' : `${value}px`;
      grid.classList.toggle('fixed', value !== 'window');
    },
  });
  setupLoader((created) => {
    window.location.hash = `#/dashboards/${encodeURIComponent(created.id)}`;
    void listDashboards();
  });
  window.addEventListener('hashchange', () => void route());
  const functions = await api.listFunctions();
  if (functions.ok) setFunctions(functions.body);
  await route();
  document.body.dataset.ready = 'true';
  void followChanges();
}

void main();
