/**
 * The environment variables of a module function's process: what Lambda gives a function (its reserved
 * `AWS_*`/`LAMBDA_*` variables, `TZ`, `LANG`, `PATH`, `NODE_PATH`), what the function's configuration adds, and
 * nothing else of the harness's own environment. Real AWS credentials come only when the configuration asks
 * for them; an `awsEndpoint` points the AWS SDK at an emulator with dummy credentials.
 */
import { accessSync, constants } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { newLogStreamName, type FunctionIdentity } from './lambda-context.js';
import type { AwsCredentialsSource, AwsEndpoint } from './types.js';

/** Host variables that carry real credentials, passed only with `awsCredentials: "environment"`. */
export const CREDENTIAL_VARIABLES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;

/** The folders Lambda's `PATH` ends with, after the runtime's own. */
const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin'];

/** What a module function's environment is made of. */
export interface EnvironmentSettings {
  identity: FunctionIdentity;
  /** The handler string, as `_HANDLER`. */
  handler: string;
  taskRoot: string;
  /** `AWS_Lambda_nodejs20.x`, `AWS_Lambda_python3.11`, … */
  executionEnv: string;
  /** The folder of the program that runs the function (node, python3): first on `PATH`. */
  programDir: string;
  /** `NODE_PATH` folders (Node.js functions). */
  nodePath?: string[];
  environment?: Record<string, string>;
  passEnvironment?: string[];
  awsCredentials?: AwsCredentialsSource;
  awsEndpoint?: AwsEndpoint;
}

/** The shared config files the AWS SDKs read for a profile. */
export function sharedFiles(host: NodeJS.ProcessEnv): { config: string; credentials: string; home: string } {
  const home = host.HOME || homedir();
  return {
    config: host.AWS_CONFIG_FILE || join(home, '.aws', 'config'),
    credentials: host.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials'),
    home,
  };
}

function credentialVariables(
  source: AwsCredentialsSource | undefined,
  endpoint: AwsEndpoint | undefined,
  host: NodeJS.ProcessEnv,
): Record<string, string> {
  if (source === 'environment')
    return Object.fromEntries(CREDENTIAL_VARIABLES.filter((name) => host[name]).map((name) => [name, host[name]!]));
  if (source?.startsWith('profile:')) {
    const files = sharedFiles(host);
    return {
      AWS_PROFILE: source.slice('profile:'.length),
      AWS_CONFIG_FILE: files.config,
      AWS_SHARED_CREDENTIALS_FILE: files.credentials,
      AWS_SDK_LOAD_CONFIG: '1',
      // Single sign-on keeps its token cache under the home folder.
      HOME: files.home,
    };
  }
  const none: Record<string, string> = {
    // Without credentials the SDK must not find the developer's own: no shared files, no instance metadata.
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
    AWS_EC2_METADATA_DISABLED: 'true',
  };
  if (endpoint) {
    none.AWS_ACCESS_KEY_ID = endpoint.accessKeyId ?? 'test';
    none.AWS_SECRET_ACCESS_KEY = endpoint.secretAccessKey ?? 'test';
  }
  return none;
}

/** The whole environment of one new execution environment (a fresh log stream name each time). */
export function lambdaEnvironment(settings: EnvironmentSettings, host: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const { identity, awsEndpoint } = settings;
  const region = awsEndpoint?.region ?? identity.region;
  const env: Record<string, string> = {
    PATH: [settings.programDir, ...SYSTEM_PATH.filter((dir) => dir !== settings.programDir)].join(delimiter),
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    AWS_LAMBDA_FUNCTION_NAME: identity.name,
    AWS_LAMBDA_FUNCTION_VERSION: identity.version,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(identity.memoryMB),
    AWS_LAMBDA_LOG_GROUP_NAME: identity.logGroupName,
    AWS_LAMBDA_LOG_STREAM_NAME: newLogStreamName(),
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_EXECUTION_ENV: settings.executionEnv,
    LAMBDA_TASK_ROOT: settings.taskRoot,
    LAMBDA_RUNTIME_DIR: settings.taskRoot,
    _HANDLER: settings.handler,
  };
  if (settings.nodePath?.length) {
    env.NODE_PATH = settings.nodePath.join(delimiter);
    env.AWS_NODEJS_CONNECTION_REUSE_ENABLED = '1';
  }
  Object.assign(env, credentialVariables(settings.awsCredentials, awsEndpoint, host));
  if (awsEndpoint) env.AWS_ENDPOINT_URL = awsEndpoint.url;
  for (const name of settings.passEnvironment ?? []) {
    const value = host[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...settings.environment };
}

/**
 * An endpoint setting as an {@link AwsEndpoint}: a URL string's user and password become its credentials and
 * leave the URL.
 *
 * @example
 * toAwsEndpoint('http://S3RVER:S3RVER@127.0.0.1:4568'); // { url: 'http://127.0.0.1:4568', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
 */
export function toAwsEndpoint(value: string | AwsEndpoint): AwsEndpoint {
  const given = typeof value === 'string' ? { url: value } : value;
  const url = new URL(given.url);
  const endpoint: AwsEndpoint = { ...given };
  if (url.username) endpoint.accessKeyId ??= decodeURIComponent(url.username);
  if (url.password) endpoint.secretAccessKey ??= decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  // The SDKs take the endpoint without a trailing slash on a bare origin.
  endpoint.url = url.pathname === '/' && !url.search ? url.origin : url.href;
  return endpoint;
}

/**
 * A program's full path, looked up on the harness's `PATH` as a shell would (a path with a slash is kept), so
 * the function's own smaller `PATH` need not hold it.
 */
export function findProgram(program: string, hostPath = process.env.PATH ?? ''): string {
  if (program.includes('/') || program.includes('\\')) return program;
  for (const dir of hostPath.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, program);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return program;
}
