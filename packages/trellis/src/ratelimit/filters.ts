import { performance } from 'node:perf_hooks';
import type { ExecutionContext, Filter, RouteInfo } from '../index.js';
import { FilterOrder, problem } from '../index.js';
import { RateLimitConfiguration, type RateLimitSkip } from './configuration.js';
import { retryAfterSeconds, writeHeaders, writeSingle } from './headers.js';
import type { Outcome } from './headers.js';
import { RateLimitObserver } from './observer.js';
import { isThenable } from './thenable.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { planFor } from './policies.js';
import type { RateLimitKinds, ScopePlan } from './policies.js';
import { RateLimitPolicyResolver, policyWith, shortly } from './policy-resolver.js';
import type { RateLimitPolicyNumbers } from './policy-resolver.js';
import { RateLimitLogToken } from './rate-limit-log.js';
import type { RateLimitLog } from './rate-limit-log.js';
import { STORE_UNAVAILABLE_CODE } from './store-unavailable-error.js';
import type { RateLimitStoreUnavailableError } from './store-unavailable-error.js';
import { RateLimitScope, RateLimitStore } from './types.js';
import type { AcquireOptions, RateLimitCostFunction, RateLimitDecision, RateLimitPolicy } from './types.js';

/** Outcomes of both scopes for one request, so the headers report across all counters. */
const OUTCOMES = Symbol('trellis.ratelimit.outcomes');
const fallbackPartitioner = new DefaultRateLimitPartitioner();
const fallbackConfiguration = new RateLimitConfiguration();

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * What a store is told besides the partition and the policy. The request's abort signal is made only when a
 * store reads it (one that waits on I/O): a store that answers at once costs no AbortController.
 */
export class AcquireRequest implements AcquireOptions {
  readonly #ctx: ExecutionContext;
  readonly cost: number;

  constructor(ctx: ExecutionContext, cost: number) {
    this.#ctx = ctx;
    this.cost = cost;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }
}

/** Everything one request's pass through one scope needs, once it takes more than the one-counter path. */
interface Run {
  readonly ctx: ExecutionContext;
  readonly plan: ScopePlan;
  readonly store: RateLimitStore;
  readonly partition: string;
  readonly structured: boolean;
  readonly observer: RateLimitObserver | undefined;
  readonly resolver: RateLimitPolicyResolver | undefined;
  readonly outcomes: Outcome[];
}

