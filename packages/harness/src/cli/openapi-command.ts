// `trellis openapi <module>`: the OpenAPI 3.1 document of the Trellis app a module exports.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const USAGE = `usage: trellis openapi <module> [--export <name>] [--out <file>] [--title <text>]
                       [--api-version <version>] [--server <url>]...

Writes the OpenAPI 3.1 document of the Trellis app that a module exports: its routes, schemas, body formats,
security schemes, failures and rate limits. TypeScript modules load as they are.

  <module>               a .js, .mjs, .cjs, .ts, .mts or .cts file exporting the app
  --export <name>        the export holding the app (an App, or a function without arguments that
                         returns one); default "app", then the default export
  --out <file>           write the document to <file> instead of standard output
  --title <text>         info.title; default the "name" of the module's nearest package.json
  --api-version <v>      info.version; default the "version" of that package.json, else 0.0.0
  --server <url>         a server the API is served at (repeatable)
  -h, --help

Exit status: 0 written, 1 the module cannot be loaded, holds no app, or the document cannot be made,
2 usage error.
`;

class Failure extends Error {}
class UsageError extends Error {}

interface Options {
  module: string;
  exportName: string | undefined;
  out: string | undefined;
  title: string | undefined;
  version: string | undefined;
  servers: string[];
}

function parse(args: string[]): Options {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        export: { type: 'string' },
        out: { type: 'string' },
        title: { type: 'string' },
        'api-version': { type: 'string' },
        server: { type: 'string', multiple: true },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) throw new UsageError('no module given');
  if (positionals.length > 1) throw new UsageError(`one module at a time, got ${positionals.length}: ${positionals.join(' ')}`);
  for (const url of values.server ?? []) {
    if (!URL.canParse(url) && !url.startsWith('/'))
      throw new UsageError(`--server takes a URL (https://api.example.com) or a path (/v1), got ${JSON.stringify(url)}`);
  }
  return {
    module: positionals[0]!,
    exportName: values.export,
    out: values.out,
    title: values.title,
    version: values['api-version'],
    servers: values.server ?? [],
  };
}

/** The nearest package.json above a file, if any: where the defaults for title and version come from. */
function nearestManifest(file: string): { name?: unknown; version?: unknown } | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        return JSON.parse(readFileSync(candidate, 'utf8')) as { name?: unknown; version?: unknown };
      } catch {
        return undefined;
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

const TYPESCRIPT = new Set(['.ts', '.mts', '.cts', '.tsx']);

/** Imports the module, through tsx when it is TypeScript. */
async function load(file: string): Promise<Record<string, unknown>> {
  if (TYPESCRIPT.has(extname(file))) {
    const [esm, cjs] = await Promise.all([import('tsx/esm/api'), import('tsx/cjs/api')]);
    esm.register();
    cjs.register();
  }
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
    throw new Failure(`cannot load ${file}: ${reason}`);
  }
}

interface AppLike {
  readonly routes: readonly unknown[];
  build(): unknown;
}

const isApp = (value: unknown): value is AppLike =>
  value !== null && typeof value === 'object' && typeof (value as AppLike).build === 'function' && 'routes' in value && 'services' in value;

/** The app the module exports: the named export, else `app`, else the default export; a function without arguments is called. */
async function appOf(module: Record<string, unknown>, file: string, name: string | undefined): Promise<AppLike> {
  const names = name !== undefined ? [name] : ['app', 'default'];
  const found = names.find((n) => Object.hasOwn(module, n) && module[n] !== undefined);
  if (found === undefined) {
    const exported = Object.keys(module).filter((k) => k !== '__esModule');
    const has = exported.length > 0 ? `it exports ${exported.map((k) => `"${k}"`).join(', ')}` : 'it exports nothing';
    throw new Failure(
      `${file} has no export ${names.map((n) => `"${n}"`).join(' or ')} (${has}); name the one holding the app with --export`,
    );
  }
  let value = await module[found];
  if (typeof value === 'function' && !isApp(value)) {
    if (value.length > 0)
      throw new Failure(
        `the export "${found}" of ${file} is a function that takes arguments; export an app, or a function without arguments that returns one`,
      );
    try {
      value = await (value as () => unknown)();
    } catch (error) {
      throw new Failure(`the export "${found}" of ${file} failed making the app: ${(error as Error)?.message ?? String(error)}`);
    }
  }
  if (!isApp(value)) {
    const what =
      value === null
        ? 'null'
        : Array.isArray(value)
          ? 'an array'
          : typeof value === 'object'
            ? `an object (${Object.keys(value).slice(0, 5).join(', ') || 'no keys'})`
            : typeof value;
    throw new Failure(`the export "${found}" of ${file} is not a Trellis app (createApp()); it is ${what}`);
  }
  return value;
}

