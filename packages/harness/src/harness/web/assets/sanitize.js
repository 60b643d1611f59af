// Turns a widget's HTML into the document its frame shows. The console strips script and other active
// content before showing a widget; the frame is sandboxed so nothing could run anyway, but stripping keeps the
// view close to the console's and keeps the browser from reporting blocked scripts. The linter's findings
// (shown in the inspector) remain the authority on what the console removes.
/* global DOMParser */

const DROP = ['script', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'portal', 'base', 'meta', 'link', 'noscript', 'use'];
const URL_ATTRS = ['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background'];

// Always on, even without default styles: action content is data, not something to show.
// A widget's frame is its content area: html and body fill it, so `height: 100%` and `calc(100% - …)` are
// fractions of the widget's height as in the console, and what does not fit scrolls.
const BASE_CSS = 'cwdb-action{display:none!important}[data-cwdb-action]{cursor:pointer}:root.cwdb-theme-dark{color-scheme:dark}'
  + ':root.cwdb-fill{height:100%;overflow:auto}:root.cwdb-fill body{height:100%;margin:0;box-sizing:border-box}';

function clean(root) {
  for (const el of [...root.querySelectorAll(DROP.join(','))]) el.remove();
  for (const el of root.querySelectorAll('*')) {
    for (const attr of [...el.attributes]) {
      const name = attr.name.toLowerCase();
      // Browsers ignore whitespace and control characters inside a URL's scheme.
      const value = [...attr.value].filter((c) => c.charCodeAt(0) > 0x20).join('').toLowerCase();
      if (name.startsWith('on') || name === 'srcdoc' || (URL_ATTRS.includes(name) && /^(javascript|vbscript):/.test(value))) {
        el.removeAttribute(attr.name);
      }
    }
  }
  // Template content is a separate fragment that querySelectorAll does not enter.
  for (const t of root.querySelectorAll('template')) clean(t.content);
}

/**
 * @param {string} html the widget's HTML as the API returns it
 * @param {{ theme: 'light'|'dark', defaultCss: string, fill?: boolean }} options
 * @returns {string} a complete document for a sandboxed srcdoc frame
 */
export function widgetDocument(html, { theme, defaultCss, fill = true }) {
  const doc = new DOMParser().parseFromString(`<!doctype html>${html}`, 'text/html');
  clean(doc);
  const root = doc.documentElement;
  root.classList.add(`cwdb-theme-${theme}`);
  if (fill) root.classList.add('cwdb-fill');
  const own = doc.createElement('style');
  own.id = 'cwdb-default-styles';
  own.textContent = defaultCss;
  // Default styles come first so the widget's own <style> wins, as in the console; the opt-out class removes them.
  if (doc.querySelector('.cwdb-no-default-styles')) own.media = 'not all';
  const base = doc.createElement('style');
  base.textContent = BASE_CSS;
  doc.head.prepend(base, own);
  return `<!doctype html>${root.outerHTML}`;
}

/** Escapes text for HTML. */
export function escapeHtml(s) {
  return String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
