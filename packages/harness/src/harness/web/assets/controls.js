// The toolbar: time range (presets and a custom range read in the dashboard's timezone), timezone, period
// override, refresh (manual and automatic), the dashboard's width and theme.
/* global document, window, Option */
import { LOCAL_ZONE, instantOf, wallTime, zoneLabel } from './zone.js';

export const RANGES = [
  ['-PT1H', '1h'], ['-PT3H', '3h'], ['-PT12H', '12h'], ['-P1D', '1d'], ['-P3D', '3d'], ['-P7D', '1w'],
];

const $ = (id) => document.getElementById(id);

// The state the controls last showed: the custom range's inputs are read and filled in its timezone.
let shown = null;

/** Closes a <details> popover and gives focus back to its summary. */
function closePopover(details) {
  details.open = false;
  details.querySelector('summary').focus();
}

/** Escape closes an open popover and returns focus to what opened it. */
function escapeCloses(details) {
  details.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && details.open) {
      e.preventDefault();
      closePopover(details);
    }
  });
}

/**
 * @param {{ onState: (patch: object) => void, onRefresh: () => void, onAutoTick: () => void, onWidth: (width: string) => void }} h
 */
export function setupControls(h) {
  const buttons = $('range-buttons');
  for (const [relative, label] of RANGES) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'seg';
    b.textContent = label;
    b.dataset.relative = relative;
    b.setAttribute('aria-pressed', 'false');
    b.title = `Last ${label} (${relative})`;
    b.addEventListener('click', () => h.onState({ timeRange: { relative } }));
    buttons.append(b);
  }
  const custom = $('custom-range');
  const form = $('custom-range-form');
  escapeCloses(custom);
  custom.addEventListener('toggle', () => {
    if (!custom.open || !shown) return;
    // Opening shows the current range in the dashboard's zone.
    const zone = shown.timezone;
    const now = Date.now();
    const t = shown.timeRange;
    const start = 'relative' in t ? now - 3 * 3600_000 : t.start;
    const end = 'relative' in t || t.end === null ? now : t.end;
    form.elements.start.value = wallTime(zone, start);
    form.elements.end.value = wallTime(zone, end);
    form.elements.start.focus();
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const zone = shown?.timezone ?? 'UTC';
    const start = instantOf(zone, form.elements.start.value);
    const end = instantOf(zone, form.elements.end.value);
    if (start === null || end === null) return;
    closePopover(custom);
    h.onState({ timeRange: { start, end } });
  });
  $('timezone').addEventListener('change', (e) => h.onState({ timezone: e.currentTarget.value }));
  $('period').addEventListener('change', (e) => {
    const v = e.currentTarget.value;
    h.onState({ period: v === 'auto' ? 'auto' : Number(v) });
  });
  $('dashboard-width').addEventListener('change', (e) => h.onWidth(e.currentTarget.value));
  $('refresh').addEventListener('click', () => h.onRefresh());
  let timer = null;
  $('auto-refresh').addEventListener('change', (e) => {
    if (timer) window.clearInterval(timer);
    timer = null;
    const seconds = Number(e.currentTarget.value);
    if (seconds > 0) timer = window.setInterval(() => h.onAutoTick(), seconds * 1000);
  });
  const theme = $('theme');
  theme.addEventListener('click', () => h.onState({ theme: theme.getAttribute('aria-pressed') === 'true' ? 'light' : 'dark' }));
}

/** Puts `value` among a select's options (adding it, labelled, when it is not one) and selects it. */
function choose(select, value, label) {
  if (![...select.options].some((o) => o.value === value)) select.add(new Option(label, value));
  select.value = value;
}

/** Shows the state on the controls. */
export function showState(state) {
  shown = state;
  const relative = state?.timeRange?.relative;
  for (const b of document.querySelectorAll('#range-buttons .seg')) b.setAttribute('aria-pressed', String(b.dataset.relative === relative));
  const zone = state?.timezone ?? 'UTC';
  const summary = document.querySelector('#custom-range summary');
  const fmt = (ms) => wallTime(zone, ms).replace('T', ' ');
  summary.textContent = relative === undefined && state?.timeRange
    ? `${fmt(state.timeRange.start)} – ${state.timeRange.end === null ? 'now' : fmt(state.timeRange.end)}`
    : 'Custom';
  $('custom-zone').textContent = `Times in ${zoneLabel(zone)}`;
  const tz = $('timezone');
  tz.replaceChildren(new Option('UTC', 'UTC'));
  // A browser that runs in UTC has no other local zone to offer.
  if (!['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT'].includes(LOCAL_ZONE)) tz.add(new Option(`Local (${LOCAL_ZONE})`, LOCAL_ZONE));
  choose(tz, zone, zoneLabel(zone));
  const period = state?.period ?? 'auto';
  choose($('period'), String(period), `${period} s`);
  const dark = state?.theme === 'dark';
  const theme = $('theme');
  theme.setAttribute('aria-pressed', String(dark));
  theme.textContent = dark ? 'Light theme' : 'Dark theme';
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
