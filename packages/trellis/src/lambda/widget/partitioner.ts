// Rate-limit partitions for widget events, which carry no caller identity: by account, dashboard or widget.
import type { ExecutionContext } from '../../index.js';
import { DefaultRateLimitPartitioner, RateLimitConfiguration, type RateLimitPartitioner } from '../../ratelimit/index.js';
import type { WidgetContext } from '../../widgets/index.js';
import { widgetInvocation } from './request.js';

/** What widget events share an allowance by. */
export type WidgetPartitionBy = 'account' | 'dashboard' | 'widget' | ((context: WidgetContext, ctx: ExecutionContext) => string);

export interface WidgetRateLimitPartitionerOptions {
  /**
   * `account`: every dashboard of one AWS account shares; `dashboard`: each dashboard (default); `widget`:
   * each widget of each dashboard; or a function of the `widgetContext` returning a key.
   */
  readonly by?: WidgetPartitionBy;
  /** For requests that are not widget events (HTTP); default the default partitioner. */
  readonly fallback?: RateLimitPartitioner;
}

const BY = ['account', 'dashboard', 'widget'];

/**
 * A rate-limit partitioner for widget routes. A widget event names no caller, only where it is shown, so
 * widget events share allowances by the account, dashboard or widget they come from (the keys are
 * namespaced, so they never meet a subject, a header value or the anonymous bucket). An authenticated
 * principal still partitions by subject, and other requests go to the fallback.
 *
 * @example
 * app.services.addValue(RateLimitPartitioner, new WidgetRateLimitPartitioner({ by: 'dashboard' }), { type: RegistrationType.Replace });
 */
export class WidgetRateLimitPartitioner implements RateLimitPartitioner {
  readonly #by: WidgetPartitionBy;
  readonly #fallback: RateLimitPartitioner | undefined;

  constructor(options: WidgetRateLimitPartitionerOptions = {}) {
    const by = options.by ?? 'dashboard';
    if (typeof by !== 'function' && !BY.includes(by)) {
      throw new TypeError(
        `WidgetRateLimitPartitioner: "by" must be ${BY.map((b) => `"${b}"`).join(', ')} or a function, got ${JSON.stringify(by)}.`,
      );
    }
    this.#by = by;
    this.#fallback = options.fallback;
  }

  partition(ctx: ExecutionContext): string | Promise<string> {
    const context = widgetInvocation(ctx)?.widgetContext;
    if (!context || ctx.principal) {
      const fallback = this.#fallback ?? new DefaultRateLimitPartitioner(ctx.services.tryGet(RateLimitConfiguration));
      return fallback.partition(ctx);
    }
    const by = this.#by;
    if (typeof by === 'function') return `widget-key:${by(context, ctx)}`;
    const account = String(context.accountId ?? '');
    if (by === 'account') return `widget-account:${JSON.stringify([account])}`;
    if (by === 'dashboard') return `widget-dashboard:${JSON.stringify([account, String(context.dashboardName ?? '')])}`;
    return `widget:${JSON.stringify([account, String(context.dashboardName ?? ''), String(context.widgetId ?? '')])}`;
  }
}
