import type { ExecutionContext, Filter, RouteInfo } from '../index.js';
import { FilterOrder, problem } from '../index.js';
import { RateLimitConfiguration } from './configuration.js';
import { retryAfterSeconds, writeHeaders } from './headers.js';
import type { Outcome } from './headers.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { policiesFor } from './policies.js';
import { RateLimitScope, RateLimitStore } from './types.js';

/** Outcomes of both scopes for one request, so the headers report across all counters. */
const OUTCOMES = Symbol('trellis.ratelimit.outcomes');
const fallbackPartitioner = new DefaultRateLimitPartitioner();
const fallbackConfiguration = new RateLimitConfiguration();

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

async function limit(ctx: ExecutionContext, scope: RateLimitScope): Promise<void> {
  // Resolved per request: a store registered (or replaced) for this request's scope is the one used.
  const store = ctx.services.tryGet(RateLimitStore);
  if (!store) return;
  const partitioner = ctx.services.tryGet(RateLimitPartitioner) ?? fallbackPartitioner;
  const configuration = ctx.services.tryGet(RateLimitConfiguration) ?? fallbackConfiguration;
  const answer = partitioner.partition(ctx);
  const partition = typeof answer === 'string' ? answer : await answer;
  if (typeof partition !== 'string') throw new TypeError('A RateLimitPartitioner must return a string partition key.');
  const outcomes = (ctx.items.get(OUTCOMES) as Outcome[] | undefined) ?? [];
  ctx.items.set(OUTCOMES, outcomes);
  // The in-process store answers without waiting, so it gets no signal (making one costs every request).
  const signal = store instanceof InProcessRateLimitStore ? undefined : ctx.signal;
  for (const policy of policiesFor(ctx.route, scope)) {
    let decision;
    try {
      decision = await store.acquire(partition, policy, signal);
    } catch (error) {
      ctx.refuse(503, problem(503, 'The rate limiter could not reach its store; try again shortly.', { reason: (error as Error)?.name ?? 'Error' }), { 'retry-after': '1' });
      return;
    }
    outcomes.push({ policy, decision });
    if (!decision.allowed) {
      const retryAfter = retryAfterSeconds(decision);
      const detail =
        `The rate limit "${policy.name}" of ${plural(policy.permitLimit, 'request')} per ${plural(policy.windowSeconds, 'second')} ` +
        `was reached; retry after ${plural(retryAfter, 'second')}.`;
      ctx.refuse(429, problem(429, detail, { limit: policy.name, retryAfter }), { 'retry-after': String(retryAfter) });
      writeHeaders(ctx.refusal!.headers, outcomes, configuration.structuredHeaders);
      return;
    }
  }
  writeHeaders(ctx.responseHeaders, outcomes, configuration.structuredHeaders);
}

function rateLimitFilter(name: string, order: number, scope: RateLimitScope): Filter {
  return {
    name,
    order,
    appliesTo: (route: RouteInfo) => policiesFor(route, scope).length > 0,
    async run(ctx, next) {
      await limit(ctx, scope);
      await next();
    },
  };
}

/** Transport scope: before authentication, reads no body. */
export const transportRateLimitFilter = rateLimitFilter('rate-limit:transport', FilterOrder.RateLimitTransport, RateLimitScope.Transport);
/** Principal scope: after authentication, before grant authorization. */
export const principalRateLimitFilter = rateLimitFilter('rate-limit:principal', FilterOrder.RateLimitPrincipal, RateLimitScope.Principal);
