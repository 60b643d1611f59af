import type { RateLimitDecision, RateLimitPolicy } from './types.js';
import { storeUnavailableError } from './store-unavailable-error.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_STORE_CALL', message);

/**
 * Checks an acquire's partition as every store must. Throws a TypeError naming the store.
 *
 * @example
 * async acquire(partition, policy, options) {
 *   checkPartition('MyStore', partition);
 *   checkPolicy('MyStore', policy);
 *   checkCost('MyStore', options?.cost);
 *   …
 * }
 */
export function checkPartition(store: string, partition: unknown): asserts partition is string {
  if (typeof partition !== 'string') {
    throw invalid(`${store}.acquire: partition must be a string; got ${typeof partition}`);
  }
}

/** Checks an acquire's policy: an object with a string key whose numbers make a counter. */
export function checkPolicy(store: string, policy: RateLimitPolicy): void {
  if (policy === null || typeof policy !== 'object' || typeof policy.key !== 'string') {
    throw invalid(`${store}.acquire: policy must be a RateLimitPolicy with a string key`);
  }
  checkPolicyNumbers(policy.key, policy.permitLimit, policy.windowSeconds);
}

/** Checks a policy's limit and window: a positive whole number of permits in a positive, finite window. */
export function checkPolicyNumbers(policyKey: string, permitLimit: unknown, windowSeconds: unknown): void {
  if (typeof permitLimit !== 'number' || !Number.isSafeInteger(permitLimit) || permitLimit < 1) {
    throw invalid(
      `Rate-limit policy "${policyKey}": permitLimit must be a positive integer (requests per window); got ${String(permitLimit)}`,
    );
  }
  if (typeof windowSeconds !== 'number' || !(windowSeconds > 0) || !Number.isFinite(windowSeconds * 1000)) {
    throw invalid(
      `Rate-limit policy "${policyKey}": windowSeconds must be a positive finite number of seconds; got ${String(windowSeconds)}`,
    );
  }
}

/**
 * Checks an acquire's cost: a safe integer of at least 1 (the permits the request spends). Throws a
 * TypeError naming the store; `undefined` means 1.
 */
export function checkCost(store: string, cost: unknown): number {
  if (cost === undefined) return 1;
  if (typeof cost !== 'number' || !Number.isSafeInteger(cost) || cost < 1) {
    throw invalid(`${store}.acquire: cost must be a whole number of permits, at least 1; got ${String(cost)}`);
  }
  return cost;
}

/**
 * The rejection for an acquire whose signal was aborted: an `AbortError` whatever the abort reason was (the
 * reason is kept as `cause`).
 */
export function acquireAbortedError(signal: AbortSignal): unknown {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  return Object.assign(new DOMException('The rate-limit acquire was aborted', 'AbortError'), { cause: reason });
}

/**
 * What a store answers when it fails open (no counter can be kept for this request): allowed, and what a
 * fresh counter of the policy would say after `cost` permits (default 1). Give the cause as `error` so the
 * decision carries `failedOpen` and the framework reports it (logs, metrics, `RateLimitObserver`).
 *
 * @example
 * catch (error) { return failOpenDecision(policy.permitLimit, policy.windowSeconds, { cost: options?.cost, error }); }
 */
export function failOpenDecision(
  permitLimit: number,
  windowSeconds: number,
  options?: { readonly cost?: number; readonly error?: unknown },
): RateLimitDecision {
  const cost = options?.cost ?? 1;
  const decision = {
    allowed: true,
    limit: permitLimit,
    remaining: Math.max(0, permitLimit - cost),
    reset: Math.ceil(windowSeconds),
    retryAfter: 0,
  };
  return options !== undefined && 'error' in options ? { ...decision, failedOpen: { error: options.error } } : decision;
}

/**
 * What a shared store does when it cannot count (unreachable, failing, or silent past its timeout).
 *
 * @example
 * new RedisRateLimitStore({ client, failureMode: RateLimitFailureMode.FailClosed });
 */
export const RateLimitFailureMode = {
  /** Allow the request unlimited; the decision carries `failedOpen: { error }`. The default. */
  FailOpen: 'failOpen',
  /** Reject with `RateLimitStoreUnavailableError`, which the framework answers with a 503 problem. */
  FailClosed: 'failClosed',
} as const;
export type RateLimitFailureMode = (typeof RateLimitFailureMode)[keyof typeof RateLimitFailureMode];

/**
 * Answers an acquire that a shared store could not count, by the store's failure mode: `failOpen` resolves a
 * {@link failOpenDecision} carrying the cause, `failClosed` rejects with the typed 503 error. Nothing is logged
 * here: the rate-limit filters report fail-opens and store errors.
 */
export function settleByFailureMode(
  mode: RateLimitFailureMode,
  error: unknown,
  policy: RateLimitPolicy,
  cost: number,
  resolve: (decision: RateLimitDecision) => void,
  reject: (error: unknown) => void,
): void {
  if (mode === RateLimitFailureMode.FailClosed) reject(storeUnavailableError(error));
  else resolve(failOpenDecision(policy.permitLimit, policy.windowSeconds, { cost, error }));
}

/** What limited requests get while a shared store cannot count, for its warnings. */
export function whileUncounted(mode: RateLimitFailureMode): string {
  return mode === RateLimitFailureMode.FailClosed
    ? 'limited requests are answered 503'
    : 'limited requests are admitted without being counted';
}
