import { performance } from 'node:perf_hooks';
import type { ExecutionContext, Filter, ProblemDetails, RouteInfo } from '../index.js';
import { FilterOrder, failure, problem, isThenable } from '../index.js';
import { RateLimitConfiguration, type RateLimitRefusal, type RateLimitRefusalEvent, type RateLimitSkip } from './configuration.js';
import { retryAfterSeconds, writeHeaders, writeSingle } from './headers.js';
import type { Outcome } from './headers.js';
import { RateLimitObserver } from './observer.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { keepCounters, planFor } from './policies.js';
import type { RateLimitKinds, ScopePlan } from './policies.js';
import { RateLimitPolicyResolver, policyWith, shortly } from './policy-resolver.js';
import type { RateLimitPolicyNumbers } from './policy-resolver.js';
import { RateLimitLogToken } from './rate-limit-log.js';
import type { RateLimitLog } from './rate-limit-log.js';
import { STORE_UNAVAILABLE_CODE } from './store-unavailable-error.js';
import type { RateLimitStoreUnavailableError } from './store-unavailable-error.js';
import { RateLimitScope, RateLimitStore } from './types.js';
import type { AcquireOptions, RateLimitDecision, RateLimitPolicy } from './types.js';

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
  ctx.refuse(status, failure('TRELLIS_RATE_LIMIT_UNAVAILABLE', detail, { reason: (error as Error)?.name ?? 'Error', retryAfter }, status), {
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
    tell(ctx, () => observer.storeFailed!(event));
  }
}

/**
 * A cost function or policy resolver that broke: 500 naming the limit, and an error in the log. `unusable`
 * is set when it answered (and the answer was checked here); otherwise it threw or rejected with `error`.
 */
function limitBroken(ctx: ExecutionContext, policy: RateLimitPolicy, what: string, error: unknown, unusable = false): void {
  const reason = unusable ? (error as Error).message : `${what} failed: ${error instanceof Error ? error.message : shortly(error)}`;
  logOf(ctx)?.failed(`Rate limit "${policy.name}" on ${policy.handler}: ${reason}`, error);
  const detail = `The rate limit "${policy.name}" could not be applied to this request: its ${what} did not give a usable answer.`;
  ctx.refuse(500, failure('TRELLIS_RATE_LIMIT_BROKEN', detail, { limit: policy.name }));
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
  if (observer.decided !== undefined) tell(ctx, () => observer.decided!(event));
  if (failedOpen !== undefined) {
    if (observer.failedOpen !== undefined) tell(ctx, () => observer.failedOpen!(event));
  } else if (!decision.allowed && observer.refused !== undefined) {
    tell(ctx, () => observer.refused!(event));
  }
}

/** The default 429 problem: which limit, how long to wait, and the cost when it was more than one permit. */
function refusalProblem(policy: RateLimitPolicy, cost: number, retryAfter: number, blocked: boolean): ProblemDetails {
  if (blocked) {
    const detail = `The rate limit "${policy.name}" was overrun: this caller is refused on it for ${plural(retryAfter, 'more second')}.`;
    return failure('TRELLIS_RATE_LIMITED', detail, { limit: policy.name, retryAfter, blocked: true });
  }
  const limit = `The rate limit "${policy.name}" of ${plural(policy.permitLimit, cost === 1 ? 'request' : 'permit')} per ${plural(policy.windowSeconds, 'second')}`;
  const detail =
    cost > policy.permitLimit
      ? `This request needs ${plural(cost, 'permit')}: more than ${limit.charAt(0).toLowerCase()}${limit.slice(1)} allows at all.`
      : cost === 1
        ? `${limit} was reached; retry after ${plural(retryAfter, 'second')}.`
        : `${limit} has fewer than the ${cost} this request needs left; retry after ${plural(retryAfter, 'second')}.`;
  return failure(
    'TRELLIS_RATE_LIMITED',
    detail,
    cost === 1 ? { limit: policy.name, retryAfter } : { limit: policy.name, retryAfter, cost },
  );
}

/** The configuration's refusal hook's answer, checked; undefined (and a log line) when it broke. */
function customRefusal(
  ctx: ExecutionContext,
  configuration: RateLimitConfiguration,
  event: RateLimitRefusalEvent,
): RateLimitRefusal | undefined {
  // Typed, but a JavaScript hook may answer anything: every field is checked below.
  let answer: RateLimitRefusal | null | undefined;
  try {
    answer = configuration.refusal!(event);
  } catch (error) {
    logOf(ctx)?.failed(
      `The rate-limit refusal hook failed for "${event.policy.name}" on ${event.policy.handler}; the default 429 was sent`,
      error,
    );
    return undefined;
  }
  if (answer === undefined) return undefined;
  const a = answer;
  const usable =
    a !== null &&
    typeof a === 'object' &&
    (a.status === undefined || (Number.isInteger(a.status) && a.status >= 400 && a.status <= 599)) &&
    (a.problem === undefined || (typeof a.problem === 'object' && a.problem !== null)) &&
    (a.headers === undefined ||
      (typeof a.headers === 'object' && a.headers !== null && Object.values(a.headers).every((v) => typeof v === 'string')));
  if (usable) return a;
  logOf(ctx)?.failed(
    `The rate-limit refusal hook answered ${shortly(answer)} for "${event.policy.name}" on ${event.policy.handler}: not { status? (400-599), problem?, headers? }; the default 429 was sent`,
    new TypeError('unusable refusal'),
  );
  return undefined;
}

