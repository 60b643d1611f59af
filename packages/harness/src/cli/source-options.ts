// What `trellis harness` and `trellis snapshot` both run: the functions file, dashboards and templates (or the
// bundled example when none is given), with the template and AWS flags — parsed and loaded the same way.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DashboardValidationError,
  FunctionsConfigError,
  TemplateError,
  loadFunctionsFile,
  parseDashboard,
  validateFunctionsConfig,
  type FunctionsConfig,
  type TemplateOptions,
} from '../dashboard/index.js';
import type { WatchOptions } from '../harness/index.js';
import { DuplicateFunctionError, loadTemplates } from './template-sources.js';

/** A command line that cannot be used as given (exit code 2 when found while parsing, 1 when loading). */
export class UsageError extends Error {}

const EXAMPLE_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

/**
 * A command's flags read by `parse`: its options, or the exit code once the help (0) or the usage error with the
 * usage (2) is written.
 */
export function parseCommand<T extends object>(
  command: string,
  usage: string,
  parse: (args: string[]) => T | 'help',
  args: string[],
): T | number {
  let options: T | 'help';
  try {
    options = parse(args);
  } catch (error) {
    process.stderr.write(`trellis ${command}: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (options !== 'help') return options;
  process.stdout.write(usage);
  return 0;
}

/** The `parseArgs` options of the sources. */
export const SOURCE_OPTIONS = {
  functions: { type: 'string' },
  dashboard: { type: 'string', multiple: true },
  template: { type: 'string', multiple: true },
  parameter: { type: 'string', multiple: true },
  region: { type: 'string' },
  'account-id': { type: 'string' },
  'stack-name': { type: 'string' },
  'aws-endpoint': { type: 'string' },
  'aws-credentials': { type: 'string' },
  'aws-profile': { type: 'string' },
  'pass-env': { type: 'string', multiple: true },
  'aws-sdk-path': { type: 'string' },
} as const;

/** The usage lines of the sources' options, shared by the commands' help. */
export const SOURCE_USAGE = `  --functions <file>   functions file (JSON): which code answers which widget endpoint
  --dashboard <file>   dashboard JSON to preload (repeatable)
  --template <file>    an AWS SAM or CloudFormation template (YAML or JSON): its Node.js and Python
                       functions, under the ARNs the stack would give them, and its dashboards (repeatable)
  --parameter <name=value>
                       a template parameter's value, over its Default (repeatable)
  --region <name>      AWS::Region of the templates' stacks and of their functions' ARNs; default us-east-1
  --account-id <id>    AWS::AccountId of the templates' stacks; default 123456789012
  --stack-name <name>  AWS::StackName; default each template's file name (its folder's name for
                       template.yaml)`;

/** The usage lines of the AWS flags. */
export const AWS_USAGE = `  --aws-endpoint <url> point every function's AWS SDK at this endpoint (an emulator such as LocalStack,
                       moto or s3rver) with dummy credentials; http://KEY:SECRET@host:port sets them
  --aws-credentials <source>
                       real AWS credentials for every function: "environment" (this shell's
                       AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN) or "profile:NAME".
                       Default: none, unless the functions file says otherwise
  --aws-profile <name> the same as --aws-credentials profile:<name>
  --pass-env <name>    copy this variable of this shell into every function's environment (repeatable)
  --aws-sdk-path <dir> a node_modules folder with more @aws-sdk/* packages, searched before the SDK
                       the harness provides`;

/** The sources a command runs, as its flags give them. */
export interface SourceOptions {
  functions: string | undefined;
  dashboards: string[];
  templates: string[];
  /** How the templates are resolved (`parameters` are name → value). */
  template: TemplateOptions & { parameters: Record<string, string> };
  /** The AWS settings given as flags, as the functions file's top-level fields (checked like them). */
  aws: Record<string, unknown>;
}

type Values = Record<string, string | boolean | string[] | undefined>;

/**
 * The sources from parsed flags: with none of --functions, --dashboard and --template, the bundled example.
 * Throws UsageError for a flag that cannot be used.
 */
export function sourceOptions(values: Values): SourceOptions {
  const useExample = values.functions === undefined && values.dashboard === undefined && values.template === undefined;
  const template = templateOptions(values);
  if (values['aws-credentials'] !== undefined && values['aws-profile'] !== undefined)
    throw new UsageError('give --aws-credentials or --aws-profile, not both');
  const aws: Record<string, unknown> = {};
  if (values['aws-endpoint'] !== undefined) aws.awsEndpoint = values['aws-endpoint'];
  if (values['aws-credentials'] !== undefined) aws.awsCredentials = values['aws-credentials'];
  if (values['aws-profile'] !== undefined) aws.awsCredentials = `profile:${String(values['aws-profile'])}`;
  if (values['pass-env'] !== undefined) aws.passEnvironment = values['pass-env'];
  if (values['aws-sdk-path'] !== undefined) aws.awsSdkPath = values['aws-sdk-path'];
  return {
    functions: useExample ? resolve(EXAMPLE_DIR, 'functions.json') : (values.functions as string | undefined),
    dashboards: useExample ? [resolve(EXAMPLE_DIR, 'dashboard.json')] : ((values.dashboard as string[] | undefined) ?? []),
    templates: (values.template as string[] | undefined) ?? [],
    template,
    aws,
  };
}

/** The template flags, checked: `--parameter Name=Value` pairs, region, account id and stack name. */
function templateOptions(values: Values): SourceOptions['template'] {
  const parameters: Record<string, string> = {};
  for (const pair of (values.parameter as string[] | undefined) ?? []) {
    const match = /^([A-Za-z0-9]+)=([\s\S]*)$/.exec(pair);
    if (!match) throw new UsageError(`--parameter takes Name=Value (a parameter name is letters and digits), got ${JSON.stringify(pair)}`);
    if (Object.hasOwn(parameters, match[1]!)) throw new UsageError(`--parameter ${match[1]} is given twice`);
    parameters[match[1]!] = match[2]!;
  }
  const options: SourceOptions['template'] = { parameters };
  const checks = [
    ['region', 'region', /^[a-z]{2}(-[a-z0-9]+)+-\d+$/, 'a region such as eu-west-1'],
    ['account-id', 'accountId', /^\d{12}$/, 'an account id of 12 digits'],
    ['stack-name', 'stackName', /^[A-Za-z][A-Za-z0-9-]{0,127}$/, 'a stack name (a letter, then letters, digits and -; at most 128)'],
  ] as const;
  for (const [flag, key, pattern, what] of checks) {
    const value = values[flag] as string | undefined;
    if (value === undefined) continue;
    if (!pattern.test(value)) throw new UsageError(`--${flag} should be ${what}; got ${JSON.stringify(value)}`);
    options[key] = value;
  }
  const templateOnly = ['parameter', ...checks.map(([flag]) => flag)].filter((flag) => values[flag] !== undefined);
  if (templateOnly.length > 0 && values.template === undefined)
    throw new UsageError(`--${templateOnly[0]} applies to templates: give --template <file>`);
  return options;
}

const FLAG_OF: Record<string, string> = {
  awsEndpoint: '--aws-endpoint',
  awsCredentials: '--aws-credentials',
  passEnvironment: '--pass-env',
  awsSdkPath: '--aws-sdk-path',
};

/**
 * The functions configuration with the AWS flags applied: a flag replaces the file's top-level value
 * (`--pass-env` adds to it). Flags are checked as the file's fields are; an error names the flag.
 */
function withAwsFlags(config: FunctionsConfig, aws: Record<string, unknown>): FunctionsConfig {
  if (Object.keys(aws).length === 0) return config;
  let flags: FunctionsConfig;
  try {
    flags = validateFunctionsConfig({ functions: {}, ...aws }, process.cwd());
  } catch (error) {
    if (!(error instanceof FunctionsConfigError)) throw error;
    const flag = FLAG_OF[error.entry.split(/[.[]/)[0]!] ?? error.entry;
    throw new UsageError(`${flag}: ${error.message}`);
  }
  const merged: FunctionsConfig = { ...config };
  if (flags.awsEndpoint !== undefined) merged.awsEndpoint = flags.awsEndpoint;
  if (flags.awsCredentials !== undefined) merged.awsCredentials = flags.awsCredentials;
  if (flags.awsSdkPath !== undefined) merged.awsSdkPath = flags.awsSdkPath;
  if (flags.passEnvironment !== undefined) merged.passEnvironment = [...(config.passEnvironment ?? []), ...flags.passEnvironment];
  return merged;
}

async function readDashboard(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read the dashboard file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
}

/** The functions to run and the dashboards to load, each checked. */
export interface LoadedSources {
  functions: FunctionsConfig;
  dashboards: Array<{ file: string; text: string; name?: string }>;
  /** What watch mode watches of the templates: each function's code folder, and the templates themselves. */
  watched: Pick<WatchOptions, 'codeFolders' | 'templates'>;
}

/**
 * Loads the functions file, the templates and the dashboards; each template warning goes to `warn`. Throws a
 * {@link SourceError} (UsageError, FunctionsConfigError, TemplateError, DuplicateFunctionError) for what does not load.
 */
export async function loadSources(options: SourceOptions, warn: (line: string) => void): Promise<LoadedSources> {
  let functions: FunctionsConfig = { functions: {} };
  if (options.functions !== undefined) functions = await loadFunctionsFile(options.functions);
  const templates = await loadTemplates(options.templates, options.template, functions, options.functions);
  const unknown = Object.keys(options.template.parameters).filter((name) => !templates.parameterNames.has(name));
  if (unknown.length > 0) throw new UsageError(`--parameter ${unknown[0]}: no template declares a parameter of that name`);
  for (const warning of templates.warnings) warn(warning);
  functions = withAwsFlags(templates.functions, options.aws);
  const dashboards: LoadedSources['dashboards'] = [];
  const listed = [...options.dashboards.map((file) => ({ file, text: undefined, name: undefined })), ...templates.dashboards];
  for (const { file, text: given, name } of listed) {
    const text = given ?? (await readDashboard(file));
    const what = name === undefined ? `the dashboard ${file}` : `the dashboard ${name} of ${file}`;
    try {
      parseDashboard(text);
    } catch (error) {
      if (!(error instanceof DashboardValidationError)) throw error;
      const messages = error.validationMessages.map((m) => `\n  ${m.dataPath || '/'}: ${m.message}`).join('');
      throw new UsageError(`${what} is invalid:${messages}`);
    }
    dashboards.push({ file, text, ...(name === undefined ? {} : { name }) });
  }
  return { functions, dashboards, watched: { codeFolders: templates.codeFolders, templates: templates.files } };
}

/** An error of loading the sources, whose message is for the person at the command line (exit code 1). */
export type SourceError = FunctionsConfigError | UsageError | TemplateError | DuplicateFunctionError;

export function isSourceError(error: unknown): error is SourceError {
  return (
    error instanceof FunctionsConfigError ||
    error instanceof UsageError ||
    error instanceof TemplateError ||
    error instanceof DuplicateFunctionError
  );
}
