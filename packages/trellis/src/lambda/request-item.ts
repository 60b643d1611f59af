import type { ExecutionContext } from '../index.js';

/**
 * A typed key for what a Lambda door knows about the event behind a request. The door puts the value in the
 * request's `items` (`entry()`, for `IncomingRequest.items`); handlers, filters and partitioners read it back
 * with `of(ctx)`. Only a door sets it: no header, query or body value of the request reaches `items`.
 *
 * @example
 * const invocationItem = new RequestItem<LambdaInvocation>('trellis.lambda.invocation');
 * app.respond({ ...request, items: new Map([invocationItem.entry(invocation)]) });
 * invocationItem.of(ctx)?.requestId;
 */
export class RequestItem<T> {
  readonly #key: symbol;

  constructor(description: string) {
    this.#key = Symbol(description);
  }

  /** The `items` entry that hands `value` to the pipeline. */
  entry(value: T): [symbol, T] {
    return [this.#key, value];
  }

  /** The value the door handed over with this request, or undefined when it came through another door. */
  of(ctx: ExecutionContext): T | undefined {
    return ctx.items.get(this.#key) as T | undefined;
  }
}
