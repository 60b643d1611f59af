import { AllowAnonymousKind, AuthorizeKind } from '../../annotations/index.js';
import type { ExecutionContext, Filter, Next } from '../../pipeline/index.js';
import { Authenticator, FilterOrder, failure } from '../../pipeline/index.js';

/**
 * Checks the handler's required grants: anonymous → 401, a missing grant → 403. The runner skips it for a
 * request already decided, so it never overwrites a recorded refusal.
 */
export const authorizationFilter: Filter = {
  name: 'authorization',
  order: FilterOrder.Authorization,
  forRoute(route) {
    const annotations = route.annotations;
    if (!annotations.some((a) => a.kind === AuthorizeKind) || annotations.some((a) => a.kind === AllowAnonymousKind)) return undefined;
    const required = annotations.filter((a) => a.kind === AuthorizeKind).flatMap((a) => a.value as readonly string[]);
    return (ctx, next) => authorize(ctx, next, required);
  },
};

/** Refuses a caller without a principal (401) or without one of the grants the route requires (403). */
function authorize(ctx: ExecutionContext, next: Next, required: readonly string[]): Promise<void> {
  const principal = ctx.principal;
  if (principal === null) {
    // The challenge names the schemes the app registered; with none, no scheme can be named.
    const schemes = ctx.services.getAll(Authenticator).map((a) => a.scheme);
    ctx.refuse(
      failure('TRELLIS_UNAUTHENTICATED', 'This endpoint needs an authenticated caller.'),
      schemes.length > 0 ? { 'www-authenticate': [...new Set(schemes)].join(', ') } : {},
    );
  } else {
    const missing = required.filter((g) => !principal.grants.has(g));
    if (missing.length > 0) {
      ctx.refuse(
        failure(
          'TRELLIS_MISSING_GRANT',
          `The caller lacks the grant${missing.length > 1 ? 's' : ''} ${missing.map((g) => `"${g}"`).join(', ')}.`,
          { missingGrants: missing },
        ),
      );
    }
  }
  return next();
}
