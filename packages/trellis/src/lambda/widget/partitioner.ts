// Rate-limit partitions for widget events, which carry no caller identity: by account, dashboard or widget.
import type { ExecutionContext } from '../../index.js';
import { isThenable } from '../../index.js';
import { USER_CODE_FAILED, callUserCode, failedMarker, type UserHook } from '../../pipeline/index.js';
import { DefaultRateLimitPartitioner, RateLimitConfiguration, type RateLimitPartitioner } from '../../ratelimit/index.js';
import type { WidgetContext } from '../../widgets/index.js';
import { widgetInvocation } from './request.js';
import { usageError } from '../../errors/index.js';

/** What widget events share an allowance by. */
export type WidgetPartitionBy =
  'account' | 'dashboard' | 'widget' | ((context: WidgetContext, ctx: ExecutionContext) => string | PromiseLike<string>);

export interface WidgetRateLimitPartitionerOptions {
  /**
   * `account`: every dashboard of one AWS account shares; `dashboard`: each dashboard (default); `widget`:
   * each widget of each dashboard; or a function of the `widgetContext` returning a key (or a promise of one).
   * A function that throws, rejects or answers anything but a string is logged, and the request is
   * partitioned by dashboard.
   */
  readonly by?: WidgetPartitionBy;
  /** For requests that are not widget events (HTTP); default the default partitioner. */
  readonly fallback?: RateLimitPartitioner;
}

const BY = ['account', 'dashboard', 'widget'];

const BY_FUNCTION: UserHook<string, typeof USER_CODE_FAILED> = {
  where: 'WidgetRateLimitPartitionerOptions.by',
  instead: 'the request was partitioned by dashboard',
  accept: (answer) => {
    if (typeof answer !== 'string') throw new TypeError('it must answer a string key');
    return answer;
  },
  fallback: failedMarker,
};

function byDashboard(context: WidgetContext): string {
  return `widget-dashboard:${JSON.stringify([String(context.accountId ?? ''), String(context.dashboardName ?? '')])}`;
}

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
      throw usageError(
        'TRELLIS_INVALID_LAMBDA_OPTIONS',
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
    if (typeof by === 'function') {
      const key = callUserCode(ctx.services, BY_FUNCTION, () => by(context, ctx), ctx.route.id);
      const keyed = (k: string | typeof USER_CODE_FAILED) => (k === USER_CODE_FAILED ? byDashboard(context) : `widget-key:${k}`);
      return isThenable(key) ? key.then(keyed) : keyed(key);
    }
    const account = String(context.accountId ?? '');
    if (by === 'account') return `widget-account:${JSON.stringify([account])}`;
    if (by === 'dashboard') return byDashboard(context);
    return `widget:${JSON.stringify([account, String(context.dashboardName ?? ''), String(context.widgetId ?? '')])}`;
  }
}
