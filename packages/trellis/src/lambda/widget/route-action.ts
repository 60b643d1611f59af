// `<cwdb-action action="call">` back into the same function, on another route.
import type { ExecutionContext } from '../../index.js';
import { callAction, type CallActionOptions, type SafeHtml } from '../../widgets/index.js';
import { DEFAULT_ROUTE_PARAM } from './params.js';
import { widgetInvocation } from './request.js';
import { usageError } from '../../errors/index.js';

export interface RouteActionOptions extends Omit<CallActionOptions, 'endpoint' | 'params'> {
  /** The function to call; default the one answering this event (its ARN from the Lambda context). */
  readonly endpoint?: string;
}

/**
 * A call action that runs `path` of this same widget function with `params`: the endpoint is the invoked
 * function's own ARN (as the console needs it) and the route parameter is set for you. Place it right after
 * the element that triggers it.
 *
 * @example
 * html`<button>Next page</button>${routeAction(ctx, '/orders', { page: 2 })}`;
 * html`<a>Details</a>${routeAction(ctx, '/service', { name }, { display: 'popup' })}`;
 */
export function routeAction(
  ctx: ExecutionContext,
  path: string,
  params: Record<string, unknown> = {},
  options: RouteActionOptions = {},
): SafeHtml {
  if (typeof path !== 'string' || !path.startsWith('/'))
    throw usageError('TRELLIS_INVALID_LAMBDA_OPTIONS', `routeAction takes a path starting with "/", got ${JSON.stringify(path)}.`);
  const invocation = widgetInvocation(ctx);
  const endpoint = options.endpoint ?? invocation?.lambdaContext?.invokedFunctionArn;
  if (!endpoint) {
    throw usageError(
      'TRELLIS_INVALID_LAMBDA_OPTIONS',
      `routeAction(ctx, ${JSON.stringify(path)}) needs the function's ARN: call it while answering a widget event with a Lambda context, or pass { endpoint }.`,
    );
  }
  const routeParam = invocation?.routeParam ?? DEFAULT_ROUTE_PARAM;
  return callAction({ ...options, endpoint, params: { ...params, [routeParam]: path } });
}
