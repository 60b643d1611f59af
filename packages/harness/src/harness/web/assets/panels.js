// The sidebar (dashboards) and the inspector are panels that close, giving the grid the whole width.
/* global document */

const PANELS = { sidebar: 'toggle-sidebar', inspector: 'toggle-inspector' };

function set(name, open) {
  const layout = document.querySelector('.layout');
  const panel = document.getElementById(name);
  const toggle = document.getElementById(PANELS[name]);
  if (!layout || !panel || !toggle) return;
  panel.hidden = !open;
  layout.classList.toggle(`no-${name}`, !open);
  toggle.setAttribute('aria-expanded', String(open));
}

/** Opens a panel (`sidebar` or `inspector`). */
export function openPanel(name) {
  set(name, true);
}

/** Wires the panels' toggle buttons and each panel's close button; `open` says which start open. */
export function setupPanels(open = { sidebar: true, inspector: false }) {
  for (const [name, toggleId] of Object.entries(PANELS)) {
    const toggle = document.getElementById(toggleId);
    set(name, Boolean(open[name]));
    toggle.addEventListener('click', () => set(name, toggle.getAttribute('aria-expanded') !== 'true'));
    document.querySelector(`#${name} .panel-close`)?.addEventListener('click', () => {
      set(name, false);
      toggle.focus();
    });
  }
}
