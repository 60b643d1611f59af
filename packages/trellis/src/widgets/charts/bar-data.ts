// The data of bar charts as authors give it (bars, or categories with series), checked, and laid out as bars
// along the category axis (side by side, or stacked up and down from zero).
import { checkedValue, refuse, type ChartColor, type ChartValue } from './options.js';
import { seriesColors, themeColors } from './palette.js';
import { usageError } from '../../errors/index.js';

/**
 * One bar of a single-series bar chart.
 *
 * @example
 * const bar: Bar = { label: 'checkout', value: 12, color: '#d91515' };
 */
export interface Bar {
  label: string;
  value: ChartValue;
  /** Overrides the palette colour for this bar. */
  color?: ChartColor;
}

/**
 * One series of a grouped or stacked bar chart: a value per category.
 *
 * @example
 * const errors: BarSeries = { name: '5xx', values: [4, 19] }; // with categories: ['eu-west-1', 'us-east-1']
 */
export interface BarSeries {
  /** Default `Series 1`, `Series 2`, … */
  name?: string;
  values: readonly ChartValue[];
  color?: ChartColor;
}

/** Bar data checked: categories, series of numbers (NaN for no data), and the colours the bars take. */
export interface Data {
  categories: string[];
  series: { name: string; values: number[] }[];
  colors: { light: string; dark: string }[];
  /** The colour index of a bar: its own colour, or its series'. */
  colorOf: (series: number, category: number) => number;
}

/** Checks `bars`, or `categories` with `series`, as given to `barChart`. */
export function normalize(fn: string, options: { bars?: unknown; categories?: unknown; series?: unknown }): Data {
  const { bars, categories, series } = options;
  if (bars !== undefined) {
    if (categories !== undefined || series !== undefined) refuse(fn, 'bars', 'given alone, without categories and series', bars);
    if (!Array.isArray(bars)) refuse(fn, 'bars', 'an array of { label, value }', bars);
    const colors = [seriesColors(0, undefined)];
    const own = new Map<number, number>();
    const values = bars.map((b: unknown, i: number) => {
      if (!b || typeof b !== 'object') refuse(fn, `bars[${i}]`, 'an object { label, value }', b);
      const bar = b as Bar;
      if (typeof bar.label !== 'string') refuse(fn, `bars[${i}].label`, 'a string', bar.label);
      if (bar.color !== undefined) {
        own.set(i, colors.length);
        colors.push(themeColors(fn, `bars[${i}].color`, bar.color));
      }
      return checkedValue(fn, `bars[${i}].value`, bar.value);
    });
    return {
      categories: bars.map((b: Bar) => b.label),
      series: [{ name: 'Value', values }],
      colors,
      colorOf: (_s, c) => own.get(c) ?? 0,
    };
  }
  if (!Array.isArray(categories)) refuse(fn, 'categories', 'an array of labels (with series), or give bars', categories);
  categories.forEach((c: unknown, i: number) => typeof c === 'string' || refuse(fn, `categories[${i}]`, 'a string', c));
  if (!Array.isArray(series)) refuse(fn, 'series', 'an array of { name, values }', series);
  const colors: { light: string; dark: string }[] = [];
  const list = series.map((s: unknown, k: number) => {
    if (!s || typeof s !== 'object') refuse(fn, `series[${k}]`, 'an object { name, values }', s);
    const { name, values, color } = s as BarSeries;
    if (name !== undefined && typeof name !== 'string') refuse(fn, `series[${k}].name`, 'a string', name);
    if (!Array.isArray(values)) refuse(fn, `series[${k}].values`, 'an array of numbers, one per category', values);
    if (values.length !== categories.length) {
      throw usageError(
        'TRELLIS_INVALID_ARGUMENT',
        `${fn}: series[${k}].values must have one value per category (${categories.length}); got ${values.length}`,
      );
    }
    colors.push(seriesColors(k, color === undefined ? undefined : themeColors(fn, `series[${k}].color`, color)));
    return {
      name: name ?? `Series ${k + 1}`,
      values: values.map((v: unknown, i: number) => checkedValue(fn, `series[${k}].values[${i}]`, v)),
    };
  });
  return { categories: categories as string[], series: list, colors, colorOf: (s) => s };
}

/** One bar: where it stands along the category axis (`at`, `size`) and its value range (`from` → `to`). */
export interface Shape {
  s: number;
  c: number;
  at: number;
  size: number;
  from: number;
  to: number;
}

export function shapes(data: Data, stacked: boolean): Shape[] {
  const n = data.series.length;
  const out: Shape[] = [];
  data.categories.forEach((_, c) => {
    let up = 0;
    let down = 0;
    data.series.forEach((s, k) => {
      const v = s.values[c]!;
      if (Number.isNaN(v)) return;
      if (!stacked) out.push({ s: k, c, at: 0.1 + (0.8 * k) / n, size: 0.8 / n, from: 0, to: v });
      else if (v >= 0) out.push({ s: k, c, at: 0.1, size: 0.8, from: up, to: (up += v) });
      else out.push({ s: k, c, at: 0.1, size: 0.8, from: down, to: (down += v) });
    });
  });
  return out;
}
