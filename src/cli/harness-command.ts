// `trellis harness`: the dashboard harness HTTP API on 127.0.0.1:4600, with preloaded dashboards.
import { readFile } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DashboardValidationError, FunctionsConfigError, loadFunctionsFile, parseDashboard, type FunctionsConfig } from '../dashboard/index.js';
import { isLoopback, startHarness, type RunningHarness } from '../harness/index.js';

const USAGE = `usage: trellis harness [--functions <file>] [--dashboard <file>]... [--port <n>] [--host <address>]
                      [--allowed-host <name>]... [--insecure-no-token] [--watch]

Starts the dashboard harness HTTP API. With neither --functions nor --dashboard it serves the bundled
example dashboard and widgets.

  --functions <file>   functions file (JSON): which code answers which widget endpoint
  --dashboard <file>   dashboard JSON to preload (repeatable)
  --port <n>           default 4600; 0 picks a free port
  --host <address>     default 127.0.0.1. Any other address needs a token: the harness prints one (or
                       takes TRELLIS_HARNESS_TOKEN) and refuses API calls without it
  --allowed-host <name>
                       a host name to answer to besides IP addresses and localhost (repeatable;
                       .example.com admits its subdomains)
  --insecure-no-token  serve a non-loopback address without a token: anyone who reaches it can run
                       your functions with your credentials
  --watch              restart a function when its files change and have the page read its widgets
                       again (a line on stderr says which)
  -h, --help
`;

const EXAMPLE_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));

class UsageError extends Error {}

interface Options {
  functions: string | undefined;
  dashboards: string[];
  port: number;
  host: string;
  allowedHosts: string[];
  insecureNoToken: boolean;
  watch: boolean;
}

function parse(args: string[]): Options | 'help' {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      functions: { type: 'string' },
      dashboard: { type: 'string', multiple: true },
      port: { type: 'string', default: '4600' },
      host: { type: 'string', default: '127.0.0.1' },
      'allowed-host': { type: 'string', multiple: true },
      'insecure-no-token': { type: 'boolean' },
      watch: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  const port = /^\d{1,5}$/.test(values.port) ? Number(values.port) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new UsageError(`--port should be a whole number from 0 to 65535; got ${JSON.stringify(values.port)}`);
  if (values.host.trim() === '') throw new UsageError('--host should not be empty');
  const useExample = values.functions === undefined && values.dashboard === undefined;
  return {
    functions: useExample ? resolve(EXAMPLE_DIR, 'functions.json') : values.functions,
    dashboards: useExample ? [resolve(EXAMPLE_DIR, 'dashboard.json')] : (values.dashboard ?? []),
    port,
    host: values.host,
    allowedHosts: values['allowed-host'] ?? [],
    insecureNoToken: values['insecure-no-token'] === true,
    watch: values.watch === true,
  };
}

async function readDashboard(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the dashboard file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
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
  const sources: Array<{ file: string; text: string }> = [];
  try {
    if (options.functions !== undefined) functions = await loadFunctionsFile(options.functions);
    for (const file of options.dashboards) {
      const text = await readDashboard(file);
      try {
        parseDashboard(text);
      } catch (error) {
        if (!(error instanceof DashboardValidationError)) throw error;
        const messages = error.validationMessages.map((m) => `\n  ${m.dataPath || '/'}: ${m.message}`).join('');
        throw new UsageError(`the dashboard ${file} is invalid:${messages}`);
      }
      sources.push({ file, text });
    }
  } catch (error) {
    if (!(error instanceof FunctionsConfigError) && !(error instanceof UsageError)) throw error;
    process.stderr.write(`trellis harness: ${error.message}\n`);
    return 1;
  }
  const stop = untilSignal();
  let running: RunningHarness;
  try {
    const token = process.env.TRELLIS_HARNESS_TOKEN || undefined;
    running = await startHarness({ functions, port: options.port, host: options.host, allowedHosts: options.allowedHosts, token, insecureNoToken: options.insecureNoToken,
      ...(options.watch ? { watch: { log: (line: string) => process.stderr.write(`trellis harness: ${line}\n`) } } : {}),
    });
  } catch (error) {
    process.stderr.write(`trellis harness: cannot listen on ${options.host}:${options.port}: ${(error as Error).message}\n`);
    return 1;
  }
  const lines = [`Trellis harness listening on ${running.url}`];
  for (const { file, text } of sources) {
    const name = (basename(file, extname(file)) || 'dashboard').slice(0, 255);
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
  process.stdout.write(`${lines.join('\n')}\n`);
  if (running.watch) process.stderr.write(`trellis harness: watching ${running.watch.roots.join(', ')} for changes\n`);
  await stop;
  await running.close();
  return 0;
}
