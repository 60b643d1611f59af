import { RateLimitStoreUnavailableError } from './store-unavailable-error.js';
import type { RateLimitDecision, RateLimitPolicy, RateLimitStore } from './types.js';

/** One caller's counter on one limit, read without spending anything. */
export interface RateLimitCounterState {
  /** The counter's permit limit. */
  readonly limit: number;
  /** Permits in use within the window. */
  readonly used: number;
  /** Permits a request could spend now. */
  readonly remaining: number;
  /** Seconds until the counter frees its next permit; 0 when none is in use. */
  readonly reset: number;
}

/**
 * The permits a store is asked for to read a counter without spending: more than the limit, which every store
 * refuses and never counts (the store contract), its refusal telling the permits left.
 */
export const readCost = (policy: RateLimitPolicy): number => policy.permitLimit + 1;

/** A counter's state from a store's refusal of `readCost` permits. */
export function counterState(decision: RateLimitDecision): RateLimitCounterState {
  const remaining = Math.max(0, Math.min(decision.limit, decision.remaining));
  return { limit: decision.limit, used: decision.limit - remaining, remaining, reset: remaining === decision.limit ? 0 : decision.reset };
}

/**
 * Reads a caller's counter without spending (`readCost`, `counterState`). Works with every store that keeps
 * the RateLimitStore contract (the shipped stores do). Rejects with `RateLimitStoreUnavailableError` when the
 * store cannot tell (it failed open).
 *
 * @example
 * const { used, remaining, reset } = await readRateLimitCounter(store, 'subject:alice', policy);
 */
export async function readRateLimitCounter(
  store: RateLimitStore,
  partition: string,
  policy: RateLimitPolicy,
): Promise<RateLimitCounterState> {
  const decision = await store.acquire(partition, policy, { cost: readCost(policy) });
  if (decision.failedOpen !== undefined) {
    throw new RateLimitStoreUnavailableError('rate limit store unavailable: it could not read the counter', {
      cause: decision.failedOpen.error,
    });
  }
  if (decision.allowed)
    throw new TypeError(
      'readRateLimitCounter: the store admitted more permits than the limit; it does not keep the RateLimitStore contract.',
    );
  return counterState(decision);
}
