import { performance } from 'node:perf_hooks';
import type { ExecutionContext, Filter, RouteInfo } from '../index.js';
import { FilterOrder, failure, isThenable } from '../index.js';
import { USER_CODE_FAILED, callUserCode, callUserCodeSync, type UserHook } from '../pipeline/index.js';
import { AcquireRequest } from './acquire-request.js';
import { RateLimitConfiguration, type RateLimitSkip } from './configuration.js';
import { retryAfterSeconds, writeHeaders, writeSingle } from './headers.js';
import type { Outcome } from './headers.js';
import { RateLimitObserver } from './observer.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { keepCounters, planFor } from './policies.js';
import type { RateLimitKinds, ScopePlan } from './policies.js';
import { RateLimitPolicyResolver, policyWith, shortly } from './policy-resolver.js';
import { refuse } from './refusal.js';
import { COST, OBSERVED, PARTITION, RESOLVE, SKIP } from './user-hooks.js';
import { RateLimitLogToken } from './rate-limit-log.js';
import type { RateLimitLog } from './rate-limit-log.js';
import { STORE_UNAVAILABLE_CODE } from './store-unavailable-error.js';
import type { RateLimitStoreUnavailableError } from './store-unavailable-error.js';
import { RateLimitScope, RateLimitStore } from './types.js';
import type { RateLimitDecision, RateLimitPolicy } from './types.js';

/** Outcomes of both scopes for one request, so the headers report across all counters. */
const OUTCOMES = Symbol('trellis.ratelimit.outcomes');
const fallbackPartitioner = new DefaultRateLimitPartitioner();
const fallbackConfiguration = new RateLimitConfiguration();

/** What one request's pass through one scope knows, once it takes more than the one-counter path. */
interface Pass {
  readonly ctx: ExecutionContext;
  readonly configuration: RateLimitConfiguration;
  readonly observer: RateLimitObserver | undefined;
  readonly partition: string;
}

/** One counter's acquire, as the observer and the log hear of it. */
interface Acquired {
  readonly policy: RateLimitPolicy;
  readonly cost: number;
  /** `performance.now()` when the store was asked (0 when nobody measures). */
  readonly started: number;
}

function logOf(ctx: ExecutionContext): RateLimitLog | undefined {
  return ctx.services.tryGet(RateLimitLogToken);
}

/**
 * A store that cannot decide: 503 with the status and retry time of a `RateLimitStoreUnavailableError` (by its
 * code, so a copy of the class from another package version counts), or 503 and 1 s for any other error.
 */
function refuseUnavailable(ctx: ExecutionContext, error: unknown): void {
  const typed =
    (error as { code?: unknown } | null)?.code === STORE_UNAVAILABLE_CODE ? (error as RateLimitStoreUnavailableError) : undefined;
  const status = typed && Number.isInteger(typed.status) && typed.status >= 500 && typed.status <= 599 ? typed.status : 503;
  const retryAfter = typed && Number.isFinite(typed.retryAfter) && typed.retryAfter >= 1 ? Math.ceil(typed.retryAfter) : 1;
  const detail = 'The rate limiter could not reach its store; try again shortly.';
  ctx.refuse(failure('TRELLIS_RATE_LIMIT_UNAVAILABLE', detail, { reason: (error as Error)?.name ?? 'Error', retryAfter }, status), {
    'retry-after': String(retryAfter),
  });
}

/** The store threw, rejected or answered nonsense: 503, reported to the observer and the log. */
function storeFailed(pass: Pass, acquired: Acquired, error: unknown): void {
  const { ctx, observer, partition } = pass;
  refuseUnavailable(ctx, error);
  // The client went away while the store was asked: its own signal aborted the wait. Nothing failed, so
  // nothing is logged or reported as a store error (and no response will be written).
  if ((error as { name?: unknown } | null)?.name === 'AbortError' && ctx.signal.aborted) return;
  logOf(ctx)?.storeFailed(acquired.policy, partition, error);
  if (observer?.storeFailed !== undefined) {
    const event = { ctx, policy: acquired.policy, partition, cost: acquired.cost, error, durationMs: performance.now() - acquired.started };
    tell(ctx, OBSERVED.storeFailed, () => observer.storeFailed!(event), acquired.policy);
  }
}

