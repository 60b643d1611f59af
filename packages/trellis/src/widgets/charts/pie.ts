// Pie and donut charts: a slice per share, clockwise from twelve o'clock, a legend with the percentages.
import { escapeHtml, type SafeHtml } from '../html.js';
import { checkedValue, refuse, resolveCommon, type ChartColor, type ChartOptions, type ChartValue } from './options.js';
import { seriesColors, themeColors } from './palette.js';
import { fitText, percentFormatter, textWidth, valueFormatter, withUnit } from './format.js';
import { coord } from './path.js';
import { NO_DATA, tableHtml } from './table.js';
import { frame } from './frame.js';
import { emptySvg } from './empty.js';

/**
 * One slice: a label and a value of zero or more.
 *
 * @example
 * const slice: Slice = { label: 'checkout', value: 1200 };
 */
export interface Slice {
  label: string;
  value: ChartValue;
  /** Overrides the palette colour for this slice. */
  color?: ChartColor;
}

/**
 * What `pieChart` takes.
 *
 * @example
 * const options: PieChartOptions = { slices, donut: 0.5, maxSlices: 5, otherLabel: 'Rest' };
 */
export interface PieChartOptions extends ChartOptions {
  slices: readonly Slice[];
  /** A ring instead of a disc: `true`, or the size of the hole as a share of the radius (0 to 0.9). Default `false`. */
  donut?: boolean | number;
  /**
   * The most slices drawn (2 to 8, the palette's colours): the smallest of the rest are drawn as one `Other`
   * slice. The data table lists every slice. Default 8.
   */
  maxSlices?: number;
  /** The label of the slice that gathers the smallest. Default `Other`. */
  otherLabel?: string;
  /** The heading of the label column of the data table. Default `Category`. */
  categoryLabel?: string;
}

interface Drawn {
  label: string;
  value: number;
  color: number;
}

/** A point on a circle; angle 0 is twelve o'clock, clockwise. */
function polar(cx: number, cy: number, r: number, angle: number): string {
  return `${coord(cx + r * Math.sin(angle))} ${coord(cy - r * Math.cos(angle))}`;
}

/** A slice (or ring segment) from angle `a` to `b`. A whole circle is two half arcs, since one arc cannot close. */
function slicePath(cx: number, cy: number, r: number, hole: number, a: number, b: number): string {
  if (b - a >= 2 * Math.PI - 1e-9) {
    const ring = `M${polar(cx, cy, r, 0)}A${coord(r)} ${coord(r)} 0 1 1 ${polar(cx, cy, r, Math.PI)}A${coord(r)} ${coord(r)} 0 1 1 ${polar(cx, cy, r, 0)}Z`;
    if (hole === 0) return ring;
    return `${ring}M${polar(cx, cy, hole, 0)}A${coord(hole)} ${coord(hole)} 0 1 0 ${polar(cx, cy, hole, Math.PI)}A${coord(hole)} ${coord(hole)} 0 1 0 ${polar(cx, cy, hole, 0)}Z`;
  }
  const large = b - a > Math.PI ? 1 : 0;
  const outer = `M${polar(cx, cy, r, a)}A${coord(r)} ${coord(r)} 0 ${large} 1 ${polar(cx, cy, r, b)}`;
  if (hole === 0) return `${outer}L${coord(cx)} ${coord(cy)}Z`;
  return `${outer}L${polar(cx, cy, hole, b)}A${coord(hole)} ${coord(hole)} 0 ${large} 0 ${polar(cx, cy, hole, a)}Z`;
}

/**
 * A pie chart, or with `donut` a ring with the total in its hole. Slices go clockwise from twelve o'clock in
 * the order given; the legend and the data table give each value and its share. Hovering a slice shows its
 * label, value and share (CSS only). Values must be zero or more; `null` and `NaN` count as no data.
 *
 * @example
 * pieChart({
 *   context: event,
 *   title: 'Lambda invocations by function',
 *   slices: [{ label: 'checkout', value: 1200 }, { label: 'search', value: 800 }, { label: 'auth', value: 300 }],
 *   donut: true,
 * });
 */
