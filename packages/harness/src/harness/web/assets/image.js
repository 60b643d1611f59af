// Saves a widget as the harness draws it: a PNG from GET …/widgets/{wid}/image, at the screen's pixel density
// (1 to 3), downloaded under the name the harness gives it.
/* global document, window, URL, setTimeout */
import { api, problemText } from './api.js';
import { page } from './page.js';

/** Downloads the widget's image; `say` shows how it went (the problem's detail when there is no browser). */
export async function downloadImage(w, say) {
  const scale = Math.min(3, Math.max(1, Math.round(window.devicePixelRatio || 1)));
  say('Drawing the image…');
  const res = await api.widgetImage(page.current.id, w.widgetId, scale);
  if (!res.ok) {
    say(`No image: ${problemText(res)}`, true);
    return;
  }
  const url = URL.createObjectURL(res.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = res.filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  say(`Saved ${res.filename}.`);
}
