// `trellis harness`: the dashboard harness HTTP API on 127.0.0.1:4600, with preloaded dashboards.
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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
import { isLoopback, startHarness, type RunningHarness, type WatchOptions } from '../harness/index.js';
import { DuplicateFunctionError, loadTemplates } from './template-sources.js';

const USAGE = `usage: trellis harness [--functions <file>] [--dashboard <file>]... [--template <file>]...
                      [--parameter <name=value>]... [--region <name>] [--account-id <id>]
                      [--stack-name <name>] [--port <n>] [--host <address>]
                      [--allowed-host <name>]... [--insecure-no-token] [--aws-endpoint <url>]
                      [--aws-credentials <source>] [--aws-profile <name>] [--pass-env <name>]...
                      [--aws-sdk-path <dir>] [--watch]

Starts the dashboard harness HTTP API. With none of --functions, --dashboard and --template it serves the
bundled example dashboard and widgets.

  --functions <file>   functions file (JSON): which code answers which widget endpoint
  --dashboard <file>   dashboard JSON to preload (repeatable)
  --template <file>    an AWS SAM or CloudFormation template (YAML or JSON): its Node.js and Python
                       functions, under the ARNs the stack would give them, and its dashboards (repeatable)
  --parameter <name=value>
                       a template parameter's value, over its Default (repeatable)
  --region <name>      AWS::Region of the templates' stacks and of their functions' ARNs; default us-east-1
  --account-id <id>    AWS::AccountId of the templates' stacks; default 123456789012
  --stack-name <name>  AWS::StackName; default each template's file name (its folder's name for
                       template.yaml)
  --port <n>           default 4600; 0 picks a free port
  --host <address>     default 127.0.0.1. Any other address needs a token: the harness prints one (or
                       takes TRELLIS_HARNESS_TOKEN) and refuses API calls without it
  --allowed-host <name>
                       a host name to answer to besides IP addresses and localhost (repeatable;
                       .example.com admits its subdomains)
  --insecure-no-token  serve a non-loopback address without a token: anyone who reaches it can run
                       your functions with your credentials
  --aws-endpoint <url> point every function's AWS SDK at this endpoint (an emulator such as LocalStack,
                       moto or s3rver) with dummy credentials; http://KEY:SECRET@host:port sets them
  --aws-credentials <source>
                       real AWS credentials for every function: "environment" (this shell's
                       AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN) or "profile:NAME".
                       Default: none, unless the functions file says otherwise
  --aws-profile <name> the same as --aws-credentials profile:<name>
  --pass-env <name>    copy this variable of this shell into every function's environment (repeatable)
  --aws-sdk-path <dir> a node_modules folder with more @aws-sdk/* packages, searched before the SDK
                       the harness provides
  --watch              restart a function when its files change and have the page read its widgets
                       again (a line on stderr says which)
  -h, --help
`;

const EXAMPLE_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

class UsageError extends Error {}

interface Options {
  functions: string | undefined;
  dashboards: string[];
  templates: string[];
  /** How the templates are resolved (`parameters` are name → value). */
  template: TemplateOptions & { parameters: Record<string, string> };
  port: number;
  host: string;
  allowedHosts: string[];
  insecureNoToken: boolean;
  /** The AWS settings given as flags, as the functions file's top-level fields (checked like them). */
  aws: Record<string, unknown>;
  /** Restart a function's environments when its files change. */
  watch: boolean;
}

