// One widget on the page: its card on the grid, its content in a sandboxed frame, its actions, and the
// figures the inspector shows.
/* global document */
import { api, problemText } from './api.js';
import { bindActions, createFrame } from './frame.js';
import { readForms } from './forms.js';
import { askConfirmation, openPopup } from './dialogs.js';
import { renderInspector } from './inspector.js';
import { escapeHtml } from './sanitize.js';
import { $, page, status, logRequest } from './page.js';
import { layoutGrid, sizeFrame } from './geometry.js';
import { placeholderHtml } from './placeholder.js';
import { openPanel } from './panels.js';
import { downloadImage } from './image.js';

export function renderGrid() {
  const grid = $('grid');
  grid.replaceChildren(
    ...page.current.widgets.map((w) => {
      const card = document.createElement('section');
      card.className = `widget widget-${w.type}`;
      card.dataset.widgetId = w.widgetId;
      card.dataset.state = 'loading';
      // Text widgets have no title bar in the console; they still have a name for assistive technology.
      const headed = w.type !== 'text';
      if (headed) card.setAttribute('aria-labelledby', `title-${w.widgetId}`);
      else card.setAttribute('aria-label', w.title ? `Text widget ${w.title}` : `Text widget ${w.widgetId}`);
      const inspectButton = `<button type="button" class="btn btn-small inspect" aria-pressed="false" aria-controls="inspector" title="Inspect ${escapeHtml(w.title || w.widgetId)}"${headed ? '' : ` aria-label="Inspect ${escapeHtml(w.widgetId)}"`}>Inspect</button>`;
      card.innerHTML = headed
        ? `<header class="widget-head">
          <h3 id="title-${w.widgetId}" class="widget-title${w.title ? '' : ' untitled'}" title="${escapeHtml(w.title || `${w.widgetId} (no title)`)}">${escapeHtml(w.title || w.widgetId)}</h3>
          <span class="badges"></span>${inspectButton}
        </header>
        <div class="widget-body"></div>`
        : `<div class="widget-body"></div><div class="widget-tools"><span class="badges"></span>${inspectButton}</div>`;
      card.querySelector('.inspect').addEventListener('click', () => inspect(w));
      w.card = card;
      w.body = card.querySelector('.widget-body');
      return card;
    }),
  );
  relayout();
}

/** Lays the cards out again at the page's dashboard width, and every frame at its widget's size there. */
export function relayout() {
  if (page.current) layoutGrid($('grid'), page.current.widgets, page.current.state, page.width);
}

export function inspect(w) {
  page.inspected = w;
  openPanel('inspector');
  for (const b of document.querySelectorAll('.widget .inspect')) b.setAttribute('aria-pressed', String(b.closest('.widget') === w.card));
  renderInspector(w, inspectorHandlers);
}

function updateBadges(w) {
  const r = w.result;
  const badges = [];
  // Most important first: narrow title bars drop badges from the end, never the title (see app.css).
  if (r) {
    if (r.error) badges.push(`<span class="badge bad" title="The function failed">${escapeHtml(r.error.type)}</span>`);
    if (r.findings?.length) badges.push(`<span class="badge warn" title="HTML the console would strip">${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}</span>`);
  }
  if (r && w.type === 'custom') {
    badges.push(`<span class="badge calls" title="How many times a function ran for this widget">${r.invocations} call${r.invocations === 1 ? '' : 's'}</span>`);
  }
  if (r?.invocation) badges.push(`<span class="badge duration" title="How long the function ran for this content">${Math.round(r.invocation.durationMs)} ms</span>`);
  const own = page.current?.state?.widgetSizes?.[w.widgetId];
  if (own) badges.push(`<span class="badge own-size" title="A size set for this widget alone (widgetSizes)">${own.width ?? 'cell'} × ${own.height ?? 'cell'}</span>`);
  w.card.querySelector('.badges').innerHTML = badges.join('');
  w.card.dataset.invocations = String(r?.invocations ?? 0);
  if (page.inspected === w) renderInspector(w, inspectorHandlers);
}

/** Shows every widget's badges again (after the sizes set for single widgets changed). */
export function showAllBadges() {
  for (const w of page.current?.widgets ?? []) if (w.card) updateBadges(w);
}

