import type { ExecutionContext } from '../index.js';
import { createToken } from '../index.js';
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
 * `combineRateLimitObservers` joins several). Calls are synchronous and made before the response is written:
 * keep them quick. An observer that throws is logged and otherwise ignored. With no observer registered, the
 * filters measure nothing.
 *
 * @example
 * app.services.add(RateLimitObserver, () => ({
 *   refused: (e) => audit.write({ limit: e.policy.name, caller: e.partition, retryAfter: e.decision.retryAfter }),
 * }));
 */
export interface RateLimitObserver {
  /** Every store answer: allowed, refused or failed open. */
  decided?(event: RateLimitDecisionEvent): void;
  /** A request refused with 429. */
  refused?(event: RateLimitDecisionEvent): void;
  /** A request the store admitted without counting it (`decision.failedOpen` is set). */
  failedOpen?(event: RateLimitDecisionEvent): void;
  /** A store that threw or rejected: the request was refused with 503. */
  storeFailed?(event: RateLimitStoreErrorEvent): void;
}
export const RateLimitObserver = createToken<RateLimitObserver>('RateLimitObserver');

/**
 * One observer that tells each of `observers` in turn; one that throws does not keep the others from hearing.
 *
 * @example
 * app.services.add(RateLimitObserver, () => combineRateLimitObservers(rateLimitMetrics({ meter }), auditObserver));
 */
export function combineRateLimitObservers(...observers: RateLimitObserver[]): RateLimitObserver {
  const each = <K extends keyof RateLimitObserver>(method: K) => {
    const listeners = observers.filter((o) => typeof o[method] === 'function');
    if (listeners.length === 0) return undefined;
    return (event: never) => {
      let failure: unknown;
      let failed = false;
      for (const o of listeners) {
        try {
          (o[method] as (e: never) => void).call(o, event);
        } catch (error) {
          if (!failed) [failure, failed] = [error, true];
        }
      }
      if (failed) throw failure;
    };
  };
  return { decided: each('decided'), refused: each('refused'), failedOpen: each('failedOpen'), storeFailed: each('storeFailed') };
}
