/**
 * The pieces of the Lambda execution model shared by the in-process target and the parent side of the child
 * processes: identity of a function (ARN, log names), the error document, and the timeout message.
 */
import { randomBytes } from 'node:crypto';
import { types } from 'node:util';
import { parseEndpoint } from './endpoint.js';
import type { InvokeError } from './types.js';

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_INIT_TIMEOUT_SECONDS = 10;
export const DEFAULT_MEMORY_MB = 128;
export const DEFAULT_ACCOUNT = '123456789012';

/** Who a configured function is: the values its context and environment variables report. */
export interface FunctionIdentity {
  name: string;
  arn: string;
  region: string;
  version: string;
  memoryMB: number;
  timeoutSeconds: number;
  logGroupName: string;
}

/**
 * The identity of the function configured under `key` (a name or a full ARN).
 *
 * @example
 * identityFor('greeter', 10).arn; // 'arn:aws:lambda:us-east-1:123456789012:function:greeter'
 */
export function identityFor(key: string, timeoutSeconds = DEFAULT_TIMEOUT_SECONDS, memoryMB = DEFAULT_MEMORY_MB): FunctionIdentity {
  const parsed = parseEndpoint(key);
  const name = parsed?.name ?? key;
  const region = parsed?.region ?? process.env.AWS_REGION ?? 'us-east-1';
  const arn = parsed?.unqualifiedArn ?? `arn:aws:lambda:${region}:${parsed?.accountId ?? DEFAULT_ACCOUNT}:function:${name}`;
  return { name, arn, region, version: '$LATEST', memoryMB, timeoutSeconds, logGroupName: `/aws/lambda/${name}` };
}

/**
 * A log stream name in Lambda's format, new for every execution environment.
 *
 * @example
 * newLogStreamName(); // '2026/11/25/[$LATEST]3f2c…'
 */
export function newLogStreamName(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replaceAll('-', '/');
  return `${day}/[$LATEST]${randomBytes(16).toString('hex')}`;
}

/**
 * Lambda's message for a timeout, e.g. `Task timed out after 0.30 seconds`.
 *
 * @example
 * timeoutError(3).message; // 'Task timed out after 3.00 seconds'
 */
export function timeoutError(seconds: number): InvokeError {
  return { type: 'Sandbox.Timedout', message: `Task timed out after ${seconds.toFixed(2)} seconds` };
}

/**
 * The error document the Node.js runtime makes of anything thrown or passed to a callback: an Error gives its
 * name, message and stack lines; anything else gives its `typeof` and string form (`string` for a thrown
 * string).
 *
 * @example
 * toInvokeError('boom'); // { type: 'string', message: 'boom', trace: [] }
 */
export function toInvokeError(error: unknown): InvokeError {
  try {
    if (types.isNativeError(error) || (error instanceof Object && 'message' in error && 'name' in error && 'stack' in error)) {
      const e = error as Error;
      return { type: String(e.name), message: String(e.message), trace: String(e.stack ?? '').split('\n') };
    }
    return { type: typeof error, message: String(error), trace: [] };
  } catch {
    return {
      type: 'handled',
      message: 'callback called with Error argument, but there was a problem while retrieving one or more of its message, name, and stack',
    };
  }
}
