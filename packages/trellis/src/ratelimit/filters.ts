import { performance } from 'node:perf_hooks';
import type { ExecutionContext, Filter, Next, RouteInfo, ServiceResolver } from '../index.js';
import { FilterOrder, failure, isThenable } from '../index.js';
import { USER_CODE_FAILED, callUserCode, callUserCodeSync, type UserHook } from '../pipeline/index.js';
import { RateLimitConfiguration } from './configuration.js';
import { counterState, readCost } from './counter-state.js';
import { writeHeaders } from './headers.js';
import type { Outcome } from './headers.js';
import { RateLimitObserver } from './observer.js';
import { DefaultRateLimitPartitioner, PARTITION, RateLimitPartitioner } from './partitioner.js';
import { planFor, planWith } from './policies.js';
import type { Counter, RateLimitKinds, ScopePlan } from './policies.js';
import { RateLimitPolicyResolver, policyWith, shortly, type RateLimitPolicyNumbers } from './policy-resolver.js';
import { refuse } from './refusal.js';
import { COST, OBSERVED, RESOLVE, SKIP } from './user-hooks.js';
import { RateLimitLogToken } from './rate-limit-log.js';
import type { RateLimitLog } from './rate-limit-log.js';
import { STORE_UNAVAILABLE_CODE } from './store-unavailable-error.js';
import type { RateLimitStoreUnavailableError } from './store-unavailable-error.js';
import { RateLimitScope, RateLimitStore } from './types.js';
import type { AcquireOptions, RateLimitDecision, RateLimitPolicy } from './types.js';

// One request's way through the counters of one scope, top to bottom: the store, the configuration and the
// partition; then for each counter (shortest window first) its numbers (the resolver's or the annotation's),
// its cost, its block, the store's answer; the first refusal or failure ends the pass, otherwise the headers
// report across the counters. Each step goes on at once when its answer is there, and waits only for a promise,
// so a request whose store and hooks answer at once is decided in the turn that read it.

/** Outcomes of both scopes for one request, so the headers report across all counters. */
const OUTCOMES = Symbol('trellis.ratelimit.outcomes');
/** Counters that count by outcome, to be counted once the response is known. */
const DEFERRED = Symbol('trellis.ratelimit.deferred');
const fallbackPartitioner = new DefaultRateLimitPartitioner();
const fallbackConfiguration = new RateLimitConfiguration();

/**
 * What a store is told besides the partition and the policy. The request's abort signal is made only when a
 * store reads it (one that waits on I/O): a store that answers at once costs no AbortController.
 */
class AcquireRequest implements AcquireOptions {
  readonly #ctx: ExecutionContext;
  readonly cost: number;

  constructor(ctx: ExecutionContext, cost: number) {
    this.#ctx = ctx;
    this.cost = cost;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }

  /** The app's services, where a hook the store calls writes its failure. */
  get services(): ServiceResolver {
    return this.#ctx.services;
  }
}

/** The app's services behind an acquire the rate-limit filters made; undefined when someone else called the store. */
export function servicesOf(options: AcquireOptions | undefined): ServiceResolver | undefined {
  return options instanceof AcquireRequest ? options.services : undefined;
}

/**
 * `next(state, value)` at once when `value` is there, or once its promise fulfils: each step of a pass is a
 * function of its state and the answer it waited for, so a step that need not wait makes no closure.
 */
function after<S, T>(value: T | PromiseLike<T>, next: (state: S, value: T) => void | Promise<void>, state: S): void | Promise<void> {
  return isThenable(value) ? Promise.resolve(value).then((answer) => next(state, answer)) : next(state, value);
}

/** What one request's pass through one scope knows. */
class Pass {
  partition = '';
  observer: RateLimitObserver | undefined = undefined;
  resolver: RateLimitPolicyResolver | undefined = undefined;
  /** The counters decided so far (of both scopes, when the handler has limits at both). */
  outcomes: Outcome[] = [];

  constructor(
    readonly ctx: ExecutionContext,
    readonly plan: ScopePlan,
    readonly store: RateLimitStore,
    readonly configuration: RateLimitConfiguration,
  ) {}
}

/** One counter's part of a pass: its policy and cost once known, and what the observer and the log hear of it. */
class Attempt {
  policy: RateLimitPolicy;
  cost = 1;
  /** `performance.now()` when the store was asked (0 when nobody measures). */
  started = 0;
  /** The store's decision, once it has one. */
  decision: RateLimitDecision | undefined = undefined;

  constructor(
    readonly pass: Pass,
    readonly i: number,
    readonly counter: Counter,
  ) {
    this.policy = counter.policy;
  }
}

/** A store that threw, rejected or answered something that is not a decision. */
class StoreFailure {
  constructor(readonly error: unknown) {}
}