function parse(args: string[]): Options | 'help' {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      functions: { type: 'string' },
      dashboard: { type: 'string', multiple: true },
      template: { type: 'string', multiple: true },
      parameter: { type: 'string', multiple: true },
      region: { type: 'string' },
      'account-id': { type: 'string' },
      'stack-name': { type: 'string' },
      port: { type: 'string', default: '4600' },
      host: { type: 'string', default: '127.0.0.1' },
      'allowed-host': { type: 'string', multiple: true },
      'insecure-no-token': { type: 'boolean' },
      'aws-endpoint': { type: 'string' },
      'aws-credentials': { type: 'string' },
      'aws-profile': { type: 'string' },
      'pass-env': { type: 'string', multiple: true },
      'aws-sdk-path': { type: 'string' },
      watch: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new UsageError(`--port should be a whole number from 0 to 65535; got ${JSON.stringify(values.port)}`);
  if (values.host.trim() === '') throw new UsageError('--host should not be empty');
  const useExample = values.functions === undefined && values.dashboard === undefined && values.template === undefined;
  const template = templateOptions(values);
  if (values['aws-credentials'] !== undefined && values['aws-profile'] !== undefined)
    throw new UsageError('give --aws-credentials or --aws-profile, not both');
  const aws: Record<string, unknown> = {};
  if (values['aws-endpoint'] !== undefined) aws.awsEndpoint = values['aws-endpoint'];
  if (values['aws-credentials'] !== undefined) aws.awsCredentials = values['aws-credentials'];
  if (values['aws-profile'] !== undefined) aws.awsCredentials = `profile:${values['aws-profile']}`;
  if (values['pass-env'] !== undefined) aws.passEnvironment = values['pass-env'];
  if (values['aws-sdk-path'] !== undefined) aws.awsSdkPath = values['aws-sdk-path'];
  return {
    functions: useExample ? resolve(EXAMPLE_DIR, 'functions.json') : values.functions,
    dashboards: useExample ? [resolve(EXAMPLE_DIR, 'dashboard.json')] : (values.dashboard ?? []),
    templates: values.template ?? [],
    template,
    port,
    host: values.host,
    allowedHosts: values['allowed-host'] ?? [],
    insecureNoToken: values['insecure-no-token'] === true,
    aws,
    watch: values.watch === true,
  };
}

