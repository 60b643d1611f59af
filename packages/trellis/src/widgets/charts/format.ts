// Numbers as the charts write them, with Intl formatters made once per locale and kept (a warm Lambda reuses them).
const numberFormats = new Map<string, Intl.NumberFormat>();

/** A cached `Intl.NumberFormat`. */
export function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) {
    if (numberFormats.size > 200) numberFormats.clear();
    f = new Intl.NumberFormat(locale, options);
    numberFormats.set(key, f);
  }
  return f;
}

/** Formats a value for readouts and tables: two decimals at most, three significant digits below 1. */
export type ValueFormatter = (value: number) => string;

/** The default value format of a locale, or the author's, its result turned into a string. */
export function valueFormatter(locale: string, own: ((value: number) => string) | undefined): ValueFormatter {
  if (own) return (v) => String(own(v));
  const big = numberFormat(locale, { maximumFractionDigits: 2 });
  // Made when first needed: the first use of each kind of formatter costs milliseconds on a cold start.
  let small: Intl.NumberFormat | undefined;
  let extreme: Intl.NumberFormat | undefined;
  return (v) => {
    const a = Math.abs(v);
    if (a >= 1e15 || (a < 1e-6 && a !== 0))
      return (extreme ??= numberFormat(locale, { notation: 'scientific', maximumFractionDigits: 3 })).format(v);
    return a >= 1 || a === 0 ? big.format(v) : (small ??= numberFormat(locale, { maximumSignificantDigits: 3 })).format(v);
  };
}

/** A value with its unit, as readouts and tables show it. */
export function withUnit(text: string, unit: string): string {
  return unit === '' ? text : `${text} ${unit}`;
}

/**
 * Labels for the value-axis ticks: as many decimals as the step needs, compact (`1.5K`) for large numbers
 * when that keeps the labels apart.
 */
export function tickFormatter(
  locale: string,
  ticks: { step: number; decimals: number; largest: number },
  own: ((value: number) => string) | undefined,
): ValueFormatter {
  if (own) return (v) => String(own(v));
  const { step, decimals, largest: max } = ticks;
  if (Math.abs(max) >= 1e15 || (decimals > 6 && max !== 0)) {
    const scientific = numberFormat(locale, { notation: 'scientific', maximumFractionDigits: 3 });
    return (v) => scientific.format(v);
  }
  const plain = numberFormat(locale, { maximumFractionDigits: decimals, minimumFractionDigits: decimals });
  if (Math.abs(max) < 10_000) return (v) => plain.format(v);
  const compact = numberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  // Compact labels only when neighbouring ticks still read differently.
  const distinct = compact.format(max) !== compact.format(max - step);
  return (v) => (distinct ? compact.format(v) : plain.format(v));
}

/** The percentage of a share, one decimal at most. */
export function percentFormatter(locale: string): ValueFormatter {
  const f = numberFormat(locale, { style: 'percent', maximumFractionDigits: 1 });
  return (share) => f.format(share);
}

/** About how wide text is at the charts' 11 px font, in pixels. */
export function textWidth(text: string): number {
  return text.length * 6.2;
}

/** Text cut to about `pixels` wide, with an ellipsis when cut. */
export function fitText(text: string, pixels: number): string {
  const max = Math.floor(pixels / 6.2);
  if (text.length <= max) return text;
  return max <= 1 ? '' : `${text.slice(0, max - 1)}…`;
}

/** A coordinate rounded to one decimal, as written into the SVG. */
export function round1(v: number): number {
  return Math.round(v * 10) / 10;
}
