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

import type { RuntimeName } from './runtimes.js';
import type { LambdaContext } from 'trellis/widgets';

/** The context object a Node.js Lambda handler receives: the authoring toolkit's type. */
export type { LambdaContext };

/**
 * A JavaScript function run in the harness's own process. It may return a value, a promise, or call the
 * callback.
 *
 * @example
 * const hello: InProcessHandler = async (event) => `<h1>Hello ${event.name}</h1>`;
 */
export type InProcessHandler = (event: any, context: LambdaContext, callback: (err?: unknown, result?: unknown) => void) => unknown;

/**
 * How one function is run. Exactly one of `handler` and `invokeUrl` is given.
 *
 * @example
 * const spec: FunctionSpec = { handler: 'widgets/greeter.handler', timeoutSeconds: 10, environment: { STAGE: 'test' } };
 */
export interface FunctionSpec {
  /** `path/file.handler` (relative to the functions file, or absolute) or an in-process function. */
  handler?: string | InProcessHandler;
  /**
   * `nodejs22.x` or `nodejs24.x` run the module on that Node.js major with that runtime's rules (nodejs24.x
   * refuses callback handlers); plain `nodejs` (the default) runs it on the harness's own Node.js and accepts
   * every handler signature. `python3.12` and the like, or plain `python`, run it on the `python3` found.
   */
  runtime?: RuntimeName;
  /** Base URL of a Lambda Invoke API (`sam local start-lambda`, LocalStack, …). */
  invokeUrl?: string;
  /** Default 30 (Lambda's own default is 3; see the harness guide). */
  timeoutSeconds?: number;
  /** Default 128; reported to the function, not enforced. */
  memoryMB?: number;
  environment?: Record<string, string>;
  /** Limit for starting a process and loading the module (Lambda's init phase); default 10. */
  initTimeoutSeconds?: number;
  /**
   * Real AWS credentials for this module function (default: the configuration's `awsCredentials`, else none):
   * `"environment"` passes the harness's `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`;
   * `"profile:NAME"` lets the function's SDK read that profile of the shared AWS config files; `"none"` gives
   * none even when the configuration's default does.
   */
  awsCredentials?: AwsCredentialsSource;
  /** An AWS endpoint (an emulator) for this function's SDK; default: the configuration's `awsEndpoint`. */
  awsEndpoint?: string | AwsEndpoint;
  /** Variables of the harness's own environment copied into this function's (when set there). */
  passEnvironment?: string[];
  /** Modules (paths like `handler`) loaded in the function's process before its handler, in order. */
  setup?: string[];
}

/**
 * An AWS endpoint that stands in for AWS (an emulator such as LocalStack, moto or s3rver). As a string, a URL
 * whose user and password, if any, are the credentials: `http://S3RVER:S3RVER@127.0.0.1:4568`.
 *
 * @example
 * const endpoint: AwsEndpoint = { url: 'http://127.0.0.1:4566', region: 'eu-west-1' };
 */
export interface AwsEndpoint {
  url: string;
  /** The region the function's SDK uses; default the function's own (from its ARN, else `us-east-1`). */
  region?: string;
  /** Default `test` (what LocalStack and moto accept). */
  accessKeyId?: string;
  /** Default `test`. */
  secretAccessKey?: string;
}

/** Where a function's real AWS credentials come from: `none`, `environment` or `profile:NAME`. */
export type AwsCredentialsSource = 'none' | 'environment' | `profile:${string}`;

/**
 * What the harness tells about one configured function: how it runs and what of AWS it can reach.
 *
 * @example
 * registry.describe(); // [{ name: 'report', runtime: 'nodejs', lambdaRuntime: 'nodejs24.x', awsCredentials: 'none', awsEndpoint: 'http://127.0.0.1:4566', setup: [] }]
 */
export interface FunctionInfo {
  /** The key in the functions configuration (a name or an ARN). */
  name: string;
  /** `in-process` runs in the harness's own process (and sees its whole environment); `invoke-api` elsewhere. */
  runtime: 'nodejs' | 'python' | 'in-process' | 'invoke-api';
  /** The Lambda runtime it was configured with (`nodejs24.x`, `python3.12`, …), or null when none was named. */
  lambdaRuntime: string | null;
  /**
   * The real credentials its process gets: `none`, `environment`, `profile:NAME`; `host` for an in-process
   * function (it shares the harness's environment); `null` when another program runs it (`invokeUrl`).
   */
  awsCredentials: AwsCredentialsSource | 'host' | null;
  /** The endpoint its AWS SDK calls instead of AWS, or null. */
  awsEndpoint: string | null;
  /** The setup modules loaded before its handler (absolute paths). */
  setup: string[];
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
  /** Default real AWS credentials for every module function; default `none`. */
  awsCredentials?: AwsCredentialsSource;
  /** Points every module function's AWS SDK at this endpoint (`AWS_ENDPOINT_URL`), with dummy credentials. */
  awsEndpoint?: string | AwsEndpoint;
  /** Variables of the harness's environment copied into every module function's. */
  passEnvironment?: string[];
  /**
   * A `node_modules` folder holding `@aws-sdk/*` packages, searched after a Node.js function's own
   * `node_modules` and before the AWS SDK the harness provides.
   */
  awsSdkPath?: string;
}
