// `trellis harness`: the dashboard harness HTTP API on 127.0.0.1:4600, with preloaded dashboards.
import { basename, extname } from 'node:path';
import { parseArgs } from 'node:util';
import { isLoopback, startHarness, type RunningHarness } from '../harness/index.js';
import {
  AWS_USAGE,
  SOURCE_OPTIONS,
  SOURCE_USAGE,
  UsageError,
  isSourceError,
  loadSources,
  parseCommand,
  sourceOptions,
  type SourceOptions,
} from './source-options.js';

const USAGE = `usage: trellis harness [--functions <file>] [--dashboard <file>]... [--template <file>]...
                      [--parameter <name=value>]... [--region <name>] [--account-id <id>]
                      [--stack-name <name>] [--port <n>] [--host <address>]
                      [--allowed-host <name>]... [--insecure-no-token] [--aws-endpoint <url>]
                      [--aws-credentials <source>] [--aws-profile <name>] [--pass-env <name>]...
                      [--aws-sdk-path <dir>] [--watch] [--chromium <path>] [--allow-remote-images]

Starts the dashboard harness HTTP API. With none of --functions, --dashboard and --template it serves the
bundled example dashboard and widgets.

${SOURCE_USAGE}
  --port <n>           default 4600; 0 picks a free port
  --host <address>     default 127.0.0.1. Any other address needs a token: the harness prints one (or
                       takes TRELLIS_HARNESS_TOKEN) and refuses API calls without it
  --allowed-host <name>
                       a host name to answer to besides IP addresses and localhost (repeatable;
                       .example.com admits its subdomains)
  --insecure-no-token  serve a non-loopback address without a token: anyone who reaches it can run
                       your functions with your credentials
${AWS_USAGE}
  --watch              restart a function when its files change and have the page read its widgets
                       again (a line on stderr says which)
  --chromium <path>    the Chromium or Chrome that draws widget images (GET …/image); default
                       TRELLIS_CHROMIUM, then the system's, then Playwright's browser cache
  --allow-remote-images
                       let widget images load http(s) images from public hosts (default: data: URLs only)
  -h, --help
`;

interface Options {
  sources: SourceOptions;
  port: number;
  host: string;
  allowedHosts: string[];
  insecureNoToken: boolean;
  /** Restart a function's environments when its files change. */
  watch: boolean;
  images: { chromium?: string; allowRemoteImages: boolean };
}

function parse(args: string[]): Options | 'help' {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...SOURCE_OPTIONS,
      port: { type: 'string', default: '4600' },
      host: { type: 'string', default: '127.0.0.1' },
      'allowed-host': { type: 'string', multiple: true },
      'insecure-no-token': { type: 'boolean' },
      watch: { type: 'boolean' },
      chromium: { type: 'string' },
      'allow-remote-images': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port >= 0 && port <= 65535))
    throw new UsageError(`--port should be a whole number from 0 to 65535; got ${JSON.stringify(values.port)}`);
  if (values.host.trim() === '') throw new UsageError('--host should not be empty');
  return {
    sources: sourceOptions(values),
    port,
    host: values.host,
    allowedHosts: values['allowed-host'] ?? [],
    insecureNoToken: values['insecure-no-token'] === true,
    watch: values.watch === true,
    images: {
      ...(values.chromium === undefined ? {} : { chromium: values.chromium }),
      allowRemoteImages: values['allow-remote-images'] === true,
    },
  };
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
  const options = parseCommand('harness', USAGE, parse, args);
  if (typeof options === 'number') return options;
  let loaded;
  try {
    loaded = await loadSources(options.sources, (warning) => process.stderr.write(`trellis harness: ${warning}\n`));
  } catch (error) {
    if (!isSourceError(error)) throw error;
    process.stderr.write(`trellis harness: ${error.message}\n`);
    return 1;
  }
  const { functions, dashboards: sources, watched } = loaded;
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
      images: options.images,
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