export function pieChart(options: PieChartOptions): SafeHtml {
  const fn = 'pieChart';
  const r = resolveCommon(fn, options, { kind: 'Pie chart', width: 400, height: 300, table: true });
  const { slices } = options;
  if (!Array.isArray(slices)) refuse(fn, 'slices', 'an array of { label, value }', slices);
  const donut = options.donut ?? false;
  if (typeof donut !== 'boolean' && (typeof donut !== 'number' || !(donut >= 0 && donut <= 0.9)))
    refuse(fn, 'donut', 'true, false or a share of the radius from 0 to 0.9', donut);
  const maxSlices = options.maxSlices ?? 8;
  if (!Number.isInteger(maxSlices) || maxSlices < 2 || maxSlices > 8) refuse(fn, 'maxSlices', 'a whole number from 2 to 8', maxSlices);
  const colors: { light: string; dark: string }[] = [];
  /** The colour index of the next drawn slice: its own colour, else the palette's next. */
  const color = (own: { light: string; dark: string } | undefined): number => {
    colors.push(own ?? seriesColors(colors.length, undefined));
    return colors.length - 1;
  };
  const all = slices.map((s: unknown, i: number) => {
    if (!s || typeof s !== 'object') refuse(fn, `slices[${i}]`, 'an object { label, value }', s);
    const slice = s as Slice;
    if (typeof slice.label !== 'string') refuse(fn, `slices[${i}].label`, 'a string', slice.label);
    const value = checkedValue(fn, `slices[${i}].value`, slice.value);
    if (value < 0) refuse(fn, `slices[${i}].value`, 'zero or more (a pie shows shares of a whole)', value);
    return { label: slice.label, value, own: slice.color === undefined ? undefined : themeColors(fn, `slices[${i}].color`, slice.color) };
  });
  const format = valueFormatter(r.locale, r.formatValue);
  const percent = percentFormatter(r.locale);
  const counted = all.filter((s) => s.value > 0);
  const total = counted.reduce((a, s) => a + s.value, 0);
  const share = (v: number) => (total > 0 ? v / total : 0);

  // The largest slices keep their place in the given order; the rest become one "Other" at the end.
  let drawn: Drawn[];
  if (counted.length <= maxSlices) drawn = counted.map((s) => ({ label: s.label, value: s.value, color: color(s.own) }));
  else {
    const kept = new Set([...counted].sort((a, b) => b.value - a.value).slice(0, maxSlices - 1));
    drawn = counted.filter((s) => kept.has(s)).map((s) => ({ label: s.label, value: s.value, color: color(s.own) }));
    const rest = counted.filter((s) => !kept.has(s)).reduce((a, s) => a + s.value, 0);
    drawn.push({ label: options.otherLabel ?? 'Other', value: rest, color: color(undefined) });
  }

  const head = [options.categoryLabel ?? 'Category', r.unit ? `Value (${r.unit})` : 'Value', 'Share'];
  const table = tableHtml({
    head,
    rows: all.map((s) => [
      s.label,
      Number.isNaN(s.value) ? NO_DATA : format(s.value),
      Number.isNaN(s.value) ? NO_DATA : percent(share(s.value)),
    ]),
    end: [false, true, true],
    summary: r.tableSummary,
    emptyText: r.emptyText,
    styled: true,
  });
  const { width, height } = r;
  if (total <= 0) {
    return frame(r, width, height, {
      kind: 'pie',
      svg: emptySvg(width, height, r.emptyText),
      description: `Pie chart: ${r.emptyText}.`,
      table,
      colors,
    });
  }

  // The legend goes beside the pie when there is room, else below it.
  const legendWidth = Math.min(220, 24 + Math.max(...drawn.map((d) => textWidth(`${d.label} 100.0%`))));
  const beside = width - legendWidth >= Math.min(height, 120);
  const rows = drawn.length * 16;
  const pieBox = beside
    ? { w: width - legendWidth - 8, h: height }
    : { w: width, h: Math.min(height, Math.max(40, height - Math.min(rows, height / 2) - 8)) };
  const radius = Math.max(4, Math.min(pieBox.w, pieBox.h) / 2 - 4);
  const cx = pieBox.w / 2;
  const cy = pieBox.h / 2;
  const hole = donut === false ? 0 : radius * (donut === true ? 0.6 : donut);

  let svg = '<g>';
  let angle = 0;
  for (const d of drawn) {
    const next = angle + 2 * Math.PI * share(d.value);
    const words = `${d.label}: ${withUnit(format(d.value), r.unit)} (${percent(share(d.value))})`;
    svg +=
      `<g class="k"><path class="sl f${d.color}" d="${slicePath(cx, cy, radius, hole, angle, next)}"/>` +
      `<text class="r" x="${coord(cx)}" y="${coord(hole > 0 ? cy + 4 : 12)}" text-anchor="middle">${escapeHtml(fitText(words, hole > 0 ? hole * 2 - 8 : width))}</text></g>`;
    angle = next;
  }
  if (hole > 0) {
    svg += `<text class="tot" x="${coord(cx)}" y="${coord(cy + 4)}" text-anchor="middle">${escapeHtml(fitText(`Total ${withUnit(format(total), r.unit)}`, hole * 2 - 8))}</text>`;
  }
  svg += '</g>';
  const lx = beside ? pieBox.w + 8 : 4;
  let ly = beside ? Math.max(4, cy - rows / 2) : pieBox.h + 4;
  for (const d of drawn) {
    if (ly + 12 > height) break;
    const words = fitText(`${d.label} ${percent(share(d.value))}`, (beside ? legendWidth : width - 8) - 16);
    svg += `<rect class="f${d.color}" x="${coord(lx)}" y="${coord(ly)}" width="10" height="10" rx="2"/><text x="${coord(lx + 14)}" y="${coord(ly + 9)}">${escapeHtml(words)}</text>`;
    ly += 16;
  }
  const description =
    `${donut === false ? 'Pie' : 'Donut'} chart of ${all.length} slices, total ${withUnit(format(total), r.unit)}. ` +
    drawn.map((d) => `${d.label}: ${withUnit(format(d.value), r.unit)} (${percent(share(d.value))})`).join(', ') +
    '.';
  const css = (s: string) =>
    `${s} .sl{stroke:var(--bg);stroke-width:1px}${s} .k:hover .sl{opacity:.8}${s} .tot{fill:var(--tx)}${s} g:hover>.tot{visibility:hidden}`;
  return frame(r, width, height, { kind: 'pie', svg, description, table, colors, css });
}
