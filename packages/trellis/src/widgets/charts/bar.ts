// Bar charts: one bar per category, or a group (or stack) of bars per category for several series; upright
// or lying down.
import { escapeHtml, type SafeHtml } from '../html.js';
import { refuse, resolveCommon, type ChartOptions } from './options.js';
import { normalize, shapes, type Bar, type BarSeries, type Data } from './bar-data.js';
import { extent, linearScale, valueTicks } from './scales.js';
import { fitText, textWidth, tickFormatter, valueFormatter, withUnit, type ValueFormatter } from './format.js';
import { coord } from './path.js';
import { legend } from './legend.js';
import { NO_DATA, tableHtml } from './table.js';
import { frame } from './frame.js';
import { emptySvg } from './empty.js';

export type { Bar, BarSeries } from './bar-data.js';

interface BarChartCommon extends ChartOptions {
  /** Bars lying down, categories down the left side: better for long labels. Default `false`. */
  horizontal?: boolean;
  /** Several series stack on one bar per category instead of standing side by side. Default `false`. */
  stacked?: boolean;
  /** Fixes the low end of the value axis. Default: zero or the lowest value. */
  min?: number;
  /** Fixes the high end of the value axis. Default: zero or the highest value. */
  max?: number;
  /** Whether to show the legend. Default: with more than one series. */
  legend?: boolean;
  /** The heading of the category column of the data table. Default `Category`. */
  categoryLabel?: string;
}

/**
 * What `barChart` takes: `bars`, or `categories` with `series`.
 *
 * @example
 * const one: BarChartOptions = { bars: [{ label: 'a', value: 1 }] };
 * const grouped: BarChartOptions = { categories: ['a', 'b'], series: [{ name: 's', values: [1, 2] }], horizontal: true };
 */
export type BarChartOptions = BarChartCommon &
  (
    | { bars: readonly Bar[]; categories?: never; series?: never }
    | { categories: readonly string[]; series: readonly BarSeries[]; bars?: never }
  );

/**
 * A bar chart: `bars` for one value per category, or `categories` with `series` for groups (or, `stacked`,
 * stacks) of bars. Bars stand on zero, negative values hang below it. Hovering a category shows its values
 * (CSS only); the data table lists them all (with totals when stacked).
 *
 * @example
 * barChart({ title: 'Errors by function', unit: 'errors', bars: [{ label: 'checkout', value: 12 }, { label: 'search', value: 3 }] });
 * barChart({
 *   context: event,
 *   categories: ['eu-west-1', 'us-east-1'],
 *   series: [{ name: '2xx', values: [950, 1200] }, { name: '5xx', values: [4, 19] }],
 *   stacked: true,
 * });
 */