/** Records a refusal with its 429 (or what the refusal hook says) and headers. */
function refuse(
  ctx: ExecutionContext,
  configuration: RateLimitConfiguration,
  acquired: Acquired,
  decision: RateLimitDecision,
  outcomes: readonly Outcome[],
  blocked = false,
): void {
  const { policy, cost } = acquired;
  const retryAfter = retryAfterSeconds(decision);
  const standard = refusalProblem(policy, cost, retryAfter, blocked);
  const custom =
    configuration.refusal === undefined
      ? undefined
      : customRefusal(ctx, configuration, { ctx, policy, decision, cost, retryAfter, problem: standard });
  if (custom === undefined) {
    ctx.refuse(429, standard, { 'retry-after': String(retryAfter) });
    writeHeaders(ctx.refusal!.headers, outcomes, configuration.headerFormats);
    return;
  }
  const status = custom.status ?? 429;
  const body: ProblemDetails = { ...standard, ...custom.problem, status };
  if (custom.problem?.title === undefined && status !== 429) body.title = problem(status).title;
  ctx.refuse(status, body, { 'retry-after': String(retryAfter) });
  const headers = ctx.refusal!.headers;
  writeHeaders(headers, outcomes, configuration.headerFormats);
  for (const [name, value] of Object.entries(custom.headers ?? {})) headers.set(name.toLowerCase(), value);
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
  decideOne(pass, acquired, answer);
}

function decideOne(pass: Pass, acquired: Acquired, decision: RateLimitDecision): void {
  if (badDecision(decision)) return storeFailed(pass, acquired, notADecision(decision));
  const { ctx, configuration } = pass;
  if (decision.allowed) {
    if (decision.failedOpen !== undefined) report(pass, acquired, decision);
    writeSingle(ctx.responseHeaders, acquired.policy, decision, configuration.headerFormats);
    return;
  }
  report(pass, acquired, decision);
  refuse(ctx, configuration, acquired, decision, [{ policy: acquired.policy, decision }]);
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
      let numbers: RateLimitPolicyNumbers | undefined;
      try {
        numbers = await resolver.resolve(ctx, base);
      } catch (error) {
        return limitBroken(ctx, base, 'RateLimitPolicyResolver', error);
      }
      try {
        policy = policyWith(base, numbers);
      } catch (error) {
        return limitBroken(ctx, base, 'RateLimitPolicyResolver', error, true);
      }
    }
    const costOf = plan.costs[i]!;
    let cost: unknown = costOf;
    if (typeof costOf === 'function') {
      try {
        cost = await costOf(ctx, policy);
      } catch (error) {
        return limitBroken(ctx, policy, 'cost function', error);
      }
      if (typeof cost !== 'number' || !Number.isSafeInteger(cost) || cost < 1) {
        const error = new TypeError(
          `The cost function of the rate limit "${policy.name}" must return a whole number of permits >= 1; it returned ${shortly(cost)}.`,
        );
        return limitBroken(ctx, policy, 'cost function', error, true);
      }
    }
    const acquired: Acquired = { policy, cost: cost as number, started: observer === undefined ? 0 : performance.now() };
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
        return refuse(ctx, pass.configuration, acquired, decision, outcomes, true);
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
    if (!decision.allowed) return refuse(ctx, pass.configuration, acquired, decision, outcomes);
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
  partition: unknown,
  configuration: RateLimitConfiguration,
): void | Promise<void> {
  if (typeof partition !== 'string') throw new TypeError('A RateLimitPartitioner must return a string partition key.');
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
  const answer = partitioner.partition(ctx);
  if (typeof answer === 'string') return acquireAll(ctx, plan, store, answer, configuration);
  return Promise.resolve(answer).then((partition) => acquireAll(ctx, plan, store, partition, configuration));
}

/** The counters this request is not left out of. */
function withoutSkipped(ctx: ExecutionContext, plan: ScopePlan, skip: RateLimitSkip): ScopePlan {
  const kept: number[] = [];
  for (let i = 0; i < plan.policies.length; i++) if (skip(ctx, plan.policies[i]!) !== true) kept.push(i);
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
