// The confirmation dialog and the popup, as modal <dialog>s (focus is trapped and Escape closes them).
/* global document, window */
import { createFrame, fitFrame } from './frame.js';

/** Asks the action's confirmation question; resolves true for Confirm, false for Cancel or Escape. */
export function askConfirmation(text) {
  const dialog = document.getElementById('confirm-dialog');
  document.getElementById('confirm-text').textContent = text;
  dialog.returnValue = '';
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'ok'), { once: true });
    dialog.showModal();
    document.getElementById('confirm-cancel').focus();
  });
}

/** Shows a popup result; the popup's content is shown like a widget's, in its own sandboxed frame. */
export async function openPopup({ title, html, theme, defaultCss }) {
  const dialog = document.getElementById('popup-dialog');
  document.getElementById('popup-title').textContent = title;
  dialog.showModal();
  const frame = await createFrame(document.getElementById('popup-body'), { html, theme, defaultCss, title, fill: false });
  fitFrame(frame, Math.round(window.innerHeight * 0.7));
  document.getElementById('popup-close').focus();
}
