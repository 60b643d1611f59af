import type { ExecutionContext, ProblemDetails } from '../index.js';
import { failure, problem } from '../index.js';
import { callUserCode, type UserHook } from '../pipeline/index.js';
import type { RateLimitConfiguration, RateLimitRefusal } from './configuration.js';
import { retryAfterSeconds, writeHeaders } from './headers.js';
import type { Outcome } from './headers.js';
import type { RateLimitDecision, RateLimitPolicy } from './types.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
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

/** A refusal hook's answer, checked: undefined, or `{ status? (400-599), problem?, headers? }` (a JavaScript hook may answer anything). */
function usableRefusal(answer: unknown): RateLimitRefusal | undefined {
  if (answer === undefined) return undefined;
  if (answer === null || typeof answer !== 'object') throw new TypeError('it must answer undefined or { status?, problem?, headers? }');
  const a: RateLimitRefusal = answer;
  const usable =
    (a.status === undefined || (Number.isInteger(a.status) && a.status >= 400 && a.status <= 599)) &&
    (a.problem === undefined || (typeof a.problem === 'object' && a.problem !== null)) &&
    (a.headers === undefined ||
      (typeof a.headers === 'object' && a.headers !== null && Object.values(a.headers).every((v) => typeof v === 'string')));
  if (!usable) throw new TypeError('its status must be 400-599, its problem an object and its headers strings');
  return a;
}

const REFUSAL: UserHook<RateLimitRefusal | undefined, undefined> = {
  where: 'RateLimitConfiguration.refusal',
  instead: 'the default 429 was sent',
  accept: usableRefusal,
  fallback: () => undefined,
};

/** What one refusal is about: the counter that refused, the request's cost, the store's decision. */
export interface RefusedOn {
  readonly policy: RateLimitPolicy;
  readonly cost: number;
  readonly decision: RateLimitDecision;
  /** The caller is blocked on the limit (`blockSeconds`). */
  readonly blocked?: boolean;
}

/**
 * Records a refusal with its 429 — or what the configuration's refusal hook answers, waited for when it
 * answers with a promise — and the headers of `outcomes`.
 */
export function refuse(
  ctx: ExecutionContext,
  configuration: RateLimitConfiguration,
  refused: RefusedOn,
  outcomes: readonly Outcome[],
): void | Promise<void> {
  const { policy, cost, decision } = refused;
  const retryAfter = retryAfterSeconds(decision);
  const standard = refusalProblem(policy, cost, retryAfter, refused.blocked === true);
  const hook = configuration.refusal;
  if (hook === undefined) return record(ctx, configuration, standard, retryAfter, outcomes, undefined);
  const event = { ctx, policy, decision, cost, retryAfter, problem: standard };
  const custom = callUserCode(ctx.services, REFUSAL, () => hook(event), policy.key);
  if (custom instanceof Promise) return custom.then((answer) => record(ctx, configuration, standard, retryAfter, outcomes, answer));
  record(ctx, configuration, standard, retryAfter, outcomes, custom);
}

function record(
  ctx: ExecutionContext,
  configuration: RateLimitConfiguration,
  standard: ProblemDetails,
  retryAfter: number,
  outcomes: readonly Outcome[],
  custom: RateLimitRefusal | undefined,
): void {
  let body = standard;
  if (custom !== undefined) {
    const status = custom.status ?? 429;
    body = { ...standard, ...custom.problem, status };
    if (custom.problem?.title === undefined && status !== 429) body.title = problem(status).title;
  }
  ctx.refuse(body, { 'retry-after': String(retryAfter) });
  const headers = ctx.refusal!.headers;
  writeHeaders(headers, outcomes, configuration.headerFormats);
  if (custom?.headers !== undefined) for (const [name, value] of Object.entries(custom.headers)) headers.set(name.toLowerCase(), value);
}
