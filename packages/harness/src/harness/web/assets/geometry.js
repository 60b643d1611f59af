// The console's geometry on the page. The 24 grid columns span the dashboard area of the window (or a fixed
// width the person chooses); a row is 68 px. Every card fills its cell less a 4 px margin, and a custom
// widget's frame is drawn at scale 1 at exactly the pixel size its cell leaves for content — the size the
// harness tells the widget's function for the same dashboard width. The numbers and the formula are the
// harness's own (src/dashboard/geometry.ts); a test holds this copy to them.
/* global ResizeObserver */

export const GRID_COLUMNS = 24;
export const ROW_HEIGHT = 68;
export const WIDGET_CHROME = { margin: 4, border: 1, titleBar: 29 };
export const WIDGET_GUTTER = {
  width: 2 * WIDGET_CHROME.margin + 2 * WIDGET_CHROME.border,
  height: 2 * WIDGET_CHROME.margin + 2 * WIDGET_CHROME.border + WIDGET_CHROME.titleBar,
};
export const DEFAULT_DASHBOARD_WIDTH = 2392;
/** The page never lays the grid out narrower than this (it scrolls sideways instead). */
export const MIN_PAGE_DASHBOARD_WIDTH = 480;

/**
 * The content size of a cell of `columns` × `rows` on a dashboard `dashboardWidth` pixels wide.
 * @returns {{ width: number, height: number }}
 */
export function cellPixelSize(columns, rows, dashboardWidth) {
  return {
    width: Math.max(1, Math.round((columns * dashboardWidth) / GRID_COLUMNS) - WIDGET_GUTTER.width),
    height: Math.max(1, rows * ROW_HEIGHT - WIDGET_GUTTER.height),
  };
}

/**
 * The size a widget has at `dashboardWidth`: its own size from the state's `widgetSizes` on the sides it gives,
 * else its cell's. With the state's own width it is the size the harness tells the widget's function.
 * @param {{ widgetId: string, place: { width: number, height: number } }} w
 * @param {{ widgetSizes?: Record<string, { width?: number, height?: number }> }} state
 * @param {number} dashboardWidth
 */
export function widgetSize(w, state, dashboardWidth) {
  const cell = cellPixelSize(w.place.width, w.place.height, dashboardWidth);
  const own = state?.widgetSizes && Object.hasOwn(state.widgetSizes, w.widgetId) ? state.widgetSizes[w.widgetId] : undefined;
  return { width: own?.width ?? cell.width, height: own?.height ?? cell.height };
}

/**
 * A card's box on the grid, in pixels: its cell less the margin on every side. The content of a card with a
 * title bar is then exactly its cell's content size.
 * @param {{ x: number, y: number, width: number, height: number }} place
 */
export function cardBox(place, dashboardWidth) {
  const at = (columns) => Math.round((columns * dashboardWidth) / GRID_COLUMNS);
  const m = WIDGET_CHROME.margin;
  return {
    left: at(place.x) + m,
    top: place.y * ROW_HEIGHT + m,
    width: Math.max(2 * WIDGET_CHROME.border, at(place.width) - 2 * m),
    height: place.height * ROW_HEIGHT - 2 * m,
  };
}

/**
 * Lays every card out at `dashboardWidth` and draws each custom widget's frame at its size (scale 1).
 * @param {HTMLElement} grid
 * @param {Array<object>} widgets the page's widget records (place, card, frame)
 * @param {object} state the dashboard state
 * @param {number} dashboardWidth
 */
export function layoutGrid(grid, widgets, state, dashboardWidth) {
  const rows = Math.max(0, ...widgets.map((w) => w.place.y + w.place.height));
  grid.style.height = `${rows * ROW_HEIGHT}px`;
  grid.dataset.width = String(dashboardWidth);
  for (const w of widgets) {
    if (!w.card) continue;
    const box = cardBox(w.place, dashboardWidth);
    Object.assign(w.card.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` });
    sizeFrame(w, state, dashboardWidth);
  }
}

/**
 * Draws a custom widget's frame at its size at `dashboardWidth`, unscaled; a size set for the widget alone may
 * be larger than its card, whose body then scrolls. Records the size its function was told (from the event
 * it received) beside it.
 */
export function sizeFrame(w, state, dashboardWidth) {
  const frame = w.frame;
  if (!frame || w.type !== 'custom') return;
  const size = widgetSize(w, state, dashboardWidth);
  frame.style.width = `${size.width}px`;
  frame.style.height = `${size.height}px`;
  const told = w.result?.invocation?.event?.widgetContext;
  const fallback = widgetSize(w, state, state?.dashboardWidth ?? DEFAULT_DASHBOARD_WIDTH);
  frame.dataset.contextWidth = String(typeof told?.width === 'number' ? told.width : fallback.width);
  frame.dataset.contextHeight = String(typeof told?.height === 'number' ? told.height : fallback.height);
  w.card.classList.toggle('own-size', Boolean(state?.widgetSizes && Object.hasOwn(state.widgetSizes, w.widgetId)));
}

/** The width of the dashboard area the grid spans, in whole pixels (never below the page's minimum). */
export function measureWidth(grid) {
  return Math.max(MIN_PAGE_DASHBOARD_WIDTH, Math.floor(grid.getBoundingClientRect().width));
}

/** Calls `onChange` whenever the grid's width changes (the window, a side panel, the browser's zoom). */
export function watchWidth(grid, onChange) {
  let last = null;
  const observer = new ResizeObserver(() => {
    const width = measureWidth(grid);
    if (width === last) return;
    last = width;
    onChange(width);
  });
  observer.observe(grid);
  return observer;
}
