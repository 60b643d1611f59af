import type { Filter } from '../../pipeline/index.js';
import { FilterOrder, problem } from '../../pipeline/index.js';
import { Authenticator } from './authenticator.js';

/** Runs the registered authenticators: sets `ctx.principal`, records 401 on bad credentials. */
export const authenticationFilter: Filter = {
  name: 'authentication',
  order: FilterOrder.Authentication,
  async run(ctx, next) {
    for (const authenticator of ctx.services.getAll(Authenticator)) {
      const result = await authenticator.authenticate(ctx);
      if (result.kind === 'none') continue;
      if (result.kind === 'success') ctx.principal = result.principal;
      else {
        ctx.refuse(401, problem(401, result.detail), { 'www-authenticate': `${authenticator.scheme} error="invalid_token"` });
      }
      break;
    }
    await next();
  },
};
