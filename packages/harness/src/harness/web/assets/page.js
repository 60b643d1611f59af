// What the page holds between requests, and the status line.
/* global document */

// `width`: the width of the dashboard on screen, in pixels (the grid's: the window's dashboard area or a fixed one).
export const page = { defaultCss: '', current: null, inspected: null, generation: 0, width: 0 };

export const $ = (id) => document.getElementById(id);

/** Shows one line in the status region (announced to screen readers). */
export function status(text, bad = false) {
  const el = $('status');
  el.textContent = text;
  el.classList.toggle('bad', bad);
}

/** Keeps the last 50 requests made for a widget, for the inspector. */
export function logRequest(w, method, path, res, note = '') {
  w.log.push({ method, path, status: res.status, ms: res.ms, note });
  if (w.log.length > 50) w.log.shift();
}
