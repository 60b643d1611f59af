import type { ExecutionContext, RouteInfo } from './context.js';

export type Next = () => Promise<void>;

/**
 * One stage of the pipeline. Filters run sorted by `order`; each calls `next()` exactly once, also after
 * recording a refusal.
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
  /** Whether the filter applies to a route at all; asked once per route when the app is built. */
  appliesTo?(route: RouteInfo): boolean;
  run(ctx: ExecutionContext, next: Next): Promise<void> | void;
}
