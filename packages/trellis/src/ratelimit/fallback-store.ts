import { isThenable } from '../index.js';
import { callUserCode, type UserHook } from '../pipeline/index.js';
import { servicesOf } from './filters.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import { STORE_UNAVAILABLE_CODE } from './store-unavailable-error.js';
import type { AcquireOptions, RateLimitDecision, RateLimitPolicy, RateLimitStore } from './types.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_STORE_OPTIONS', message);

/** Options of {@link FallbackRateLimitStore}. */
export interface FallbackRateLimitStoreOptions {
  /** The shared store (Redis, DynamoDB): asked first, every time. */
  readonly primary: RateLimitStore;
  /** Counts while the primary cannot: default a new `InProcessRateLimitStore` (counts per process). */
  readonly fallback?: RateLimitStore;
  /**
   * Told each time the fallback decided instead of the primary, with the primary's error. It may be async and
   * is not waited for; one that throws or rejects is logged (with the app's `Logger`) and the fallback decides
   * all the same.
   */
  readonly onFallback?: (error: unknown, policy: RateLimitPolicy) => void;
}

const ON_FALLBACK: UserHook<unknown, undefined> = {
  where: 'FallbackRateLimitStoreOptions.onFallback',
  instead: 'the fallback store decided all the same',
  fallback: () => undefined,
};

/** Errors that mean the primary could not count (as opposed to bad input or the caller giving up). */
function primaryFailed(error: unknown): boolean {
  if (error instanceof TypeError) return false;
  const e = error as { name?: unknown; code?: unknown } | null;
  return e?.name !== 'AbortError' || e?.code === STORE_UNAVAILABLE_CODE;
}

/**
 * A shared store with a local one behind it: while the primary cannot count (it failed open, or failed closed
 * with `RateLimitStoreUnavailableError`, or threw), the fallback — an in-process store by default — decides
 * instead, so limits still hold, per process, rather than being lifted or turned into 503s. When the primary
 * answers again it decides again, with the counts it kept; what the fallback counted meanwhile stays local.
 *
 * @example
 * const shared = new RedisRateLimitStore({ client });
 * app.services.add(RateLimitStore, () => new FallbackRateLimitStore({ primary: shared }), { type: RegistrationType.Replace });
 */
export class FallbackRateLimitStore implements RateLimitStore {
  readonly #primary: RateLimitStore;
  readonly #fallback: RateLimitStore;
  readonly #onFallback: ((error: unknown, policy: RateLimitPolicy) => void) | undefined;

  constructor(options: FallbackRateLimitStoreOptions) {
    if (typeof options?.primary?.acquire !== 'function')
      throw invalid('FallbackRateLimitStore: primary must be a RateLimitStore (it has acquire()).');
    if (options.fallback !== undefined && typeof options.fallback.acquire !== 'function') {
      throw invalid('FallbackRateLimitStore: fallback must be a RateLimitStore (it has acquire()).');
    }
    if (options.onFallback !== undefined && typeof options.onFallback !== 'function')
      throw invalid('FallbackRateLimitStore: onFallback must be a function.');
    this.#primary = options.primary;
    this.#fallback = options.fallback ?? new InProcessRateLimitStore();
    this.#onFallback = options.onFallback;
  }

  acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): RateLimitDecision | Promise<RateLimitDecision> {
    let answer: RateLimitDecision | Promise<RateLimitDecision>;
    try {
      answer = this.#primary.acquire(partition, policy, options);
    } catch (error) {
      if (!primaryFailed(error)) throw error;
      return this.#local(partition, policy, options, error);
    }
    if (!isThenable(answer))
      return answer.failedOpen === undefined ? answer : this.#local(partition, policy, options, answer.failedOpen.error);
    return Promise.resolve(answer).then(
      (decision) => (decision.failedOpen === undefined ? decision : this.#local(partition, policy, options, decision.failedOpen.error)),
      (error: unknown) => {
        if (!primaryFailed(error)) throw error;
        return this.#local(partition, policy, options, error);
      },
    );
  }

  /** Resets the counter in both stores (each that has `reset`). */
  async reset(partition: string, policy: RateLimitPolicy): Promise<void> {
    await this.#fallback.reset?.(partition, policy);
    await this.#primary.reset?.(partition, policy);
  }

  #local(
    partition: string,
    policy: RateLimitPolicy,
    options: AcquireOptions | undefined,
    error: unknown,
  ): RateLimitDecision | Promise<RateLimitDecision> {
    const onFallback = this.#onFallback;
    if (onFallback !== undefined) void callUserCode(servicesOf(options), ON_FALLBACK, () => onFallback(error, policy), policy.key);
    return this.#fallback.acquire(partition, policy, options);
  }
}
