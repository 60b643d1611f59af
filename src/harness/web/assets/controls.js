// The toolbar: time range, refresh (manual and automatic), theme.
/* global document, window */

export const RANGES = [
  ['-PT1H', '1h'], ['-PT3H', '3h'], ['-PT12H', '12h'], ['-P1D', '1d'], ['-P3D', '3d'], ['-P7D', '1w'],
];

/**
 * @param {{ onRange: (range: object) => void, onRefresh: () => void, onAutoTick: () => void, onTheme: (theme: string) => void }} h
 */
export function setupControls(h) {
  const buttons = document.getElementById('range-buttons');
  for (const [relative, label] of RANGES) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'seg';
    b.textContent = label;
    b.dataset.relative = relative;
    b.setAttribute('aria-pressed', 'false');
    b.title = `Last ${label} (${relative})`;
    b.addEventListener('click', () => h.onRange({ relative }));
    buttons.append(b);
  }
  const custom = document.getElementById('custom-range');
  document.getElementById('custom-range-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const form = e.currentTarget;
    const start = new Date(form.elements.start.value);
    const end = new Date(form.elements.end.value);
    if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return;
    custom.open = false;
    h.onRange({ start: start.toISOString(), end: end.toISOString() });
  });
  document.getElementById('refresh').addEventListener('click', () => h.onRefresh());
  let timer = null;
  document.getElementById('auto-refresh').addEventListener('change', (e) => {
    if (timer) window.clearInterval(timer);
    timer = null;
    const seconds = Number(e.currentTarget.value);
    if (seconds > 0) timer = window.setInterval(() => h.onAutoTick(), seconds * 1000);
  });
  const theme = document.getElementById('theme');
  theme.addEventListener('click', () => h.onTheme(theme.getAttribute('aria-pressed') === 'true' ? 'light' : 'dark'));
}

/** Shows the state's time range and theme on the controls. */
export function showState(state) {
  const relative = state?.timeRange?.relative;
  for (const b of document.querySelectorAll('#range-buttons .seg')) b.setAttribute('aria-pressed', String(b.dataset.relative === relative));
  const custom = document.querySelector('#custom-range summary');
  custom.textContent = relative === undefined && state?.timeRange ? `Custom: ${fmt(state.timeRange.start)} – ${state.timeRange.end === null ? 'now' : fmt(state.timeRange.end)}` : 'Custom';
  const dark = state?.theme === 'dark';
  const theme = document.getElementById('theme');
  theme.setAttribute('aria-pressed', String(dark));
  theme.textContent = dark ? 'Light theme' : 'Dark theme';
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

const fmt = (ms) => new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
