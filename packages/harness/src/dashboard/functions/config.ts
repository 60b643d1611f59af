/**
 * The functions file (docs/functions-file.md): which code answers which endpoint. Validation is strict so that a typo stops
 * the start with a message naming the entry, instead of surfacing later as a widget error.
 */
import { isRecord } from './json-value.js';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FUNCTION_NAME, parseEndpoint } from './endpoint.js';
import { sdkNodeModules } from './aws-sdk-path.js';
import { locateJson, parseJsonText } from './json-text.js';
import { findNodeModuleFile, NODE_EXTENSIONS, splitNodeHandler, splitPythonHandler } from './handler-path.js';
import { CREDENTIAL_VARIABLES } from './lambda-environment.js';
import { isRuntimeName, runtimeLanguage, RUNTIME_CHOICES } from './runtimes.js';
import type { AwsCredentialsSource, AwsEndpoint, FunctionSpec, FunctionsConfig } from './types.js';

/**
 * A functions configuration that cannot be used. `entry` is where the problem is, e.g.
 * `functions["greeter"].timeoutSeconds`.
 *
 * @example
 * try { await loadFunctionsFile('functions.json'); } catch (e) { if (e instanceof FunctionsConfigError) console.error(e.message); }
 */
export class FunctionsConfigError extends Error {
  override readonly name = 'FunctionsConfigError';
  constructor(
    message: string,
    readonly entry: string,
  ) {
    super(message);
  }
}

/** Variables Lambda reserves; it refuses them in a function's environment, and so does the harness. */
export const RESERVED_ENVIRONMENT = new Set([
  '_HANDLER',
  '_X_AMZN_TRACE_ID',
  'AWS_DEFAULT_REGION',
  'AWS_REGION',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API',
  'LAMBDA_TASK_ROOT',
  'LAMBDA_RUNTIME_DIR',
]);

const SPEC_KEYS = [
  'handler',
  'runtime',
  'invokeUrl',
  'timeoutSeconds',
  'memoryMB',
  'environment',
  'initTimeoutSeconds',
  'awsCredentials',
  'awsEndpoint',
  'passEnvironment',
  'setup',
];
const TOP_KEYS = ['functions', 'invokeUrl', 'baseDir', 'awsCredentials', 'awsEndpoint', 'passEnvironment', 'awsSdkPath'];
const PROFILE_NAME = /^[A-Za-z0-9_.+=,@-]{1,128}$/;
const REGION = /^[a-z]{2}(-[a-z0-9]+)+-\d+$/;
const SETUP_EXTENSIONS = { nodejs: ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'], python: ['.py'] };
const ENV_NAME = /^[a-zA-Z][a-zA-Z0-9_]*$/;

const show = (v: unknown): string => (v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v)));

function checkUrl(value: unknown, entry: string): string {
  let url: URL | undefined;
  if (typeof value === 'string') {
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new FunctionsConfigError(`${entry} must be an http(s) base URL such as "http://127.0.0.1:3001", got ${show(value)}`, entry);
  }
  return value as string;
}

function checkSeconds(value: unknown, entry: string, max: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw new FunctionsConfigError(`${entry} must be a number of seconds greater than 0 and at most ${max}, got ${show(value)}`, entry);
  }
  return value;
}

