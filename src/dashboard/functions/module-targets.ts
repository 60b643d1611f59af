/**
 * Function targets for handler modules on disk: Node.js (`path/file.handler`, TypeScript through tsx) and
 * Python (`path/module.function`), each in warm child processes with Lambda's environment variables.
 */
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ChildPoolTarget } from './child-pool-target.js';
import type { SpawnSpec } from './child-environment.js';
import { findNodeModuleFile, splitNodeHandler } from './handler-path.js';
import {
  DEFAULT_INIT_TIMEOUT_SECONDS,
  identityFor,
  newLogStreamName,
  type FunctionIdentity,
} from './lambda-context.js';
import type { FunctionSpec } from './types.js';

/** The programs a function's child process runs in place of Lambda's runtime (shipped beside this module). */
const NODE_BOOTSTRAP = fileURLToPath(new URL('./runtime/node-bootstrap.cjs', import.meta.url));
const PYTHON_BOOTSTRAP = fileURLToPath(new URL('./runtime/python-bootstrap.py', import.meta.url));

/** Resident memory tsx adds to a Node.js process (measured: about 33 MiB), allowed on top of a TypeScript function's memory. */
const TSX_OVERHEAD_MIB = 48;

/** Variables of the host that must not leak into a function's process. */
const HOST_ONLY = ['NODE_TEST_CONTEXT', 'NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE'];

function lambdaEnvironment(identity: FunctionIdentity, handler: string, taskRoot: string, executionEnv: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of HOST_ONLY) delete env[name];
  return {
    ...env,
    AWS_LAMBDA_FUNCTION_NAME: identity.name,
    AWS_LAMBDA_FUNCTION_VERSION: identity.version,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(identity.memoryMB),
    AWS_LAMBDA_LOG_GROUP_NAME: identity.logGroupName,
    AWS_LAMBDA_LOG_STREAM_NAME: newLogStreamName(),
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_REGION: identity.region,
    AWS_DEFAULT_REGION: identity.region,
    AWS_EXECUTION_ENV: executionEnv,
    LAMBDA_TASK_ROOT: taskRoot,
    LAMBDA_RUNTIME_DIR: taskRoot,
    _HANDLER: handler,
    TZ: ':UTC',
    ...extra,
  };
}

/** The `--import` URL of tsx, found from this package or else from the handler's folder. */
function tsxImport(handlerFile: string): string | undefined {
  for (const from of [import.meta.url, pathToFileURL(handlerFile).href]) {
    try {
      return pathToFileURL(createRequire(from).resolve('tsx')).href;
    } catch {
      // not installed there
    }
  }
  return undefined;
}

function targetSettings(key: string, spec: FunctionSpec): { identity: FunctionIdentity; initTimeout: number } {
  return {
    identity: identityFor(key, spec.timeoutSeconds, spec.memoryMB),
    initTimeout: spec.initTimeoutSeconds ?? DEFAULT_INIT_TIMEOUT_SECONDS,
  };
}

/**
 * A Node.js Lambda module run in warm child processes.
 *
 * @example
 * const target = nodeModuleTarget('greeter', { handler: 'widgets/greeter.handler' }, '/srv');
 */
export function nodeModuleTarget(key: string, spec: FunctionSpec & { handler: string }, baseDir: string): ChildPoolTarget {
  const { identity, initTimeout } = targetSettings(key, spec);
  const split = splitNodeHandler(spec.handler, baseDir);
  const file = split && findNodeModuleFile(split.modulePath);
  // The JavaScript heap stops at the function's memory size, as Lambda's Node.js runtime sets it.
  const args: string[] = [`--max-old-space-size=${identity.memoryMB}`];
  let loaderMiB = 0;
  if (file && /\.[mc]?ts$/.test(file)) {
    const tsx = tsxImport(file);
    if (tsx) args.push('--import', tsx);
    // The TypeScript loader is the harness's, not the function's: its memory is not counted against it.
    if (tsx) loaderMiB = TSX_OVERHEAD_MIB;
  }
  args.push(NODE_BOOTSTRAP);
  const taskRoot = resolve(baseDir);
  return new ChildPoolTarget(
    identity,
    () => ({
      command: process.execPath,
      args,
      cwd: taskRoot,
      env: lambdaEnvironment(identity, spec.handler, taskRoot, 'AWS_Lambda_nodejs20.x', spec.environment),
      memoryLimitMiB: identity.memoryMB + loaderMiB,
    }),
    initTimeout,
  );
}

/** The Python interpreter used for Python handlers (`TRELLIS_PYTHON` overrides). */
export const pythonCommand = (): string => process.env.TRELLIS_PYTHON ?? 'python3';

/**
 * A Python Lambda handler run in warm child processes.
 *
 * @example
 * const target = pythonModuleTarget('inventory', { handler: 'py/inventory.lambda_handler', runtime: 'python' }, '/srv');
 */
export function pythonModuleTarget(key: string, spec: FunctionSpec & { handler: string }, baseDir: string): ChildPoolTarget {
  const { identity, initTimeout } = targetSettings(key, spec);
  const taskRoot = resolve(baseDir);
  const handler = spec.handler;
  const spawnSpec = (): SpawnSpec => ({
    command: pythonCommand(),
    args: ['-u', PYTHON_BOOTSTRAP],
    cwd: taskRoot,
    env: lambdaEnvironment(identity, handler, taskRoot, 'AWS_Lambda_python3', { PYTHONDONTWRITEBYTECODE: '1', ...spec.environment }),
    memoryLimitMiB: identity.memoryMB,
  });
  return new ChildPoolTarget(identity, spawnSpec, initTimeout);
}

