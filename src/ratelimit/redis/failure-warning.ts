/**
 * Where the store reports that Redis failed; `console` by default.
 *
 * @example
 * new RedisRateLimitStore({ url, logger: { warn: (message) => log.warn({ component: 'ratelimit' }, message) } });
 */
export interface RateLimitStoreLogger {
  warn(message: string): void;
}

/**
 * Logs the first failure at once, then at most one line per interval carrying the count of failures since
 * the last line, so an outage under load cannot flood the log.
 */
export class FailureWarning {
  #lastAt = Number.NEGATIVE_INFINITY;
  #suppressed = 0;

  constructor(
    private readonly logger: RateLimitStoreLogger,
    private readonly intervalMs: number,
    private readonly now: () => number,
  ) {}

  report(message: string): void {
    const at = this.now();
    if (at - this.#lastAt < this.intervalMs) {
      this.#suppressed += 1;
      return;
    }
    const more = this.#suppressed > 0 ? ` (${this.#suppressed} more failures since the last warning)` : '';
    this.#lastAt = at;
    this.#suppressed = 0;
    this.logger.warn(`${message}${more}`);
  }
}