/** A partitioner, cost function or policy resolver that broke (the guard has logged it): 500 naming the limit. */
function limitBroken(ctx: ExecutionContext, policy: RateLimitPolicy, what: string): void {
  const detail = `The rate limit "${policy.name}" could not be applied to this request: its ${what} did not give a usable answer.`;
  ctx.refuse(failure('TRELLIS_RATE_LIMIT_BROKEN', detail, { limit: policy.name }));
}

/**
 * Calls an observer through the guard without waiting for it: what it throws, and what the promise of an async
 * observer rejects with, is logged and never passed on (a rejection left unhandled would end the process).
 */
function tell(ctx: ExecutionContext, hook: UserHook<unknown, undefined>, call: () => unknown, policy: RateLimitPolicy): void {
  void callUserCode(ctx.services, hook, call, policy.key);
}

/** Tells the observer and the log what a decision means: every decision, and a refusal or fail-open. */
function report(pass: Pass, acquired: Acquired, decision: RateLimitDecision): void {
  const { ctx, observer, partition } = pass;
  const { policy } = acquired;
  const failedOpen = decision.failedOpen;
  if (observer === undefined && decision.allowed && failedOpen === undefined) return;
  const log = failedOpen !== undefined || !decision.allowed ? logOf(ctx) : undefined;
  if (failedOpen !== undefined) log?.failedOpen(policy, partition, failedOpen.error);
  else if (!decision.allowed) log?.refused(policy, partition, retryAfterSeconds(decision));
  if (observer === undefined) return;
  const event = { ctx, policy, partition, cost: acquired.cost, decision, durationMs: performance.now() - acquired.started };
  if (observer.decided !== undefined) tell(ctx, OBSERVED.decided, () => observer.decided!(event), policy);
  if (failedOpen !== undefined) {
    if (observer.failedOpen !== undefined) tell(ctx, OBSERVED.failedOpen, () => observer.failedOpen!(event), policy);
  } else if (!decision.allowed && observer.refused !== undefined) {
    tell(ctx, OBSERVED.refused, () => observer.refused!(event), policy);
  }
}

/** A store's answer is a decision object; anything else is the store failing. */
function badDecision(decision: unknown): boolean {
  return decision === null || typeof decision !== 'object' || typeof (decision as RateLimitDecision).allowed !== 'boolean';
}

const notADecision = (decision: unknown) => new TypeError(`The RateLimitStore answered ${shortly(decision)}, not a decision`);

/**
 * The one-counter path — one limit at this scope, cost 1, no resolver, no observer — and the only one measured
 * by the benchmarks: no outcome list, and no promise unless the store makes one.
 */
function acquireOne(pass: Pass, store: RateLimitStore, policy: RateLimitPolicy): void | Promise<void> {
  const acquired: Acquired = { policy, cost: 1, started: 0 };
  let answer: RateLimitDecision | Promise<RateLimitDecision>;
  try {
    answer = store.acquire(pass.partition, policy, new AcquireRequest(pass.ctx, 1));
  } catch (error) {
    return storeFailed(pass, acquired, error);
  }
  if (isThenable(answer)) {
    return Promise.resolve(answer).then(
      (decision) => decideOne(pass, acquired, decision),
      (error: unknown) => storeFailed(pass, acquired, error),
    );
  }
  return decideOne(pass, acquired, answer);
}

function decideOne(pass: Pass, acquired: Acquired, decision: RateLimitDecision): void | Promise<void> {
  if (badDecision(decision)) return storeFailed(pass, acquired, notADecision(decision));
  const { ctx, configuration } = pass;
  if (decision.allowed) {
    if (decision.failedOpen !== undefined) report(pass, acquired, decision);
    writeSingle(ctx.responseHeaders, acquired.policy, decision, configuration.headerFormats);
    return;
  }
  report(pass, acquired, decision);
  return refuse(ctx, configuration, { ...acquired, decision }, [{ policy: acquired.policy, decision }]);
}

/**
 * Every other case, read top to bottom: for each counter (shortest window first), its numbers (the resolver's
 * or the annotation's), its cost, the store's answer. The first refusal or failure ends the pass; otherwise
 * the headers report across the counters (of both scopes, when the handler has limits at both).
 */
