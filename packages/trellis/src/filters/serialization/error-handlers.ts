import type { ExecutionContext } from '../../pipeline/index.js';

/**
 * Maps an error a handler threw to a response: return what a handler would return (a value, `reply(…)`, or a
 * promise of one, which is waited for), or throw an `HttpError` for a problem response. One that throws anything
 * else, rejects, or answers what cannot be sent (a BigInt, a cycle) is logged once, naming it, and the usual 500
 * problem goes out.
 */
export type ErrorHandler<E = unknown> = (error: E, ctx: ExecutionContext) => unknown;

/** A class of errors, matched with `instanceof` (subclasses included). */
export type ErrorClass<E> = abstract new (...args: any[]) => E;

/** One `app.onError` registration: the errors it takes (all when `type` is undefined) and its handler. */
export interface ErrorMapping {
  readonly type: ErrorClass<unknown> | undefined;
  readonly handle: ErrorHandler<any>;
}

/** The first registration that takes `error`, in the order they were made. */
export function findErrorHandler(mappings: readonly ErrorMapping[], error: unknown): ErrorHandler<unknown> | undefined {
  for (const m of mappings) if (m.type === undefined || error instanceof m.type) return m.handle;
  return undefined;
}
