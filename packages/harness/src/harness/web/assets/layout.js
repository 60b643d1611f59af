// Places widgets on the console's 24-column grid. Widgets with x and y keep them; the others go, in order,
// to the first row and column (top to bottom, left to right) where they fit without overlapping.

export const COLUMNS = 24;

const num = (v, lo, hi, fallback) => (Number.isInteger(v) && v >= lo && v <= hi ? v : fallback);

/**
 * @param {Array<{x?: number, y?: number, width?: number, height?: number}>} widgets as written in the source
 * @returns {Array<{x: number, y: number, width: number, height: number}>} one placement per widget
 */
export function placeWidgets(widgets) {
  const taken = [];
  const free = (x, y, w, h) => taken.every((t) => x + w <= t.x || t.x + t.width <= x || y + h <= t.y || t.y + t.height <= y);
  const sized = widgets.map((w) => ({
    width: num(w?.width, 1, COLUMNS, 6),
    height: num(w?.height, 1, 1000, 6),
    x: num(w?.x, 0, COLUMNS - 1, null),
    y: num(w?.y, 0, Number.MAX_SAFE_INTEGER, null),
  }));
  const out = new Array(sized.length);
  sized.forEach((w, i) => {
    if (w.x !== null && w.y !== null) {
      out[i] = { x: w.x, y: w.y, width: Math.min(w.width, COLUMNS - w.x), height: w.height };
      taken.push(out[i]);
    }
  });
  sized.forEach((w, i) => {
    if (out[i]) return;
    for (let y = 0; !out[i]; y++) {
      for (let x = 0; x + w.width <= COLUMNS; x++) {
        if (free(x, y, w.width, w.height)) {
          out[i] = { x, y, width: w.width, height: w.height };
          break;
        }
      }
    }
    taken.push(out[i]);
  });
  return out;
}
