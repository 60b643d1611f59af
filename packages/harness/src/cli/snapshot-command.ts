// `trellis snapshot`: every custom widget of the dashboards drawn as PNGs, one per theme, with a gallery page;
// compared with golden images (`--compare`), or written as them (`--update`).
import { basename, extname, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { ImageError, WidgetImages, runSnapshot, type SnapshotRunOptions, type Theme } from '../snapshot/index.js';
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

/** The instant every widget's time range is resolved at, unless `--now` says otherwise: runs draw the same. */
const DEFAULT_NOW = '2025-01-01T00:00:00Z';

const USAGE = `usage: trellis snapshot [--functions <file>] [--dashboard <file>]... [--template <file>]...
                       [template and AWS options as trellis harness takes them]
                       [--out <folder>] [--compare <folder>] [--update] [--theme <light|dark>]...
                       [--scale <n>] [--dashboard-width <px>] [--now <time>] [--threshold <0-1>]
                       [--max-diff-pixels <n>] [--chromium <path>] [--allow-remote-images]
                       [--timeout <ms>]

Draws every custom widget of the dashboards as a PNG per theme, as the harness page draws them, into a
folder with a gallery page (index.html, every image inline). With none of --functions, --dashboard and
--template it draws the bundled example. Needs playwright-core and Chromium or Chrome.

${SOURCE_USAGE}
${AWS_USAGE}
  --out <folder>       where the images, diff images, gallery and snapshots.json go; default snapshots
  --compare <folder>   compare each image with the golden image of the same name there: exit 1 naming
                       the widgets that changed (or have no golden image), a diff image for each
  --update             with --compare: write the images as the golden images instead
  --theme <name>       light or dark (repeatable); default both
  --scale <n>          device pixels per CSS pixel: 1 (default), 2 or 3
  --dashboard-width <px>
                       the width the 24 columns span; default the dashboard's (2392)
  --now <time>         the harness's clock, an ISO 8601 time: every time range is resolved at it;
                       default ${DEFAULT_NOW}
  --threshold <0-1>    how different a pixel's colour must be to count (pixelmatch); default 0.1
  --max-diff-pixels <n>
                       how many pixels may differ with an image unchanged; default 0
  --chromium <path>    the Chromium or Chrome program; default TRELLIS_CHROMIUM, then the system's,
                       then Playwright's browser cache
  --allow-remote-images
                       let http(s) images from public hosts load (default: data: URLs only); what
                       each image loaded is listed in snapshots.json
  --timeout <ms>       bound on drawing one image; default 10000
  -h, --help
`;

interface Options {
  sources: SourceOptions;
  run: Omit<SnapshotRunOptions, 'functions' | 'dashboards'>;
}

function number(value: string | undefined, flag: string, ok: (n: number) => boolean, what: string): number | undefined {
  if (value === undefined) return undefined;
  const n = value.trim() === '' ? NaN : Number(value);
  if (!ok(n)) throw new UsageError(`--${flag} should be ${what}; got ${JSON.stringify(value)}`);
  return n;
}

function parse(args: string[]): Options | 'help' {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      ...SOURCE_OPTIONS,
      out: { type: 'string', default: 'snapshots' },
      compare: { type: 'string' },
      update: { type: 'boolean' },
      theme: { type: 'string', multiple: true },
      scale: { type: 'string' },
      'dashboard-width': { type: 'string' },
      now: { type: 'string', default: DEFAULT_NOW },
      threshold: { type: 'string' },
      'max-diff-pixels': { type: 'string' },
      chromium: { type: 'string' },
      'allow-remote-images': { type: 'boolean' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.update && values.compare === undefined)
    throw new UsageError('--update rewrites the golden images of --compare <folder>: give it');
  const themes = [...new Set(values.theme ?? ['light', 'dark'])];
  const bad = themes.find((t) => t !== 'light' && t !== 'dark');
  if (bad !== undefined) throw new UsageError(`--theme should be light or dark; got ${JSON.stringify(bad)}`);
  if (!/^\d{4}-\d\d-\d\dT/.test(values.now) || Number.isNaN(Date.parse(values.now)))
    throw new UsageError(`--now should be an ISO 8601 time such as ${DEFAULT_NOW}; got ${JSON.stringify(values.now)}`);
  const whole = (min: number, max: number) => (n: number) => Number.isInteger(n) && n >= min && n <= max;
  const dashboardWidth = number(
    values['dashboard-width'],
    'dashboard-width',
    whole(240, 100_000),
    'a whole number of pixels from 240 to 100000',
  );
  const timeout = number(values.timeout, 'timeout', whole(1, 600_000), 'a whole number of milliseconds from 1 to 600000');
  return {
    sources: sourceOptions(values),
    run: {
      out: values.out,
      ...(values.compare === undefined ? {} : { compare: values.compare }),
      update: values.update === true,
      themes: themes as Theme[],
      scale: number(values.scale, 'scale', whole(1, 3), '1, 2 or 3') ?? 1,
      ...(dashboardWidth === undefined ? {} : { dashboardWidth }),
      now: Date.parse(values.now),
      threshold: number(values.threshold, 'threshold', (n) => n >= 0 && n <= 1, 'a number from 0 to 1') ?? 0.1,
      maxDiffPixels:
        number(values['max-diff-pixels'], 'max-diff-pixels', whole(0, Number.MAX_SAFE_INTEGER), 'a whole number, at least 0') ?? 0,
      images: {
        ...(values.chromium === undefined ? {} : { chromium: values.chromium }),
        allowRemoteImages: values['allow-remote-images'] === true,
        ...(timeout === undefined ? {} : { timeoutMs: timeout }),
      },
    },
  };
}

const shown = (path: string) => relative(process.cwd(), path) || '.';

/**
 * Runs the subcommand: 0 when the images are written (and, with --compare, none changed); 1 when one changed or
 * has no golden image, when no browser is found, or when the sources do not load; 2 on a usage error.
 *
 * @example
 * await run(['--functions', 'functions.json', '--dashboard', 'ops.json', '--compare', 'test/golden']);
 */
export async function run(args: string[]): Promise<number> {
  const options = parseCommand('snapshot', USAGE, parse, args);
  if (typeof options === 'number') return options;
  // Said before any function runs.
  const missing = WidgetImages.missingBrowser(options.run.images.chromium);
  if (missing !== null) {
    process.stderr.write(`trellis snapshot: ${missing}\n`);
    return 1;
  }
  let report;
  try {
    const loaded = await loadSources(options.sources, (warning) => process.stderr.write(`trellis snapshot: ${warning}\n`));
    const dashboards = loaded.dashboards.map(({ file, text, name }) => ({
      text,
      name: name ?? (basename(file, extname(file)) || 'dashboard').slice(0, 255),
    }));
    report = await runSnapshot({ ...options.run, functions: loaded.functions, dashboards });
  } catch (error) {
    if (!isSourceError(error) && !(error instanceof ImageError)) throw error;
    process.stderr.write(`trellis snapshot: ${error.message}\n`);
    return 1;
  }
  const { run: settings } = options;
  const widgets = new Set(report.entries.map((e) => `${e.dashboard} ${e.widgetId}`)).size;
  const lines = report.failing.map((e) => {
    const name = `${e.dashboard} ${e.widgetId}${e.title ? ` "${e.title}"` : ''} (${e.theme})`;
    if (e.status === 'missing') return `missing: ${name}: ${e.message ?? 'no golden image'}`;
    const diff = e.diff ? `; diff ${shown(`${settings.out}/${e.file.replace(/\.png$/, '.diff.png')}`)}` : '';
    return `changed: ${name}: ${e.message ?? ''}${diff}`;
  });
  const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
  const images = `${plural(report.entries.length, 'image')} of ${plural(widgets, 'custom widget')} (${settings.themes.join(', ')})`;
  if (settings.compare === undefined) lines.push(`wrote ${images} to ${shown(settings.out)}`);
  else if (settings.update) lines.push(`updated the golden images in ${shown(settings.compare)}: ${images}`);
  else {
    const unchanged = report.entries.filter((e) => e.status === 'unchanged').length;
    lines.push(`compared ${images} with ${shown(settings.compare)}: ${unchanged} unchanged, ${report.failing.length} changed or missing`);
  }
  lines.push(`gallery ${shown(report.gallery)}`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return report.failing.length > 0 ? 1 : 0;
}
