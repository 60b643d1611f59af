import { randomUUID } from 'node:crypto';
import type { InvokeError, InvokeOptions, InvokeOutcome } from './types.js';

/** What an invocation ended with: a value, or Lambda's error. */
export type Settled = { ok: true; value: unknown } | { ok: false; error: InvokeError };

/**
 * The start every function target shares: refuse an already aborted call, give it a request id, and stamp
 * its outcome with the time it took.
 */
export class InvocationStart {
  readonly awsRequestId: string = randomUUID();
  readonly #started = performance.now();

  constructor(options: InvokeOptions) {
    options.signal?.throwIfAborted();
  }

  /** The outcome, with the time since the start; `awsRequestId` when the function reported its own. */
  outcome(settled: Settled, logs = '', awsRequestId = this.awsRequestId): InvokeOutcome {
    const durationMs = performance.now() - this.#started;
    return settled.ok
      ? { ok: true, value: settled.value, logs, durationMs, awsRequestId }
      : { ok: false, error: settled.error, logs, durationMs, awsRequestId };
  }
}

/** `promise`, or a rejection with the signal's reason as soon as `signal` aborts. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
