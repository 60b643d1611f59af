/**
 * The functions file (docs/functions-file.md): which code answers which endpoint. Validation is strict so that a typo stops
 * the start with a message naming the entry, instead of surfacing later as a widget error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { FUNCTION_NAME, parseEndpoint } from './endpoint.js';
import { sdkNodeModules } from './aws-sdk-path.js';
import { functionsFileSchema } from './config-schema.js';
import { locateJson, parseJsonText } from './json-text.js';
import { findNodeModuleFile, NODE_EXTENSIONS, splitNodeHandler, splitPythonHandler } from './handler-path.js';
import { CREDENTIAL_VARIABLES, sharedFiles } from './lambda-environment.js';
import { schemaCheck, withoutUndefined, type SchemaProblem } from './schema-check.js';
import { runtimeLanguage } from './runtimes.js';
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

const PROFILE_NAME = /^[A-Za-z0-9_.+=,@-]{1,128}$/;
const SETUP_EXTENSIONS = { nodejs: ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'], python: ['.py'] };
/** Fields that apply only to a module handler, whose process the harness starts. */
const MODULE_ONLY = ['awsCredentials', 'awsEndpoint', 'passEnvironment', 'setup'] as const;

const show = (v: unknown): string => (v === undefined ? 'nothing' : (JSON.stringify(v) ?? String(v)));
const checkShape = schemaCheck(functionsFileSchema);

/** An entry as the functions file's messages name it: `functions["a"].environment["STAGE"]`, `passEnvironment[0]`. */
function entryOf(path: readonly string[]): string {
  let entry = '';
  path.forEach((step, i) => {
    const parent = i === 1 && path[0] === 'functions' ? 'functions' : path[i - 1];
    if (parent === 'functions' || parent === 'environment') entry += `[${JSON.stringify(step)}]`;
    else if ((parent === 'passEnvironment' || parent === 'setup') && /^\d+$/.test(step)) entry += `[${step}]`;
    else entry += entry ? `.${step}` : step;
  });
  return entry;
}

/** What the schema found wrong, in the functions file's words. */
function shapeError(problem: SchemaProblem): FunctionsConfigError {
  const entry = entryOf(problem.path);
  if (problem.kind === 'unknown') {
    const holder = entryOf(problem.path.slice(0, -1));
    const field = `unknown field "${problem.path.at(-1)}"; known fields: ${problem.known.join(', ')}`;
    return new FunctionsConfigError(holder ? `${holder} has ${field}` : field, entry);
  }
  if (problem.kind === 'name') return new FunctionsConfigError(`${entry}: ${problem.expected}`, entry);
  return new FunctionsConfigError(
    `${entry || 'the functions configuration'} must be ${problem.expected}, got ${show(problem.value)}`,
    entry,
  );
}

/** What a schema cannot say of one function: which fields go together, that its modules exist. */
function checkSpec(key: string, raw: FunctionSpec, baseDir: string): FunctionSpec {
  const at = `functions[${JSON.stringify(key)}]`;
  if (raw.handler !== undefined && raw.invokeUrl !== undefined) {
    throw new FunctionsConfigError(`${at} has both "handler" and "invokeUrl"; give exactly one`, at);
  }
  if (raw.handler === undefined && raw.invokeUrl === undefined) {
    throw new FunctionsConfigError(`${at} needs "handler" (a module such as "widgets/file.handler") or "invokeUrl"`, at);
  }
  if (raw.runtime !== undefined && raw.handler === undefined) {
    throw new FunctionsConfigError(`${at}.runtime applies only to a "handler"`, `${at}.runtime`);
  }
  for (const field of MODULE_ONLY) {
    if (raw[field] !== undefined && typeof raw.handler !== 'string') {
      throw new FunctionsConfigError(
        `${at}.${field} applies only to a module "handler" (a path), whose process the harness starts`,
        `${at}.${field}`,
      );
    }
  }
  const { handler, environment, awsCredentials, awsEndpoint, passEnvironment, setup, ...plain } = raw;
  const spec: FunctionSpec = { ...plain };
  if (handler !== undefined) spec.handler = checkHandler(handler, spec.runtime, `${at}.handler`, baseDir);
  if (environment !== undefined) spec.environment = checkEnvironment(environment, `${at}.environment`);
  if (awsCredentials !== undefined) spec.awsCredentials = checkCredentials(awsCredentials, `${at}.awsCredentials`);
  if (awsEndpoint !== undefined) spec.awsEndpoint = copyEndpoint(awsEndpoint);
  if (passEnvironment !== undefined) spec.passEnvironment = checkPassEnvironment(passEnvironment, `${at}.passEnvironment`);
  if (setup !== undefined) spec.setup = checkSetup(setup, runtimeLanguage(spec.runtime), `${at}.setup`, baseDir);
  return spec;
}

/** Whether the shared AWS config files name a profile (`[profile NAME]` or `[NAME]`). */
function profileExists(name: string, env: NodeJS.ProcessEnv): boolean {
  const { config, credentials } = sharedFiles(env);
  const escaped = name.replace(/[.+]/g, '\\$&');
  const header = new RegExp(`^\\s*\\[\\s*(profile\\s+)?${escaped}\\s*\\]`, 'm');
  return [config, credentials].some((file) => {
    try {
      return header.test(readFileSync(file, 'utf8'));
    } catch {
      return false;
    }
  });
}