function checkSpec(key: string, raw: unknown, baseDir: string): FunctionSpec {
  const at = `functions[${JSON.stringify(key)}]`;
  if (!isRecord(raw))
    throw new FunctionsConfigError(`${at} must be an object such as { "handler": "widgets/file.handler" }, got ${show(raw)}`, at);
  const unknown = Object.keys(raw).filter((k) => !SPEC_KEYS.includes(k));
  if (unknown.length) {
    throw new FunctionsConfigError(
      `${at} has unknown field ${unknown.map((k) => `"${k}"`).join(', ')}; known fields: ${SPEC_KEYS.join(', ')}`,
      `${at}.${unknown[0]}`,
    );
  }
  const spec: FunctionSpec = {};
  if (raw.handler !== undefined && raw.invokeUrl !== undefined) {
    throw new FunctionsConfigError(`${at} has both "handler" and "invokeUrl"; give exactly one`, at);
  }
  if (raw.handler === undefined && raw.invokeUrl === undefined) {
    throw new FunctionsConfigError(`${at} needs "handler" (a module such as "widgets/file.handler") or "invokeUrl"`, at);
  }
  if (raw.runtime !== undefined) {
    if (!isRuntimeName(raw.runtime)) {
      throw new FunctionsConfigError(`${at}.runtime must be ${RUNTIME_CHOICES}, got ${show(raw.runtime)}`, `${at}.runtime`);
    }
    if (raw.handler === undefined) throw new FunctionsConfigError(`${at}.runtime applies only to a "handler"`, `${at}.runtime`);
    spec.runtime = raw.runtime;
  }
  if (raw.handler !== undefined) spec.handler = checkHandler(raw.handler, spec.runtime, `${at}.handler`, baseDir);
  if (raw.invokeUrl !== undefined) spec.invokeUrl = checkUrl(raw.invokeUrl, `${at}.invokeUrl`);
  if (raw.timeoutSeconds !== undefined) spec.timeoutSeconds = checkSeconds(raw.timeoutSeconds, `${at}.timeoutSeconds`, 900);
  if (raw.initTimeoutSeconds !== undefined) spec.initTimeoutSeconds = checkSeconds(raw.initTimeoutSeconds, `${at}.initTimeoutSeconds`, 900);
  if (raw.memoryMB !== undefined) {
    const m = raw.memoryMB;
    if (typeof m !== 'number' || !Number.isInteger(m) || m < 128 || m > 10240) {
      throw new FunctionsConfigError(`${at}.memoryMB must be a whole number of MB from 128 to 10240, got ${show(m)}`, `${at}.memoryMB`);
    }
    spec.memoryMB = m;
  }
  if (raw.environment !== undefined) spec.environment = checkEnvironment(raw.environment, `${at}.environment`);
  const moduleOnly = (field: string): void => {
    if (raw[field] !== undefined && typeof raw.handler !== 'string') {
      throw new FunctionsConfigError(
        `${at}.${field} applies only to a module "handler" (a path), whose process the harness starts`,
        `${at}.${field}`,
      );
    }
  };
  for (const field of ['awsCredentials', 'awsEndpoint', 'passEnvironment', 'setup']) moduleOnly(field);
  if (raw.awsCredentials !== undefined) spec.awsCredentials = checkCredentials(raw.awsCredentials, `${at}.awsCredentials`);
  if (raw.awsEndpoint !== undefined) spec.awsEndpoint = checkEndpoint(raw.awsEndpoint, `${at}.awsEndpoint`);
  if (raw.passEnvironment !== undefined) spec.passEnvironment = checkPassEnvironment(raw.passEnvironment, `${at}.passEnvironment`);
  if (raw.setup !== undefined) spec.setup = checkSetup(raw.setup, runtimeLanguage(spec.runtime), `${at}.setup`, baseDir);
  return spec;
}

