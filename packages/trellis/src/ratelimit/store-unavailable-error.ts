/**
 * Thrown by a rate-limit store configured to fail closed when its backing service cannot answer in time.
 * The rate-limit filters answer it with a `status` (503) problem and a `Retry-After` of `retryAfter` seconds
 * instead of guessing. It lives in `trellis/ratelimit`, so custom stores (and code that only checks for it)
 * never load a Redis client; `trellis/ratelimit/redis` re-exports it.
 *
 * @example
 * // in a custom store that cannot reach its backend:
 * throw new RateLimitStoreUnavailableError('counter service timed out', { cause: error, retryAfter: 5 });
 */
/** The `code` of every `RateLimitStoreUnavailableError`. */
export const STORE_UNAVAILABLE_CODE = 'RATE_LIMIT_STORE_UNAVAILABLE';

export class RateLimitStoreUnavailableError extends Error {
  /** A stable code for checks across package copies (where `instanceof` fails). */
  readonly code = STORE_UNAVAILABLE_CODE;
  /** The HTTP status the framework answers with. */
  readonly status = 503;
  /** Seconds a client should wait before retrying (the `Retry-After` of the 503). */
  readonly retryAfter: number;

  constructor(message: string, options?: { cause?: unknown; retryAfter?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RateLimitStoreUnavailableError';
    this.retryAfter = options?.retryAfter ?? 1;
  }
}
