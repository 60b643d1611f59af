// Loading a dashboard: paste its JSON, choose a file, or drop one anywhere on the page.
/* global document */
import { api } from './api.js';
import { escapeHtml } from './sanitize.js';

/** @param {(created: {id: string, name: string}) => void} onLoaded */
export function setupLoader(onLoaded) {
  const panel = document.getElementById('loader');
  const opener = document.getElementById('open-loader');
  const form = document.getElementById('loader-form');
  const text = document.getElementById('loader-json');
  const name = document.getElementById('loader-name');
  const errors = document.getElementById('loader-errors');
  const show = (open) => {
    panel.hidden = !open;
    opener.setAttribute('aria-expanded', String(open));
    if (open) text.focus();
    else errors.replaceChildren();
  };
  opener.addEventListener('click', () => show(panel.hidden));
  document.getElementById('loader-cancel').addEventListener('click', () => {
    show(false);
    opener.focus();
  });

  const submit = async (json, dashboardName) => {
    errors.replaceChildren();
    const res = await api.createDashboard(json, dashboardName);
    if (!res.ok) {
      const b = res.body && typeof res.body === 'object' ? res.body : {};
      const items = Array.isArray(b.validationMessages)
        ? b.validationMessages.map((m) => `<li><code>${escapeHtml(m.dataPath || '/')}</code> ${escapeHtml(m.message)}</li>`).join('')
        : '';
      errors.innerHTML = `<p><strong>${escapeHtml(b.title ?? `The harness answered ${res.status}`)}</strong> ${escapeHtml(b.detail ?? '')}</p>${items ? `<ul>${items}</ul>` : ''}`;
      return;
    }
    show(false);
    text.value = '';
    onLoaded(res.body);
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void submit(text.value, name.value.trim() || 'dashboard');
  });

  const fromFile = async (file) => {
    const content = await file.text();
    const base = file.name.replace(/\.json$/i, '') || 'dashboard';
    show(true);
    text.value = content;
    name.value = base;
    await submit(content, base);
  };
  document.getElementById('loader-file').addEventListener('change', (e) => {
    const file = e.currentTarget.files?.[0];
    if (file) void fromFile(file);
    e.currentTarget.value = '';
  });
  const zone = document.getElementById('dropzone');
  document.addEventListener('dragover', (e) => {
    if (![...(e.dataTransfer?.types ?? [])].includes('Files')) return;
    e.preventDefault();
    document.body.classList.add('dragging');
    zone.classList.add('over');
  });
  document.addEventListener('dragleave', (e) => {
    if (e.relatedTarget === null) {
      document.body.classList.remove('dragging');
      zone.classList.remove('over');
    }
  });
  document.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files?.[0];
    document.body.classList.remove('dragging');
    zone.classList.remove('over');
    if (!file) return;
    e.preventDefault();
    void fromFile(file);
  });
}
