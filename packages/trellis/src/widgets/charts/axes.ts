// The axes of time-series charts: the plot's edges and scales, the value axis with its grid and unit, and the
// time axis with ticks on the zone's clock.
import { escapeHtml } from '../html.js';
import { boundaries, chooseInterval, tickLabeller } from './time-axis.js';
import type { Zone } from './time-zone.js';
import { fitText, textWidth } from './format.js';
import { coord } from './path.js';

/** The plot of a time-series chart: its edges in pixels and its scales. */
export interface Plot {
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
  readonly x: (t: number) => number;
  /** Clamped to the plot. */
  readonly y: (v: number) => number;
  /** The y of zero (or the nearest edge), the base of areas. */
  readonly base: number;
}

/** Grid lines and labels of the value axis, and the unit above it. */
export function valueAxis(plot: Plot, ticks: readonly number[], labels: readonly string[], unit: string): string {
  let grid = '';
  let text = '';
  ticks.forEach((t, i) => {
    const y = plot.y(t);
    grid += `M${coord(plot.x0)} ${coord(y)}H${coord(plot.x1)}`;
    text += `<text x="${coord(plot.x0 - 6)}" y="${coord(y + 3.5)}">${escapeHtml(labels[i]!)}</text>`;
  });
  const unitLabel = unit
    ? `<text x="${coord(plot.x0 - 6)}" y="${coord(plot.y0 - 9)}">${escapeHtml(fitText(unit, plot.x0 + 40))}</text>`
    : '';
  return `<path class="g" d="${grid}"/><g text-anchor="end">${text}${unitLabel}</g>`;
}

/** Ticks and labels of the time axis, on the zone's clock; labels that would overlap are left out. */
export function timeAxis(plot: Plot, zone: Zone, locale: string, start: number, end: number, width: number): string {
  const interval = chooseInterval(end - start, Math.max(1, Math.floor((plot.x1 - plot.x0) / 75)));
  const label = tickLabeller(zone, locale, interval);
  let marks = `M${coord(plot.x0)} ${coord(plot.y1)}H${coord(plot.x1)}`;
  let text = '';
  let right = -Infinity;
  for (const t of boundaries(zone, start, end, interval)) {
    const x = plot.x(t);
    marks += `M${coord(x)} ${coord(plot.y1)}v4`;
    const words = label(t);
    const w = textWidth(words);
    const left = Math.max(0, Math.min(width - w, x - w / 2));
    if (left < right + 6) continue;
    right = left + w;
    text += `<text x="${coord(left + w / 2)}" y="${coord(plot.y1 + 15)}">${escapeHtml(words)}</text>`;
  }
  return `<path class="g" d="${marks}"/><g text-anchor="middle">${text}</g>`;
}