function checkedDecision(decision: RateLimitDecision): RateLimitDecision | StoreFailure {
  const usable = decision !== null && typeof decision === 'object' && typeof decision.allowed === 'boolean';
  return usable ? decision : new StoreFailure(new TypeError(`The RateLimitStore answered ${shortly(decision)}, not a decision`));
}
const storeFailure = (error: unknown) => new StoreFailure(error);

/** The store's decision on `cost` permits of `policy`, or how it failed. */
function ask(
  pass: Pass,
  policy: RateLimitPolicy,
  cost: number,
): RateLimitDecision | StoreFailure | Promise<RateLimitDecision | StoreFailure> {
  let answer: RateLimitDecision | Promise<RateLimitDecision>;
  try {
    answer = pass.store.acquire(pass.partition, policy, new AcquireRequest(pass.ctx, cost));
  } catch (error) {
    return new StoreFailure(error);
  }
  return isThenable(answer) ? Promise.resolve(answer).then(checkedDecision, storeFailure) : checkedDecision(answer);
}

function logOf(ctx: ExecutionContext): RateLimitLog | undefined {
  return ctx.services.tryGet(RateLimitLogToken);
}

/** How long the store took, for the observers (0 when no application observer measures). */
const durationOf = (attempt: Attempt): number => (attempt.started === 0 ? 0 : performance.now() - attempt.started);

/**
 * Calls an observer through the guard without waiting for it: what it throws, and what the promise of an async
 * observer rejects with, is logged and never passed on (a rejection left unhandled would end the process).
 */
function tell(ctx: ExecutionContext, hook: UserHook<unknown, undefined>, call: () => unknown, policy: RateLimitPolicy): void {
  void callUserCode(ctx.services, hook, call, policy.key);
}

/**
 * The store could not decide: 503 with the status and retry time of a `RateLimitStoreUnavailableError` (by its
 * code, so a copy of the class from another package version counts), or 503 and 1 s for any other error;
 * reported to the observer and the log.
 */
function storeFailed(attempt: Attempt, error: unknown): void {
  const { ctx, observer, partition } = attempt.pass;
  const typed =
    (error as { code?: unknown } | null)?.code === STORE_UNAVAILABLE_CODE ? (error as RateLimitStoreUnavailableError) : undefined;
  const status = typed && Number.isInteger(typed.status) && typed.status >= 500 && typed.status <= 599 ? typed.status : 503;
  const retryAfter = typed && Number.isFinite(typed.retryAfter) && typed.retryAfter >= 1 ? Math.ceil(typed.retryAfter) : 1;
  const detail = 'The rate limiter could not reach its store; try again shortly.';
  ctx.refuse(failure('TRELLIS_RATE_LIMIT_UNAVAILABLE', detail, { reason: (error as Error)?.name ?? 'Error', retryAfter }, status), {
    'retry-after': String(retryAfter),
  });
  // The client went away while the store was asked: its own signal aborted the wait. Nothing failed, so
  // nothing is logged or reported as a store error (and no response will be written).
  if ((error as { name?: unknown } | null)?.name === 'AbortError' && ctx.signal.aborted) return;
  const event = { ctx, policy: attempt.policy, partition, cost: attempt.cost, error, durationMs: durationOf(attempt) };
  logOf(ctx)?.storeFailed(event);
  if (observer?.storeFailed !== undefined) tell(ctx, OBSERVED.storeFailed, () => observer.storeFailed!(event), attempt.policy);
}

/** A partitioner, cost function or policy resolver that broke (the guard has logged it): 500 naming the limit. */
function limitBroken(ctx: ExecutionContext, policy: RateLimitPolicy, what: string): void {
  const detail = `The rate limit "${policy.name}" could not be applied to this request: its ${what} did not give a usable answer.`;
  ctx.refuse(failure('TRELLIS_RATE_LIMIT_BROKEN', detail, { limit: policy.name }));
}

/**
 * Tells the observers what a decision means: the rate-limit log (framework code, called directly) and the
 * application's observer (through the guard) hear the same events, a refusal or fail-open; the application's
 * observer also every decision.
 */
function report(attempt: Attempt, decision: RateLimitDecision): void {
  const { ctx, observer, partition } = attempt.pass;
  const kind = decision.failedOpen !== undefined ? 'failedOpen' : decision.allowed ? undefined : 'refused';
  if (kind === undefined && observer?.decided === undefined) return;
  const { policy } = attempt;
  const event = { ctx, policy, partition, cost: attempt.cost, decision, durationMs: durationOf(attempt) };
  if (kind !== undefined) logOf(ctx)?.[kind](event);
  if (observer === undefined) return;
  if (observer.decided !== undefined) tell(ctx, OBSERVED.decided, () => observer.decided!(event), policy);
  if (kind === 'refused' && observer.refused !== undefined) tell(ctx, OBSERVED.refused, () => observer.refused!(event), policy);
  if (kind === 'failedOpen' && observer.failedOpen !== undefined) tell(ctx, OBSERVED.failedOpen, () => observer.failedOpen!(event), policy);
}

