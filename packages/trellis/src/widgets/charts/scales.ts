// Linear scales and "nice" value ticks (steps of 1, 2 or 5 times a power of ten).

/** Maps a domain onto a range linearly; a zero-width domain maps to the middle of the range. */
export function linearScale(d0: number, d1: number, r0: number, r1: number): (v: number) => number {
  // In halves, so that domains as wide as ±1.7e308 do not overflow.
  const half = d1 / 2 - d0 / 2;
  // A domain too narrow to tell apart (equal ends, or subnormal ones whose halves round together) is a point.
  if (d1 === d0 || half === 0) {
    const mid = (r0 + r1) / 2;
    return () => mid;
  }
  const range = r1 - r0;
  return (v) => r0 + ((v / 2 - d0 / 2) / half) * range;
}

/** Value ticks over a nice domain that holds the data. */
export interface ValueTicks {
  /** The domain, widened to whole steps. */
  readonly min: number;
  readonly max: number;
  readonly step: number;
  /** Decimals a label needs to tell the ticks apart. */
  readonly decimals: number;
  readonly ticks: readonly number[];
  /** The tick farthest from zero, for choosing compact labels. */
  readonly largest: number;
}

const MANTISSAS = [1, 2, 5, 10];

/** Removes float noise (0.30000000000000004 → 0.3). */
function clean(v: number): number {
  return Number(v.toPrecision(12));
}

/**
 * About `count` ticks (at least two) over `[min, max]`, widened to whole steps. A zero-width domain is widened
 * around its value; `fixedMin`/`fixedMax` stay where they are given.
 */
export function valueTicks(min: number, max: number, count: number, fixed: { min?: number; max?: number } = {}): ValueTicks {
  let lo = fixed.min ?? min;
  let hi = fixed.max ?? max;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
    lo = 0;
    hi = 1;
  }
  if (hi < lo) [lo, hi] = [hi, lo];
  // A range too narrow for labels to tell its ends apart is one value.
  if (hi / 2 - lo / 2 < Math.max(Math.abs(lo), Math.abs(hi), 1e-290) * 5e-10 && (fixed.min === undefined || fixed.max === undefined)) {
    if (fixed.min === undefined) lo = hi;
    else hi = lo;
  }
  if (hi === lo) {
    // Widen around the value; by 1 where a tenth of it is lost in rounding (0, subnormal numbers).
    let pad = Math.abs(lo) * 0.1;
    if (!(pad > 1e-290) || lo + pad === lo) pad = 1;
    if (fixed.min === undefined) lo = Math.max(-Number.MAX_VALUE, lo - pad);
    if (fixed.max === undefined || fixed.max === lo) hi = Math.min(Number.MAX_VALUE, hi + pad);
  }
  // In halves, so that the span of ±1.7e308 does not overflow; and no step finer than labels can tell apart.
  const raw = Math.max(((hi / 2 - lo / 2) / Math.max(2, count)) * 2, Math.max(Math.abs(lo), Math.abs(hi)) * 1e-9, 1e-300);
  const power = Math.floor(Math.log10(raw));
  const base = 10 ** power;
  const mantissa = MANTISSAS.find((m) => m * base >= raw * (1 - 1e-9)) ?? 10;
  // Past 1e308 a nice step overflows; the largest power of ten is the step then.
  const step = Number.isFinite(mantissa * base) ? clean(mantissa * base) : 1e308;
  const decimals = Math.max(0, -(mantissa === 10 ? power + 1 : power));
  const dMin = fixed.min ?? Math.max(-Number.MAX_VALUE, clean(Math.floor(lo / step + 1e-9) * step));
  const dMax = fixed.max ?? Math.min(Number.MAX_VALUE, clean(Math.ceil(hi / step - 1e-9) * step));
  const ticks: number[] = [];
  for (let i = Math.ceil(dMin / step - 1e-9); ; i++) {
    const t = clean(i * step);
    if (!Number.isFinite(t) || t > dMax + step * 1e-9) break;
    ticks.push(t);
    if (ticks.length > 50) break;
  }
  const largest = ticks.reduce((a, t) => (Math.abs(t) > Math.abs(a) ? t : a), 0);
  return { min: dMin, max: dMax, step, decimals: Math.min(decimals, 10), ticks, largest };
}

/** The finite minimum and maximum of some numbers, or undefined when there are none. */
export function extent(values: Iterable<number>): { min: number; max: number } | undefined {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return min <= max ? { min, max } : undefined;
}
