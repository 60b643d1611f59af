/**
 * What a store is made of: the checks every store makes of its input, the decision and error of a shared store
 * that cannot count (its failure modes), and the acquire such a store keeps pending. Store writers get the
 * checks and the fail-open decision from `trellis/ratelimit/store-kit`; the pending acquire is the shipped shared
 * stores' own.
 */
import { performance } from 'node:perf_hooks';
import type { AcquireOptions, RateLimitClock, RateLimitDecision, RateLimitPolicy } from './types.js';
import { storeUnavailableError } from './store-unavailable-error.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_STORE_CALL', message);

/**
 * The default store clock: `performance.now()`, which never jumps with wall-clock changes (NTP, DST), so a
 * window can neither shrink nor stretch when the system time is adjusted.
 */
export const monotonicClock: RateLimitClock = {
  // The module's own object: the global `performance` is a getter, read again on every call.
  now: () => performance.now(),
};

/** A whole number of permits (a limit or a cost), or of anything counted: a safe integer of at least 1. */
export const isWholeCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 1;

/** A window (or block) length: a positive number of seconds whose milliseconds are finite. */
export const isWindowSeconds = (s: unknown): s is number => typeof s === 'number' && s > 0 && Number.isFinite(s * 1000);

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
  if (!isWholeCount(permitLimit)) {
    throw invalid(
      `Rate-limit policy "${policyKey}": permitLimit must be a positive integer (requests per window); got ${String(permitLimit)}`,
    );
  }
  if (!isWindowSeconds(windowSeconds)) {
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
  if (!isWholeCount(cost)) {
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

/** What limited requests get while a shared store cannot count, for its warnings. */
export function whileUncounted(mode: RateLimitFailureMode): string {
  return mode === RateLimitFailureMode.FailClosed
    ? 'limited requests are answered 503'
    : 'limited requests are admitted without being counted';
}

const settledAlready = (): void => undefined;

/**
 * One acquire a shared store is answering, as its caller sees it (one object per acquire; it is also its own
 * abort listener). It is answered once: with the store's decision, by the store's failure mode, or with an
 * AbortError when the caller gives up. Then it lets go of the caller — its promise's functions, its options
 * and their signal — since a batch or flight on its way may hold it a while longer and would keep the
 * request's objects alive.
 */
export class PendingAcquire {
  /** The caller has its answer, or gave up: later outcomes are ignored. */
  settled = false;
  #resolve: (decision: RateLimitDecision) => void = settledAlready;
  #reject: (error: unknown) => void = settledAlready;
  #options: AcquireOptions | undefined;
  #signal: AbortSignal | undefined = undefined;

  constructor(
    readonly policy: RateLimitPolicy,
    readonly cost: number,
    readonly failureMode: RateLimitFailureMode,
    options: AcquireOptions | undefined,
  ) {
    this.#options = options;
  }

  /** The promise the caller awaits; made once, when the acquire starts. */
  promise(): Promise<RateLimitDecision> {
    return new Promise((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  /**
   * From now on the caller giving up (its signal aborting) answers the acquire with an AbortError, at once if
   * it has already. A store that is usually answered quickly calls this only when the acquire has to wait:
   * the framework makes a request's AbortSignal on first read, which costs more than a quick answer.
   */
  watchAbort(): void {
    const signal = this.#options?.signal;
    if (signal === undefined || this.settled) return;
    this.#signal = signal;
    if (signal.aborted) this.handleEvent();
    else signal.addEventListener('abort', this, { once: true });
  }

  /** The abort listener: the caller gives up. A command already sent may still count it. */
  handleEvent(): void {
    if (this.settled) return;
    const reject = this.#reject;
    const signal = this.#signal!;
    this.#release();
    reject(acquireAbortedError(signal));
  }

  /** Answers with the store's decision. */
  answer(decision: RateLimitDecision): void {
    const resolve = this.#resolve;
    this.#release();
    resolve(decision);
  }

  /**
   * The store could not count (`error` says why): answered by its failure mode — `failOpen` resolves a
   * {@link failOpenDecision} carrying the cause, `failClosed` rejects with the typed 503 error. Nothing is
   * logged here: the rate-limit filters report fail-opens and store errors.
   */
  fail(error: unknown): void {
    const resolve = this.#resolve;
    const reject = this.#reject;
    this.#release();
    if (this.failureMode === RateLimitFailureMode.FailClosed) reject(storeUnavailableError(error));
    else resolve(failOpenDecision(this.policy.permitLimit, this.policy.windowSeconds, { cost: this.cost, error }));
  }

  /** Rejects with `error` as it is, whatever the failure mode (a store refusing to take more calls). */
  refuse(error: unknown): void {
    const reject = this.#reject;
    this.#release();
    reject(error);
  }

  #release(): void {
    this.settled = true;
    this.#signal?.removeEventListener('abort', this);
    this.#signal = undefined;
    this.#options = undefined;
    this.#resolve = settledAlready;
    this.#reject = settledAlready;
  }
}

/** The longest window a shared store keeps: its length in microseconds fits six bytes (about 8.9 years). */
const MAX_SHARED_WINDOW_SECONDS = Math.floor((2 ** 48 - 3) / 1_000_000);

/**
 * What a shared store works out from each policy object: the policy is checked and its plan made on first
 * use, and again when its numbers change (policies are long-lived objects; acquires are many).
 */
export class PolicyPlans<Plan> {
  readonly #cache = new WeakMap<RateLimitPolicy, { key: string; permitLimit: number; windowSeconds: number; plan: Plan }>();

  constructor(
    private readonly store: string,
    private readonly make: (policy: RateLimitPolicy) => Plan,
  ) {}

  /** The plan of `policy`; throws a TypeError for a bad policy. */
  get(policy: RateLimitPolicy): Plan {
    const cached = this.#cache.get(policy);
    if (cached && cached.key === policy.key && cached.permitLimit === policy.permitLimit && cached.windowSeconds === policy.windowSeconds) {
      return cached.plan;
    }
    checkPolicy(this.store, policy);
    if (policy.windowSeconds > MAX_SHARED_WINDOW_SECONDS) {
      throw usageError(
        'TRELLIS_INVALID_RATE_LIMIT',
        `Rate-limit policy "${policy.key}": windowSeconds must be at most ${MAX_SHARED_WINDOW_SECONDS} (about 8.9 years); got ${String(policy.windowSeconds)}`,
      );
    }
    const { key, permitLimit, windowSeconds } = policy;
    const plan = this.make(policy);
    this.#cache.set(policy, { key, permitLimit, windowSeconds, plan });
    return plan;
  }
}
