/**
 * Function targets for handler modules on disk: Node.js (`path/file.handler`, TypeScript through tsx) and
 * Python (`path/module.function`), each in warm child processes with Lambda's environment variables.
 */
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ChildPoolTarget } from './child-pool-target.js';
import type { SpawnSpec } from './child-environment.js';
import { providedSdkNodePath } from './aws-sdk-path.js';
import { projectOfPrivateCode } from './private-folder.js';
import { findNodeModuleFile, splitNodeHandler } from './handler-path.js';
import { DEFAULT_INIT_TIMEOUT_SECONDS, identityFor, type FunctionIdentity } from './lambda-context.js';
import { findProgram, lambdaEnvironment, toAwsEndpoint, type EnvironmentSettings } from './lambda-environment.js';
import { nodeBinary, type NodeBinary } from './node-binaries.js';
import { nodeMajorOf } from './runtimes.js';
import type { AwsCredentialsSource, AwsEndpoint, FunctionSpec } from './types.js';

/**
 * What a module function takes from its configuration's top level: the defaults of its AWS settings, the
 * host variables every function gets, and where else Node.js functions find the AWS SDK.
 */
export interface ModuleDefaults {
  awsCredentials?: AwsCredentialsSource;
  awsEndpoint?: string | AwsEndpoint;
  passEnvironment?: string[];
  /** A `node_modules` folder with `@aws-sdk/*` packages, searched before the harness's own. */
  awsSdkNodeModules?: string;
}

/** The AWS settings one module function ends up with, its own over the defaults. */
export function awsSettings(
  spec: FunctionSpec,
  defaults: ModuleDefaults,
): Pick<EnvironmentSettings, 'awsCredentials' | 'awsEndpoint' | 'passEnvironment'> {
  const credentials = spec.awsCredentials ?? defaults.awsCredentials;
  const endpoint = spec.awsEndpoint ?? defaults.awsEndpoint;
  const settings: Pick<EnvironmentSettings, 'awsCredentials' | 'awsEndpoint' | 'passEnvironment'> = {
    passEnvironment: [...(defaults.passEnvironment ?? []), ...(spec.passEnvironment ?? [])],
  };
  if (credentials && credentials !== 'none') settings.awsCredentials = credentials;
  if (endpoint) settings.awsEndpoint = toAwsEndpoint(endpoint);
  return settings;
}

/** The absolute paths of a function's setup modules. */
export function setupFiles(spec: FunctionSpec, baseDir: string): string[] {
  return (spec.setup ?? []).map((file) => resolve(baseDir, file));
}

/** The programs a function's child process runs in place of Lambda's runtime (shipped beside this module). */
const NODE_BOOTSTRAP = fileURLToPath(new URL('./runtime/node-bootstrap.cjs', import.meta.url));
const PYTHON_BOOTSTRAP = fileURLToPath(new URL('./runtime/python-bootstrap.py', import.meta.url));

/** Resident memory tsx adds to a Node.js process (measured: about 33 MiB), allowed on top of a TypeScript function's memory. */
const TSX_OVERHEAD_MIB = 48;
/**
 * Memory of the loader thread that lets `import` read NODE_PATH on a Node.js without in-thread hooks (measured
 * on Node.js 22.23 with `module.register`: 17 MiB idle, up to 52 MiB while `import()` hands over a client
 * as large as EC2's), likewise allowed. Where Node.js has `module.registerHooks` the lookup runs in the
 * function's own thread and costs nothing to speak of (measured: under 2 MiB), so nothing is allowed.
 */
const NODE_PATH_HOOK_OVERHEAD_MIB = 64;