export async function readWidget(w) {
  if (w.type !== 'custom' && w.type !== 'text') {
    showPlaceholder(w);
    return;
  }
  w.card.dataset.state = 'loading';
  w.card.setAttribute('aria-busy', 'true');
  const res = await api.readWidget(page.current.id, w.widgetId);
  logRequest(w, 'GET', `/widgets/${w.widgetId}`, res);
  w.lastMs = res.ms;
  if (!res.ok) {
    w.problem = problemText(res);
    w.card.dataset.state = 'unavailable';
    w.card.removeAttribute('aria-busy');
    w.body.innerHTML = `<div class="widget-message" tabindex="0">${escapeHtml(w.problem)}</div>`;
    updateBadges(w);
    return;
  }
  w.problem = null;
  await show(w, res.body);
}

export async function show(w, result) {
  w.result = result;
  w.card.dataset.state = 'loading';
  const theme = page.current.state.theme;
  if (result.error) {
    // Focusable: in a narrow card the message scrolls, and keyboard users can scroll it.
    w.body.innerHTML = `<div class="widget-error" role="alert" tabindex="0"><strong>${escapeHtml(result.error.type)}</strong><p>${escapeHtml(result.error.message)}</p></div>`;
    w.frame = null;
  } else {
    w.frame = await createFrame(w.body, { html: result.html, theme, defaultCss: page.defaultCss, title: w.title || w.widgetId });
    sizeFrame(w, page.current.state, page.width);
  }
  // The count and badges change with the content, not after the actions are read.
  updateBadges(w);
  if (w.type === 'custom') {
    const res = await api.listActions(page.current.id, w.widgetId);
    logRequest(w, 'GET', `/widgets/${w.widgetId}/actions`, res);
    w.actions = res.ok ? res.body : [];
    if (w.frame) bindActions(w.frame, w.actions, (entry) => void runAction(w, entry));
  }
  w.card.dataset.state = result.error ? 'error' : 'ready';
  w.card.removeAttribute('aria-busy');
  updateBadges(w);
}

/** A widget type the harness cannot run: what it would query, from the dashboard source; no request. */
function showPlaceholder(w) {
  w.result = null;
  w.problem = null;
  w.frame = null;
  w.body.innerHTML = placeholderHtml(w.type, w.source?.properties);
  w.card.dataset.state = 'placeholder';
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
    if (entry.confirmation !== null) body.confirm = await askConfirmation(entry.confirmation, () => w.frame);
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
    if (res.body.display === 'popup') {
      // A popup leaves the widget as it was; its own result is kept apart for the inspector.
      w.result = { ...w.result, invocations: res.body.invocations };
      w.lastPopup = { ...res.body, text: entry.text };
      updateBadges(w);
      status(`Popup from “${entry.text}”.`);
      await openPopup({ title: entry.text || w.title || 'Popup', html: res.body.error ? `<p><strong>${escapeHtml(res.body.error.type)}</strong> ${escapeHtml(res.body.error.message)}</p>` : res.body.html, theme: page.current.state.theme, defaultCss: page.defaultCss, fallback: () => w.frame });
      return;
    }
    status(`“${entry.text}” replaced ${w.title || w.widgetId}.`);
    const hadFocus = document.activeElement === w.frame;
    await show(w, res.body);
    // Keyboard users stay where they were: on the same action in the new content, or on the frame.
    if (hadFocus && w.frame) {
      w.frame.focus();
      w.frame.contentDocument?.querySelector(`[data-cwdb-action="${entry.index}"]`)?.focus();
    }
  } finally {
    w.running = false;
    if (w.card.dataset.state === 'loading') {
      w.card.dataset.state = before;
      w.card.removeAttribute('aria-busy');
    }
  }
}

async function describe(w) {
  const res = await api.describeWidget(page.current.id, w.widgetId);
  logRequest(w, 'GET', `/widgets/${w.widgetId}/describe`, res);
  if (!res.ok) w.describe = { problem: problemText(res) };
  else if (res.body.error) w.describe = { problem: `${res.body.error.type}: ${res.body.error.message}` };
  else w.describe = { markdown: res.body.markdown, html: res.body.html, raw: false };
  renderInspector(w, inspectorHandlers);
}

export const inspectorHandlers = {
  onDescribe: (w) => void describe(w),
  onImage: (w, say) => void downloadImage(w, say),
  defaultCss: () => page.defaultCss,
  size: () => ({ state: page.current?.state, width: page.width }),
  onSize: null,
};
