/** A promise, or anything else that `await` would wait on: a store or user function may answer either way. */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
