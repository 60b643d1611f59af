// The confirmation dialog and the popup, as modal <dialog>s (focus is trapped and Escape closes them). Closing
// either gives focus back to the element that opened it, inside its widget's frame when it was there.
/* global document, window */
import { createFrame, fitFrame } from './frame.js';

/** The element that has focus, looking inside same-origin frames. */
function focusedElement() {
  let el = document.activeElement;
  while (el?.localName === 'iframe' && el.contentDocument?.activeElement) {
    const inner = el.contentDocument.activeElement;
    if (inner === el.contentDocument.body || inner === null) break;
    el = inner;
  }
  return el;
}

/** Gives focus back to `opener`; when it is gone (an action replaced it), to what `fallback` names. */
function returnFocus(opener, fallback) {
  if (opener?.isConnected) {
    opener.ownerDocument.defaultView?.frameElement?.focus();
    opener.focus();
    if (opener.ownerDocument.activeElement === opener) return;
  }
  fallback?.()?.focus();
}

function whenClosed(dialog, opener, fallback, then) {
  dialog.addEventListener(
    'close',
    () => {
      then?.();
      // After the close event the browser has put focus back where showModal() found it (the frame);
      // wait one task so the opener inside the frame gets it.
      window.setTimeout(() => returnFocus(opener, fallback), 0);
    },
    { once: true },
  );
}

/**
 * Asks the action's confirmation question; resolves true for Confirm, false for Cancel or Escape.
 * @param {string} text
 * @param {() => (HTMLElement|null|undefined)} [fallback] where focus goes when the opener is gone
 */
export function askConfirmation(text, fallback) {
  const dialog = document.getElementById('confirm-dialog');
  const opener = focusedElement();
  document.getElementById('confirm-text').textContent = text;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    whenClosed(dialog, opener, fallback, () => resolve(dialog.returnValue === 'ok'));
    dialog.showModal();
    document.getElementById('confirm-cancel').focus();
  });
}

/** Shows a popup result; the popup's content is shown like a widget's, in its own sandboxed frame. */
export async function openPopup({ title, html, theme, defaultCss, fallback }) {
  const dialog = document.getElementById('popup-dialog');
  const opener = focusedElement();
  document.getElementById('popup-title').textContent = title;
  whenClosed(dialog, opener, fallback);
  dialog.showModal();
  const frame = await createFrame(document.getElementById('popup-body'), { html, theme, defaultCss, title, fill: false });
  fitFrame(frame, Math.round(window.innerHeight * 0.7));
  document.getElementById('popup-close').focus();
}
