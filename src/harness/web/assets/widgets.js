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

export function renderGrid() {
  const grid = $('grid');
  grid.replaceChildren(
    ...page.current.widgets.map((w) => {
      const card = document.createElement('section');
      card.className = 'widget';
      card.dataset.widgetId = w.widgetId;
      card.dataset.state = 'loading';
      // Untitled text widgets show no title, as in the console, but still have a name for assistive technology.
      if (w.title || w.type !== 'text') card.setAttribute('aria-labelledby', `title-${w.widgetId}`);
      else card.setAttribute('aria-label', `Text widget ${w.widgetId}`);
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

export function inspect(w) {
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
    if (r.invocation) badges.push(`<span class="badge" title="How long the function ran for this content">${Math.round(r.invocation.durationMs)} ms</span>`);
    if (r.findings?.length) badges.push(`<span class="badge warn" title="HTML the console would strip">${r.findings.length} finding${r.findings.length === 1 ? '' : 's'}</span>`);
    if (r.error) badges.push(`<span class="badge bad">${escapeHtml(r.error.type)}</span>`);
  }
  w.card.querySelector('.badges').innerHTML = badges.join('');
  w.card.dataset.invocations = String(r?.invocations ?? 0);
  if (page.inspected === w) renderInspector(w, inspectorHandlers);
}

export async function readWidget(w) {
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
  await show(w, res.body);
}

export async function show(w, result) {
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

async function describe(w) {
  const res = await api.describe(page.current.id, w.widgetId);
  logRequest(w, 'GET', `/widgets/${w.widgetId}/describe`, res);
  if (!res.ok) w.describe = `<p class="bad">${escapeHtml(problemText(res))}</p>`;
  else if (res.body.error) w.describe = `<p class="bad">${escapeHtml(res.body.error.type)}: ${escapeHtml(res.body.error.message)}</p>`;
  else w.describe = `<pre class="json">${escapeHtml(res.body.markdown ?? res.body.html)}</pre>`;
  renderInspector(w, inspectorHandlers);
}

export const inspectorHandlers = { onDescribe: (w) => void describe(w) };
