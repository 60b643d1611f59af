import type { WindowShape } from './window-shape.js';

/** The ring of a counter that has admitted nothing yet: shared, never written (the first admission grows it). */
const NO_SLOTS: number[] = [];
/** One array of each ring length used so far, never written: copying one is the cheapest way to a new ring. */
const BLANK_RINGS: number[][] = [];

/**
 * A new ring of `length` slots, holding doubles from the start (so the engine never converts it) and
 * allocated at its exact size in one copy.
 */
export function blankRing(length: number): number[] {
  return (BLANK_RINGS[length] ??= Array.from({ length }, () => 0.5)).slice();
}

/**
 * A counter's state and its segmented layout. In the segmented layout the ring holds pairs [latest admission
 * ms, admissions], oldest at `front`, and its last slot holds when the newest segment started (later
 * admissions within `segmentMs` of that start join it). A segment frees all its permits one window after its
 * latest admission, so a permit is never freed early, and at most `segmentMs` late. With `segmentMs` 0 a
 * segment holds only admissions of one instant, which is exact. The exact layout (one timestamp per permit)
 * lives in {@link SlidingWindowCounter}, which starts a counter in it when its limit is exact.
 */
export abstract class WindowRing {
  shape: WindowShape;
  protected ring: number[] = NO_SLOTS;
  protected front = 0;
  /** Slots in use: timestamps in the exact layout, segments in the segmented one. */
  protected size = 0;
  /** Permits in use. */
  protected used = 0;
  /** Which layout the ring has; an exact counter turns segmented when its limit grows past exact. */
  protected segmented: boolean;

  constructor(shape: WindowShape) {
    this.shape = shape;
    this.segmented = shape.segmentMs !== 0;
  }

  protected expireSegments(now: number, windowMs: number): void {
    const ring = this.ring;
    const capacity = ring.length >> 1;
    let front = this.front;
    let size = this.size;
    while (size > 0 && ring[2 * front]! + windowMs <= now) {
      this.used -= ring[2 * front + 1]!;
      front = front + 1 === capacity ? 0 : front + 1;
      size--;
    }
    this.front = size === 0 ? 0 : front;
    this.size = size;
  }

  /**
   * Adds `cost` permits taken at `now` to the newest segment if they belong there, as most admissions do: it
   * started less than `segmentMs` ago, or at this very instant, or the ring is full (only after a reshape to
   * fewer segments). Joining the newest segment delays, never advances, a permit. False when they need a
   * segment of their own.
   */
  protected joinNewestSegment(now: number, cost: number): boolean {
    const size = this.size;
    if (size === 0) return false;
    const ring = this.ring;
    const capacity = ring.length >> 1;
    let newest = this.front + size - 1;
    if (newest >= capacity) newest -= capacity;
    const back = 2 * newest;
    // The clock never goes back, so with `segmentMs` 0 only the same instant joins.
    if (
      now - ring[2 * capacity]! < this.shape.segmentMs ||
      ring[back] === now ||
      (size === capacity && capacity >= this.shape.maxSegments)
    ) {
      if (now > ring[back]!) ring[back] = now;
      ring[back + 1] = ring[back + 1]! + cost;
      return true;
    }
    return false;
  }

  /** Starts a new segment at `now` holding `cost` permits, growing the ring when it is full. */
  protected addSegment(now: number, cost: number): void {
    const size = this.size;
    let capacity = this.ring.length >> 1;
    if (size === capacity) capacity = this.growSegments(capacity);
    const ring = this.ring;
    const slot = 2 * ((this.front + size) % capacity);
    ring[slot] = now;
    ring[slot + 1] = cost;
    ring[2 * capacity] = now;
    this.size++;
  }

