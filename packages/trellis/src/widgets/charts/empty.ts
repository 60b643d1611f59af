// The empty state: the chart's frame with a message where the data would be.
import { escapeHtml } from '../html.js';
import { coord } from './path.js';

/** A centred message (`No data`) in a chart of this size. */
export function emptySvg(width: number, height: number, text: string): string {
  return `<text class="e" x="${coord(width / 2)}" y="${coord(height / 2 + 4)}" text-anchor="middle">${escapeHtml(text)}</text>`;
}
