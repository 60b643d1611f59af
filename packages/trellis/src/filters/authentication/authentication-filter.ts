import type { ExecutionContext, Filter } from '../../pipeline/index.js';
import { FilterOrder, failure } from '../../pipeline/index.js';
import { Authenticator } from '../../pipeline/index.js';
import type { AuthenticationResult } from '../../pipeline/index.js';

type Result = AuthenticationResult | Promise<AuthenticationResult>;

function apply(ctx: ExecutionContext, authenticator: Authenticator, result: AuthenticationResult): boolean {
  if (result.kind === 'none') return false;
  if (result.kind === 'success') ctx.principal = result.principal;
  else
    ctx.refuse(401, failure('TRELLIS_INVALID_CREDENTIALS', result.detail), {
      'www-authenticate': `${authenticator.scheme} error="invalid_token"`,
    });
  return true;
}

async function finish(
  ctx: ExecutionContext,
  authenticators: Authenticator[],
  index: number,
  pending: Promise<AuthenticationResult>,
): Promise<void> {
  if (apply(ctx, authenticators[index]!, await pending)) return;
  for (let i = index + 1; i < authenticators.length; i++) {
    if (apply(ctx, authenticators[i]!, await authenticators[i]!.authenticate(ctx))) return;
  }
}

/**
 * Runs the registered authenticators in order: the first that recognises credentials sets `ctx.principal`
 * or records 401; none means anonymous. Authenticators that answer at once cost no extra ticks.
 */
export const authenticationFilter: Filter = {
  name: 'authentication',
  order: FilterOrder.Authentication,
  run(ctx, next) {
    const authenticators = ctx.services.getAll(Authenticator);
    for (let i = 0; i < authenticators.length; i++) {
      const result: Result = authenticators[i]!.authenticate(ctx);
      if (typeof (result as unknown as PromiseLike<unknown>).then === 'function') {
        return finish(ctx, authenticators, i, Promise.resolve(result)).then(next);
      }
      if (apply(ctx, authenticators[i]!, result as AuthenticationResult)) break;
    }
    return next();
  },
};