/** Counter `i` of the pass and those after it; past the last, the headers report across the counters. */
function counterAt(pass: Pass, i: number): void | Promise<void> {
  const counter = pass.plan.counters[i];
  if (counter === undefined) return writeHeaders(pass.ctx.responseHeaders, pass.outcomes, pass.configuration.headerFormats);
  const attempt = new Attempt(pass, i, counter);
  const { ctx, resolver } = pass;
  if (resolver === undefined) return priced(attempt);
  const base = counter.policy;
  return after(
    callUserCode(ctx.services, RESOLVE, () => resolver.resolve(ctx, base), base.key),
    resolved,
    attempt,
  );
}

/** The resolver's numbers for the counter (undefined: the annotation's). */
function resolved(attempt: Attempt, answer: RateLimitPolicyNumbers | undefined | typeof USER_CODE_FAILED): void | Promise<void> {
  const base = attempt.counter.policy;
  if (answer === USER_CODE_FAILED) return limitBroken(attempt.pass.ctx, base, 'RateLimitPolicyResolver');
  attempt.policy = answer === undefined ? base : policyWith(base, answer);
  return priced(attempt);
}

/** The request's cost on the counter: the annotation's number, or its cost function's answer. */
function priced(attempt: Attempt): void | Promise<void> {
  const cost = attempt.counter.cost;
  if (typeof cost === 'number') return costed(attempt, cost);
  const { ctx } = attempt.pass;
  const policy = attempt.policy;
  return after(
    callUserCode(ctx.services, COST, () => cost(ctx, policy), policy.key),
    costed,
    attempt,
  );
}

/** A caller blocked on this limit is refused before its counter is asked. */
function costed(attempt: Attempt, cost: number | typeof USER_CODE_FAILED): void | Promise<void> {
  const { pass, counter } = attempt;
  if (cost === USER_CODE_FAILED) return limitBroken(pass.ctx, attempt.policy, 'cost function');
  attempt.cost = cost;
  if (pass.observer !== undefined) attempt.started = performance.now();
  if (counter.block === undefined) return spend(attempt);
  return after(ask(pass, counter.block, 2), unblocked, attempt);
}

function unblocked(attempt: Attempt, blocked: RateLimitDecision | StoreFailure): void | Promise<void> {
  if (blocked instanceof StoreFailure) return storeFailed(attempt, blocked.error);
  if (blocked.allowed || blocked.remaining !== 0) return spend(attempt);
  const { reset } = blocked;
  return decided(attempt, { allowed: false, limit: attempt.policy.permitLimit, remaining: 0, reset, retryAfter: reset }, true);
}

/**
 * Asks the store for the request's permits. A counter that counts by outcome is only read now, as
 * `readRateLimitCounter` reads it; the request is counted after the handler.
 */
function spend(attempt: Attempt): void | Promise<void> {
  const { policy, cost } = attempt;
  return after(ask(attempt.pass, policy, attempt.counter.countOnly === undefined ? cost : readCost(policy)), spent, attempt);
}

function spent(attempt: Attempt, answer: RateLimitDecision | StoreFailure): void | Promise<void> {
  if (answer instanceof StoreFailure) return storeFailed(attempt, answer.error);
  const { policy, cost, counter } = attempt;
  const countOnly = counter.countOnly;
  let decision = answer;
  if (countOnly !== undefined && decision.failedOpen === undefined) {
    const { limit, remaining, reset } = counterState(decision);
    const allowed = remaining >= cost;
    decision = { allowed, limit, remaining, reset, retryAfter: allowed ? 0 : Math.max(1, reset) };
    if (allowed) deferCount(attempt.pass, policy, cost, countOnly);
  }
  if (decision.allowed || counter.block === undefined) return decided(attempt, decision, false);
  // Overrun: the caller is now blocked for the block's length (its one permit is taken).
  attempt.decision = decision;
  return after(ask(attempt.pass, counter.block, 1), blockRecorded, attempt);
}

function blockRecorded(attempt: Attempt, recorded: RateLimitDecision | StoreFailure): void | Promise<void> {
  const { policy, counter } = attempt;
  const decision = attempt.decision!;
  if (recorded instanceof StoreFailure) {
    logOf(attempt.pass.ctx)?.failed(`Rate limit "${policy.name}" on ${policy.handler}: the block could not be recorded`, recorded.error);
    return decided(attempt, decision, false);
  }
  const wait = Math.max(decision.retryAfter, Math.ceil(counter.block!.windowSeconds));
  return decided(attempt, { ...decision, reset: Math.max(decision.reset, wait), retryAfter: wait }, false);
}

