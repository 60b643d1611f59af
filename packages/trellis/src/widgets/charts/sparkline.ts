// Sparklines: a word-sized line without axes, for a table cell or a line of text.
import type { SafeHtml } from '../html.js';
import { checkedValue, refuse, resolveCommon, type ChartColor, type ChartOptions, type ChartValue } from './options.js';
import { seriesColors, themeColors } from './palette.js';
import { extent, linearScale } from './scales.js';
import { valueFormatter, withUnit } from './format.js';
import { PathWriter, coord } from './path.js';
import { NO_DATA, tableHtml } from './table.js';
import { frame } from './frame.js';
import { emptySvg } from './empty.js';

/**
 * What `sparkline` takes.
 *
 * @example
 * const options: SparklineOptions = { values: [3, 1, 4, 1, 5], width: 80, height: 20, title: 'Errors, last hour' };
 */
export interface SparklineOptions extends Omit<ChartOptions, 'context' | 'table'> {
  /** The values, evenly spaced, oldest first; `null` and `NaN` leave gaps. */
  values: readonly ChartValue[];
  /** The line's colour. Default: the palette's first. */
  color?: ChartColor;
  /** Fixes the bottom of the line's range. Default: the lowest value. */
  min?: number;
  /** Fixes the top of the line's range. Default: the highest value. */
  max?: number;
  /** Whether a `<details>` data table follows. Default `false`: a sparkline sits in a line of text or a table cell. */
  table?: boolean;
}

/**
 * A sparkline: the shape of a series at the size of a word (default 120 × 28), its latest value marked with a
 * dot. It has no axes; its accessible description (and the tooltip of its title) says the latest, lowest and
 * highest values. It sits inline, so it fits a `dataTable` cell.
 *
 * @example
 * html`<p>Errors today ${sparkline({ values: hourlyErrors, title: 'Errors per hour', unit: 'errors' })}</p>`;
 */
export function sparkline(options: SparklineOptions): SafeHtml {
  const fn = 'sparkline';
  const r = resolveCommon(fn, options, { kind: 'Sparkline', width: 120, height: 28, table: false });
  const { values } = options;
  if (!Array.isArray(values)) refuse(fn, 'values', 'an array of numbers', values);
  const data = values.map((v: unknown, i: number) => checkedValue(fn, `values[${i}]`, v));
  for (const o of ['min', 'max'] as const) {
    if (options[o] !== undefined && (typeof options[o] !== 'number' || !Number.isFinite(options[o])))
      refuse(fn, o, 'a finite number', options[o]);
  }
  if (options.min !== undefined && options.max !== undefined && options.max <= options.min)
    refuse(fn, 'max', `a number above min (${options.min})`, options.max);
  const colors = [seriesColors(0, options.color === undefined ? undefined : themeColors(fn, 'color', options.color))];
  const format = valueFormatter(r.locale, r.formatValue);
  const { width, height } = r;
  const table = tableHtml({
    head: ['#', r.unit ? `Value (${r.unit})` : 'Value'],
    rows: data.map((v, i) => [String(i + 1), Number.isNaN(v) ? NO_DATA : format(v)]),
    end: [false, true],
    summary: r.tableSummary,
    emptyText: r.emptyText,
    styled: true,
  });
  const range = extent(data);
  if (!range) {
    return frame(r, width, height, {
      kind: 'sparkline',
      svg: emptySvg(width, height, r.emptyText),
      description: r.emptyText,
      table,
      colors,
      inline: true,
    });
  }
  const lo = options.min ?? range.min;
  const hi = options.max ?? range.max;
  const pad = 2.5;
  const x = linearScale(0, Math.max(1, data.length - 1), pad, width - pad);
  const scale = linearScale(lo, hi, height - pad, pad);
  const y = (v: number) => Math.min(height - pad, Math.max(pad, scale(v)));
  const p = new PathWriter();
  let open = false;
  let last = -1;
  data.forEach((v, i) => {
    if (Number.isNaN(v)) {
      if (open) p.end();
      open = false;
      return;
    }
    if (open) p.line(x(i), y(v));
    else p.move(x(i), y(v));
    open = true;
    last = i;
  });
  if (open) p.end();
  const svg = `<path class="l s0" d="${p}"/><circle class="f0" cx="${coord(x(last))}" cy="${coord(y(data[last]!))}" r="2"/>`;
  const description = `Latest ${withUnit(format(data[last]!), r.unit)}, lowest ${withUnit(format(range.min), r.unit)}, highest ${withUnit(format(range.max), r.unit)}, over ${data.length} values.`;
  const css = (s: string) => `${s} .l{fill:none;stroke-width:1.5;stroke-linejoin:round;stroke-linecap:round}${s} svg{display:inline-block}`;
  return frame(r, width, height, { kind: 'sparkline', svg, description, table, colors, css, inline: true });
}
