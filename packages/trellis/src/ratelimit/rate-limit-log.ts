import type { Logger } from '../index.js';
import { createToken, errorText } from '../index.js';
import { retryAfterSeconds } from './headers.js';
import type { RateLimitDecisionEvent, RateLimitObserver, RateLimitStoreErrorEvent } from './observer.js';
import type { RateLimitClock, RateLimitPolicy } from './types.js';

interface Throttle {
  /** When the next line may be written (clock milliseconds). */
  nextAt: number;
  /** Lines held back since the last one written. */
  suppressed: number;
}

const MAX_THROTTLES = 10_000;

/**
 * What rate limiting writes to the app's `Logger`, told as any observer is: refusals at debug, fail-opens and
 * store failures at warn.
 * At most one line per kind and counter per interval, however many requests meet it (an attack makes many):
 * the next line says how many were held back.
 */
export class RateLimitLog implements RateLimitObserver {
  readonly #throttles = new Map<string, Throttle>();

  constructor(
    private readonly logger: Logger | undefined,
    private readonly intervalMs: number,
    private readonly clock: RateLimitClock,
  ) {}

  refused({ policy, partition, decision }: RateLimitDecisionEvent): void {
    if (this.logger?.debug === undefined) return;
    const held = this.#pass('refused', policy);
    if (held < 0) return;
    this.logger.debug(
      `Rate limit "${policy.name}" on ${policy.handler} refused a request (${policy.permitLimit} per ${policy.windowSeconds} s; retry after ${retryAfterSeconds(decision)} s)${more(held)}`,
      { policy: policy.key, partition, suppressed: held },
    );
  }

  failedOpen({ policy, partition, decision }: RateLimitDecisionEvent): void {
    if (this.logger === undefined) return;
    const held = this.#pass('failed-open', policy);
    if (held < 0) return;
    const error = decision.failedOpen?.error;
    this.logger.warn(
      `Rate limit "${policy.name}" on ${policy.handler} failed open: the store could not count, so requests pass unlimited (${errorText(error)})${more(held)}`,
      { policy: policy.key, partition, error, suppressed: held },
    );
  }

  storeFailed({ policy, partition, error }: RateLimitStoreErrorEvent): void {
    if (this.logger === undefined) return;
    const held = this.#pass('store-failed', policy);
    if (held < 0) return;
    this.logger.warn(
      `Rate limit "${policy.name}" on ${policy.handler} could not reach its store; requests are refused with 503 (${errorText(error)})${more(held)}`,
      { policy: policy.key, partition, error, suppressed: held },
    );
  }

  /** A rate-limit filter's own failure (a cost function or policy resolver that broke): written every time. */
  failed(message: string, error: unknown): void {
    this.logger?.error(message, { error });
  }

  /** How many lines were held back before this one, or -1 when this one must be held back too. */
  #pass(kind: string, policy: RateLimitPolicy): number {
    const id = `${kind}\u0000${policy.key}`;
    const now = this.clock.now();
    let throttle = this.#throttles.get(id);
    if (throttle === undefined) {
      if (this.#throttles.size >= MAX_THROTTLES) this.#forgetQuiet(now);
      this.#throttles.set(id, (throttle = { nextAt: Number.NEGATIVE_INFINITY, suppressed: 0 }));
    }
    if (now < throttle.nextAt) {
      throttle.suppressed++;
      return -1;
    }
    const held = throttle.suppressed;
    throttle.suppressed = 0;
    throttle.nextAt = now + this.intervalMs;
    return held;
  }

  /** Drops counters whose interval has passed with nothing held back (keeps the map bounded). */
  #forgetQuiet(now: number): void {
    for (const [id, t] of this.#throttles) if (t.nextAt <= now && t.suppressed === 0) this.#throttles.delete(id);
    if (this.#throttles.size >= MAX_THROTTLES) this.#throttles.clear();
  }
}

function more(held: number): string {
  return held > 0 ? `; ${held} more like it since the last such line` : '';
}

/** The app's one `RateLimitLog` (a framework default, so its intervals hold across requests). */
export const RateLimitLogToken = createToken<RateLimitLog>('RateLimitLog');
