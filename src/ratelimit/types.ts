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
  /** Permits left after this request (0 when refused). */
  readonly remaining: number;
  /** Seconds until the counter frees its next permit (0 when nothing is in use). */
  readonly reset: number;
  /** Seconds to wait before a retry can succeed; 0 when allowed. */
  readonly retryAfter: number;
  /** Set only by a store that admitted because it could not count (failed open); `error` is the cause. */
  readonly failedOpen?: { readonly error: unknown };
}

/** What one acquire asks for beyond its partition and policy. */
export interface AcquireOptions {
  /** Permits this request spends: a safe integer >= 1; default 1. */
  readonly cost?: number;
  /** Aborts a wait (a store that waits on I/O rejects with an AbortError). */
  readonly signal?: AbortSignal;
}

/**
 * Counts permits. One call per request per counter: the decision carries everything the response needs.
 *
 * @example
 * app.services.add(RateLimitStore, () => new RedisRateLimitStore({ client }), { type: RegistrationType.Replace });
 */
export interface RateLimitStore {
  /** The ONLY store method. A store that never waits returns the decision itself; one that does returns a promise. */
  acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): RateLimitDecision | Promise<RateLimitDecision>;
}

/** A monotonic clock in milliseconds; inject a manual one in tests. */
export interface RateLimitClock {
  now(): number;
}

/** Service token for the store; register a custom one with `RegistrationType.Replace`. */
export const RateLimitStore = createToken<RateLimitStore>('RateLimitStore');

/** The settings of one `@RateLimit`. */
export interface RateLimitSettings {
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly name: string;
  readonly scope: RateLimitScope;
}
