/**
 * A JavaScript function run in the harness's own process (the TypeScript driver's functions). The event and
 * the result make a JSON round trip, as they would through Lambda, so a function cannot share objects with
 * the harness. Console calls made during the invocation (in its async context) are kept as its `logs`.
 */
import { captureConsole } from './console-capture.js';
import { MAX_RESPONSE_BYTES, responseTooLarge } from './payload-limit.js';
import { abortable, InvocationStart, type Settled } from './invocation-start.js';
import { identityFor, newLogStreamName, timeoutError, toInvokeError, type FunctionIdentity } from './lambda-context.js';
import type { FunctionTarget, InProcessHandler, InvokeOptions, InvokeOutcome, LambdaContext } from './types.js';

function jsonValue(value: unknown): Settled {
  try {
    const text = JSON.stringify(value);
    if (text !== undefined && text.length > MAX_RESPONSE_BYTES / 3) {
      const bytes = Buffer.byteLength(text);
      if (bytes > MAX_RESPONSE_BYTES) return { ok: false, error: responseTooLarge(bytes) };
    }
    return { ok: true, value: text === undefined ? null : JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      error: { type: 'Runtime.MarshalError', message: `Unable to stringify response body: ${(error as Error).message}` },
    };
  }
}

/**
 * Runs an in-process handler with a Lambda-like context. Promise results, callbacks (and `context.done`,
 * `succeed`, `fail`) and plain return values are all accepted; a handler that returns `undefined` and
 * declares a callback parameter is waited for until it calls back or times out.
 *
 * @example
 * const target = new InProcessTarget('hello', (event) => `<p>${event.name}</p>`, 1);
 * await target.invoke({ name: 'Ada' }); // { ok: true, value: '<p>Ada</p>', ... }
 */
export class InProcessTarget implements FunctionTarget {
  private readonly identity: FunctionIdentity;
  private readonly logStreamName = newLogStreamName();

  constructor(
    key: string,
    private readonly handler: InProcessHandler,
    timeoutSeconds?: number,
    memoryMB?: number,
  ) {
    this.identity = identityFor(key, timeoutSeconds, memoryMB);
  }

  get name(): string {
    return this.identity.name;
  }

  async invoke(event: unknown, options: InvokeOptions = {}): Promise<InvokeOutcome> {
    const start = new InvocationStart(options);
    const awsRequestId = start.awsRequestId;
    const timeoutMs = this.identity.timeoutSeconds * 1000;
    const deadline = Date.now() + timeoutMs;
    const input = jsonValue(event);
    let captured: (() => string) | undefined;
    let timer: NodeJS.Timeout | undefined;
    const running = new Promise<Settled>((finish) => {
      timer = setTimeout(() => finish({ ok: false, error: timeoutError(this.identity.timeoutSeconds) }), timeoutMs);
      if (!input.ok) return finish(input);
      const callback = (err?: unknown, result?: unknown): void => {
        finish(err === undefined || err === null ? jsonValue(result) : { ok: false, error: toInvokeError(err) });
      };
      const context: LambdaContext = {
        functionName: this.identity.name,
        functionVersion: this.identity.version,
        invokedFunctionArn: options.invokedFunctionArn ?? this.identity.arn,
        memoryLimitInMB: String(this.identity.memoryMB),
        awsRequestId,
        logGroupName: this.identity.logGroupName,
        logStreamName: this.logStreamName,
        callbackWaitsForEmptyEventLoop: true,
        getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
        done: callback,
        succeed: (result) => callback(null, result),
        fail: (err) => callback(err ?? 'handled'),
      };
      // A synchronous throw is caught inside the capture so what the handler printed before it is kept.
      const run = captureConsole(awsRequestId, (): { result: unknown } | { thrown: unknown } => {
        try {
          return { result: this.handler(input.value, context, callback) };
        } catch (thrown) {
          return { thrown };
        }
      });
      captured = run.logs;
      if ('thrown' in run.result) return callback(run.result.thrown);
      const result = run.result.result;
      if (result instanceof Object && typeof (result as PromiseLike<unknown>).then === 'function') {
        (result as PromiseLike<unknown>).then(
          (v) => callback(null, v),
          (e) => callback(e ?? 'undefined'),
        );
      } else if (result !== undefined || this.handler.length < 3) {
        callback(null, result);
      }
    });
    const settled = await abortable(running, options.signal).finally(() => clearTimeout(timer));
    return start.outcome(settled, captured?.() ?? '');
  }

  async close(): Promise<void> {}
}
