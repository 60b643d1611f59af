import type { ExecutionContext, ServiceResolver } from '../index.js';
import type { AcquireOptions } from './types.js';

/**
 * What a store is told besides the partition and the policy. The request's abort signal is made only when a
 * store reads it (one that waits on I/O): a store that answers at once costs no AbortController.
 */
export class AcquireRequest implements AcquireOptions {
  readonly #ctx: ExecutionContext;
  readonly cost: number;

  constructor(ctx: ExecutionContext, cost: number) {
    this.#ctx = ctx;
    this.cost = cost;
  }

  get signal(): AbortSignal {
    return this.#ctx.signal;
  }

  /** The app's services, where a hook the store calls writes its failure. */
  get services(): ServiceResolver {
    return this.#ctx.services;
  }
}

/** The app's services behind an acquire the rate-limit filters made; undefined when someone else called the store. */
export function servicesOf(options: AcquireOptions | undefined): ServiceResolver | undefined {
  return options instanceof AcquireRequest ? options.services : undefined;
}
