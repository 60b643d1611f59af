import type { ExecutionContext, RouteInfo } from './context.js';

export type Next = () => Promise<void>;

/** What a filter does on one request. */
export type FilterRun = (ctx: ExecutionContext, next: Next) => Promise<void> | void;

/**
 * One stage of the pipeline. Filters run sorted by `order`; each calls `next()` exactly once, also after
 * recording a refusal. A filter has `run`, which runs on every route, or `forRoute`, which says once per route
 * what runs there.
 *
 * @example
 * app.filter({ name: 'request-id', order: 50, observesDecided: true, run(ctx, next) {
 *   ctx.responseHeaders.set('x-request-id', crypto.randomUUID());
 *   return next();
 * } });
 */
export interface Filter {
  readonly name: string;
  readonly order: number;
  /**
   * When true the filter also runs for decided requests (to observe them); otherwise the runner skips it
   * once a refusal is recorded or a response produced.
   */
  readonly observesDecided?: boolean;
  /** What the filter does on every route's requests (unless it has `forRoute`). */
  run?(ctx: ExecutionContext, next: Next): Promise<void> | void;
  /**
   * Asked once per route when the app is built, before its first request: what the filter does on that route's
   * requests — a function made for the route, with what it needs of the route's annotations read once — or
   * undefined when the filter does not apply to the route.
   *
   * @example
   * forRoute(route) {
   *   const tenant = route.annotations.find((a) => a.kind === TenantKind)?.value;
   *   return tenant === undefined ? undefined : (ctx, next) => { ctx.items.set('tenant', tenant); return next(); };
   * }
   */
  forRoute?(route: RouteInfo): FilterRun | undefined;
}
