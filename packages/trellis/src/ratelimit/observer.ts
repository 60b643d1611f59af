import type { ExecutionContext } from '../index.js';
import { createToken, isThenable } from '../index.js';
import type { RateLimitDecision, RateLimitPolicy } from './types.js';

/** One store answer for one request and counter. */
export interface RateLimitDecisionEvent {
  readonly ctx: ExecutionContext;
  /** The policy the request was counted under (a `RateLimitPolicyResolver`'s numbers when it set them). */
  readonly policy: RateLimitPolicy;
  readonly partition: string;
  /** Permits the request asked for. */
  readonly cost: number;
  readonly decision: RateLimitDecision;
  /** How long the store took to answer, in milliseconds. */
  readonly durationMs: number;
}

/** A store that could not answer: the request was refused with 503. */
export interface RateLimitStoreErrorEvent {
  readonly ctx: ExecutionContext;
  readonly policy: RateLimitPolicy;
  readonly partition: string;
  readonly cost: number;
  readonly error: unknown;
  /** How long the store took to fail, in milliseconds. */
  readonly durationMs: number;
}

/**
 * Told what rate limiting decides. Every method is optional; register one with
 * `app.services.add(RateLimitObserver, …)` (or `rateLimitMetrics({ meter })` for OpenTelemetry metrics;
 * `combineRateLimitObservers` joins several). Each is called before the response is written and is not waited
 * for: keep synchronous work quick, and an async observer (one returning a promise) finishes on its own time.
 * An observer that throws, or whose promise rejects, is logged once, naming the method (`RateLimitObserver.refused
 * threw …`, with the app's Logger), and otherwise ignored: the request goes on and the process keeps running.
 * With no observer registered, the filters measure nothing.
 *
 * @example
 * app.services.add(RateLimitObserver, () => ({
 *   refused: (e) => audit.write({ limit: e.policy.name, caller: e.partition, retryAfter: e.decision.retryAfter }),
 * }));
 */
export interface RateLimitObserver {
  // Each returns anything: nothing, a value (ignored), or a promise (its rejection is logged, never waited for).
  /** Every store answer: allowed, refused or failed open. */
  decided?(event: RateLimitDecisionEvent): unknown;
  /** A request refused with 429. */
  refused?(event: RateLimitDecisionEvent): unknown;
  /** A request the store admitted without counting it (`decision.failedOpen` is set). */
  failedOpen?(event: RateLimitDecisionEvent): unknown;
  /** A store that threw or rejected: the request was refused with 503. */
  storeFailed?(event: RateLimitStoreErrorEvent): unknown;
}
export const RateLimitObserver = createToken<RateLimitObserver>('RateLimitObserver');

/**
 * One observer that tells each of `observers` in turn; one that throws, or whose promise rejects, does not keep
 * the others from hearing. The combined call throws the first synchronous failure; when some observers are
 * async, it returns a promise that settles once they all have, rejecting with the first failure.
 *
 * @example
 * app.services.add(RateLimitObserver, () => combineRateLimitObservers(rateLimitMetrics({ meter }), auditObserver));
 */
export function combineRateLimitObservers(...observers: RateLimitObserver[]): RateLimitObserver {
  const each = <K extends keyof RateLimitObserver>(method: K) => {
    const listeners = observers.filter((o) => typeof o[method] === 'function');
    if (listeners.length === 0) return undefined;
    return (event: never): void | Promise<void> => {
      let failure: unknown;
      let failed = false;
      const pending: PromiseLike<unknown>[] = [];
      for (const o of listeners) {
        try {
          const result: unknown = (o[method] as (e: never) => unknown).call(o, event);
          if (isThenable(result)) pending.push(result);
        } catch (error) {
          if (!failed) [failure, failed] = [error, true];
        }
      }
      if (pending.length === 0) {
        if (failed) throw failure;
        return;
      }
      return Promise.allSettled(pending).then((results) => {
        if (failed) throw failure;
        const rejected = results.find((r) => r.status === 'rejected');
        if (rejected) throw rejected.reason;
      });
    };
  };
  return { decided: each('decided'), refused: each('refused'), failedOpen: each('failedOpen'), storeFailed: each('storeFailed') };
}