/** Whether the shared AWS config files name a profile (`[profile NAME]` or `[NAME]`). */
function profileExists(name: string, env: NodeJS.ProcessEnv): boolean {
  const home = env.HOME || homedir();
  const files = [env.AWS_CONFIG_FILE || join(home, '.aws', 'config'), env.AWS_SHARED_CREDENTIALS_FILE || join(home, '.aws', 'credentials')];
  const escaped = name.replace(/[.+]/g, '\\$&');
  const header = new RegExp(`^\\s*\\[\\s*(profile\\s+)?${escaped}\\s*\\]`, 'm');
  return files.some((file) => {
    try {
      return header.test(readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
  });
}

/**
 * Checks an `awsCredentials` value: `none`, `environment` (the harness's own variables must be set) or
 * `profile:NAME` (a profile the shared config files name).
 *
 * @example
 * checkCredentials('profile:dev', 'awsCredentials'); // 'profile:dev', when ~/.aws/config has [profile dev]
 */
export function checkCredentials(value: unknown, entry: string, env: NodeJS.ProcessEnv = process.env): AwsCredentialsSource {
  const usage = `${entry} must be "none", "environment" (pass the harness's AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN) or "profile:NAME", got ${show(value)}`;
  if (value === 'none') return value;
  if (value === 'environment') {
    if (!env.AWS_ACCESS_KEY_ID || !env.AWS_SECRET_ACCESS_KEY) {
      throw new FunctionsConfigError(
        `${entry} is "environment", but AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not both set in the harness's environment`,
        entry,
      );
    }
    return value;
  }
  if (typeof value !== 'string' || !value.startsWith('profile:')) throw new FunctionsConfigError(usage, entry);
  const name = value.slice('profile:'.length);
  if (!PROFILE_NAME.test(name))
    throw new FunctionsConfigError(`${entry}: ${show(name)} is not a profile name (letters, digits and _.+=,@-)`, entry);
  if (!profileExists(name, env)) {
    throw new FunctionsConfigError(
      `${entry}: no profile ${show(name)} in the shared AWS config files (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/config and ~/.aws/credentials)`,
      entry,
    );
  }
  return `profile:${name}`;
}

/**
 * Checks an `awsEndpoint` value: an http(s) URL (its user and password, if any, are the credentials) or
 * `{ url, region?, accessKeyId?, secretAccessKey? }`.
 *
 * @example
 * checkEndpoint('http://127.0.0.1:4566', 'awsEndpoint');
 */
export function checkEndpoint(value: unknown, entry: string): string | AwsEndpoint {
  if (typeof value === 'string') return checkUrl(value, entry);
  if (!isRecord(value))
    throw new FunctionsConfigError(
      `${entry} must be a URL such as "http://127.0.0.1:4566" or { "url": ..., "region": ... }, got ${show(value)}`,
      entry,
    );
  const unknown = Object.keys(value).filter((k) => !['url', 'region', 'accessKeyId', 'secretAccessKey'].includes(k));
  if (unknown.length)
    throw new FunctionsConfigError(
      `${entry} has unknown field "${unknown[0]}"; known fields: url, region, accessKeyId, secretAccessKey`,
      `${entry}.${unknown[0]}`,
    );
  const endpoint: AwsEndpoint = { url: checkUrl(value.url, `${entry}.url`) };
  if (value.region !== undefined) {
    if (typeof value.region !== 'string' || !REGION.test(value.region))
      throw new FunctionsConfigError(`${entry}.region must be a region such as "eu-west-1", got ${show(value.region)}`, `${entry}.region`);
    endpoint.region = value.region;
  }
  for (const key of ['accessKeyId', 'secretAccessKey'] as const) {
    const v = value[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v === '' || /[\s]/.test(v))
      throw new FunctionsConfigError(`${entry}.${key} must be a non-empty string without spaces, got ${show(v)}`, `${entry}.${key}`);
    endpoint[key] = v;
  }
  return endpoint;
}

function checkPassEnvironment(value: unknown, entry: string): string[] {
  if (!Array.isArray(value))
    throw new FunctionsConfigError(`${entry} must be an array of variable names such as ["API_KEY"], got ${show(value)}`, entry);
  return value.map((name, i) => {
    const at = `${entry}[${i}]`;
    if (typeof name !== 'string' || !ENV_NAME.test(name))
      throw new FunctionsConfigError(`${at} must be a variable name (a letter, then letters, digits and _), got ${show(name)}`, at);
    if ((CREDENTIAL_VARIABLES as readonly string[]).includes(name) || name === 'AWS_PROFILE') {
      throw new FunctionsConfigError(
        `${at}: ${name} carries AWS credentials; give "awsCredentials": "environment" or "profile:NAME" instead, so the harness can say which functions get them`,
        at,
      );
    }
    if (RESERVED_ENVIRONMENT.has(name)) throw new FunctionsConfigError(`${at}: ${name} is reserved by Lambda and set by the harness`, at);
    return name;
  });
}

function checkSetup(value: unknown, runtime: 'nodejs' | 'python', entry: string, baseDir: string): string[] {
  if (!Array.isArray(value))
    throw new FunctionsConfigError(`${entry} must be an array of module paths such as ["test/stub-aws.cjs"], got ${show(value)}`, entry);
  const extensions = SETUP_EXTENSIONS[runtime];
  return value.map((file, i) => {
    const at = `${entry}[${i}]`;
    if (typeof file !== 'string' || file === '') throw new FunctionsConfigError(`${at} must be a path to a module, got ${show(file)}`, at);
    const full = resolve(baseDir, file);
    if (!extensions.some((ext) => full.endsWith(ext))) {
      throw new FunctionsConfigError(
        `${at}: a ${runtime === 'python' ? 'Python' : 'Node.js'} function's setup module ends with ${extensions.join(', ')}, got ${show(file)}`,
        at,
      );
    }
    if (!existsSync(full)) throw new FunctionsConfigError(`${at}: no module at ${full}`, at);
    return file;
  });
}

function checkHandler(value: unknown, runtime: FunctionSpec['runtime'], entry: string, baseDir: string): FunctionSpec['handler'] {
  if (typeof value === 'function') {
    if (runtimeLanguage(runtime) === 'python')
      throw new FunctionsConfigError(`${entry} is a JavaScript function, which cannot have runtime ${show(runtime)}`, entry);
    return value as FunctionSpec['handler'];
  }
  if (typeof value !== 'string' || value === '') {
    throw new FunctionsConfigError(`${entry} must be a handler string such as "widgets/file.handler", got ${show(value)}`, entry);
  }
  if (runtimeLanguage(runtime) === 'python') {
    const py = splitPythonHandler(value, baseDir);
    if (!py) throw new FunctionsConfigError(`${entry} must look like "path/module.function_name", got ${show(value)}`, entry);
    if (!existsSync(py.file)) throw new FunctionsConfigError(`${entry}: no Python module at ${py.file}`, entry);
    return value;
  }
  const node = splitNodeHandler(value, baseDir);
  if (!node) throw new FunctionsConfigError(`${entry} must look like "path/file.exportName", got ${show(value)}`, entry);
  if (!findNodeModuleFile(node.modulePath)) {
    throw new FunctionsConfigError(
      `${entry}: no module ${node.modulePath} with extension ${NODE_EXTENSIONS.filter(Boolean).join(', ')} (from ${show(value)})`,
      entry,
    );
  }
  return value;
}

function checkEnvironment(value: unknown, entry: string): Record<string, string> {
  if (!isRecord(value)) throw new FunctionsConfigError(`${entry} must be an object of string values, got ${show(value)}`, entry);
  const env: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    const at = `${entry}[${JSON.stringify(name)}]`;
    if (!ENV_NAME.test(name))
      throw new FunctionsConfigError(`${at}: a variable name starts with a letter and holds only letters, digits and _`, at);
    if (RESERVED_ENVIRONMENT.has(name)) throw new FunctionsConfigError(`${at}: ${name} is reserved by Lambda and set by the harness`, at);
    if (typeof v !== 'string') throw new FunctionsConfigError(`${at} must be a string, got ${show(v)}`, at);
    env[name] = v;
  }
  return env;
}

/**
 * Checks a functions configuration (the parsed JSON of a functions file, or an object built in code, whose
 * handlers may be functions) and returns a clean copy. Relative handler paths resolve against `baseDir`.
 *
 * @example
 * const config = validateFunctionsConfig({ functions: { greeter: { handler: 'widgets/greeter.handler' } } }, '/srv');
 */
export function validateFunctionsConfig(value: unknown, baseDir: string): FunctionsConfig {
  if (!isRecord(value))
    throw new FunctionsConfigError(
      `the functions configuration must be an object such as { "functions": { ... } }, got ${show(value)}`,
      '',
    );
  const unknown = Object.keys(value).filter((k) => !TOP_KEYS.includes(k));
  if (unknown.length) {
    throw new FunctionsConfigError(
      `unknown field ${unknown.map((k) => `"${k}"`).join(', ')}; known fields: ${TOP_KEYS.join(', ')}`,
      unknown[0]!,
    );
  }
  const dir = resolve(typeof value.baseDir === 'string' ? resolve(baseDir, value.baseDir) : baseDir);
  if (!isRecord(value.functions)) {
    throw new FunctionsConfigError(
      `"functions" must be an object mapping a function name or ARN to its settings, got ${show(value.functions)}`,
      'functions',
    );
  }
  const functions: Record<string, FunctionSpec> = {};
  for (const [key, raw] of Object.entries(value.functions)) {
    const parsed = parseEndpoint(key);
    const plainName = FUNCTION_NAME.test(key);
    if (!plainName && !parsed?.unqualifiedArn) {
      throw new FunctionsConfigError(
        `functions[${JSON.stringify(key)}]: a key is a function name (letters, digits, - and _, up to 64) or a full ARN such as "arn:aws:lambda:eu-west-1:111122223333:function:report"`,
        `functions[${JSON.stringify(key)}]`,
      );
    }
    functions[key] = checkSpec(key, raw, dir);
  }
  const config: FunctionsConfig = { functions, baseDir: dir };
  if (value.invokeUrl !== undefined) config.invokeUrl = checkUrl(value.invokeUrl, 'invokeUrl');
  if (value.awsCredentials !== undefined) config.awsCredentials = checkCredentials(value.awsCredentials, 'awsCredentials');
  if (value.awsEndpoint !== undefined) config.awsEndpoint = checkEndpoint(value.awsEndpoint, 'awsEndpoint');
  if (value.passEnvironment !== undefined) config.passEnvironment = checkPassEnvironment(value.passEnvironment, 'passEnvironment');
  if (value.awsSdkPath !== undefined) {
    if (typeof value.awsSdkPath !== 'string' || value.awsSdkPath === '')
      throw new FunctionsConfigError(`awsSdkPath must be a folder path, got ${show(value.awsSdkPath)}`, 'awsSdkPath');
    const found = sdkNodeModules(resolve(baseDir, value.awsSdkPath));
    if ('error' in found) throw new FunctionsConfigError(`awsSdkPath: ${found.error}`, 'awsSdkPath');
    config.awsSdkPath = found.dir;
  }
  return config;
}

/**
 * Reads and validates a functions file; relative handler paths resolve against the file's folder.
 *
 * @example
 * const registry = new FunctionRegistry(await loadFunctionsFile('test/functions.json'));
 */
export async function loadFunctionsFile(path: string): Promise<FunctionsConfig> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new FunctionsConfigError(`cannot read the functions file ${file}: ${(error as Error).message}`, '');
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.problem;
    const what = message.replace(/ at line \d+, column \d+$/, '');
    throw new FunctionsConfigError(
      `${file}:${line}:${column}: the functions file is not valid JSON: ${what} (line ${line}, column ${column})`,
      '',
    );
  }
  try {
    return validateFunctionsConfig(parsed.value, dirname(file));
  } catch (error) {
    if (!(error instanceof FunctionsConfigError)) throw error;
    const at = locateJson(text, entryPath(error.entry));
    const where = at ? `${file}:${at.line}:${at.column}` : file;
    throw new FunctionsConfigError(`${where}: ${error.message}`, error.entry);
  }
}

/** The steps of an entry such as `functions["a"].environment["STAGE"]` or `passEnvironment[0]`. */
function entryPath(entry: string): Array<string | number> {
  const steps: Array<string | number> = [];
  for (const [, name, quoted, index] of entry.matchAll(/\.?([A-Za-z_$][\w$]*)|\[("(?:[^"\\]|\\.)*")\]|\[(\d+)\]/g)) {
    steps.push(name ?? (quoted === undefined ? Number(index) : (JSON.parse(quoted) as string)));
  }
  return steps;
}
