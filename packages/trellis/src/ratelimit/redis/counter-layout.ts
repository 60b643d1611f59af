/**
 * The bounds of the compact value layout (see sliding-window-script.ts). Ring indices take at most two
 * bytes, and a time's low bytes at most six, so the numbers that size them are checked here, once per store
 * or policy, with an error that says what would fit.
 */
import type { RateLimitClock, RateLimitPolicy } from '../index.js';
import { usageError } from '../../errors/index.js';

/** Most records a ring may hold: indices are at most two bytes. */
export const MAX_RING_RECORDS = 65_535;
/** Longest window: its length in microseconds must fit six bytes (about 8.9 years). */
export const MAX_WINDOW_SECONDS = Math.floor((2 ** 48 - 3) / 1_000_000);

/** Checks the store's `exactLimit` and `segments` options against the ring's index width. */
export function checkLayoutOptions(exactLimit: number, segments: number): void {
  if (exactLimit > MAX_RING_RECORDS) {
    throw usageError(
      'TRELLIS_INVALID_STORE_OPTIONS',
      `exactLimit must be at most ${MAX_RING_RECORDS} (got ${exactLimit}); larger limits are counted in segments`,
      RangeError,
    );
  }
  if (segments > MAX_RING_RECORDS - 2) {
    throw usageError('TRELLIS_INVALID_STORE_OPTIONS', `segments must be at most ${MAX_RING_RECORDS - 2} (got ${segments})`, RangeError);
  }
}

/** Checks that a (valid) policy's window fits the layout. */
export function checkCounterLayout(policy: RateLimitPolicy): void {
  if (policy.windowSeconds > MAX_WINDOW_SECONDS) {
    throw usageError(
      'TRELLIS_INVALID_RATE_LIMIT',
      `Rate-limit policy "${policy.key}": windowSeconds must be at most ${MAX_WINDOW_SECONDS} (about 8.9 years); got ${String(policy.windowSeconds)}`,
    );
  }
}

/** The test clock's reading as whole microseconds for the script; a time the layout cannot hold is refused. */
export function clockMicros(clock: RateLimitClock): string {
  const ms = clock.now();
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms * 1000 >= Number.MAX_SAFE_INTEGER) {
    throw usageError(
      'TRELLIS_INVALID_STORE_OPTIONS',
      `RedisRateLimitStore: clock.now() must return non-negative finite milliseconds; got ${String(ms)}`,
    );
  }
  return String(Math.floor(ms * 1000));
}

/** What the script needs to read and write a policy's counters in the fast path, worked out once per policy. */
export interface CounterLayoutArgs {
  /** The layout byte: time bytes + 8 × count bytes + 64 × (index bytes − 1) + 128 for millisecond times. */
  readonly format: string;
  /** struct formats of the header and of one record. */
  readonly headerFormat: string;
  readonly recordFormat: string;
}

function bytesAbove(value: number): number {
  let bytes = 1;
  while (256 ** bytes <= value) bytes++;
  return bytes;
}

/**
 * The layout of a counter of `permitLimit` over `windowMicros`, exact or in `segments` (0 = exact): times
 * in microseconds (milliseconds for segmented windows over 71 minutes) in the fewest bytes that tell apart
 * any two instants a window and two units apart; admission counts in the fewest bytes that hold the limit.
 */
export function counterLayout(permitLimit: number, windowMicros: number, segments: number): CounterLayoutArgs {
  const exact = segments === 0;
  const unit = !exact && windowMicros > 4_294_967_000 ? 1000 : 1;
  const timeBytes = bytesAbove(Math.ceil(windowMicros / unit) + 2);
  const countBytes = exact ? 0 : bytesAbove(permitLimit);
  const indexBytes = (exact ? permitLimit : segments + 2) > 255 ? 2 : 1;
  const counts = countBytes > 0 ? `I${countBytes}I${countBytes}` : '';
  return {
    format: String(timeBytes + 8 * countBytes + 64 * (indexBytes - 1) + (unit > 1 ? 128 : 0)),
    headerFormat: `>BBI7I${timeBytes}I${timeBytes}I${indexBytes}I${indexBytes}I${indexBytes}${counts}`,
    recordFormat: `>I${timeBytes}${countBytes > 0 ? `I${countBytes}` : ''}`,
  };
}
