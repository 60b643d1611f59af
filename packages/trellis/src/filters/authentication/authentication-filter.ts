import type { ExecutionContext, Filter, UserHook } from '../../pipeline/index.js';
import { FilterOrder, USER_CODE_FAILED, callUserCode, failedMarker, failure, isThenable } from '../../pipeline/index.js';
import { Authenticator } from '../../pipeline/index.js';
import type { AuthenticationResult } from '../../pipeline/index.js';

type Answer = AuthenticationResult | typeof USER_CODE_FAILED;

/** An authenticator's answer, checked: `{ kind: 'none' }`, a success with a principal that has a subject, or a failure with a detail. */
function authenticationResult(answer: unknown): AuthenticationResult {
  const a = answer as Partial<{ kind: unknown; principal: { subject?: unknown } | null; detail: unknown }> | null;
  if (a !== null && typeof a === 'object') {
    if (a.kind === 'none') return answer as AuthenticationResult;
    if (a.kind === 'success' && typeof a.principal?.subject === 'string') return answer as AuthenticationResult;
    if (a.kind === 'failure' && typeof a.detail === 'string') return answer as AuthenticationResult;
  }
  throw new TypeError(
    "it must answer { kind: 'none' }, { kind: 'success', principal: { subject, grants } } or { kind: 'failure', detail }",
  );
}

const AUTHENTICATE: UserHook<AuthenticationResult, typeof USER_CODE_FAILED> = {
  where: 'Authenticator.authenticate',
  instead: 'the request was answered 500 (TRELLIS_AUTHENTICATION_BROKEN)',
  accept: authenticationResult,
  fallback: failedMarker,
};

/** Asks one authenticator, through the guard: its result, or USER_CODE_FAILED (logged) when it broke. */
function ask(ctx: ExecutionContext, authenticator: Authenticator): Answer | Promise<Answer> {
  return callUserCode(ctx.services, AUTHENTICATE, () => authenticator.authenticate(ctx), ctx.route.id);
}

/** Records what one answer decides; true when it decided (a principal, a 401, or a 500 for a broken authenticator). */
function apply(ctx: ExecutionContext, authenticator: Authenticator, result: Answer): boolean {
  if (result === USER_CODE_FAILED) {
    const detail = 'The request could not be authenticated: an authenticator failed.';
    ctx.refuse(failure('TRELLIS_AUTHENTICATION_BROKEN', detail));
    return true;
  }
  if (result.kind === 'none') return false;
  if (result.kind === 'success') ctx.principal = result.principal;
  else
    ctx.refuse(failure('TRELLIS_INVALID_CREDENTIALS', result.detail), {
      'www-authenticate': `${authenticator.scheme} error="invalid_token"`,
    });
  return true;
}

async function finish(ctx: ExecutionContext, authenticators: Authenticator[], index: number, pending: Promise<Answer>): Promise<void> {
  if (apply(ctx, authenticators[index]!, await pending)) return;
  for (let i = index + 1; i < authenticators.length; i++) {
    if (apply(ctx, authenticators[i]!, await ask(ctx, authenticators[i]!))) return;
  }
}

/**
 * Runs the registered authenticators in order: the first that recognises credentials sets `ctx.principal`
 * or records 401; none means anonymous. One that throws, rejects or answers something else is logged and
 * the request is answered 500 — never taken as anonymous. Authenticators that answer at once cost no extra ticks.
 */
export const authenticationFilter: Filter = {
  name: 'authentication',
  order: FilterOrder.Authentication,
  run(ctx, next) {
    const authenticators = ctx.services.getAll(Authenticator);
    for (let i = 0; i < authenticators.length; i++) {
      const result = ask(ctx, authenticators[i]!);
      if (isThenable(result)) return finish(ctx, authenticators, i, result).then(next);
      if (apply(ctx, authenticators[i]!, result)) break;
    }
    return next();
  },
};
