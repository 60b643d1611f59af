// An orders API for API Gateway: API-key authentication, grants, a per-caller rate limit, a cached public
// route, and the Lambda invocation's facts read in a handler. The same app runs under listen(), inject()
// and the Lambda handler in handler.ts.
import {
  ApiKeyAuthenticator,
  Authenticator,
  Authorize,
  Cache,
  Get,
  HttpError,
  Post,
  RegistrationType,
  createApp,
  reply,
  type App,
  type ApiKeyIdentity,
  type ExecutionContext,
} from 'trellis';
import { RateLimit, RateLimitStore } from 'trellis/ratelimit';
import { lambdaInvocation } from 'trellis/lambda';

interface Order {
  readonly id: string;
  readonly item: string;
  readonly quantity: number;
  readonly owner: string;
}

@RateLimit({ name: 'per-caller', permitLimit: 20, windowSeconds: 60, scope: 'principal' })
class Orders {
  readonly #orders = new Map<string, Order>();

  @Get('/health')
  @Cache({ seconds: 30, shared: true })
  health() {
    return { status: 'ok' };
  }

  @Get('/whoami')
  @Authorize()
  whoami(ctx: ExecutionContext) {
    const invocation = lambdaInvocation(ctx);
    return {
      subject: ctx.principal!.subject,
      sourceIp: ctx.request.remoteAddress ?? null,
      requestId: invocation?.requestId ?? null,
      stage: invocation?.stage ?? null,
    };
  }

  @Get('/orders')
  @Authorize('orders:read')
  list(ctx: ExecutionContext) {
    return [...this.#orders.values()].filter((o) => o.owner === ctx.principal!.subject);
  }

  @Get('/orders/:id')
  @Authorize('orders:read')
  show(ctx: ExecutionContext) {
    const order = this.#orders.get(ctx.params.id!);
    if (!order || order.owner !== ctx.principal!.subject) throw new HttpError(404, `No order ${ctx.params.id}.`);
    return order;
  }

  @Post('/orders')
  @Authorize('orders:write')
  create(ctx: ExecutionContext) {
    const body = ctx.body as { item?: unknown; quantity?: unknown } | undefined;
    if (typeof body?.item !== 'string' || body.item === '' || !Number.isInteger(body.quantity) || (body.quantity as number) < 1) {
      throw new HttpError(400, 'Send { "item": a non-empty string, "quantity": a whole number ≥ 1 }.');
    }
    const order: Order = {
      id: String(this.#orders.size + 1),
      item: body.item,
      quantity: body.quantity as number,
      owner: ctx.principal!.subject,
    };
    this.#orders.set(order.id, order);
    return reply(order, { status: 201, headers: { location: `/orders/${order.id}` } });
  }
}

export interface OrdersAppOptions {
  /** API key → caller; in Lambda, read from the environment (see handler.ts). */
  readonly apiKeys: Readonly<Record<string, ApiKeyIdentity>>;
  /** Where rate-limit counts live; default the in-process store (one count per execution environment). */
  readonly store?: RateLimitStore;
}

/** Builds the orders app. */
export function createOrdersApp(options: OrdersAppOptions): App {
  const app = createApp();
  app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: options.apiKeys }));
  if (options.store) app.services.addValue(RateLimitStore, options.store, { type: RegistrationType.Replace });
  app.controller(Orders);
  return app;
}
