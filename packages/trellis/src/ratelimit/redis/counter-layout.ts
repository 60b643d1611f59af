/**
 * The compact value layout of a policy's counters (see sliding-window-script.ts), and its bounds: ring
 * indices take at most two bytes (a time's six bytes bound the window: see `PolicyPlans`).
 */
import type { RateLimitClock, RateLimitPolicy } from '../index.js';
import { usageError } from '../../errors/index.js';

/** Most records a ring may hold: indices are at most two bytes. */
const MAX_RING_RECORDS = 65_535;

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

function bytesAbove(value: number): number {
  let bytes = 1;
  while (256 ** bytes <= value) bytes++;
  return bytes;
}

/**
 * What the script takes of a (checked) policy with `segments` per window above `exactLimit` permits:
 * permitLimit, windowMicros, segments ('0' for an exact window), the layout byte (time bytes + 8 × count
 * bytes + 64 × (index bytes − 1) + 128 for millisecond times) and the struct formats of the header and of a
 * record. Times are microseconds (milliseconds for segmented windows over 71 minutes) in the fewest bytes
 * that tell apart any two instants a window and two units apart; admission counts take the fewest bytes that
 * hold the limit.
 */
export function counterArgs(policy: RateLimitPolicy, exactLimit: number, segments: number): readonly string[] {
  const { permitLimit } = policy;
  const windowMicros = Math.max(1, Math.round(policy.windowSeconds * 1_000_000));
  const exact = permitLimit <= exactLimit;
  const unit = !exact && windowMicros > 4_294_967_000 ? 1000 : 1;
  const timeBytes = bytesAbove(Math.ceil(windowMicros / unit) + 2);
  const countBytes = exact ? 0 : bytesAbove(permitLimit);
  const indexBytes = (exact ? permitLimit : segments + 2) > 255 ? 2 : 1;
  const counts = countBytes > 0 ? `I${countBytes}I${countBytes}` : '';
  return [
    String(permitLimit),
    String(windowMicros),
    exact ? '0' : String(segments),
    String(timeBytes + 8 * countBytes + 64 * (indexBytes - 1) + (unit > 1 ? 128 : 0)),
    `>BBI7I${timeBytes}I${timeBytes}I${indexBytes}I${indexBytes}I${indexBytes}${counts}`,
    `>I${timeBytes}${countBytes > 0 ? `I${countBytes}` : ''}`,
  ];
}
