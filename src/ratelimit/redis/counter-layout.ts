/**
 * The bounds of the compact value layout (see sliding-window-script.ts). Ring indices take at most two
 * bytes, and a time's low bytes at most six, so the numbers that size them are checked here, once per store
 * or policy, with an error that says what would fit.
 */
import type { RateLimitClock, RateLimitPolicy } from '../types.js';

/** Most records a ring may hold: indices are at most two bytes. */
export const MAX_RING_RECORDS = 65_535;
/** Longest window: its length in microseconds must fit six bytes (about 8.9 years). */
export const MAX_WINDOW_SECONDS = Math.floor((2 ** 48 - 3) / 1_000_000);

/** Checks the store's `exactLimit` and `segments` options against the ring's index width. */
export function checkLayoutOptions(exactLimit: number, segments: number): void {
  if (exactLimit > MAX_RING_RECORDS) {
    throw new RangeError(`exactLimit must be at most ${MAX_RING_RECORDS} (got ${exactLimit}); larger limits are counted in segments`);
  }
  if (segments > MAX_RING_RECORDS - 2) {
    throw new RangeError(`segments must be at most ${MAX_RING_RECORDS - 2} (got ${segments})`);
  }
}

/** Checks that a (valid) policy's window fits the layout. */
export function checkCounterLayout(policy: RateLimitPolicy): void {
  if (policy.windowSeconds > MAX_WINDOW_SECONDS) {
    throw new TypeError(
      `Rate-limit policy "${policy.key}": windowSeconds must be at most ${MAX_WINDOW_SECONDS} (about 8.9 years); got ${String(policy.windowSeconds)}`,
    );
  }
}

/** The test clock's reading as whole microseconds for the script; a time the layout cannot hold is refused. */
export function clockMicros(clock: RateLimitClock): string {
  const ms = clock.now();
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms * 1000 >= Number.MAX_SAFE_INTEGER) {
    throw new TypeError(`RedisRateLimitStore: clock.now() must return non-negative finite milliseconds; got ${String(ms)}`);
  }
  return String(Math.floor(ms * 1000));
}
