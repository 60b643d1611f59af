/**
 * Thrown by a rate-limit store configured to fail closed when its backing service cannot answer in time.
 * The framework answers the request with a 503 problem instead of guessing. The class has no dependencies,
 * so code that only checks for it never loads a Redis client.
 *
 * @example
 * try {
 *   await store.acquire(partition, policy);
 * } catch (error) {
 *   if (error instanceof RateLimitStoreUnavailableError) return respond503(error.retryAfter);
 *   throw error;
 * }
 */
export class RateLimitStoreUnavailableError extends Error {
  /** A stable code for checks across package copies (where `instanceof` fails). */
  readonly code = 'RATE_LIMIT_STORE_UNAVAILABLE';
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
