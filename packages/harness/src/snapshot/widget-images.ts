import { UnprocessableError, widgetPixelSize, type DashboardDriver, type WidgetModel } from '../dashboard/index.js';
import { browserMissing } from './browser.js';
import { ImageError } from './errors.js';
import type { RemoteResource } from './remote-image.js';
import { Renderer, type BlockedRequest } from './renderer.js';
import { errorDocument, widgetDocument, type Theme } from './widget-document.js';

/** Largest width or height of a widget image, in CSS pixels. */
export const MAX_IMAGE_SIDE = 4096;
/** Largest device scale factor. */
export const MAX_IMAGE_SCALE = 3;
/** Largest image, in device pixels (width × scale × height × scale). */
export const MAX_IMAGE_PIXELS = 4096 * 4096;
/** Default bound on drawing one image. */
export const DEFAULT_IMAGE_TIMEOUT_MS = 10_000;

/** Options of {@link WidgetImages}. */
export interface WidgetImagesOptions {
  /** The Chromium or Chrome program. Default: `TRELLIS_CHROMIUM`, then the system's, then Playwright's browser cache. */
  chromium?: string;
  /**
   * Let `http:` and `https:` images from public hosts load (never loopback, private or link-local addresses).
   * Default false: only `data:` URLs load. Each image lists what it loaded in `remote`.
   */
  allowRemoteImages?: boolean;
  /** Bound on drawing one image (loading its document and images, and the picture), in ms. Default 10,000. */
  timeoutMs?: number;
}

/** How to draw one widget. */
export interface WidgetImageOptions {
  /** The theme the widget's frame is drawn in; default the dashboard's. The content is what the widget shows now. */
  theme?: Theme;
  /** CSS pixels; default the widget's size at the dashboard's width (what its function is told). At most 4,096. */
  width?: number;
  height?: number;
  /** Device pixels per CSS pixel: 1 (default), 2 or 3. */
  scale?: number;
}

/** A widget drawn as the harness page draws it. */
export interface WidgetImage {
  /** The PNG: width × scale by height × scale pixels. */
  readonly png: Buffer;
  readonly widgetId: string;
  readonly title: string | null;
  readonly theme: Theme;
  readonly width: number;
  readonly height: number;
  readonly scale: number;
  /** Requests the drawing made that were refused (a `file:` URL is refused by the browser before any request). */
  readonly blocked: readonly BlockedRequest[];
  /** Images loaded from public hosts (with `allowRemoteImages`): what the picture depended on. */
  readonly remote: readonly RemoteResource[];
}

function side(value: number | undefined, field: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1)
    throw new UnprocessableError(field, `"${field}" should be a whole number of pixels, at least 1; got ${String(value)}`);
  return value;
}

/**
 * Checks a request for an image before anything runs: theme, sides and scale well formed (an
 * UnprocessableError naming the field otherwise) and within the bounds (an ImageError TRELLIS_IMAGE_TOO_LARGE).
 */
export function checkImageOptions(options: WidgetImageOptions): void {
  if (options.theme !== undefined && options.theme !== 'light' && options.theme !== 'dark') {
    throw new UnprocessableError('theme', `"theme" should be "light" or "dark"; got ${JSON.stringify(options.theme)}`);
  }
  side(options.width, 'width', 1);
  side(options.height, 'height', 1);
  const scale = options.scale ?? 1;
  if (!Number.isInteger(scale) || scale < 1) throw new UnprocessableError('scale', `"scale" should be 1, 2 or 3; got ${String(scale)}`);
  if (scale > MAX_IMAGE_SCALE)
    throw new ImageError('TRELLIS_IMAGE_TOO_LARGE', `"scale" is at most ${MAX_IMAGE_SCALE}; got ${scale}`, 'scale');
}

function bounded(width: number, height: number, scale: number, given: WidgetImageOptions): void {
  for (const [field, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (value > MAX_IMAGE_SIDE) {
      const whose = given[field] === undefined ? `the widget's ${field} at the dashboard's width is` : `"${field}" is`;
      throw new ImageError(
        'TRELLIS_IMAGE_TOO_LARGE',
        `${whose} ${value} px; a widget image is at most ${MAX_IMAGE_SIDE} px ${field === 'width' ? 'wide' : 'high'}`,
        field,
      );
    }
  }
  const pixels = width * scale * height * scale;
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new ImageError(
      'TRELLIS_IMAGE_TOO_LARGE',
      `${width} × ${height} px at scale ${scale} is ${pixels} device pixels; a widget image has at most ${MAX_IMAGE_PIXELS}`,
      'scale',
    );
  }
}