/** Whether a Node.js (`process.version`) runs module hooks in the thread that loads the modules: 22.15 and 23.5 on. */
export function hasInThreadHooks(version: string): boolean {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return major > 23 || (major === 23 && minor >= 5) || (major === 22 && minor >= 15);
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

/** A Node.js Lambda module run in warm child processes. */
export function nodeModuleTarget(
  key: string,
  spec: FunctionSpec & { handler: string },
  baseDir: string,
  defaults: ModuleDefaults = {},
): ChildPoolTarget {
  const { identity, initTimeout } = targetSettings(key, spec);
  const split = splitNodeHandler(spec.handler, baseDir);
  const file = split && findNodeModuleFile(split.modulePath);
  const setup = setupFiles(spec, baseDir);
  // The JavaScript heap is sized from the function's memory as Lambda's Node.js runtime sizes it: a tenth for
  // the young generation (two semi-spaces), the rest for the old one.
  const newSpaceMiB = Math.floor(identity.memoryMB / 10);
  const args: string[] = [
    `--max-semi-space-size=${Math.floor(newSpaceMiB / 2)}`,
    `--max-old-space-size=${identity.memoryMB - newSpaceMiB}`,
  ];
  const typeScript = [file ?? '', ...setup].find((f) => /\.[mc]?ts$/.test(f));
  const tsx = typeScript && tsxImport(typeScript);
  if (tsx) args.push('--import', tsx);
  // The TypeScript loader is the harness's, not the function's: its memory is not counted against it.
  const loaderMiB = tsx ? TSX_OVERHEAD_MIB : 0;
  // A runtime named with its version (nodejs22.x, nodejs24.x) runs on that Node.js major, with its rules.
  const major = nodeMajorOf(spec.runtime);
  args.push(NODE_BOOTSTRAP, ...setup.flatMap((f) => ['--setup', f]), ...(major === undefined ? [] : ['--runtime', `nodejs${major}.x`]));
  const project = file ? projectOfPrivateCode(file) : undefined;
  if (project !== undefined) args.push('--modules-from', project);
  const taskRoot = resolve(baseDir);
  const nodePath = [defaults.awsSdkNodeModules, providedSdkNodePath()].filter((dir): dir is string => dir !== undefined);
  // The bootstrap registers a resolve hook for these (runtime/node-path-resolve.cjs).
  const hooked = nodePath.length > 0 || project !== undefined;
  const aws = awsSettings(spec, defaults);
  let node: NodeBinary = { path: process.execPath, version: process.version, source: 'harness' };
  const prepare =
    major === undefined
      ? undefined
      : async (): Promise<void> => {
          node = await nodeBinary(major);
        };
  return new ChildPoolTarget(
    identity,
    () => ({
      command: node.path,
      args,
      cwd: taskRoot,
      env: lambdaEnvironment({
        identity,
        handler: spec.handler,
        taskRoot,
        executionEnv: `AWS_Lambda_nodejs${major ?? process.versions.node.split('.')[0]}.x`,
        programDir: dirname(node.path),
        nodePath,
        ...aws,
        ...(spec.environment ? { environment: spec.environment } : {}),
      }),
      memoryLimitMiB: identity.memoryMB + loaderMiB + (hooked && !hasInThreadHooks(node.version) ? NODE_PATH_HOOK_OVERHEAD_MIB : 0),
      ...(node.problem
        ? { initLog: `[harness] ${spec.runtime} runs on this harness's Node.js ${node.version}, not Node.js ${major}: ${node.problem}` }
        : {}),
    }),
    initTimeout,
    prepare,
  );
}

/** The Python interpreter used for Python handlers (`TRELLIS_PYTHON` overrides). */
export const pythonCommand = (): string => process.env.TRELLIS_PYTHON ?? 'python3';

/** A Python Lambda handler run in warm child processes. */
export function pythonModuleTarget(
  key: string,
  spec: FunctionSpec & { handler: string },
  baseDir: string,
  defaults: ModuleDefaults = {},
): ChildPoolTarget {
  const { identity, initTimeout } = targetSettings(key, spec);
  const taskRoot = resolve(baseDir);
  const setup = setupFiles(spec, baseDir);
  const aws = awsSettings(spec, defaults);
  // Found on the harness's PATH once: the function's own PATH is Lambda's, not the developer's.
  const python = findProgram(pythonCommand());
  const spawnSpec = (): SpawnSpec => ({
    command: python,
    args: ['-u', PYTHON_BOOTSTRAP, ...setup.flatMap((f) => ['--setup', f])],
    cwd: taskRoot,
    env: lambdaEnvironment({
      identity,
      handler: spec.handler,
      taskRoot,
      executionEnv: spec.runtime?.startsWith('python3.') ? `AWS_Lambda_${spec.runtime}` : 'AWS_Lambda_python3',
      programDir: dirname(python),
      ...aws,
      environment: { PYTHONDONTWRITEBYTECODE: '1', ...spec.environment },
    }),
    memoryLimitMiB: identity.memoryMB,
  });
  return new ChildPoolTarget(identity, spawnSpec, initTimeout);
}
