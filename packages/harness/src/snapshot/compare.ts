// A widget image against its golden image: pixelmatch over pngjs decodings, with a threshold per pixel and a
// number of pixels that may differ.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Options of {@link compareWidgetImage}. */
export interface CompareOptions {
  /** Write `png` as the golden image (it becomes the reference) instead of comparing. Default false. */
  update?: boolean;
  /** pixelmatch's threshold: how different two pixels' colours must be to count, 0 to 1 (YIQ distance). Default 0.1. */
  threshold?: number;
  /** How many pixels may differ with the images still equal. Default 0. */
  maxDiffPixels?: number;
  /** Where the diff image goes when they differ. Default beside the golden: `<name>.diff.png`. */
  diffPath?: string;
}

/** What {@link compareWidgetImage} found. */
export interface ImageComparison {
  /** The image matches the golden within the tolerance (or was just written as the golden). */
  readonly equal: boolean;
  /** Pixels that differ; every pixel of the larger image when the sizes differ. */
  readonly diffPixels: number;
  /** The diff image written (changed pixels in red over a faded golden), or null when none was. */
  readonly diffPath: string | null;
  /** The golden image was written: it did not exist, or `update` was set. */
  readonly written: boolean;
  /** What differs, for a message: sizes or a pixel count. Empty when equal. */
  readonly message: string;
}

type Png = { width: number; height: number; data: Buffer };

/** pngjs and pixelmatch load only when a comparison runs. */
async function tools() {
  const [{ PNG }, { default: pixelmatch }] = await Promise.all([import('pngjs'), import('pixelmatch')]);
  return { PNG, pixelmatch };
}

/**
 * Compares a widget image (a PNG) with the golden image at `goldenPath`. A missing golden is written and
 * counts as equal (commit it); `update: true` rewrites it. When they differ beyond the tolerance, a diff image
 * is written beside the golden (or at `diffPath`).
 *
 * @example
 * const { equal, diffPixels, diffPath } = await compareWidgetImage(image.png, 'test/screenshots/greeting-light.png', { update: process.env.UPDATE_SCREENSHOTS === '1' });
 * assert.ok(equal, `${diffPixels} pixels differ: see ${diffPath}`);
 */
export async function compareWidgetImage(png: Uint8Array, goldenPath: string, options: CompareOptions = {}): Promise<ImageComparison> {
  const threshold = options.threshold ?? 0.1;
  const maxDiffPixels = options.maxDiffPixels ?? 0;
  if (!(threshold >= 0 && threshold <= 1)) throw new RangeError(`threshold should be from 0 to 1; got ${String(threshold)}`);
  if (!(Number.isInteger(maxDiffPixels) && maxDiffPixels >= 0))
    throw new RangeError(`maxDiffPixels should be a whole number, at least 0; got ${String(maxDiffPixels)}`);
  let golden: Buffer | null = null;
  if (!options.update) {
    golden = await readFile(goldenPath).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
  }
  if (golden === null) {
    await mkdir(dirname(goldenPath), { recursive: true });
    await writeFile(goldenPath, png);
    return { equal: true, diffPixels: 0, diffPath: null, written: true, message: '' };
  }
  const { PNG, pixelmatch } = await tools();
  const actual: Png = PNG.sync.read(Buffer.from(png));
  const expected: Png = PNG.sync.read(golden);
  if (actual.width !== expected.width || actual.height !== expected.height) {
    return {
      equal: false,
      diffPixels: Math.max(actual.width * actual.height, expected.width * expected.height),
      diffPath: null,
      written: false,
      message: `the image is ${actual.width} × ${actual.height} pixels, the golden ${expected.width} × ${expected.height}`,
    };
  }
  const diff = new PNG({ width: actual.width, height: actual.height });
  const diffPixels = pixelmatch(actual.data, expected.data, diff.data, actual.width, actual.height, { threshold });
  if (diffPixels <= maxDiffPixels) return { equal: true, diffPixels, diffPath: null, written: false, message: '' };
  const diffPath = options.diffPath ?? goldenPath.replace(/(\.png)?$/i, '.diff.png');
  await mkdir(dirname(diffPath), { recursive: true });
  await writeFile(diffPath, PNG.sync.write(diff));
  return { equal: false, diffPixels, diffPath, written: false, message: `${diffPixels} pixels differ (at most ${maxDiffPixels} may)` };
}
