/**
 * The shapes shared by every kind of function target: what an invocation returns, how a function is
 * configured, and the Lambda-like context a handler receives.
 */

/**
 * Why an invocation failed. `type` is the Lambda `errorType` (`Error`, `TypeError`, `string` for a thrown
 * string, `Runtime.ImportModuleError`, …) or one of the harness's own: `Sandbox.Timedout`,
 * `Runtime.ExitError` (the process died), `FunctionNotFound`, `TargetUnreachable`.
 *
 * @example
 * const err: InvokeError = { type: 'Sandbox.Timedout', message: 'Task timed out after 0.30 seconds' };
 */
export interface InvokeError {
  type: string;
  message: string;
  trace?: string[];
}

/**
 * The result of one invocation. `ok` is false exactly when `error` is set; `value` is the function's return
 * value after a JSON round trip (`null` for `undefined`), as the Lambda Invoke API would return it.
 *
 * @example
 * const outcome = await registry.invoke('greeter', { name: 'Ada' });
 * if (outcome.ok) console.log(outcome.value); else console.log(outcome.error?.type);
 */
export interface InvokeOutcome {
  ok: boolean;
  value?: unknown;
  error?: InvokeError;
  /** What the function printed during this invocation (console, stdout, stderr), in Lambda's log format. */
  logs: string;
  durationMs: number;
  awsRequestId: string;
}

/** Options for one invocation. */
export interface InvokeOptions {
  /** Abandons the invocation: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** The ARN the caller used (with its qualifier); defaults to the function's unqualified ARN. */
  invokedFunctionArn?: string;
}

/**
 * Something that runs one configured function.
 *
 * @example
 * const target = registry.resolve('greeter');
 * if ('invoke' in target) await target.invoke({});
 */
export interface FunctionTarget {
  readonly name: string;
  invoke(event: unknown, options?: InvokeOptions): Promise<InvokeOutcome>;
  close(): Promise<void>;
}

import type { LambdaContext } from '../../widgets/index.js';

/** The context object a Node.js Lambda handler receives: the authoring toolkit's type. */
export type { LambdaContext };

/**
 * A JavaScript function run in the harness's own process. It may return a value, a promise, or call the
 * callback.
 *
 * @example
 * const hello: InProcessHandler = async (event) => `<h1>Hello ${event.name}</h1>`;
 */
export type InProcessHandler = (
  event: any,
  context: LambdaContext,
  callback: (err?: unknown, result?: unknown) => void,
) => unknown;

/**
 * How one function is run. Exactly one of `handler` and `invokeUrl` is given.
 *
 * @example
 * const spec: FunctionSpec = { handler: 'widgets/greeter.handler', timeoutSeconds: 10, environment: { STAGE: 'test' } };
 */
export interface FunctionSpec {
  /** `path/file.handler` (relative to the functions file, or absolute) or an in-process function. */
  handler?: string | InProcessHandler;
  runtime?: 'nodejs' | 'python';
  /** Base URL of a Lambda Invoke API (`sam local start-lambda`, LocalStack, …). */
  invokeUrl?: string;
  /** Default 30, like Lambda. */
  timeoutSeconds?: number;
  /** Default 128; reported to the function, not enforced. */
  memoryMB?: number;
  environment?: Record<string, string>;
  /** Limit for starting a process and loading the module (Lambda's init phase); default 10. */
  initTimeoutSeconds?: number;
}

/**
 * The whole functions configuration: the functions by name or full ARN, an optional Invoke API base URL for
 * every endpoint not listed, and the folder relative handler paths resolve against.
 *
 * @example
 * const config: FunctionsConfig = { functions: { greeter: { handler: () => '<p>hi</p>' } } };
 */
export interface FunctionsConfig {
  functions: Record<string, FunctionSpec>;
  invokeUrl?: string;
  baseDir?: string;
}
