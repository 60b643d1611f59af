import type { ExecutionContext, Filter, RouteInfo } from '../index.js';
import { FilterOrder, problem } from '../index.js';
import { RateLimitConfiguration, type RateLimitSkip } from './configuration.js';
import { retryAfterSeconds, writeHeaders, writeSingle } from './headers.js';
import type { Outcome } from './headers.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { planFor } from './policies.js';
import type { RateLimitKinds, ScopePlan } from './policies.js';
import { STORE_UNAVAILABLE_CODE } from './store-unavailable-error.js';
import type { RateLimitStoreUnavailableError } from './store-unavailable-error.js';
import { RateLimitScope, RateLimitStore } from './types.js';
import type { RateLimitDecision, RateLimitPolicy } from './types.js';
import { InProcessRateLimitStore } from './in-process-store.js';

/** Outcomes of both scopes for one request, so the headers report across all counters. */
const OUTCOMES = Symbol('trellis.ratelimit.outcomes');
const fallbackPartitioner = new DefaultRateLimitPartitioner();
const fallbackConfiguration = new RateLimitConfiguration();

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A store that cannot decide: 503 with the status and retry time of a `RateLimitStoreUnavailableError` (by its
 * code, so a copy of the class from another package version counts), or 503 and 1 s for any other error.
 */
function refuseUnavailable(ctx: ExecutionContext, error: unknown): void {
  const typed = (error as { code?: unknown } | null)?.code === STORE_UNAVAILABLE_CODE ? (error as RateLimitStoreUnavailableError) : undefined;
  const status = typed && Number.isInteger(typed.status) && typed.status >= 500 && typed.status <= 599 ? typed.status : 503;
  const retryAfter = typed && Number.isFinite(typed.retryAfter) && typed.retryAfter >= 1 ? Math.ceil(typed.retryAfter) : 1;
  const detail = 'The rate limiter could not reach its store; try again shortly.';
  ctx.refuse(status, problem(status, detail, { reason: (error as Error)?.name ?? 'Error', retryAfter }), { 'retry-after': String(retryAfter) });
}

/** Records one decision; returns false when it refused the request (and the rest must not be acquired). */
function record(ctx: ExecutionContext, policy: RateLimitPolicy, decision: RateLimitDecision, outcomes: Outcome[], structured: boolean): boolean {
  outcomes.push({ policy, decision });
  if (decision.allowed) return true;
  const retryAfter = retryAfterSeconds(decision);
  const detail =
    `The rate limit "${policy.name}" of ${plural(policy.permitLimit, 'request')} per ${plural(policy.windowSeconds, 'second')} ` +
    `was reached; retry after ${plural(retryAfter, 'second')}.`;
  ctx.refuse(429, problem(429, detail, { limit: policy.name, retryAfter }), { 'retry-after': String(retryAfter) });
  writeHeaders(ctx.refusal!.headers, outcomes, structured);
  return false;
}

/** The decision of a store that never waits, or undefined once a failing store has been answered with 503. */
function decideNow(ctx: ExecutionContext, store: RateLimitStore, partition: string, policy: RateLimitPolicy): RateLimitDecision | undefined {
  try {
    return store.acquire(partition, policy) as RateLimitDecision;
  } catch (error) {
    refuseUnavailable(ctx, error);
    return undefined;
  }
}

function acquireAll(ctx: ExecutionContext, plan: ScopePlan, store: RateLimitStore, partition: unknown, structured: boolean): void | Promise<void> {
  if (typeof partition !== 'string') throw new TypeError('A RateLimitPartitioner must return a string partition key.');
  const { policies, shared } = plan;
  const now = store instanceof InProcessRateLimitStore;
  if (now && policies.length === 1 && !shared) {
    // The common case — one counter, one scope, a store that never waits: no promise, no outcome list.
    const policy = policies[0]!;
    const decision = decideNow(ctx, store, partition, policy);
    if (decision === undefined) return;
    if (decision.allowed) writeSingle(ctx.responseHeaders, policy, decision, structured);
    else record(ctx, policy, decision, [], structured);
    return;
  }
  // Headers report across both scopes: the outcomes are shared only when the handler has limits at both.
  const outcomes = (shared ? (ctx.items.get(OUTCOMES) as Outcome[] | undefined) : undefined) ?? [];
  if (shared) ctx.items.set(OUTCOMES, outcomes);
  if (now) {
    // A store that never waits answers at once: no promise, no signal, no extra ticks per request.
    for (const policy of policies) {
      const decision = decideNow(ctx, store, partition, policy);
      if (decision === undefined || !record(ctx, policy, decision, outcomes, structured)) return;
    }
    writeHeaders(ctx.responseHeaders, outcomes, structured);
    return;
  }
  return (async () => {
    for (const policy of policies) {
      let decision: RateLimitDecision;
      try {
        decision = await store.acquire(partition, policy, { signal: ctx.signal });
      } catch (error) {
        return refuseUnavailable(ctx, error);
      }
      if (!record(ctx, policy, decision, outcomes, structured)) return;
    }
    writeHeaders(ctx.responseHeaders, outcomes, structured);
  })();
}

function limit(ctx: ExecutionContext, plan: ScopePlan): void | Promise<void> {
  // Resolved per request: a store registered (or replaced) for this request's scope is the one used.
  const store = ctx.services.tryGet(RateLimitStore);
  if (!store) return;
  const configuration = ctx.services.tryGet(RateLimitConfiguration) ?? fallbackConfiguration;
  if (configuration.skip !== undefined) {
    plan = withoutSkipped(ctx, plan, configuration.skip);
    if (plan.policies.length === 0) return;
  }
  const partitioner = ctx.services.tryGet(RateLimitPartitioner) ?? fallbackPartitioner;
  const structured = configuration.structuredHeaders;
  const answer = partitioner.partition(ctx);
  if (typeof answer === 'string') return acquireAll(ctx, plan, store, answer, structured);
  return Promise.resolve(answer).then((partition) => acquireAll(ctx, plan, store, partition, structured));
}

/** The counters this request is not left out of. */
function withoutSkipped(ctx: ExecutionContext, plan: ScopePlan, skip: RateLimitSkip): ScopePlan {
  const kept = plan.policies.filter((policy) => skip(ctx, policy) !== true);
  return kept.length === plan.policies.length ? plan : { policies: kept, shared: plan.shared };
}

function rateLimitFilter(name: string, order: number, kinds: RateLimitKinds, scope: RateLimitScope): Filter {
  return {
    name,
    order,
    appliesTo: (route: RouteInfo) => planFor(route, kinds, scope).policies.length > 0,
    run(ctx, next) {
      const pending = limit(ctx, planFor(ctx.route, kinds, scope));
      return pending ? pending.then(next) : next();
    },
  };
}

/**
 * The two rate-limit filters for the values of the `RateLimit` kind (less those `SkipRateLimit` names): transport scope (before authentication, reads no body)
 * and principal scope (after authentication, before grant authorization).
 */
export function rateLimitFilters(kinds: RateLimitKinds): readonly [Filter, Filter] {
  return [
    rateLimitFilter('rate-limit:transport', FilterOrder.RateLimitTransport, kinds, RateLimitScope.Transport),
    rateLimitFilter('rate-limit:principal', FilterOrder.RateLimitPrincipal, kinds, RateLimitScope.Principal),
  ];
}