/** Reports the counter's decision; a refusal ends the pass, an admission goes on to the next counter. */
function decided(attempt: Attempt, decision: RateLimitDecision, blocked: boolean): void | Promise<void> {
  const { pass, policy, cost } = attempt;
  report(attempt, decision);
  pass.outcomes.push({ policy, decision });
  if (!decision.allowed) return refuse(pass.ctx, pass.configuration, { policy, cost, decision, blocked }, pass.outcomes);
  return counterAt(pass, attempt.i + 1);
}

interface DeferredCount {
  readonly partition: string;
  readonly policy: RateLimitPolicy;
  readonly cost: number;
  readonly countOnly: 'failures' | 'successes';
  readonly store: RateLimitStore;
}

function deferCount(pass: Pass, policy: RateLimitPolicy, cost: number, countOnly: DeferredCount['countOnly']): void {
  const { ctx } = pass;
  const entry: DeferredCount = { partition: pass.partition, policy, cost, countOnly, store: pass.store };
  const list = ctx.items.get(DEFERRED) as DeferredCount[] | undefined;
  if (list) list.push(entry);
  else ctx.items.set(DEFERRED, [entry]);
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

/** The counters this request is not left out of (`RateLimitConfiguration.skip`). */
function withoutSkipped(ctx: ExecutionContext, plan: ScopePlan, configuration: RateLimitConfiguration): ScopePlan {
  const skip = configuration.skip;
  if (skip === undefined) return plan;
  const kept = plan.counters.filter((c) => !callUserCodeSync(ctx.services, SKIP, () => skip(ctx, c.policy), c.policy.key));
  return kept.length === plan.counters.length ? plan : planWith(kept, plan.shared);
}

/** One request at one scope: the store, the configuration and the partition, then the counters. */
function limit(ctx: ExecutionContext, routePlan: ScopePlan): void | Promise<void> {
  // Resolved per request: a store registered (or replaced) for this request's scope is the one used.
  const store = ctx.services.tryGet(RateLimitStore);
  if (!store) return;
  const configuration = ctx.services.tryGet(RateLimitConfiguration) ?? fallbackConfiguration;
  const plan = withoutSkipped(ctx, routePlan, configuration);
  if (plan.counters.length === 0) return;
  const partitioner = ctx.services.tryGet(RateLimitPartitioner) ?? fallbackPartitioner;
  const pass = new Pass(ctx, plan, store, configuration);
  return after(
    callUserCode(ctx.services, PARTITION, () => partitioner.partition(ctx), ctx.route.id),
    partitioned,
    pass,
  );
}

function partitioned(pass: Pass, partition: string | typeof USER_CODE_FAILED): void | Promise<void> {
  const { ctx, plan } = pass;
  if (partition === USER_CODE_FAILED) return limitBroken(ctx, plan.counters[0]!.policy, 'RateLimitPartitioner');
  pass.partition = partition;
  if (plan.shared) {
    // The headers report across both scopes: the second scope's pass adds to the first's outcomes.
    pass.outcomes = (ctx.items.get(OUTCOMES) as Outcome[] | undefined) ?? pass.outcomes;
    ctx.items.set(OUTCOMES, pass.outcomes);
  }
  pass.observer = ctx.services.tryGet(RateLimitObserver);
  pass.resolver = ctx.services.tryGet(RateLimitPolicyResolver);
  return counterAt(pass, 0);
}

function rateLimitFilter(name: string, order: number, kinds: RateLimitKinds, scope: RateLimitScope): Filter {
  return {
    name,
    order,
    forRoute(route: RouteInfo) {
      const plan = planFor(route, kinds, scope);
      if (plan.counters.length === 0) return undefined;
      if (!plan.deferred) {
        return (ctx: ExecutionContext, next: Next) => {
          const pending = limit(ctx, plan);
          return pending ? pending.then(next) : next();
        };
      }
      return (ctx: ExecutionContext, next: Next) => {
        const pending = limit(ctx, plan);
        return (pending ? pending.then(next) : next()).then(() => countOutcome(ctx));
      };
    },
  };
}

/**
 * The two rate-limit filters for the values of the `RateLimit` kind (less those `SkipRateLimit` names): transport
 * scope (before authentication, reads no body) and principal scope (after authentication, before grant authorization).
 */
export function rateLimitFilters(kinds: RateLimitKinds): readonly [Filter, Filter] {
  return [
    rateLimitFilter('rate-limit:transport', FilterOrder.RateLimitTransport, kinds, RateLimitScope.Transport),
    rateLimitFilter('rate-limit:principal', FilterOrder.RateLimitPrincipal, kinds, RateLimitScope.Principal),
  ];
}