/** The template flags, checked: `--parameter Name=Value` pairs, region, account id and stack name. */
function templateOptions(values: Record<string, string | boolean | string[] | undefined>): Options['template'] {
  const parameters: Record<string, string> = {};
  for (const pair of (values.parameter as string[] | undefined) ?? []) {
    const match = /^([A-Za-z0-9]+)=([\s\S]*)$/.exec(pair);
    if (!match) throw new UsageError(`--parameter takes Name=Value (a parameter name is letters and digits), got ${JSON.stringify(pair)}`);
    if (Object.hasOwn(parameters, match[1]!)) throw new UsageError(`--parameter ${match[1]} is given twice`);
    parameters[match[1]!] = match[2]!;
  }
  const options: Options['template'] = { parameters };
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

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((done) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      done(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/**
 * Loads every module function once, in the background, so that a missing module or export, a syntax error or a
 * handler signature the runtime refuses is said at start (each widget that uses it says it again when it runs).
 */
function reportLoadProblems(running: RunningHarness): void {
  const preload = running.harness.functions.preload?.bind(running.harness.functions);
  if (!preload) return;
  preload().then(
    (results) => {
      for (const { name, error } of results) {
        if (error)
          process.stderr.write(`trellis harness: function ${name} does not load: ${error.type}: ${error.message.split('\n')[0]}\n`);
      }
    },
    () => {
      // The harness closed while loading: nothing to report.
    },
  );
}

/**
 * Runs the subcommand: listens until SIGINT or SIGTERM, then closes the server and the functions' child
 * processes. Returns 1 when the functions file or a dashboard does not validate, 2 on a usage error.
 *
 * @example
 * await run(['--functions', 'functions.json', '--dashboard', 'ops.json', '--port', '0']);
 */
export async function run(args: string[]): Promise<number> {
  let options: Options | 'help';
  try {
    options = parse(args);
  } catch (error) {
    process.stderr.write(`trellis harness: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  let functions: FunctionsConfig = { functions: {} };
  const sources: Array<{ file: string; text: string; name?: string }> = [];
  // What watch mode watches of the templates: each function's code folder, and the templates themselves.
  let watched: Pick<WatchOptions, 'codeFolders' | 'templates'>;
  try {
    if (options.functions !== undefined) functions = await loadFunctionsFile(options.functions);
    const templates = await loadTemplates(options.templates, options.template, functions, options.functions);
    watched = { codeFolders: templates.codeFolders, templates: templates.files };
    const unknown = Object.keys(options.template.parameters).filter((name) => !templates.parameterNames.has(name));
    if (unknown.length > 0) throw new UsageError(`--parameter ${unknown[0]}: no template declares a parameter of that name`);
    for (const warning of templates.warnings) process.stderr.write(`trellis harness: ${warning}\n`);
    functions = withAwsFlags(templates.functions, options.aws);
    const dashboards = [...options.dashboards.map((file) => ({ file, text: undefined, name: undefined })), ...templates.dashboards];
    for (const { file, text: given, name } of dashboards) {
      const text = given ?? (await readDashboard(file));
      const what = name === undefined ? `the dashboard ${file}` : `the dashboard ${name} of ${file}`;
      try {
        parseDashboard(text);
      } catch (error) {
        if (!(error instanceof DashboardValidationError)) throw error;
        const messages = error.validationMessages.map((m) => `\n  ${m.dataPath || '/'}: ${m.message}`).join('');
        throw new UsageError(`${what} is invalid:${messages}`);
      }
      sources.push({ file, text, ...(name === undefined ? {} : { name }) });
    }
  } catch (error) {
    if (
      !(error instanceof FunctionsConfigError) &&
      !(error instanceof UsageError) &&
      !(error instanceof TemplateError) &&
      !(error instanceof DuplicateFunctionError)
    )
      throw error;
    process.stderr.write(`trellis harness: ${error.message}\n`);
    return 1;
  }
  const stop = untilSignal();
  let running: RunningHarness;
  try {
    const token = process.env.TRELLIS_HARNESS_TOKEN || undefined;
    running = await startHarness({
      functions,
      port: options.port,
      host: options.host,
      allowedHosts: options.allowedHosts,
      token,
      insecureNoToken: options.insecureNoToken,
      ...(options.watch ? { watch: { ...watched, log: (line: string) => process.stderr.write(`trellis harness: ${line}\n`) } } : {}),
    });
  } catch (error) {
    process.stderr.write(`trellis harness: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}\n`);
    return 1;
  }
  const lines = [`Trellis harness listening on ${running.url}`];
  for (const { file, text, name: given } of sources) {
    const name = given ?? (basename(file, extname(file)) || 'dashboard').slice(0, 255);
    const dashboard = running.harness.store.create(text, { name });
    lines.push(`dashboard ${dashboard.id} ${dashboard.name} ${file}`);
  }
  if (running.token !== null) {
    lines.push(`token ${running.token} (send "Authorization: Bearer <token>"; the page: ${running.url}/#token=${running.token})`);
  } else if (!isLoopback(running.host)) {
    process.stderr.write(
      `trellis harness: WARNING: listening on ${running.url} without a token (--insecure-no-token). Anyone who can reach this address can list your dashboards and run your configured functions with your credentials.\n`,
    );
  }
  const credentialed =
    running.harness.functions
      .describe?.()
      .filter((f) => f.awsCredentials !== 'none' && f.awsCredentials !== null && f.awsCredentials !== 'host') ?? [];
  if (credentialed.length > 0) {
    process.stderr.write(
      `trellis harness: real AWS credentials for ${credentialed.map((f) => `${f.name} (${f.awsCredentials})`).join(', ')}\n`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  if (running.watch) process.stderr.write(`trellis harness: watching ${running.watch.roots.join(', ')} for changes\n`);
  reportLoadProblems(running);
  await stop;
  await running.close();
  return 0;
}
