// The console's geometry on the page. A widget's function is told its size in pixels (`widgetContext.width` ×
// `height`: 98 px per grid column and 61.5 px per grid row unless the state overrides them); its frame is laid
// out at exactly that size, so percentages and `calc(100% - …)` resolve as they would in the console, and is
// then scaled, as a whole, to the room its card has on the page.
/* global ResizeObserver */

export const PIXELS_PER_COLUMN = 98;
export const PIXELS_PER_ROW = 61.5;
export const GRID_PIXELS = 24 * PIXELS_PER_COLUMN;

/**
 * The pixel size the harness tells a widget's function now: the state's override, or the widget's grid size.
 * A widget that does not run again on resize is still shown at the new size, as the console reflows it.
 * @param {{ model: {width: number, height: number} }} w
 * @param {{ width: number|null, height: number|null }} state
 * @returns {{ width: number, height: number }}
 */
export function contextSize(w, state) {
  return {
    width: state?.width ?? w.model.width * PIXELS_PER_COLUMN,
    height: state?.height ?? Math.round(w.model.height * PIXELS_PER_ROW),
  };
}

/** The factor that fits a `size` box into a `room` box without distorting it (never above 1). */
export function fitScale(size, room) {
  if (!(size.width > 0 && size.height > 0) || !(room.width > 0 && room.height > 0)) return 1;
  return Math.min(1, room.width / size.width, room.height / size.height);
}

/**
 * Lays a frame out at `size` and scales it into its container; keeps doing so when the container changes.
 * @param {HTMLIFrameElement} frame
 * @param {{ width: number, height: number }} size
 */
export function sizeFrame(frame, size) {
  frame.style.width = `${size.width}px`;
  frame.style.height = `${size.height}px`;
  frame.dataset.contextWidth = String(size.width);
  frame.dataset.contextHeight = String(size.height);
  const container = frame.parentElement;
  if (!container) return;
  const apply = () => {
    const k = fitScale(size, { width: container.clientWidth, height: container.clientHeight });
    frame.style.transform = k === 1 ? '' : `scale(${k})`;
    frame.dataset.scale = k.toFixed(3);
  };
  apply();
  frame.resizeObserver?.disconnect();
  frame.resizeObserver = new ResizeObserver(apply);
  frame.resizeObserver.observe(container);
}

/**
 * Keeps the grid's scale (`--s`: page pixels per console pixel) fitted to its width, or at 1 when `zoom` is
 * `actual`. Returns a function that re-applies it.
 * @param {HTMLElement} grid
 * @param {() => 'fit'|'actual'} zoom
 */
export function watchGridScale(grid, zoom) {
  const apply = () => {
    const s = zoom() === 'actual' ? 1 : Math.max(0.2, grid.clientWidth / GRID_PIXELS);
    grid.style.setProperty('--s', String(s));
  };
  new ResizeObserver(apply).observe(grid);
  apply();
  return apply;
}