export function barChart(options: BarChartOptions): SafeHtml {
  const fn = 'barChart';
  const r = resolveCommon(fn, options, { kind: 'Bar chart', width: 600, height: 300, table: true });
  const data = normalize(fn, options);
  for (const o of ['horizontal', 'stacked', 'legend'] as const) {
    if (options[o] !== undefined && typeof options[o] !== 'boolean') refuse(fn, o, 'true or false', options[o]);
  }
  for (const o of ['min', 'max'] as const) {
    if (options[o] !== undefined && (typeof options[o] !== 'number' || !Number.isFinite(options[o])))
      refuse(fn, o, 'a finite number', options[o]);
  }
  if (options.min !== undefined && options.max !== undefined && options.max <= options.min)
    refuse(fn, 'max', `a number above min (${options.min})`, options.max);
  const stacked = options.stacked === true && data.series.length > 1;
  const horizontal = options.horizontal === true;
  const format = valueFormatter(r.locale, r.formatValue);
  const { width, height } = r;
  const bars = shapes(data, stacked);
  const range = extent(bars.flatMap((b) => [b.from, b.to]));

  const head = [options.categoryLabel ?? 'Category', ...data.series.map((s) => (r.unit ? `${s.name} (${r.unit})` : s.name))];
  if (stacked) head.push(r.unit ? `Total (${r.unit})` : 'Total');
  const cell = (v: number) => (Number.isNaN(v) ? NO_DATA : format(v));
  const table = tableHtml({
    head,
    rows: data.categories.map((label, c) => {
      const values = data.series.map((s) => s.values[c]!);
      const row = [label, ...values.map(cell)];
      if (stacked) row.push(values.every(Number.isNaN) ? NO_DATA : format(values.reduce((a, v) => a + (Number.isNaN(v) ? 0 : v), 0)));
      return row;
    }),
    end: head.map((_, i) => i > 0),
    summary: r.tableSummary,
    emptyText: r.emptyText,
    styled: true,
  });
  if (!range) {
    return frame(r, width, height, {
      kind: 'bar',
      svg: emptySvg(width, height, r.emptyText),
      description: `Bar chart: ${r.emptyText}.`,
      table,
      colors: data.colors,
    });
  }

  const compact = width < 160 || height < 80;
  const showLegend = !compact && (options.legend ?? data.series.length > 1);
  const key = showLegend
    ? legend(
        data.series.map((s) => s.name),
        4,
        4,
        width - 8,
        2,
      )
    : { svg: '', height: 0 };
  const top = compact ? 4 : 4 + key.height + 16;
  const bottom = height - (compact ? 4 : 22);
  const valueRoom = horizontal ? width : bottom - top;
  const ticks = valueTicks(
    Math.min(0, range.min),
    Math.max(0, range.max),
    Math.max(2, Math.min(8, Math.round(valueRoom / (horizontal ? 80 : 40)))),
    {
      ...(options.min === undefined ? {} : { min: options.min }),
      ...(options.max === undefined ? {} : { max: options.max }),
    },
  );
  const tickText = tickFormatter(r.locale, ticks, r.formatValue);
  const labels = ticks.ticks.map(tickText);
  const n = data.categories.length;
  // The plot: category axis (band) and value axis, in pixels.
  let left: number;
  if (compact) left = 4;
  else if (horizontal) left = Math.min(width * 0.35, Math.max(...data.categories.map(textWidth), 20) + 10);
  else left = Math.min(width / 3, Math.max(24, ...labels.map(textWidth)) + 10);
  const right = width - (compact ? 4 : 12);
  const band = ((horizontal ? bottom - top : right - left) || 1) / n;
  const v0 = horizontal ? left : bottom;
  const v1 = horizontal ? right : top;
  const value = (v: number) => Math.min(Math.max(v0, v1), Math.max(Math.min(v0, v1), linearScale(ticks.min, ticks.max, v0, v1)(v)));
  const cat0 = horizontal ? top : left;

  let svg = key.svg;
  if (!compact) {
    let grid = '';
    let text = '';
    ticks.ticks.forEach((t, i) => {
      const p = value(t);
      grid += horizontal ? `M${coord(p)} ${coord(top)}V${coord(bottom)}` : `M${coord(left)} ${coord(p)}H${coord(right)}`;
      text += horizontal
        ? `<text x="${coord(Math.min(width - textWidth(labels[i]!) / 2, p))}" y="${coord(bottom + 15)}">${escapeHtml(labels[i]!)}</text>`
        : `<text x="${coord(left - 6)}" y="${coord(p + 3.5)}">${escapeHtml(labels[i]!)}</text>`;
    });
    svg += `<path class="g" d="${grid}"/><g text-anchor="${horizontal ? 'middle' : 'end'}">${text}</g>`;
    svg += categoryLabels(data.categories, horizontal, cat0, band, horizontal ? left - 6 : bottom + 15);
  }
  const byCategory: string[] = data.categories.map(() => '');
  for (const b of bars) {
    const a = value(b.from);
    const z = value(b.to);
    const lo = Math.min(a, z);
    const len = Math.abs(z - a);
    if (len < 0.05) continue;
    const pos = cat0 + (b.c + b.at) * band;
    const size = b.size * band;
    const [x, y, w, h] = horizontal ? [lo, pos, len, size] : [pos, lo, size, len];
    byCategory[b.c] +=
      `<rect class="f${data.colorOf(b.s, b.c)}" x="${coord(x)}" y="${coord(y)}" width="${coord(w)}" height="${coord(h)}"/>`;
  }
  svg += hoverGroups(data, byCategory, { horizontal, compact, cat0, band, top, bottom, left, right, format, unit: r.unit });
  return frame(r, width, height, {
    kind: 'bar',
    svg,
    description: describeBars(data, format, r.unit),
    table,
    colors: data.colors,
    css: barCss,
  });
}

