import { performance } from 'node:perf_hooks';
import type { RateLimitClock } from './types.js';

/**
 * The default store clock: `performance.now()`, which never jumps with wall-clock changes (NTP, DST), so a
 * window can neither shrink nor stretch when the system time is adjusted.
 *
 * @example
 * const store = new InProcessRateLimitStore({ clock: monotonicClock });
 */
export const monotonicClock: RateLimitClock = {
  // The module's own object: the global `performance` is a getter, read again on every call.
  now: () => performance.now(),
};
