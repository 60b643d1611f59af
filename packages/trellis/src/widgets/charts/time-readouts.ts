// The hover readouts of time-series charts: a column per row of the data table, which shows the row's time
// and values while the pointer is over it, with CSS only.
import { escapeHtml } from '../html.js';
import { fitText, withUnit } from './format.js';
import { coord } from './path.js';
import { NO_DATA } from './table.js';
import type { Plot } from './axes.js';
import type { NormalSeries } from './series.js';
import type { TimeRows } from './time-rows.js';

/** A row's time and each series' values (one, or average, minimum and maximum; none for no data), as text. */
export interface RowWords {
  readonly time: string;
  readonly cells: readonly (readonly string[] | undefined)[];
}

/**
 * A column per row over the plot: hovering it shades it and shows the row's readout (CSS only). Readouts
 * stand in the row above the plot, from the column's left edge (or, in the right half, to its right edge).
 * The columns sit in two groups, left and right half, moved to the plot's top, so that what all share is
 * written once: on every chart of 1,440 points they are most of the bytes.
 */
export function hoverColumns(
  plot: Plot,
  rows: TimeRows,
  words: readonly RowWords[],
  series: readonly NormalSeries[],
  unit: string,
  compact: boolean,
): string {
  const list = rows.rows;
  if (list.length === 0 || compact) return '';
  const mid = (plot.x0 + plot.x1) / 2;
  const show = (i: number, k: number) => {
    const c = words[i]!.cells[k];
    if (!c) return NO_DATA;
    return withUnit(c.length === 3 ? `avg ${c[0]}, min ${c[1]}, max ${c[2]}` : c[0]!, unit);
  };
  const height = coord(plot.y1 - plot.y0);
  let left = '';
  let right = '';
  for (let i = 0; i < list.length; i++) {
    const row = list[i]!;
    let from: number;
    let to: number;
    if (rows.interval) {
      from = plot.x(row.from);
      to = plot.x(row.to);
    } else {
      const x = plot.x(row.from);
      from = i === 0 ? plot.x0 : (x + plot.x(list[i - 1]!.from)) / 2;
      to = i === list.length - 1 ? plot.x1 : (x + plot.x(list[i + 1]!.from)) / 2;
    }
    from = Math.max(plot.x0, from);
    to = Math.min(plot.x1, to);
    if (to - from < 0.1) continue;
    const end = (from + to) / 2 > mid;
    const tx = coord(end ? to : from);
    let text = escapeHtml(words[i]!.time);
    if (series.length === 1) text += `  ${escapeHtml(show(i, 0))}`;
    else {
      for (let k = 0; k < series.length; k++) {
        text += `<tspan x="${tx}" dy="13"><tspan class="f${k}">■</tspan> ${escapeHtml(fitText(series[k]!.name, 150))}: ${escapeHtml(show(i, k))}</tspan>`;
      }
    }
    const column = `<g><rect x="${coord(from)}" width="${coord(to - from)}" height="${height}"/><text x="${tx}" y="-5">${text}</text></g>`;
    if (end) right += column;
    else left += column;
  }
  const at = `transform="translate(0 ${coord(plot.y0)})"`;
  return `<g class="h" ${at}>${left}</g><g class="h" ${at} text-anchor="end">${right}</g>`;
}