const barCss = (s: string) => `${s} .z{fill:var(--tx);fill-opacity:0}${s} .k:hover .z{fill-opacity:.07}`;

/** Category labels under the bars (or beside them), cut to the room; every k-th when bands are narrow. */
function categoryLabels(categories: readonly string[], horizontal: boolean, cat0: number, band: number, across: number): string {
  const every = horizontal ? Math.ceil(12 / band) : Math.ceil(30 / band);
  let out = '';
  categories.forEach((label, c) => {
    if (c % every !== 0) return;
    const mid = cat0 + (c + 0.5) * band;
    const text = escapeHtml(fitText(label, horizontal ? across - 4 : band * every - 4));
    out += horizontal
      ? `<text x="${coord(across)}" y="${coord(mid + 3.5)}">${text}</text>`
      : `<text x="${coord(mid)}" y="${coord(across)}">${text}</text>`;
  });
  return `<g text-anchor="${horizontal ? 'end' : 'middle'}">${out}</g>`;
}

/** A group per category: a hover zone over its band, its bars, and the readout of its values. */
function hoverGroups(
  data: Data,
  byCategory: readonly string[],
  at: {
    horizontal: boolean;
    compact: boolean;
    cat0: number;
    band: number;
    top: number;
    bottom: number;
    left: number;
    right: number;
    format: ValueFormatter;
    unit: string;
  },
): string {
  const { horizontal, cat0, band, format, unit } = at;
  let out = '';
  data.categories.forEach((label, c) => {
    const start = cat0 + c * band;
    const mid = start + band / 2;
    const zone = horizontal
      ? `<rect class="z" x="${coord(at.left)}" y="${coord(start)}" width="${coord(at.right - at.left)}" height="${coord(band)}"/>`
      : `<rect class="z" x="${coord(start)}" y="${coord(at.top)}" width="${coord(band)}" height="${coord(at.bottom - at.top)}"/>`;
    const value = (k: number) => {
      const v = data.series[k]!.values[c]!;
      return Number.isNaN(v) ? NO_DATA : withUnit(format(v), unit);
    };
    let readout = '';
    if (!at.compact) {
      const words =
        data.series.length === 1
          ? `${label}: ${value(0)}`
          : `${label}: ${data.series.map((s, k) => `${fitText(s.name, 100)} ${value(k)}`).join(' · ')}`;
      const endward = horizontal || mid > (at.left + at.right) / 2;
      const x = horizontal ? at.right : Math.min(at.right, Math.max(at.left, mid));
      const y = horizontal ? mid + 3.5 : at.top - 5;
      readout = `<text class="r" x="${coord(x)}" y="${coord(y)}"${endward ? ' text-anchor="end"' : ''}>${escapeHtml(words)}</text>`;
    }
    out += `<g class="k">${zone}${byCategory[c]}${readout}</g>`;
  });
  return out;
}

/** The default description: how many categories, and each series' highest and lowest. */
function describeBars(data: Data, format: ValueFormatter, unit: string): string {
  let text = `Bar chart of ${data.categories.length} categories${data.series.length > 1 ? ` and ${data.series.length} series` : ''}.`;
  data.series.slice(0, 10).forEach((s) => {
    let hi = -1;
    let lo = -1;
    s.values.forEach((v, i) => {
      if (Number.isNaN(v)) return;
      if (hi < 0 || v > s.values[hi]!) hi = i;
      if (lo < 0 || v < s.values[lo]!) lo = i;
    });
    if (hi < 0) return;
    const prefix = data.series.length > 1 ? ` ${s.name}:` : '';
    text += `${prefix} highest ${data.categories[hi]} (${withUnit(format(s.values[hi]!), unit)}), lowest ${data.categories[lo]} (${withUnit(format(s.values[lo]!), unit)}).`;
  });
  return text;
}