type OpenApiModule = typeof import('trellis/openapi');

/**
 * The document generator of the copy of Trellis the app was made with: the harness's own when the app is one of
 * its apps, else the module's own (its CommonJS copy, or another installed version), so the authenticators the
 * app registered are found under the same service token.
 */
async function generatorFor(app: AppLike, file: string): Promise<OpenApiModule> {
  const own = async () => ({ core: await import('trellis'), openapi: await import('trellis/openapi') });
  const modules = async () => {
    const require = createRequire(file);
    return { core: require('trellis') as typeof import('trellis'), openapi: require('trellis/openapi') as OpenApiModule };
  };
  let fallback: OpenApiModule | undefined;
  for (const candidate of [own, modules]) {
    try {
      const { core, openapi } = await candidate();
      fallback ??= openapi;
      if (app instanceof core.App) return openapi;
    } catch {
      // This copy cannot be loaded from here: try the next.
    }
  }
  if (!fallback) throw new Failure('cannot load trellis/openapi');
  return fallback;
}

/** Writes text to standard output and waits until it is handed over, so nothing is cut off when the process ends. */
const print = (text: string) => new Promise<void>((done) => process.stdout.write(text, () => done()));

async function generate(options: Options): Promise<void> {
  const file = resolve(options.module);
  if (!existsSync(file) || !statSync(file).isFile()) throw new Failure(`cannot find the module ${options.module} (looked at ${file})`);
  const app = await appOf(await load(file), options.module, options.exportName);
  const { createOpenApiDocument } = await generatorFor(app, file);
  const manifest = nearestManifest(file);
  const title =
    options.title ?? (typeof manifest?.name === 'string' && manifest.name !== '' ? manifest.name : basename(file, extname(file)));
  const version = options.version ?? (typeof manifest?.version === 'string' && manifest.version !== '' ? manifest.version : '0.0.0');
  let document;
  try {
    document = createOpenApiDocument(app as never, {
      info: { title, version },
      ...(options.servers.length > 0 ? { servers: options.servers.map((url) => ({ url })) } : {}),
    });
  } catch (error) {
    throw new Failure(`cannot make the document of the app in ${options.module}: ${(error as Error)?.message ?? String(error)}`);
  }
  const text = `${JSON.stringify(document, null, 2)}\n`;
  if (options.out === undefined) return print(text);
  try {
    await writeFile(options.out, text);
  } catch (error) {
    throw new Failure(`cannot write ${options.out}: ${(error as Error).message}`);
  }
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  await print(`wrote ${options.out}: ${Object.keys(document.paths).length} paths, ${operations} operations\n`);
}

/**
 * Runs the subcommand. The process ends when the document is out, whatever the module left running (a server,
 * a client's connection): the command only reads the app.
 *
 * @example
 * await run(['src/app.ts', '--out', 'openapi.json']);
 */
export async function run(args: string[]): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    process.stdout.write(USAGE);
    return 0;
  }
  let code = 0;
  try {
    await generate(parse(args));
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`trellis openapi: ${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (!(error instanceof Failure)) throw error;
    process.stderr.write(`trellis openapi: ${error.message}\n`);
    code = 1;
  }
  process.exit(code);
}
