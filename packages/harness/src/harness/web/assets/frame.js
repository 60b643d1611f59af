// A widget's content in a sandboxed frame. The sandbox allows same-origin access but never scripts, so
// nothing in a widget runs; the page itself attaches the listeners that make <cwdb-action> elements work,
// as the console does from outside the widget.
/* global document, window */
import { widgetDocument } from './sanitize.js';

const NATIVELY_FOCUSABLE = new Set(['button', 'input', 'select', 'textarea', 'summary']);

/**
 * Makes a sandboxed frame showing `html`.
 * @param {{ html: string, theme: 'light'|'dark', defaultCss: string, title: string, fill?: boolean }} options
 * @returns {Promise<HTMLIFrameElement>} resolves once the frame's document has loaded (it must be in the page)
 */
export function createFrame(container, { html, theme, defaultCss, title, fill = true }) {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-same-origin');
  frame.setAttribute('title', title);
  frame.className = 'widget-frame';
  const loaded = new Promise((resolve) =>
    frame.addEventListener(
      'load',
      () => {
        trackFocus(frame);
        resolve(frame);
      },
      { once: true },
    ),
  );
  frame.srcdoc = widgetDocument(html, { theme, defaultCss, fill });
  container.replaceChildren(frame);
  return loaded;
}

/**
 * Marks the frame `has-focus` while something inside it has focus: the browser does not match `:focus` or
 * `:focus-within` on a frame whose content has focus, and the page draws the frame's focus ring from this.
 */
function trackFocus(frame) {
  const win = frame.contentWindow;
  const doc = frame.contentDocument;
  if (!win || !doc) return;
  const set = (on) => frame.classList.toggle('has-focus', on);
  doc.addEventListener('focusin', () => set(true));
  doc.addEventListener('focusout', () => set(false));
  win.addEventListener('focus', () => set(true));
  win.addEventListener('blur', () => set(false));
}

/** The top-level <cwdb-action> elements of a frame in document order (those inside another action's content are its HTML). */
export function actionElements(doc) {
  return [...doc.querySelectorAll('cwdb-action')].filter((a) => !a.parentElement?.closest('cwdb-action'));
}

/**
 * Wires each action entry (from the API) to the element its <cwdb-action> binds to.
 * @param {HTMLIFrameElement} frame
 * @param {Array<{index: number, event: string, text: string}>} entries
 * @param {(entry: object) => void} trigger
 */
export function bindActions(frame, entries, trigger) {
  const doc = frame.contentDocument;
  if (!doc) return;
  const elements = actionElements(doc);
  for (const entry of entries) {
    const target = elements[entry.index]?.previousElementSibling;
    if (!target) continue;
    target.setAttribute('data-cwdb-action', String(entry.index));
    if (!NATIVELY_FOCUSABLE.has(target.localName) && !(target.localName === 'a' && target.hasAttribute('href'))) {
      target.setAttribute('tabindex', '0');
      if (!target.hasAttribute('role')) target.setAttribute('role', 'button');
    }
    const fire = (e) => {
      e.preventDefault();
      trigger(entry);
    };
    target.addEventListener(entry.event, fire);
    if (entry.event === 'mouseenter') target.addEventListener('focus', fire);
    // Keyboard users reach every action: Enter (and Space on non-buttons) runs it whatever its pointer event.
    target.addEventListener('keydown', (e) => {
      const native = target.localName === 'button' || (target.localName === 'a' && target.hasAttribute('href'));
      if (e.key === 'Enter' && (entry.event !== 'click' || !native)) fire(e);
      else if (e.key === ' ' && !native && target.localName !== 'input') fire(e);
    });
  }
  // Links never navigate the frame: an action's link does its action, any other opens in a new tab.
  doc.addEventListener('click', (e) => {
    const link = typeof e.target?.closest === 'function' ? e.target.closest('a[href]') : null;
    if (!link) return;
    const href = link.getAttribute('href') ?? '';
    if (href.startsWith('#')) return;
    e.preventDefault();
    if (!link.hasAttribute('data-cwdb-action') && /^https?:/i.test(link.href)) window.open(link.href, '_blank', 'noopener');
  });
}

/** Sizes a frame to its content, up to `max` pixels. */
export function fitFrame(frame, max) {
  const doc = frame.contentDocument;
  if (!doc) return;
  frame.style.height = `${Math.min(max, Math.max(60, doc.documentElement.scrollHeight + 4))}px`;
}