function logOf(ctx: ExecutionContext): RateLimitLog | undefined {
  return ctx.services.tryGet(RateLimitLogToken);
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

/** The store threw, rejected or answered nonsense: 503, reported to the observer and the log. */
function storeFailed(
  ctx: ExecutionContext,
  observer: RateLimitObserver | undefined,
  policy: RateLimitPolicy,
  partition: string,
  cost: number,
  error: unknown,
  started: number,
): false {
  refuseUnavailable(ctx, error);
  // The client went away while the store was asked: its own signal aborted the wait. Nothing failed, so
  // nothing is logged or reported as a store error (and no response will be written).
  if ((error as { name?: unknown } | null)?.name === 'AbortError' && ctx.signal.aborted) return false;
  const log = logOf(ctx);
  log?.storeFailed(policy, partition, error);
  if (observer?.storeFailed !== undefined) {
    const event = { ctx, policy, partition, cost, error, durationMs: performance.now() - started };
    tell(ctx, () => observer.storeFailed!(event));
  }
  return false;
}

/**
 * A cost function or policy resolver that broke: 500 naming the limit, and an error in the log. `unusable`
 * is set when it answered (and the answer was checked here); otherwise it threw or rejected with `error`.
 */
function limitBroken(ctx: ExecutionContext, policy: RateLimitPolicy, what: string, error: unknown, unusable = false): false {
  const reason = unusable ? (error as Error).message : `${what} failed: ${error instanceof Error ? error.message : shortly(error)}`;
  logOf(ctx)?.failed(`Rate limit "${policy.name}" on ${policy.handler}: ${reason}`, error);
  const detail = `The rate limit "${policy.name}" could not be applied to this request: its ${what} did not give a usable answer.`;
  ctx.refuse(500, problem(500, detail, { limit: policy.name }));
  return false;
}

/**
 * Calls an observer without waiting for it: what it throws, and what the promise of an async observer rejects
 * with, is logged and never passed on (a rejection left unhandled would end the process).
 */
function tell(ctx: ExecutionContext, call: () => unknown): void {
  try {
    const result = call();
    if (isThenable(result)) result.then(undefined, (error: unknown) => observerFailed(ctx, error));
  } catch (error) {
    observerFailed(ctx, error);
  }
}

function observerFailed(ctx: ExecutionContext, error: unknown): void {
  logOf(ctx)?.failed('A RateLimitObserver failed; the request went on', error);
}

/** Tells the observer and the log what a decision means: every decision, and a refusal or fail-open. */
function report(
  ctx: ExecutionContext,
  observer: RateLimitObserver | undefined,
  policy: RateLimitPolicy,
  partition: string,
  cost: number,
  decision: RateLimitDecision,
  started: number,
): void {
  const failedOpen = decision.failedOpen;
  if (observer === undefined && decision.allowed && failedOpen === undefined) return;
  const log = failedOpen !== undefined || !decision.allowed ? logOf(ctx) : undefined;
  if (failedOpen !== undefined) log?.failedOpen(policy, partition, failedOpen.error);
  else if (!decision.allowed) log?.refused(policy, partition, retryAfterSeconds(decision));
  if (observer === undefined) return;
  const event = { ctx, policy, partition, cost, decision, durationMs: performance.now() - started };
  if (observer.decided !== undefined) tell(ctx, () => observer.decided!(event));
  if (failedOpen !== undefined) {
    if (observer.failedOpen !== undefined) tell(ctx, () => observer.failedOpen!(event));
  } else if (!decision.allowed && observer.refused !== undefined) {
    tell(ctx, () => observer.refused!(event));
  }
}

/** Records a refusal with its 429 and headers. */
function refuse(ctx: ExecutionContext, policy: RateLimitPolicy, cost: number, decision: RateLimitDecision, outcomes: Outcome[], structured: boolean): false {
  const retryAfter = retryAfterSeconds(decision);
  const limit = `The rate limit "${policy.name}" of ${plural(policy.permitLimit, cost === 1 ? 'request' : 'permit')} per ${plural(policy.windowSeconds, 'second')}`;
  const detail =
    cost > policy.permitLimit
      ? `This request needs ${plural(cost, 'permit')}: more than ${limit.charAt(0).toLowerCase()}${limit.slice(1)} allows at all.`
      : cost === 1
        ? `${limit} was reached; retry after ${plural(retryAfter, 'second')}.`
        : `${limit} has fewer than the ${cost} this request needs left; retry after ${plural(retryAfter, 'second')}.`;
  ctx.refuse(429, problem(429, detail, cost === 1 ? { limit: policy.name, retryAfter } : { limit: policy.name, retryAfter, cost }), { 'retry-after': String(retryAfter) });
  writeHeaders(ctx.refusal!.headers, outcomes, structured);
  return false;
}

/** A store's answer is a decision object; anything else is the store failing. */
function badDecision(decision: unknown): boolean {
  return decision === null || typeof decision !== 'object' || typeof (decision as RateLimitDecision).allowed !== 'boolean';
}

/** The one-counter path: one limit at this scope, cost 1, no resolver, no observer. No promise unless the store makes one. */
function acquireOne(ctx: ExecutionContext, store: RateLimitStore, partition: string, policy: RateLimitPolicy, structured: boolean): void | Promise<void> {
  let answer: RateLimitDecision | Promise<RateLimitDecision>;
  try {
    answer = store.acquire(partition, policy, new AcquireRequest(ctx, 1));
  } catch (error) {
    storeFailed(ctx, undefined, policy, partition, 1, error, 0);
    return;
  }
  if (isThenable(answer)) {
    return Promise.resolve(answer).then(
      (decision) => decideOne(ctx, policy, partition, decision, structured),
      (error: unknown) => void storeFailed(ctx, undefined, policy, partition, 1, error, 0),
    );
  }
  decideOne(ctx, policy, partition, answer, structured);
}

function decideOne(ctx: ExecutionContext, policy: RateLimitPolicy, partition: string, decision: RateLimitDecision, structured: boolean): void {
  if (badDecision(decision)) {
    storeFailed(ctx, undefined, policy, partition, 1, new TypeError(`The RateLimitStore answered ${shortly(decision)}, not a decision`), 0);
    return;
  }
  if (decision.allowed) {
    if (decision.failedOpen !== undefined) report(ctx, undefined, policy, partition, 1, decision, 0);
    writeSingle(ctx.responseHeaders, policy, decision, structured);
    return;
  }
  report(ctx, undefined, policy, partition, 1, decision, 0);
  refuse(ctx, policy, 1, decision, [{ policy, decision }], structured);
}

/** Counters `from` onwards; synchronous while everything answers at once. */
function runFrom(run: Run, from: number): void | Promise<void> {
  const n = run.plan.policies.length;
  for (let i = from; i < n; i++) {
    const step = resolveAt(run, i);
    if (step === true) continue;
    if (step === false) return;
    const next = i + 1;
    return step.then((go) => (go ? runFrom(run, next) : undefined));
  }
  writeHeaders(run.ctx.responseHeaders, run.outcomes, run.structured);
}

/** Counter `i`: its numbers (the resolver's or the annotation's), its cost, the store's answer. True to go on. */
function resolveAt(run: Run, i: number): boolean | Promise<boolean> {
  const base = run.plan.policies[i]!;
  const resolver = run.resolver;
  if (resolver === undefined) return costAt(run, i, base);
  let answer: ReturnType<RateLimitPolicyResolver['resolve']>;
  try {
    answer = resolver.resolve(run.ctx, base);
  } catch (error) {
    return limitBroken(run.ctx, base, 'RateLimitPolicyResolver', error);
  }
  if (isThenable(answer)) {
    return Promise.resolve(answer).then(
      (numbers) => withNumbers(run, i, base, numbers),
      (error: unknown) => limitBroken(run.ctx, base, 'RateLimitPolicyResolver', error),
    );
  }
  return withNumbers(run, i, base, answer);
}

function withNumbers(run: Run, i: number, base: RateLimitPolicy, numbers: RateLimitPolicyNumbers | undefined): boolean | Promise<boolean> {
  let policy: RateLimitPolicy;
  try {
    policy = policyWith(base, numbers);
  } catch (error) {
    return limitBroken(run.ctx, base, 'RateLimitPolicyResolver', error, true);
  }
  return costAt(run, i, policy);
}

function costAt(run: Run, i: number, policy: RateLimitPolicy): boolean | Promise<boolean> {
  const cost = run.plan.costs[i]!;
  if (typeof cost === 'number') return acquireAt(run, policy, cost);
  let answer: ReturnType<RateLimitCostFunction>;
  try {
    answer = cost(run.ctx, policy);
  } catch (error) {
    return limitBroken(run.ctx, policy, 'cost function', error);
  }
  if (isThenable(answer)) {
    return Promise.resolve(answer).then(
      (value) => checkedCost(run, policy, value),
      (error: unknown) => limitBroken(run.ctx, policy, 'cost function', error),
    );
  }
  return checkedCost(run, policy, answer);
}

function checkedCost(run: Run, policy: RateLimitPolicy, cost: unknown): boolean | Promise<boolean> {
  if (typeof cost !== 'number' || !Number.isSafeInteger(cost) || cost < 1) {
    const error = new TypeError(`The cost function of the rate limit "${policy.name}" must return a whole number of permits >= 1; it returned ${shortly(cost)}.`);
    return limitBroken(run.ctx, policy, 'cost function', error, true);
  }
  return acquireAt(run, policy, cost);
}

function acquireAt(run: Run, policy: RateLimitPolicy, cost: number): boolean | Promise<boolean> {
  const { ctx, observer, partition } = run;
  const started = observer === undefined ? 0 : performance.now();
  let answer: RateLimitDecision | Promise<RateLimitDecision>;
  try {
    answer = run.store.acquire(partition, policy, new AcquireRequest(ctx, cost));
  } catch (error) {
    return storeFailed(ctx, observer, policy, partition, cost, error, started);
  }
  if (isThenable(answer)) {
    return Promise.resolve(answer).then(
      (decision) => decided(run, policy, cost, decision, started),
      (error: unknown) => storeFailed(ctx, observer, policy, partition, cost, error, started),
    );
  }
  return decided(run, policy, cost, answer, started);
}

function decided(run: Run, policy: RateLimitPolicy, cost: number, decision: RateLimitDecision, started: number): boolean {
  const { ctx, observer, partition } = run;
  if (badDecision(decision)) {
    return storeFailed(ctx, observer, policy, partition, cost, new TypeError(`The RateLimitStore answered ${shortly(decision)}, not a decision`), started);
  }
  report(ctx, observer, policy, partition, cost, decision, started);
  run.outcomes.push({ policy, decision });
  if (decision.allowed) return true;
  return refuse(ctx, policy, cost, decision, run.outcomes, run.structured);
}

function acquireAll(ctx: ExecutionContext, plan: ScopePlan, store: RateLimitStore, partition: unknown, structured: boolean): void | Promise<void> {
  if (typeof partition !== 'string') throw new TypeError('A RateLimitPartitioner must return a string partition key.');
  const resolver = ctx.services.tryGet(RateLimitPolicyResolver);
  const observer = ctx.services.tryGet(RateLimitObserver);
  const { policies, shared } = plan;
  if (policies.length === 1 && !shared && plan.unitCost && resolver === undefined && observer === undefined) {
    // The common case — one counter, one scope, cost 1: no outcome list, and no promise unless the store makes one.
    return acquireOne(ctx, store, partition, policies[0]!, structured);
  }
  // Headers report across both scopes: the outcomes are shared only when the handler has limits at both.
  const outcomes = (shared ? (ctx.items.get(OUTCOMES) as Outcome[] | undefined) : undefined) ?? [];
  if (shared) ctx.items.set(OUTCOMES, outcomes);
  return runFrom({ ctx, plan, store, partition, structured, observer, resolver, outcomes }, 0);
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
  const kept: number[] = [];
  for (let i = 0; i < plan.policies.length; i++) if (skip(ctx, plan.policies[i]!) !== true) kept.push(i);
  if (kept.length === plan.policies.length) return plan;
  const costs = kept.map((i) => plan.costs[i]!);
  return { policies: kept.map((i) => plan.policies[i]!), costs, unitCost: costs.every((c) => c === 1), shared: plan.shared };
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
