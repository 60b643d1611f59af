import { checkPolicyNumbers } from './store-checks.js';
import type { RateLimitDecision } from './types.js';

/** Up to this many permits per window, every admission keeps its own timestamp: the window is exact. */
export const EXACT_PERMIT_LIMIT = 128;
/** Above `EXACT_PERMIT_LIMIT`, a window is kept as this many time segments (plus two in flight). */
export const WINDOW_SEGMENTS = 128;

/** The validated settings of one counter, shared by every counter with the same limit and window. */
export interface WindowShape {
  readonly limit: number;
  readonly windowSeconds: number;
  readonly windowMs: number;
  /** Admissions closer than this to a segment's start join that segment; 0 means exact timestamps. */
  readonly segmentMs: number;
  readonly maxSegments: number;
}

/**
 * Validates a policy's numbers and derives the counter layout. Throws a TypeError naming the policy, the
 * field and the accepted range.
 */
export function windowShape(policyKey: string, permitLimit: number, windowSeconds: number): WindowShape {
  checkPolicyNumbers(policyKey, permitLimit, windowSeconds);
  const windowMs = windowSeconds * 1000;
  const exact = permitLimit <= EXACT_PERMIT_LIMIT;
  return {
    limit: permitLimit,
    windowSeconds,
    windowMs,
    segmentMs: exact ? 0 : windowMs / WINDOW_SEGMENTS,
    // Live admissions never exceed the limit, and segment starts are at least segmentMs apart, so the live
    // segments fit in min(limit, segments + 2) slots.
    maxSegments: exact ? permitLimit : WINDOW_SEGMENTS + 2,
  };
}

/**
 * Whole seconds until a permit taken at `takenAt` frees: at least 1, and never more than the window. The
 * difference is taken first: `takenAt - now` is at most 0 exactly, so adding the window cannot overshoot it,
 * where `takenAt + windowMs - now` rounds up past the window once clock readings are large fractions.
 */
function secondsUntilFree(takenAt: number, windowMs: number, now: number): number {
  const seconds = Math.ceil((takenAt - now + windowMs) / 1000);
  return seconds > 1 ? seconds : 1;
}

/**
 * One counter's sliding window: a ring of segments, each holding the latest admission time in it and how many
 * admissions it holds. A segment frees all its permits one window after its latest admission, so a permit
 * is never freed early, and at most `segmentMs` late. With `segmentMs` 0 a segment holds only admissions of
 * one instant, which makes the window exact.
 */
export class SlidingWindowCounter {
  shape: WindowShape;
  /** Pairs [latest admission ms, admissions] — one flat array keeps a small counter small. */
  private ring: number[] = [];
  private front = 0;
  private size = 0;
  private used = 0;
  /** When the newest segment started; later admissions within `segmentMs` of it join it. */
  private newestStart = 0;
  private lastRefusal: RateLimitDecision | undefined = undefined;

  constructor(shape: WindowShape) {
    this.shape = shape;
  }

  /** Admits a request of `cost` permits at `now` if the window has room for them; a refusal changes nothing. */
  acquire(now: number, cost: number): RateLimitDecision {
    const shape = this.shape;
    const limit = shape.limit;
    const windowMs = shape.windowMs;
    if (this.size > 0 && this.ring[2 * this.front]! + windowMs <= now) this.expire(now, windowMs);
    const used = this.used + cost;
    if (used <= limit) {
      this.admit(now, cost);
      this.used = used;
      // Read after admitting: an admission that joins the oldest segment moves the time that segment frees.
      return { allowed: true, limit, remaining: limit - used, reset: secondsUntilFree(this.ring[2 * this.front]!, windowMs, now), retryAfter: 0 };
    }
    return this.refuse(now, cost, limit, windowMs);
  }

  private refuse(now: number, cost: number, limit: number, windowMs: number): RateLimitDecision {
    const whole = Math.ceil(this.shape.windowSeconds);
    const reset = this.size > 0 ? secondsUntilFree(this.ring[2 * this.front]!, windowMs, now) : whole;
    // More than the limit can never fit: waiting a window is the honest answer for a client that retries.
    const retryAfter = cost > limit ? whole : this.retryAfter(now, this.used + cost - limit, windowMs);
    const last = this.lastRefusal;
    // A caller hammering a full counter gets the same answer for a second at a time: reuse it.
    if (last !== undefined && last.reset === reset && last.retryAfter === retryAfter && last.limit === limit) return last;
    return (this.lastRefusal = { allowed: false, limit, remaining: 0, reset, retryAfter });
  }

  /**
   * Seconds until the oldest segments have freed `mustFree` permits (at least 1, at most the permits in use):
   * the oldest segment for a request of one permit under an unchanged limit, later ones for a larger cost
   * or after the limit was lowered below the permits still in use.
   */
  private retryAfter(now: number, mustFree: number, windowMs: number): number {
    const ring = this.ring;
    const capacity = ring.length >> 1;
    let slot = this.front;
    let freed = ring[2 * slot + 1]!;
    while (freed < mustFree) {
      slot = slot + 1 === capacity ? 0 : slot + 1;
      freed += ring[2 * slot + 1]!;
    }
    return secondsUntilFree(ring[2 * slot]!, windowMs, now);
  }

  /** When this counter will have freed every permit it holds; -Infinity when it holds none. */
  freedAt(): number {
    if (this.size === 0) return Number.NEGATIVE_INFINITY;
    const capacity = this.ring.length >> 1;
    let newest = this.front + this.size - 1;
    if (newest >= capacity) newest -= capacity;
    return this.ring[2 * newest]! + this.shape.windowMs;
  }

  /** Takes new settings for this counter, keeping the admissions already made (they still count). */
  reshape(shape: WindowShape): void {
    this.shape = shape;
  }

  private expire(now: number, windowMs: number): void {
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

  private admit(now: number, cost: number): void {
    const size = this.size;
    let capacity = this.ring.length >> 1;
    if (size > 0) {
      const ring = this.ring;
      let newest = this.front + size - 1;
      if (newest >= capacity) newest -= capacity;
      const back = 2 * newest;
      // Joining the newest segment delays, never advances, a permit; a full ring happens only after a reshape
      // to fewer segments.
      const segmentMs = this.shape.segmentMs;
      if (
        ring[back] === now ||
        (segmentMs !== 0 && now - this.newestStart < segmentMs) ||
        (size === capacity && capacity >= this.shape.maxSegments)
      ) {
        if (now > ring[back]!) ring[back] = now;
        ring[back + 1] += cost;
        return;
      }
    }
    if (size === capacity) capacity = this.grow(capacity);
    const slot = 2 * ((this.front + size) % capacity);
    this.ring[slot] = now;
    this.ring[slot + 1] = cost;
    this.size++;
    this.newestStart = now;
  }

  /**
   * Quadruples the ring (up to `maxSegments`), laying the live segments out from slot 0. A new counter starts
   * with one slot, so an idle partition stays small; a busy one reaches its size in few copies.
   */
  private grow(capacity: number): number {
    const next = Math.min(Math.max(1, capacity * 4), Math.max(this.shape.maxSegments, capacity + 1));
    // Sized exactly, and holding doubles from the start, so the engine allocates it once.
    const ring = new Array<number>(2 * next).fill(0.5);
    for (let i = 0; i < this.size; i++) {
      const slot = 2 * ((this.front + i) % capacity);
      ring[2 * i] = this.ring[slot]!;
      ring[2 * i + 1] = this.ring[slot + 1]!;
    }
    this.ring = ring;
    this.front = 0;
    return next;
  }
}
