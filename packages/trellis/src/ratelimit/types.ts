import type { ExecutionContext } from '../index.js';
import { createToken } from '../services/index.js';

/**
 * The rate-limiting contract: what an annotation declares (a policy), what a store answers (a decision),
 * and the store interface itself. Stores key their counters on `partition` + `policy.key`.
 */

/** Decides whose volume is counted and at which pipeline stage the limit runs. */
export const RateLimitScope = {
  /** Runs at `FilterOrder.RateLimitTransport`, before authentication; reads no body. */
  Transport: 'transport',
  /** Runs at `FilterOrder.RateLimitPrincipal`, after authentication, before grant authorization. */
  Principal: 'principal',
} as const;
export type RateLimitScope = (typeof RateLimitScope)[keyof typeof RateLimitScope];

/** The settings of one `@RateLimit` annotation, resolved for one handler. */
export interface RateLimitPolicy {
  /** Names the counter: handler + name. Stores key on `partition` + `key`. */
  readonly key: string;
  /** The handler's id (method and path, or the class and method name). */
  readonly handler: string;
  /** The counter's name; annotations with the same name on one handler share one counter. */
  readonly name: string;
  /** Requests allowed in any interval of `windowSeconds`. */
  readonly permitLimit: number;
  /** Window length in seconds. */
  readonly windowSeconds: number;
  readonly scope: RateLimitScope;
}

/** A store's answer for one request on one counter. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  /** The counter's permit limit. */
  readonly limit: number;
  /** Permits left after this request; when refused, the permits left now (a refusal spends none), fewer than its cost. */
  readonly remaining: number;
  /** Seconds until the counter frees its next permit (0 when nothing is in use). */
  readonly reset: number;
  /** Seconds to wait before a retry can succeed; 0 when allowed. */
  readonly retryAfter: number;
  /** Set only by a store that admitted because it could not count (failed open); `error` is the cause. */
  readonly failedOpen?: { readonly error: unknown };
}

/** What one acquire asks of a store beyond the partition and the policy. */
export interface AcquireOptions {
  /** Permits this request spends: a safe integer >= 1; default 1. */
  readonly cost?: number;
  /** Aborts a wait (a store that waits on I/O rejects with an AbortError). */
  readonly signal?: AbortSignal;
}

/**
 * Counts permits. One call per request per counter: the decision carries everything the response needs.
 *
 * `acquire` is the one method every store has (`reset` is optional). A store that never waits (the in-process store) returns the decision itself;
 * one that waits on I/O returns a promise of it — an `async acquire()` is fine. Semantics every store keeps:
 * - a request is admitted iff the permits in use within the window plus `cost` fit in `permitLimit`; a
 *   refusal spends nothing. A cost above `permitLimit` is refused with `retryAfter` = the window (rounded up);
 * - the same `policy.key` may arrive with other numbers (a caller's plan changed): each decision uses the
 *   numbers of this call over the permits the counter remembers. A store may forget permits older than the
 *   window it last used for the key, so a window that grows counts at least the previous window's permits.
 * - a bad partition, policy or cost throws (or rejects with) a TypeError and counts nothing; an aborted
 *   `signal` an AbortError.
 *
 * @example
 * app.services.add(RateLimitStore, () => new RedisRateLimitStore({ client }), { type: RegistrationType.Replace });
 */
export interface RateLimitStore {
  /** The one method every store has. A store that never waits returns the decision itself; one that does returns a promise. */
  acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): RateLimitDecision | Promise<RateLimitDecision>;
  /**
   * Optional: forgets the counter of `partition` + `policy.key`, so the caller starts afresh (an admin's
   * "reset this caller"). The shipped stores have it; a bad partition or policy throws a TypeError.
   */
  reset?(partition: string, policy: RateLimitPolicy): void | Promise<void>;
}

/** A monotonic clock in milliseconds; inject a manual one in tests. */
export interface RateLimitClock {
  now(): number;
}

/** Service token for the store; register a custom one with `RegistrationType.Replace`. */
export const RateLimitStore = createToken<RateLimitStore>('RateLimitStore');

/**
 * What a request spends on a counter, computed before the handler runs: a whole number of permits, at least 1.
 * At transport scope the body has not been read and there is no principal yet; at principal scope
 * `ctx.principal` is set. One that throws, rejects or answers anything else is logged, and the request is
 * answered 500 naming the limit (`TRELLIS_RATE_LIMIT_BROKEN`); nothing is spent.
 */
export type RateLimitCostFunction = (ctx: ExecutionContext, policy: RateLimitPolicy) => number | Promise<number>;

/** The settings of one `@RateLimit`. */
export interface RateLimitSettings {
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly name: string;
  readonly scope: RateLimitScope;
  /** Permits one request spends: a whole number (default 1), or a function of the request. */
  readonly cost: number | RateLimitCostFunction;
  /**
   * Counts only the requests whose outcome is a failure (status ≥ 400) or a success (below 400), once the
   * response is known: admission checks the counted outcomes so far, and the request is counted after the
   * handler when its outcome is the one counted. Requests in flight are not counted until they finish.
   */
  readonly countOnly?: 'failures' | 'successes';
  /**
   * Seconds a caller is refused on this limit after it was refused once (its counter overrun), whatever the
   * counter says by then; undefined (the default) for no block.
   */
  readonly blockSeconds?: number;
  /**
   * Shares one counter among every handler whose limit names this budget (per partition), in place of one
   * counter per handler: a budget for a family of endpoints, or, on every route through `group()`, an
   * app-wide limit.
   */
  readonly budget?: string;
}
