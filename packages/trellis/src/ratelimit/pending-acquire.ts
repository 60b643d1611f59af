import { acquireAbortedError, settleByFailureMode, type RateLimitFailureMode } from './store-checks.js';
import type { AcquireOptions, RateLimitDecision, RateLimitPolicy } from './types.js';

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

  /** The store could not count (`error` says why): answered by its failure mode. */
  fail(error: unknown): void {
    const resolve = this.#resolve;
    const reject = this.#reject;
    this.#release();
    settleByFailureMode(this.failureMode, error, this.policy, this.cost, resolve, reject);
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
