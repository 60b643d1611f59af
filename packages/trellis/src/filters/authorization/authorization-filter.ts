import { AllowAnonymousKind, AuthorizeKind } from '../../annotations/index.js';
import type { Filter } from '../../pipeline/index.js';
import { FilterOrder, problem } from '../../pipeline/index.js';

/**
 * Checks the handler's required grants: anonymous → 401, a missing grant → 403. The runner skips it for a
 * request already decided, so it never overwrites a recorded refusal.
 */
export const authorizationFilter: Filter = {
  name: 'authorization',
  order: FilterOrder.Authorization,
  appliesTo: (route) =>
    route.annotations.some((a) => a.kind === AuthorizeKind) && !route.annotations.some((a) => a.kind === AllowAnonymousKind),
  async run(ctx, next) {
    const required = ctx.annotations(AuthorizeKind).flat();
    const principal = ctx.principal;
    if (principal === null) {
      ctx.refuse(401, problem(401, 'This endpoint needs an authenticated caller.'), { 'www-authenticate': 'Bearer' });
    } else {
      const missing = required.filter((g) => !principal.grants.has(g));
      if (missing.length > 0) {
        ctx.refuse(403, problem(403, `The caller lacks the grant${missing.length > 1 ? 's' : ''} ${missing.map((g) => `"${g}"`).join(', ')}.`, { missingGrants: missing }));
      }
    }
    await next();
  },
};
