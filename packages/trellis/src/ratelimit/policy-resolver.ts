import type { ExecutionContext } from '../index.js';
import { createToken } from '../index.js';
import type { RateLimitPolicy } from './types.js';
import { isWholeCount, isWindowSeconds } from './store-kit.js';

/** A caller's own numbers for one counter: what a `RateLimitPolicyResolver` answers. */
export interface RateLimitPolicyNumbers {
  /** Permits in any interval of `windowSeconds`: a whole number >= 1. */
  readonly permitLimit: number;
  /** Window length in seconds: a positive, finite number. */
  readonly windowSeconds: number;
}

/**
 * Sets a caller's limit and window per request and counter (a plan named in a token claim, a tenant's tier).
 * Answer `undefined` to keep the annotation's numbers. Asked after the partition is known, once per request
 * and counter; it may return a promise. The counter stays the same (same partition, same `policy.key`):
 * when a caller's plan changes, the permits already taken count against the new numbers.
 *
 * Not registered by default; add one with `app.services.add(RateLimitPolicyResolver, …)`. An answer that is
 * not `undefined` or whole numbers as above — or a resolver that throws or rejects — is logged and answers 500
 * naming the limit.
 *
 * @example
 * const plans = { free: { permitLimit: 60, windowSeconds: 60 }, pro: { permitLimit: 600, windowSeconds: 60 } };
 * app.services.add(RateLimitPolicyResolver, () => ({
 *   resolve: (ctx) => plans[ctx.principal?.claims?.plan as keyof typeof plans],
 * }));
 */
export interface RateLimitPolicyResolver {
  resolve(ctx: ExecutionContext, policy: RateLimitPolicy): RateLimitPolicyNumbers | undefined | Promise<RateLimitPolicyNumbers | undefined>;
}
export const RateLimitPolicyResolver = createToken<RateLimitPolicyResolver>('RateLimitPolicyResolver');

/**
 * `accept` of the resolver's hook: undefined, or numbers that can be used; a TypeError saying what is wrong
 * otherwise.
 */
export function policyNumbers(answer: unknown): RateLimitPolicyNumbers | undefined {
  if (answer === undefined) return undefined;
  if (answer === null || typeof answer !== 'object') {
    throw new TypeError(`it returned ${answer === null ? 'null' : typeof answer}, not { permitLimit, windowSeconds } or undefined`);
  }
  const { permitLimit, windowSeconds } = answer as Partial<RateLimitPolicyNumbers>;
  if (!isWholeCount(permitLimit)) throw new TypeError(`its permitLimit must be a whole number >= 1, got ${shortly(permitLimit)}`);
  if (!isWindowSeconds(windowSeconds)) {
    throw new TypeError(`its windowSeconds must be a positive, finite number of seconds, got ${shortly(windowSeconds)}`);
  }
  return answer as RateLimitPolicyNumbers;
}

/** A value as it may appear in an error message: short, one line. */
export function shortly(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'bigint' ? `${value}n` : String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The answers seen for one annotation's policy, so a caller's plan costs no object per request. */
const resolved = new WeakMap<RateLimitPolicy, Map<string, RateLimitPolicy>>();
const RESOLVED_PER_POLICY = 256;

/**
 * The policy a request is counted under: the annotation's, or one with the resolver's (accepted) numbers, same
 * key, handler, name and scope.
 */
export function policyWith(policy: RateLimitPolicy, answer: RateLimitPolicyNumbers): RateLimitPolicy {
  if (answer.permitLimit === policy.permitLimit && answer.windowSeconds === policy.windowSeconds) return policy;
  let known = resolved.get(policy);
  if (known === undefined) resolved.set(policy, (known = new Map<string, RateLimitPolicy>()));
  const id = `${answer.permitLimit}/${answer.windowSeconds}`;
  let out = known.get(id);
  if (out === undefined) {
    if (known.size >= RESOLVED_PER_POLICY) known.clear();
    out = Object.freeze({ ...policy, permitLimit: answer.permitLimit, windowSeconds: answer.windowSeconds });
    known.set(id, out);
  }
  return out;
}
