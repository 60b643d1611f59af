// The legend: a colour swatch and a name per series, in rows that wrap; long names are cut (the data table
// has them whole).
import { escapeHtml } from '../html.js';
import { coord } from './path.js';
import { fitText, textWidth } from './format.js';

/** The height of one row of the legend. */
export const LEGEND_ROW = 16;
const MORE = 60;

/** Legend items from `(x, y)` within `width`, at most `rows` rows; the SVG and the height it takes. */
export function legend(names: readonly string[], x: number, y: number, width: number, rows: number): { svg: string; height: number } {
  if (names.length === 0 || width < 40) return { svg: '', height: 0 };
  let svg = '';
  let row = 0;
  let at = x;
  for (let i = 0; i < names.length; i++) {
    // 16 for the swatch and its gap, 12 after: an item is never wider than the legend.
    const label = fitText(names[i]!, Math.min(width - 28, 220));
    const w = 16 + textWidth(label) + 12;
    // On the last row, an item that is not the last leaves room to say how many are left out.
    const room = () => x + width - (row === rows - 1 && i < names.length - 1 ? MORE : 0);
    if (at > x && at + w > room()) {
      if (row === rows - 1) {
        // Where the row's items left room for it, or at the room kept at the row's end when one item filled the row.
        svg += `<text x="${coord(Math.min(at, x + width - MORE))}" y="${coord(y + row * LEGEND_ROW + 9)}">+${names.length - i} more</text>`;
        break;
      }
      row++;
      at = x;
    }
    const top = y + row * LEGEND_ROW;
    svg += `<rect class="f${i}" x="${coord(at)}" y="${coord(top)}" width="10" height="10" rx="2"/><text x="${coord(at + 14)}" y="${coord(top + 9)}">${escapeHtml(label)}</text>`;
    at += w;
  }
  return { svg, height: (row + 1) * LEGEND_ROW };
}