  /**
   * Quadruples the ring (up to `maxSegments`), laying the live segments out from slot 0. A new counter starts
   * with one segment, so an idle partition stays small; a busy one reaches its size in few copies.
   */
  private growSegments(capacity: number): number {
    const next = Math.min(Math.max(1, capacity * 4), Math.max(this.shape.maxSegments, capacity + 1));
    const ring = blankRing(2 * next + 1);
    const old = this.ring;
    for (let i = 0; i < this.size; i++) {
      const slot = 2 * ((this.front + i) % capacity);
      ring[2 * i] = old[slot]!;
      ring[2 * i + 1] = old[slot + 1]!;
    }
    if (capacity > 0) ring[2 * next] = old[2 * capacity]!;
    this.ring = ring;
    this.front = 0;
    return next;
  }

  /**
   * The time of the segment holding the `mustFree`-th oldest permit in use (at least 1, at most the permits
   * in use): when that many permits will have come back.
   */
  protected segmentFreeing(mustFree: number): number {
    const ring = this.ring;
    const capacity = ring.length >> 1;
    let slot = this.front;
    let freed = ring[2 * slot + 1]!;
    while (freed < mustFree) {
      slot = slot + 1 === capacity ? 0 : slot + 1;
      freed += ring[2 * slot + 1]!;
    }
    return ring[2 * slot]!;
  }

  /**
   * Takes a shared store's records as this counter's segments: `times` (ms, oldest first, never decreasing)
   * and `counts` in pairs, `newestStart` when the newest began taking admissions. Any shape decides on them:
   * with `segmentMs` 0 a segment holds the admissions of one instant, which is exact.
   */
  loadSegments(times: readonly number[], counts: readonly number[], newestStart: number): void {
    const n = times.length;
    const ring = n > 0 ? blankRing(2 * n + 1) : NO_SLOTS;
    let used = 0;
    for (let i = 0; i < n; i++) {
      ring[2 * i] = times[i]!;
      ring[2 * i + 1] = counts[i]!;
      used += counts[i]!;
    }
    if (n > 0) ring[2 * n] = newestStart;
    this.ring = ring;
    this.front = 0;
    this.size = n;
    this.used = used;
    this.segmented = true;
  }

  /** The segments in use, oldest first, as {@link loadSegments} takes them (a counter it loaded). */
  storedSegments(): { times: number[]; counts: number[]; newestStart: number } {
    const ring = this.ring;
    const capacity = ring.length >> 1;
    const times: number[] = [];
    const counts: number[] = [];
    for (let i = 0, slot = this.front; i < this.size; i++, slot = slot + 1 === capacity ? 0 : slot + 1) {
      times.push(ring[2 * slot]!);
      counts.push(ring[2 * slot + 1]!);
    }
    return { times, counts, newestStart: capacity > 0 ? ring[2 * capacity]! : 0 };
  }

  protected newestSegment(): number {
    const capacity = this.ring.length >> 1;
    let newest = this.front + this.size - 1;
    if (newest >= capacity) newest -= capacity;
    return this.ring[2 * newest]!;
  }

  /**
   * Turns the exact layout (`size` timestamps from `front`) into segments, one per distinct instant, the newest
   * segment starting at the newest admission: later admissions may join it, which delays, never advances, them.
   */
  protected toSegments(): void {
    const old = this.ring;
    const capacity = old.length;
    const ring = blankRing(2 * Math.max(1, this.size) + 1);
    let segments = 0;
    for (let i = 0, slot = this.front; i < this.size; i++, slot = slot + 1 === capacity ? 0 : slot + 1) {
      const at = old[slot]!;
      if (segments > 0 && ring[2 * segments - 2] === at) {
        ring[2 * segments - 1] = ring[2 * segments - 1]! + 1;
      } else {
        ring[2 * segments] = at;
        ring[2 * segments + 1] = 1;
        segments++;
      }
    }
    const pairs = Math.max(1, this.size);
    if (segments > 0) ring[2 * pairs] = ring[2 * segments - 2]!;
    this.ring = segments > 0 ? ring : NO_SLOTS;
    this.front = 0;
    this.size = segments;
    this.segmented = true;
  }
}
