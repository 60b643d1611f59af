import { errorText, type FailureCode } from '../index.js';
/** The `code` of every `RateLimitStoreUnavailableError`: the failure code of the 503 it is answered with. */
export const STORE_UNAVAILABLE_CODE = 'TRELLIS_RATE_LIMIT_UNAVAILABLE' satisfies FailureCode;

/**
 * Thrown by a rate-limit store configured to fail closed when its backing service cannot answer in time.
 * The rate-limit filters answer it with a `status` (503) problem and a `Retry-After` of `retryAfter` seconds
 * instead of guessing. Its `code` is that problem's, `TRELLIS_RATE_LIMIT_UNAVAILABLE`, one of the framework's
 * failure codes; the filters tell it by that code, so a copy of the class from another package version counts.
 * Store writers import it from `trellis/ratelimit/store-kit`.
 *
 * @example
 * // in a custom store that cannot reach its backend:
 * throw new RateLimitStoreUnavailableError('counter service timed out', { cause: error, retryAfter: 5 });
 */
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

/**
 * The error a shared store rejects with when it could not count: `rate limit store unavailable: <why>`, the
 * cause kept as `cause`.
 */
export function storeUnavailableError(cause: unknown): RateLimitStoreUnavailableError {
  return new RateLimitStoreUnavailableError(`rate limit store unavailable: ${errorText(cause)}`, { cause });
}
