// What `trellis snapshot` does: every custom widget of the dashboards, in each theme, drawn to a PNG in the
// output folder; compared with the golden images when asked (a diff image per changed one), or written as the
// golden images; then the gallery and a manifest of what the pictures depended on.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterpreter, type FunctionsConfig } from '../dashboard/index.js';
import { compareWidgetImage } from './compare.js';
import { galleryHtml, type GalleryEntry, type SnapshotStatus } from './gallery.js';
import type { Theme } from './widget-document.js';
import { WidgetImages, type WidgetImagesOptions } from './widget-images.js';

/** The file the manifest is written to, in the output folder (and the golden folder, on update). */
export const MANIFEST_FILE = 'snapshots.json';
/** The gallery page, in the output folder. */
export const GALLERY_FILE = 'index.html';

export interface SnapshotRunOptions {
  readonly functions: FunctionsConfig;
  readonly dashboards: ReadonlyArray<{ readonly name: string; readonly text: string }>;
  /** The folder the images, the diff images, the gallery and the manifest are written to. */
  readonly out: string;
  /** The folder of golden images to compare with (or to rewrite, with `update`). */
  readonly compare?: string;
  readonly update?: boolean;
  readonly themes: readonly Theme[];
  readonly scale: number;
  /** The dashboards' width in pixels; default each dashboard's (2392). */
  readonly dashboardWidth?: number;
  /** The harness's clock: every widget's time range is resolved at this instant (epoch ms). */
  readonly now: number;
  readonly threshold: number;
  readonly maxDiffPixels: number;
  readonly images: WidgetImagesOptions;
}

export interface SnapshotReport {
  readonly entries: readonly GalleryEntry[];
  /** Images that changed, or have no golden image to compare with. */
  readonly failing: readonly GalleryEntry[];
  readonly gallery: string;
  readonly manifest: string;
}

const slug = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'dashboard';
const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

/**
 * Draws, writes and compares; never throws for a changed image (the report says which). Throws an ImageError
 * when the browser cannot be had, and what loading a dashboard throws.
 *
 * @example
 * const report = await runSnapshot({ functions, dashboards, out: 'snapshots', compare: 'golden', themes: ['light', 'dark'], scale: 1, now: Date.UTC(2025, 0, 1), threshold: 0.1, maxDiffPixels: 0, images: {} });
 */
export async function runSnapshot(options: SnapshotRunOptions): Promise<SnapshotReport> {
  await mkdir(options.out, { recursive: true });
  if (options.compare !== undefined && options.update) await mkdir(options.compare, { recursive: true });
  const interpreter = createInterpreter({ functions: options.functions, clock: () => options.now });
  const images = new WidgetImages(options.images);
  const entries: GalleryEntry[] = [];
  const taken = new Set<string>();
  const width = options.dashboardWidth ? { dashboardWidth: options.dashboardWidth } : {};
  let browser: WidgetImages['browser'];
  try {
    for (const source of options.dashboards) {
      const driver = await interpreter.load(source.text, { name: source.name });
      let prefix = slug(source.name);
      for (let n = 2; taken.has(prefix); n++) prefix = `${slug(source.name)}-${n}`;
      taken.add(prefix);
      for (const theme of options.themes) {
        await driver.putState({ ...driver.getState(), theme, ...width });
        for (const summary of driver.widgets().filter((w) => w.type === 'custom')) {
          const image = await images.widget(driver, summary.widgetId, { scale: options.scale });
          const file = `${prefix}-${summary.widgetId}-${theme}.png`;
          await writeFile(join(options.out, file), image.png);
          const base = { ...image, dashboard: source.name, file };
          entries.push({ ...base, ...(await judge(image.png, file, options)) });
        }
      }
    }
    browser = images.browser;
  } finally {
    await images.close();
    await interpreter.close();
  }
  const manifest = {
    platform: `${process.platform}-${process.arch}`,
    browser,
    now: new Date(options.now).toISOString(),
    themes: options.themes,
    scale: options.scale,
    dashboardWidth: options.dashboardWidth ?? null,
    tolerance: { threshold: options.threshold, maxDiffPixels: options.maxDiffPixels },
    allowRemoteImages: options.images.allowRemoteImages === true,
    images: entries.map((e) => ({
      file: e.file,
      dashboard: e.dashboard,
      widgetId: e.widgetId,
      title: e.title,
      theme: e.theme,
      width: e.width,
      height: e.height,
      scale: e.scale,
      sha256: sha256(e.png),
      remote: e.remote,
      blocked: e.blocked,
    })),
  };
  const manifestPath = join(options.out, MANIFEST_FILE);
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  if (options.compare !== undefined && options.update) await copyFile(manifestPath, join(options.compare, MANIFEST_FILE));
  const gallery = join(options.out, GALLERY_FILE);
  await writeFile(
    gallery,
    galleryHtml(entries, {
      ...(options.compare === undefined ? {} : { comparedWith: options.compare }),
      ...(browser ? { browser: `Chromium ${browser.version}` } : {}),
    }),
  );
  return { entries, failing: entries.filter((e) => e.status === 'changed' || e.status === 'missing'), gallery, manifest: manifestPath };
}

/** How one image compares with its golden, with what the gallery shows of it. */
async function judge(
  png: Buffer,
  file: string,
  options: SnapshotRunOptions,
): Promise<{ status: SnapshotStatus; message?: string; golden?: Buffer; diff?: Buffer }> {
  if (options.compare === undefined) return { status: 'written' };
  const goldenPath = join(options.compare, file);
  if (options.update) {
    await writeFile(goldenPath, png);
    return { status: 'updated' };
  }
  if (!existsSync(goldenPath)) return { status: 'missing', message: `no golden image ${goldenPath}` };
  const diffPath = join(options.out, file.replace(/\.png$/, '.diff.png'));
  const result = await compareWidgetImage(png, goldenPath, {
    threshold: options.threshold,
    maxDiffPixels: options.maxDiffPixels,
    diffPath,
  });
  if (result.equal) return { status: 'unchanged' };
  const golden = await readFile(goldenPath);
  return { status: 'changed', message: result.message, golden, ...(result.diffPath ? { diff: await readFile(result.diffPath) } : {}) };
}
