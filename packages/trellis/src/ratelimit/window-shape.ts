import { checkPolicyNumbers } from './store-kit.js';
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
  /**
   * Admissions answered lately, by the permits in use after them (up to {@link ADMITTED_CACHE_SLOTS}): equal
   * answers share one object. See {@link admitted}.
   */
  readonly admitted: (RateLimitDecision | undefined)[];
}

/** The most permits in use for which a shape keeps its admissions to hand out again. */
export const ADMITTED_CACHE_SLOTS = 128;

/**
 * Validates a policy's numbers and derives the counter layout: exact up to `exactLimit` permits, above it
 * `segments` time segments per window. Throws a TypeError naming the policy, the field and the accepted range.
 */
export function windowShape(
  policyKey: string,
  permitLimit: number,
  windowSeconds: number,
  exactLimit = EXACT_PERMIT_LIMIT,
  segments = WINDOW_SEGMENTS,
): WindowShape {
  checkPolicyNumbers(policyKey, permitLimit, windowSeconds);
  const windowMs = windowSeconds * 1000;
  const exact = permitLimit <= exactLimit;
  return {
    limit: permitLimit,
    windowSeconds,
    windowMs,
    segmentMs: exact ? 0 : windowMs / segments,
    // Live admissions never exceed the limit, and segment starts are at least segmentMs apart, so the live
    // segments fit in min(limit, segments + 2) slots.
    maxSegments: exact ? permitLimit : segments + 2,
    admitted: new Array<RateLimitDecision | undefined>(Math.min(permitLimit, ADMITTED_CACHE_SLOTS)).fill(undefined),
  };
}

/**
 * The decision admitting a request on a counter of `shape` that then holds `used` permits and frees its next
 * one in `reset` seconds. Counters of one shape give equal answers all the time (every new partition's first
 * admission says the same), so while `used` is small an equal answer given lately is returned again rather
 * than made anew, frozen (a decision is read, never changed).
 */
export function admitted(shape: WindowShape, used: number, reset: number): RateLimitDecision {
  if (used > ADMITTED_CACHE_SLOTS) return { allowed: true, limit: shape.limit, remaining: shape.limit - used, reset, retryAfter: 0 };
  const last = shape.admitted[used - 1];
  return last !== undefined && last.reset === reset ? last : rememberAdmitted(shape, used, reset);
}

/** A new shared admission for {@link admitted}, frozen: an answer handed to many callers must not change under them. */
function rememberAdmitted(shape: WindowShape, used: number, reset: number): RateLimitDecision {
  return (shape.admitted[used - 1] = Object.freeze({
    allowed: true,
    limit: shape.limit,
    remaining: shape.limit - used,
    reset,
    retryAfter: 0,
  }));
}

/**
 * Whole seconds until a permit taken at `takenAt` frees: at least 1, and never more than the window. The
 * difference is taken first: `takenAt - now` is at most 0 exactly, so adding the window cannot overshoot it,
 * where `takenAt + windowMs - now` rounds up past the window once clock readings are large fractions.
 */
export function secondsUntilFree(takenAt: number, windowMs: number, now: number): number {
  const seconds = Math.ceil((takenAt - now + windowMs) / 1000);
  return seconds > 1 ? seconds : 1;
}
