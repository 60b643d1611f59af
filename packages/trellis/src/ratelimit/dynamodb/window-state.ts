/**
 * The sliding window of one DynamoDB counter, decided in the application: the item holds the window's records
 * and each process decides on a copy, then writes the result back only if the item still holds what it
 * decided on (see counter-flight.ts). The rules are the in-process store's (../sliding-window.ts): a record is
 * (time, permits), a permit frees one window after its record's time, a refusal changes nothing.
 *
 * Times are whole microseconds of the store's clock on a grid of `unit` microseconds: 1 for an exact window
 * (up to `exactLimit` permits), where a record holds the admissions of one instant; a 256th of a segment for a
 * segmented window, where a record holds the admissions of up to one segment and carries the latest one's
 * time. A time is rounded *up* to its grid, so a permit never frees early; a segment takes admissions for
 * `segmentUs − 3 × unit`, so rounding included a permit frees at most one segment late.
 */
import type { RateLimitDecision } from '../index.js';

/** What one policy's numbers make of a window: fixed for a policy, derived once. */
export interface RecordLayout {
  readonly limit: number;
  readonly windowUs: number;
  /** The window in whole seconds, rounded up: the longest wait a decision ever names. */
  readonly windowWhole: number;
  /** 0 for an exact window. */
  readonly segmentUs: number;
  /** The grid of record times (µs). */
  readonly unit: number;
  /** How long after a segment's start an admission still joins it (µs). */
  readonly joinUs: number;
  /** A segmented window keeps at most this many records; a full one adds admissions to its newest. */
  readonly maxRecords: number;
}

/** A counter's records, oldest first; times never decrease. Changed in place by {@link decide}. */
export interface WindowState {
  unit: number;
  times: number[];
  counts: number[];
  /** When the newest record started taking admissions (µs, on the grid). */
  newestStart: number;
}

/** A 256th of a segment: fine enough that rounding to it costs a permit little, coarse enough for small records. */
const GRID_STEPS_PER_SEGMENT = 256;

export function recordLayout(limit: number, windowSeconds: number, exactLimit: number, segments: number): RecordLayout {
  const windowUs = Math.max(1, Math.round(windowSeconds * 1_000_000));
  const windowWhole = Math.ceil(windowUs / 1_000_000);
  if (limit <= exactLimit) return { limit, windowUs, windowWhole, segmentUs: 0, unit: 1, joinUs: 0, maxRecords: Number.POSITIVE_INFINITY };
  const segmentUs = windowUs / segments;
  const unit = Math.max(1, Math.floor(segmentUs / GRID_STEPS_PER_SEGMENT));
  // Segment starts lie at least joinUs apart, so about (window + segment) / joinUs + 1 of them are live at once.
  return { limit, windowUs, windowWhole, segmentUs, unit, joinUs: segmentUs - 3 * unit, maxRecords: segments + 4 };
}

export function emptyWindow(unit: number): WindowState {
  return { unit, times: [], counts: [], newestStart: 0 };
}

function ceilTo(us: number, unit: number): number {
  return unit === 1 ? us : Math.ceil(us / unit) * unit;
}

/**
 * Moves the records onto this shape's grid (a policy whose numbers changed): each time rounded up, records
 * that meet merged. Permits only ever move later.
 */
function regrid(state: WindowState, unit: number): void {
  const { times, counts } = state;
  let out = 0;
  for (let i = 0; i < times.length; i++) {
    const t = ceilTo(times[i]!, unit);
    if (out > 0 && times[out - 1]! >= t) {
      counts[out - 1]! += counts[i]!;
    } else {
      times[out] = t;
      counts[out] = counts[i]!;
      out++;
    }
  }
  times.length = out;
  counts.length = out;
  state.newestStart = ceilTo(state.newestStart, unit);
  state.unit = unit;
}

/**
 * Decides a request of `cost` permits at `nowMs` (the store's clock, epoch milliseconds) on `state`, which an
 * admission changes in place; a refusal only drops the records that left the window. A clock behind the
 * newest record (another process's clock ran ahead) stands still at that record.
 */
export function decide(state: WindowState, shape: RecordLayout, nowMs: number, cost: number): RateLimitDecision {
  if (state.unit !== shape.unit) regrid(state, shape.unit);
  const { times, counts } = state;
  const { limit, windowUs } = shape;
  let nowLo = Math.floor(nowMs * 1000);
  let nowHi = Math.ceil(nowMs * 1000);
  const newest = times.length > 0 ? times[times.length - 1]! : Number.NEGATIVE_INFINITY;
  if (nowHi < newest) nowLo = nowHi = newest;

  let gone = 0;
  while (gone < times.length && times[gone]! + windowUs <= nowLo) gone++;
  if (gone > 0) {
    times.splice(0, gone);
    counts.splice(0, gone);
  }
  let used = 0;
  for (let i = 0; i < counts.length; i++) used += counts[i]!;
  if (used + cost > limit) return refusal(state, shape, nowLo, used, cost);

  const at = ceilTo(nowHi, shape.unit);
  const n = times.length;
  if (n > 0 && (times[n - 1] === at || (shape.segmentUs > 0 && (nowHi - state.newestStart < shape.joinUs || n >= shape.maxRecords)))) {
    if (at > times[n - 1]!) times[n - 1] = at;
    counts[n - 1]! += cost;
  } else {
    times.push(at);
    counts.push(cost);
    state.newestStart = at;
  }
  used += cost;
  // Measured from the admission's own time, which no record is later than: never more than the window.
  return { allowed: true, limit, remaining: limit - used, reset: seconds(times[0]! + windowUs - at, shape), retryAfter: 0 };
}

/**
 * A refusal: `remaining` is the permits left (fewer than `cost`), `reset` the wait for the oldest permit,
 * `retryAfter` the wait until `cost` permits fit (one window for a cost above the limit, which never fits).
 */
function refusal(state: WindowState, shape: RecordLayout, nowLo: number, used: number, cost: number): RateLimitDecision {
  const { times, counts } = state;
  let reset = shape.windowWhole;
  let retryAfter = shape.windowWhole;
  if (times.length > 0) {
    reset = seconds(times[0]! + shape.windowUs - nowLo, shape);
    if (cost <= shape.limit) {
      const mustFree = used + cost - shape.limit;
      let freed = 0;
      let i = 0;
      while (i < times.length - 1 && freed + counts[i]! < mustFree) freed += counts[i++]!;
      retryAfter = seconds(times[i]! + shape.windowUs - nowLo, shape);
    }
  }
  return { allowed: false, limit: shape.limit, remaining: Math.max(0, shape.limit - used), reset, retryAfter };
}

/** Whole seconds for a wait of `us`: at least 1, at most the window. */
function seconds(us: number, shape: RecordLayout): number {
  const s = Math.ceil(us / 1_000_000);
  return s < 1 ? 1 : s > shape.windowWhole ? shape.windowWhole : s;
}

/** When the newest record frees (µs): the item may expire then. */
export function freedAt(state: WindowState, windowUs: number): number {
  return state.times.length > 0 ? state.times[state.times.length - 1]! + windowUs : Number.NEGATIVE_INFINITY;
}