/**
 * Draws custom widgets as the harness page draws them — the console's default styles, the widget's pixel size
 * at the dashboard's width, its theme — in Chromium (found as {@link WidgetImages.missingBrowser} says, through
 * the optional peer playwright-core), and answers PNGs. Chromium starts on the first image and runs until
 * `close()`; each image has a browser context of its own, with scripts off and every request but `data:` URLs
 * refused (see `allowRemoteImages`).
 *
 * @example
 * const images = new WidgetImages();
 * await dashboard.setState({ theme: 'dark' });                    // the function is told, as the console tells it
 * const { png, width, height } = await images.widget(dashboard, 0); // 588 × 369 for a 6 × 6 widget at 2392 px
 * await images.close();
 */
export class WidgetImages {
  readonly #renderer: Renderer;
  readonly #options: WidgetImagesOptions;

  constructor(options: WidgetImagesOptions = {}) {
    this.#options = options;
    this.#renderer = new Renderer({ chromium: options.chromium });
  }

  /**
   * Why widget images cannot be drawn on this machine — playwright-core not installed, or no Chromium or Chrome
   * found (one sentence saying what to install) — or null when they can. Starts nothing: a test can skip on it.
   *
   * @example
   * test('looks the same', { skip: WidgetImages.missingBrowser() ?? false }, async () => { … });
   */
  static missingBrowser(chromium?: string): string | null {
    return browserMissing(chromium);
  }

  /** The Chromium drawing the images, once it has started: its program and version. */
  get browser(): { executable: string; version: string } | null {
    return this.#renderer.browser;
  }

  /**
   * Draws one custom widget (`0`, `'0'` or `'widget-0'`), reading it first if it was never read. Its content is
   * what it shows now, made for the dashboard's state: to have its function told another theme or size, set
   * the state first (as the page's theme switch does); `theme`, `width` and `height` here only change the frame.
   *
   * @example
   * const image = await images.widget(dashboard, 'widget-2', { scale: 2 }); // image.png is 2 × its size
   */
  async widget(driver: DashboardDriver, wid: number | string, options: WidgetImageOptions = {}): Promise<WidgetImage> {
    checkImageOptions(options);
    const reading = await driver.dashboard.readWidget(wid);
    const model = driver.dashboard.model.widgets.find((w) => w.widgetId === reading.widgetId) as WidgetModel;
    if (model.type !== 'custom') {
      throw new UnprocessableError('type', `${model.widgetId} is a "${model.type}" widget; only custom widgets are drawn as images`);
    }
    const state = driver.getState();
    const size = widgetPixelSize(model, state);
    const theme = options.theme ?? state.theme;
    const width = side(options.width, 'width', size.width);
    const height = side(options.height, 'height', size.height);
    const scale = options.scale ?? 1;
    bounded(width, height, scale, options);
    const document = reading.error ? errorDocument(reading.error, theme) : widgetDocument(reading.html, { theme });
    const drawing = await this.#renderer.draw({
      document,
      width,
      height,
      scale,
      allowRemoteImages: this.#options.allowRemoteImages === true,
      timeoutMs: this.#options.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS,
    });
    return { ...drawing, widgetId: model.widgetId, title: model.title, theme, width, height, scale };
  }

  /**
   * Draws every custom widget of a dashboard in each theme (default: the dashboard's). For each theme the
   * dashboard's state is set to it first, so every function is told it, as the page's theme switch does; the
   * dashboard is left in the last theme.
   *
   * @example
   * const all = await images.dashboard(dashboard, { themes: ['light', 'dark'] }); // two images per custom widget
   */
  async dashboard(driver: DashboardDriver, options: { themes?: readonly Theme[]; scale?: number } = {}): Promise<WidgetImage[]> {
    checkImageOptions({ scale: options.scale });
    const out: WidgetImage[] = [];
    for (const theme of options.themes ?? [driver.getState().theme]) {
      checkImageOptions({ theme });
      if (driver.getState().theme !== theme) await driver.putState({ ...driver.getState(), theme });
      for (const summary of driver.widgets().filter((w) => w.type === 'custom')) {
        out.push(await this.widget(driver, summary.widgetId, { scale: options.scale }));
      }
    }
    return out;
  }

  /** Closes the browser; the next image starts it again. */
  close(): Promise<void> {
    return this.#renderer.close();
  }
}