/**
 * What a schema cannot say of an `awsCredentials` value (already `none`, `environment` or `profile:…`): the
 * harness's own variables are set for `environment`, and the shared config files name the profile.
 */
function checkCredentials(value: AwsCredentialsSource, entry: string, env: NodeJS.ProcessEnv = process.env): AwsCredentialsSource {
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
  const name = value.slice('profile:'.length);
  if (!PROFILE_NAME.test(name))
    throw new FunctionsConfigError(`${entry}: ${show(name)} is not a profile name (letters, digits and _.+=,@-)`, entry);
  if (!profileExists(name, env)) {
    throw new FunctionsConfigError(
      `${entry}: no profile ${show(name)} in the shared AWS config files (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/config and ~/.aws/credentials)`,
      entry,
    );
  }
  return value;
}

const copyEndpoint = (value: string | AwsEndpoint): string | AwsEndpoint => (typeof value === 'string' ? value : { ...value });

/** Variable names (already of the schema's form) that are neither credentials nor Lambda's own. */
function checkPassEnvironment(names: string[], entry: string): string[] {
  names.forEach((name, i) => {
    const at = `${entry}[${i}]`;
    if ((CREDENTIAL_VARIABLES as readonly string[]).includes(name) || name === 'AWS_PROFILE') {
      throw new FunctionsConfigError(
        `${at}: ${name} carries AWS credentials; give "awsCredentials": "environment" or "profile:NAME" instead, so the harness can say which functions get them`,
        at,
      );
    }
    checkNotReserved(name, at);
  });
  return [...names];
}

/** Setup modules (already non-empty paths) of the runtime's kind that exist. */
function checkSetup(files: string[], runtime: 'nodejs' | 'python', entry: string, baseDir: string): string[] {
  const extensions = SETUP_EXTENSIONS[runtime];
  files.forEach((file, i) => {
    const at = `${entry}[${i}]`;
    const full = resolve(baseDir, file);
    if (!extensions.some((ext) => full.endsWith(ext))) {
      throw new FunctionsConfigError(
        `${at}: a ${runtime === 'python' ? 'Python' : 'Node.js'} function's setup module ends with ${extensions.join(', ')}, got ${show(file)}`,
        at,
      );
    }
    if (!existsSync(full)) throw new FunctionsConfigError(`${at}: no module at ${full}`, at);
  });
  return [...files];
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

/** Variables (already strings with well-formed names) that Lambda does not reserve. */
function checkEnvironment(env: Record<string, string>, entry: string): Record<string, string> {
  for (const name of Object.keys(env)) checkNotReserved(name, `${entry}[${JSON.stringify(name)}]`);
  return { ...env };
}

function checkNotReserved(name: string, at: string): void {
  if (RESERVED_ENVIRONMENT.has(name)) throw new FunctionsConfigError(`${at}: ${name} is reserved by Lambda and set by the harness`, at);
}

/**
 * Checks a functions configuration (the parsed JSON of a functions file, or an object built in code, whose
 * handlers may be functions) and returns a clean copy. Relative handler paths resolve against `baseDir`.
 *
 * @example
 * const config = validateFunctionsConfig({ functions: { greeter: { handler: 'widgets/greeter.handler' } } }, '/srv');
 */
export function validateFunctionsConfig(value: unknown, baseDir: string): FunctionsConfig {
  const given = withoutUndefined(value) as FunctionsConfig;
  const problem = checkShape(given);
  if (problem) throw shapeError(problem);
  const dir = resolve(given.baseDir === undefined ? baseDir : resolve(baseDir, given.baseDir));
  const functions: Record<string, FunctionSpec> = {};
  for (const [key, raw] of Object.entries(given.functions)) {
    if (!FUNCTION_NAME.test(key) && !parseEndpoint(key)?.unqualifiedArn) {
      throw new FunctionsConfigError(
        `functions[${JSON.stringify(key)}]: a key is a function name (letters, digits, - and _, up to 64) or a full ARN such as "arn:aws:lambda:eu-west-1:111122223333:function:report"`,
        `functions[${JSON.stringify(key)}]`,
      );
    }
    functions[key] = checkSpec(key, raw, dir);
  }
  const config: FunctionsConfig = { functions, baseDir: dir };
  if (given.invokeUrl !== undefined) config.invokeUrl = given.invokeUrl;
  if (given.awsCredentials !== undefined) config.awsCredentials = checkCredentials(given.awsCredentials, 'awsCredentials');
  if (given.awsEndpoint !== undefined) config.awsEndpoint = copyEndpoint(given.awsEndpoint);
  if (given.passEnvironment !== undefined) config.passEnvironment = checkPassEnvironment(given.passEnvironment, 'passEnvironment');
  if (given.awsSdkPath !== undefined) {
    const found = sdkNodeModules(resolve(baseDir, given.awsSdkPath));
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
