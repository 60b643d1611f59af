// What every chart is wrapped in: an element with the chart's id, a <style> scoped to it (the theme's colours
// as custom properties, and the hover readouts, which need no script), the SVG with its accessible name and
// description, and the data table.
import { SafeHtml, escapeHtml } from '../html.js';
import { paletteCss } from './palette.js';
import type { Resolved } from './options.js';

/** A chart's parts, drawn; the frame adds the rest. */
export interface FrameParts {
  /** `line`, `area`, `bar`, `pie`, `sparkline`: the element's second class, `trellis-chart-<kind>`. */
  readonly kind: string;
  /** The SVG's content. */
  readonly svg: string;
  /** The description written when the options give none. */
  readonly description: string;
  /** The table's HTML, or '' for none. */
  readonly table: string;
  /** Colours of the series (or bars, or slices), as `--c0`, `--c1`, … */
  readonly colors: readonly { light: string; dark: string }[];
  /** The chart's own rules, for its scope. */
  readonly css?: (scope: string) => string;
  /** A word-sized chart: a `<span>` that sits in a line of text or a table cell. */
  readonly inline?: boolean;
}

const FONT = '11px/1.2 "Amazon Ember","Helvetica Neue",Roboto,Arial,sans-serif';

function baseCss(s: string, parts: FrameParts, table: boolean): string {
  let css =
    `${s}{display:${parts.inline ? 'inline-block;vertical-align:middle' : 'block'};max-width:100%}` +
    `${s} svg{display:block;max-width:100%;height:auto;overflow:visible;font:${FONT}}${s} text{fill:var(--mu)}${s} .e{fill:var(--tx)}`;
  // A word-sized chart has no axes and no readouts: it keeps its rules few, since a table may hold many.
  if (!parts.inline) {
    css +=
      `${s} .g{stroke:var(--gr);shape-rendering:crispEdges}${s} .e{font-size:13px}` +
      // Hover columns (groups in .h: a transparent rect and a readout) and hover items (.k: a bar or slice with a readout .r).
      `${s} .h rect{fill:var(--tx);fill-opacity:0}${s} .h>g:hover rect{fill-opacity:.07}` +
      `${s} .h text,${s} .r{visibility:hidden;pointer-events:none;fill:var(--tx);paint-order:stroke;stroke:var(--bg);stroke-width:3px;stroke-linejoin:round}` +
      `${s} .h>g:hover text,${s} .k:hover .r{visibility:visible}`;
  }
  if (table) css += `${s} table{font-variant-numeric:tabular-nums}${s} td{text-align:right}${s} summary{cursor:pointer}`;
  for (let i = 0; i < parts.colors.length; i++) css += `${s} .s${i}{stroke:var(--c${i})}${s} .f${i}{fill:var(--c${i})}`;
  return css;
}

/** FNV-1a, 32 bits: a short id that is the same for the same chart, so renders are repeatable. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

/** The chart, whole. */
export function frame(r: Resolved, width: number, height: number, parts: FrameParts): SafeHtml {
  const table = r.table ? parts.table : '';
  const id = r.id ?? `tc-${hash(`${parts.kind}${r.title}${parts.svg}${table}`)}`;
  const scope = `#${id}`;
  const css = paletteCss(scope, r.theme, parts.colors) + baseCss(scope, parts, table !== '') + (parts.css?.(scope) ?? '');
  const tag = parts.inline ? 'span' : 'div';
  const description = r.description ?? parts.description;
  return new SafeHtml(
    `<${tag} id="${id}" class="trellis-chart trellis-chart-${parts.kind}"><style>${css}</style>` +
      `<svg viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${id}-t ${id}-d">` +
      `<title id="${id}-t">${escapeHtml(r.title)}</title><desc id="${id}-d">${escapeHtml(description)}</desc>${parts.svg}</svg>${table}</${tag}>`,
  );
}