async function acquireEach(pass: Pass, store: RateLimitStore, plan: ScopePlan, outcomes: Outcome[]): Promise<void> {
  const { ctx, observer, partition } = pass;
  const resolver = ctx.services.tryGet(RateLimitPolicyResolver);
  for (let i = 0; i < plan.policies.length; i++) {
    const base = plan.policies[i]!;
    let policy = base;
    if (resolver !== undefined) {
      const numbers = await callUserCode(ctx.services, RESOLVE, () => resolver.resolve(ctx, base), base.key);
      if (numbers === USER_CODE_FAILED) return limitBroken(ctx, base, 'RateLimitPolicyResolver');
      policy = policyWith(base, numbers);
    }
    const costOf = plan.costs[i]!;
    let cost: number;
    if (typeof costOf === 'function') {
      const answered = await callUserCode(ctx.services, COST, () => costOf(ctx, policy), policy.key);
      if (answered === USER_CODE_FAILED) return limitBroken(ctx, policy, 'cost function');
      cost = answered;
    } else cost = costOf;
    const acquired: Acquired = { policy, cost, started: observer === undefined ? 0 : performance.now() };
    const block = plan.blocks[i] === undefined ? undefined : blockPolicy(policy, plan.blocks[i]!);
    if (block !== undefined) {
      // A caller blocked on this limit is refused before its counter is asked.
      let blocked: RateLimitDecision;
      try {
        blocked = await store.acquire(partition, block, new AcquireRequest(ctx, 2));
      } catch (error) {
        return storeFailed(pass, acquired, error);
      }
      if (!badDecision(blocked) && !blocked.allowed && blocked.remaining === 0) {
        const decision: RateLimitDecision = {
          allowed: false,
          limit: policy.permitLimit,
          remaining: 0,
          reset: blocked.reset,
          retryAfter: blocked.reset,
        };
        report(pass, acquired, decision);
        outcomes.push({ policy, decision });
        return refuse(ctx, pass.configuration, { ...acquired, decision, blocked: true }, outcomes);
      }
    }
    const countOnly = plan.countOnly[i];
    let decision: RateLimitDecision;
    try {
      // A counter that counts by outcome is only looked at now (more than its limit is asked for: refused, never
      // counted, and the refusal tells the permits left); the request is counted after the handler.
      decision = await store.acquire(
        partition,
        policy,
        new AcquireRequest(ctx, countOnly === undefined ? acquired.cost : policy.permitLimit + 1),
      );
    } catch (error) {
      return storeFailed(pass, acquired, error);
    }
    if (badDecision(decision)) return storeFailed(pass, acquired, notADecision(decision));
    if (countOnly !== undefined && decision.failedOpen === undefined) {
      const left = Math.max(0, Math.min(policy.permitLimit, decision.remaining));
      const allowed = left >= acquired.cost;
      const reset = left === policy.permitLimit ? 0 : decision.reset;
      decision = { allowed, limit: policy.permitLimit, remaining: left, reset, retryAfter: allowed ? 0 : Math.max(1, reset) };
      if (allowed) deferCount(ctx, { partition, policy, cost: acquired.cost, countOnly, store });
    }
    if (!decision.allowed && block !== undefined) {
      // Overrun: the caller is now blocked for the block's length (its one permit is taken).
      try {
        await store.acquire(partition, block, new AcquireRequest(ctx, 1));
        const wait = Math.max(decision.retryAfter, Math.ceil(block.windowSeconds));
        decision = { ...decision, reset: Math.max(decision.reset, wait), retryAfter: wait };
      } catch (error) {
        logOf(ctx)?.failed(`Rate limit "${policy.name}" on ${policy.handler}: the block could not be recorded`, error);
      }
    }
    report(pass, acquired, decision);
    outcomes.push({ policy, decision });
    if (!decision.allowed) return refuse(ctx, pass.configuration, { ...acquired, decision }, outcomes);
  }
  writeHeaders(ctx.responseHeaders, outcomes, pass.configuration.headerFormats);
}

/** Counters that count by outcome, to be counted once the response is known. */
const DEFERRED = Symbol('trellis.ratelimit.deferred');

interface DeferredCount {
  readonly partition: string;
  readonly policy: RateLimitPolicy;
  readonly cost: number;
  readonly countOnly: 'failures' | 'successes';
  readonly store: RateLimitStore;
}

