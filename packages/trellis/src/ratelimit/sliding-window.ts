import { blankRing, WindowRing } from './sliding-window-segments.js';
import type { RateLimitDecision } from './types.js';
import { admitted, secondsUntilFree, type WindowShape } from './window-shape.js';

export { EXACT_PERMIT_LIMIT, WINDOW_SEGMENTS } from './window-shape.js';

/** An exact counter's first ring holds this many timestamps, so an idle partition stays small. */
const FIRST_EXACT_SLOTS = 1;

/**
 * One counter's sliding window. A counter whose limit is exact (up to 128 permits) keeps one timestamp per
 * permit in use, oldest at `front`, in a ring of bare numbers: a permit comes back exactly one window after it
 * was taken. Above that it keeps time segments ({@link WindowRing}). Refusals change nothing.
 */
export class SlidingWindowCounter extends WindowRing {
  /** Admits a request of `cost` permits at `now` if the window has room for them; a refusal changes nothing. */
  acquire(now: number, cost: number): RateLimitDecision {
    // Two small methods rather than one large one, so the engine can inline the one a counter takes.
    return this.segmented ? this.acquireInSegments(now, cost) : this.acquireExact(now, cost);
  }

  private acquireInSegments(now: number, cost: number): RateLimitDecision {
    const shape = this.shape;
    const windowMs = shape.windowMs;
    if (this.size > 0 && this.ring[2 * this.front]! + windowMs <= now) this.expireSegments(now, windowMs);
    const used = this.used + cost;
    if (used > shape.limit) return this.refuse(now, cost, shape.limit, windowMs);
    if (!this.joinNewestSegment(now, cost)) this.addSegment(now, cost);
    this.used = used;
    // Read after admitting: an admission that joins the oldest segment moves the time that segment frees.
    return admitted(shape, used, secondsUntilFree(this.ring[2 * this.front]!, windowMs, now));
  }

  private acquireExact(now: number, cost: number): RateLimitDecision {
    const shape = this.shape;
    const limit = shape.limit;
    const windowMs = shape.windowMs;
    let ring = this.ring;
    let size = this.size;
    if (size > 0 && ring[this.front]! + windowMs <= now) size = this.expireExact(now, windowMs);
    const used = size + cost;
    if (used > limit) return this.refuse(now, cost, limit, windowMs);
    let front = this.front;
    if (front !== 0 && used > ring.length) {
      ring = this.relayoutExact(used, limit);
      front = 0;
    }
    if (front === 0) {
      if (ring.length === 0) ring = this.ring = blankRing(FIRST_EXACT_SLOTS);
      // Laid out from slot 0, the ring may run past its end: writing at its length appends, and the engine grows
      // the array's storage geometrically (no new array and no copy here). The ring's capacity is its length.
      for (let slot = size; slot < used; slot++) ring[slot] = now;
    } else {
      const capacity = ring.length;
      let slot = front + size;
      if (slot >= capacity) slot -= capacity;
      ring[slot] = now;
      for (let i = 1; i < cost; i++) {
        slot = slot + 1 === capacity ? 0 : slot + 1;
        ring[slot] = now;
      }
    }
    this.size = used;
    this.used = used;
    return admitted(shape, used, secondsUntilFree(ring[this.front]!, windowMs, now));
  }

  private refuse(now: number, cost: number, limit: number, windowMs: number): RateLimitDecision {
    const whole = Math.ceil(this.shape.windowSeconds);
    let reset = whole;
    let retryAfter = whole;
    if (this.size > 0) {
      reset = secondsUntilFree(this.segmented ? this.ring[2 * this.front]! : this.ring[this.front]!, windowMs, now);
      // More than the limit can never fit: waiting a window is the honest answer for a client that retries.
      // Otherwise: until the oldest permits have freed enough — the oldest one for one permit under an unchanged
      // limit, later ones for a larger cost or after the limit was lowered below the permits still in use.
      if (cost <= limit) retryAfter = secondsUntilFree(this.freeing(this.used + cost - limit), windowMs, now);
    }
    // The permits left: fewer than this request's cost (0 for a counter that is full).
    const remaining = Math.max(0, limit - this.used);
    return { allowed: false, limit, remaining, reset, retryAfter };
  }

  /** When the `mustFree`-th oldest permit in use was taken (1 <= mustFree <= permits in use). */
  private freeing(mustFree: number): number {
    if (this.segmented) return this.segmentFreeing(mustFree);
    const ring = this.ring;
    let slot = this.front + mustFree - 1;
    if (slot >= ring.length) slot -= ring.length;
    return ring[slot]!;
  }

  /** Forgets every permit in use: the counter starts afresh. */
  clear(): void {
    this.front = 0;
    this.size = 0;
    this.used = 0;
  }

  /** When this counter will have freed every permit it holds; -Infinity when it holds none. */
  freedAt(): number {
    if (this.size === 0) return Number.NEGATIVE_INFINITY;
    if (this.segmented) return this.newestSegment() + this.shape.windowMs;
    const ring = this.ring;
    let newest = this.front + this.size - 1;
    if (newest >= ring.length) newest -= ring.length;
    return ring[newest]! + this.shape.windowMs;
  }

  /**
   * Takes new settings for this counter, keeping the admissions already made (they still count). An exact
   * counter whose limit grows past exact turns its timestamps into segments; a segmented one keeps its segments
   * (with `segmentMs` 0 they hold one instant each, so an exact limit stays exact).
   */
  reshape(shape: WindowShape): void {
    if (!this.segmented && shape.segmentMs !== 0) this.toSegments();
    this.shape = shape;
  }

  private expireExact(now: number, windowMs: number): number {
    const ring = this.ring;
    const capacity = ring.length;
    let front = this.front;
    let size = this.size;
    while (size > 0 && ring[front]! + windowMs <= now) {
      front = front + 1 === capacity ? 0 : front + 1;
      size--;
    }
    this.front = size === 0 ? 0 : front;
    this.size = size;
    this.used = size;
    return size;
  }

  /**
   * Lays a wrapped ring out from slot 0 in a new array with room for `need` timestamps (need <= limit) and twice
   * those in use, up to the limit, so that it can grow by appending again.
   */
  private relayoutExact(need: number, limit: number): number[] {
    const old = this.ring;
    const capacity = old.length;
    const ring = blankRing(Math.max(need, Math.min(limit, 2 * this.size)));
    for (let i = 0, slot = this.front; i < this.size; i++, slot = slot + 1 === capacity ? 0 : slot + 1) ring[i] = old[slot]!;
    this.ring = ring;
    this.front = 0;
    return ring;
  }
}
