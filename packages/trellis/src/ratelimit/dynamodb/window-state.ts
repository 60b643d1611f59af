/**
 * The sliding window of one DynamoDB counter, decided in the application (counter-flight.ts) by the in-process
 * store's engine (../sliding-window.ts) on the item's records as its segments: (time, permits) each.
 *
 * The item keeps times as whole microseconds on a grid of `unit` microseconds: 1 for an exact window (up to
 * `exactLimit` permits), where a record holds the admissions of one instant; a 256th of a segment for a
 * segmented window, where a record holds the admissions of up to one segment and carries the latest one's
 * time. A time is rounded *up* to its grid, so a permit never frees early; a segment takes admissions for
 * `segmentUs − 3 × unit`, so rounding included a permit frees at most one segment late.
 */
import { SlidingWindowCounter, windowShape, type RateLimitDecision, type WindowShape } from '../index.js';

/** A counter's records as the item keeps them, oldest first; times never decrease. */
export interface WindowState {
  unit: number;
  /** Microseconds, on the grid. */
  times: number[];
  counts: number[];
  /** When the newest record started taking admissions (µs, on the grid). */
  newestStart: number;
}

/** What one policy's numbers make of a stored window: the engine's shape and the grid of its times (µs). */
export interface StoredShape {
  readonly window: WindowShape;
  readonly unit: number;
}

/** A 256th of a segment: fine enough that rounding to it costs a permit little, coarse enough for small records. */
const GRID_STEPS_PER_SEGMENT = 256;

export function storedShape(policyKey: string, limit: number, windowSeconds: number, exactLimit: number, segments: number): StoredShape {
  const window = windowShape(policyKey, limit, windowSeconds, exactLimit, segments);
  if (window.segmentMs === 0) return { window, unit: 1 };
  const unit = Math.max(1, Math.floor((window.segmentMs * 1000) / GRID_STEPS_PER_SEGMENT));
  // Segment starts lie at least (segment − 3 units) apart, so about segments + 3 of them are live at once.
  return { window: { ...window, segmentMs: window.segmentMs - (3 * unit) / 1000, maxSegments: segments + 4 }, unit };
}

/**
 * Decides `asks` one after another at `nowMs` (the store's clock, epoch milliseconds) on the item's records
 * (`undefined` for no item). A clock behind the newest record (another process's clock ran ahead) stands
 * still at that record. `written` is the records to store when any ask was admitted, on the last ask's grid,
 * and `expiresAt` (epoch seconds) when all their permits have freed.
 */
export function decideWindow(
  records: WindowState | undefined,
  nowMs: number,
  asks: readonly { readonly shape: StoredShape; readonly cost: number }[],
): { decisions: RateLimitDecision[]; written: WindowState | undefined; expiresAt: number } {
  const counter = new SlidingWindowCounter(asks[0]!.shape.window);
  let now = nowMs;
  if (records === undefined) counter.loadSegments([], [], 0);
  else {
    counter.loadSegments(
      records.times.map((us) => us / 1000),
      records.counts,
      records.newestStart / 1000,
    );
    if (records.times.length > 0) now = Math.max(now, records.times[records.times.length - 1]! / 1000);
  }
  let windowMs = 0;
  const decisions = asks.map(({ shape, cost }) => {
    if (counter.shape !== shape.window) counter.reshape(shape.window);
    const decision = counter.acquire(now, cost);
    if (decision.allowed && shape.window.windowMs > windowMs) windowMs = shape.window.windowMs;
    return decision;
  });
  if (windowMs === 0) return { decisions, written: undefined, expiresAt: 0 };
  const written = onGrid(counter.storedSegments(), asks[asks.length - 1]!.shape.unit);
  return { decisions, written, expiresAt: Math.ceil((written.times[written.times.length - 1]! + windowMs * 1000) / 1_000_000) };
}

/** Records in milliseconds moved onto a grid of `unit` µs: each time rounded up, records that meet merged. */
function onGrid(records: { times: number[]; counts: number[]; newestStart: number }, unit: number): WindowState {
  const times: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < records.times.length; i++) {
    const at = gridMicros(records.times[i]!, unit);
    const last = times.length - 1;
    if (last >= 0 && times[last]! >= at) counts[last]! += records.counts[i]!;
    else {
      times.push(at);
      counts.push(records.counts[i]!);
    }
  }
  return { unit, times, counts, newestStart: gridMicros(records.newestStart, unit) };
}

/**
 * `ms` as whole microseconds rounded up to the grid. A time read from the item (µs / 1000) comes back as
 * it was, so rewriting a window never moves its records.
 */
function gridMicros(ms: number, unit: number): number {
  let us = Math.round(ms * 1000);
  if (us / 1000 < ms) us++;
  return unit === 1 ? us : Math.ceil(us / unit) * unit;
}
