import type { RateLimitClock } from './types.js';
import { usageError } from '../errors/index.js';

function checkMilliseconds(what: string, ms: number): void {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw usageError(
      'TRELLIS_INVALID_ARGUMENT',
      `ManualClock.${what} needs a finite number of milliseconds; got ${String(ms)}`,
      RangeError,
    );
  }
}

/**
 * A clock that moves only when told to, so tests control time instead of sleeping. Like the real clock it
 * never goes backwards: `advance` takes a non-negative step and `set` a time no earlier than `now()`.
 *
 * @example
 * const clock = new ManualClock();
 * const store = new InProcessRateLimitStore({ clock });
 * await store.acquire('alice', policy);
 * clock.advance(60_000); // one minute later
 */
export class ManualClock implements RateLimitClock {
  #now: number;

  /** @param startMs the first reading of `now()`, in milliseconds (default 0). */
  constructor(startMs = 0) {
    checkMilliseconds('constructor(startMs)', startMs);
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  /** Moves the clock forward by `ms` milliseconds and returns the new reading. */
  advance(ms: number): number {
    checkMilliseconds('advance(ms)', ms);
    if (ms < 0)
      throw usageError('TRELLIS_INVALID_ARGUMENT', `ManualClock.advance(ms) needs ms >= 0 (the clock is monotonic); got ${ms}`, RangeError);
    this.#now += ms;
    return this.#now;
  }

  /** Moves the clock to the reading `ms`, which must not be earlier than `now()`. */
  set(ms: number): number {
    checkMilliseconds('set(ms)', ms);
    if (ms < this.#now) {
      throw usageError(
        'TRELLIS_INVALID_ARGUMENT',
        `ManualClock.set(ms) cannot go back in time: now() is ${this.#now}, got ${ms}`,
        RangeError,
      );
    }
    this.#now = ms;
    return this.#now;
  }
}