function deferCount(ctx: ExecutionContext, count: DeferredCount): void {
  const list = ctx.items.get(DEFERRED) as DeferredCount[] | undefined;
  if (list) list.push(count);
  else ctx.items.set(DEFERRED, [count]);
}

/**
 * After the response is known: counts the request on each counter that counts its outcome. A request the
 * rate limits refused themselves is not counted again; a store that fails here is logged (the answer has gone).
 */
async function countOutcome(ctx: ExecutionContext): Promise<void> {
  const list = ctx.items.get(DEFERRED) as DeferredCount[] | undefined;
  if (!list) return;
  ctx.items.delete(DEFERRED);
  const refusal = ctx.refusal;
  if (refusal !== null && refusal.by.startsWith('rate-limit:')) return;
  const status = refusal?.status ?? ctx.response?.status ?? 500;
  for (const count of list) {
    if ((count.countOnly === 'failures') !== status >= 400) continue;
    try {
      await count.store.acquire(count.partition, count.policy, new AcquireRequest(ctx, count.cost));
    } catch (error) {
      logOf(ctx)?.failed(`Rate limit "${count.policy.name}" on ${count.policy.handler}: the request's outcome could not be counted`, error);
    }
  }
}

const blockPolicies = new WeakMap<RateLimitPolicy, RateLimitPolicy>();

/** The one-permit counter that records a block on `policy` for `seconds`: taken when the caller overruns. */
function blockPolicy(policy: RateLimitPolicy, seconds: number): RateLimitPolicy {
  let block = blockPolicies.get(policy);
  if (block === undefined || block.windowSeconds !== seconds) {
    block = Object.freeze({ ...policy, key: `${policy.key}#block`, permitLimit: 1, windowSeconds: seconds });
    blockPolicies.set(policy, block);
  }
  return block;
}

function acquireAll(
  ctx: ExecutionContext,
  plan: ScopePlan,
  store: RateLimitStore,
  partition: string | typeof USER_CODE_FAILED,
  configuration: RateLimitConfiguration,
): void | Promise<void> {
  if (partition === USER_CODE_FAILED) return limitBroken(ctx, plan.policies[0]!, 'RateLimitPartitioner');
  const observer = ctx.services.tryGet(RateLimitObserver);
  const pass: Pass = { ctx, configuration, observer, partition };
  const { policies, shared } = plan;
  if (
    policies.length === 1 &&
    !shared &&
    plan.unitCost &&
    !plan.blocking &&
    !plan.deferred &&
    observer === undefined &&
    ctx.services.tryGet(RateLimitPolicyResolver) === undefined
  ) {
    return acquireOne(pass, store, policies[0]!);
  }
  // Headers report across both scopes: the outcomes are shared only when the handler has limits at both.
  const outcomes = (shared ? (ctx.items.get(OUTCOMES) as Outcome[] | undefined) : undefined) ?? [];
  if (shared) ctx.items.set(OUTCOMES, outcomes);
  return acquireEach(pass, store, plan, outcomes);
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
  const answer = callUserCode(ctx.services, PARTITION, () => partitioner.partition(ctx), ctx.route.id);
  if (!isThenable(answer)) return acquireAll(ctx, plan, store, answer, configuration);
  return answer.then((partition) => acquireAll(ctx, plan, store, partition, configuration));
}

/** The counters this request is not left out of. */
function withoutSkipped(ctx: ExecutionContext, plan: ScopePlan, skip: RateLimitSkip): ScopePlan {
  const kept: number[] = [];
  for (let i = 0; i < plan.policies.length; i++) {
    const policy = plan.policies[i]!;
    if (!callUserCodeSync(ctx.services, SKIP, () => skip(ctx, policy), policy.key)) kept.push(i);
  }
  return kept.length === plan.policies.length ? plan : keepCounters(plan, kept);
}

function rateLimitFilter(name: string, order: number, kinds: RateLimitKinds, scope: RateLimitScope): Filter {
  return {
    name,
    order,
    appliesTo: (route: RouteInfo) => planFor(route, kinds, scope).policies.length > 0,
    run(ctx, next) {
      const plan = planFor(ctx.route, kinds, scope);
      const pending = limit(ctx, plan);
      if (plan.deferred) return (pending ? pending.then(next) : next()).then(() => countOutcome(ctx));
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
