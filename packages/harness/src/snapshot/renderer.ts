// Draws complete widget documents into PNGs with the harness's one Chromium. Each image gets a page of its own,
// made between images so that the next one does not wait for it and closed after its one use, in a browser
// context with scripts off whose every request is routed and refused unless it is the image's own document, a
// data: URL (never routed: the browser decodes those) or, when allowed, an image from a public host. Images share
// a context per scale (making a page costs less than making a context, and with scripts off and nothing fetched a
// page leaves nothing behind); with remote images allowed each image has a context of its own, so that what it
// fetched is its own and listed.
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser.js';
import { ImageError } from './errors.js';
import { fetchPublicImage, type RemoteResource } from './remote-image.js';

/** Where documents are served from, inside the browser only: a name that never resolves. */
export const DOCUMENT_URL = 'https://widget.trellis.invalid/';

/** A request the drawing made that was refused, and why. */
export interface BlockedRequest {
  readonly url: string;
  readonly reason: string;
}

export interface DrawRequest {
  /** The complete HTML document. */
  readonly document: string;
  /** CSS pixels. */
  readonly width: number;
  readonly height: number;
  /** Device pixels per CSS pixel. */
  readonly scale: number;
  /** Let `http:` and `https:` images from public hosts load. */
  readonly allowRemoteImages: boolean;
  /** Bound on loading the document and taking the picture, in milliseconds. */
  readonly timeoutMs: number;
}

export interface Drawing {
  readonly png: Buffer;
  readonly blocked: readonly BlockedRequest[];
  readonly remote: readonly RemoteResource[];
}

interface Job {
  readonly request: DrawRequest;
  /** The document's own URL: one per image, so nothing a browser keeps by URL is ever reused. */
  readonly url: string;
  readonly deadline: number;
  served: boolean;
  readonly blocked: BlockedRequest[];
  readonly remote: RemoteResource[];
}

/** A page made for one image, in a context it may own. */
interface Canvas {
  readonly page: Page;
  /** The context made for this image alone (remote images allowed), closed with it; else null. */
  readonly own: BrowserContext | null;
  readonly key: string;
}

export interface RendererOptions {
  /** The Chromium program; default found as `findChromium` says. */
  readonly chromium?: string;
  /** Images drawn at once; default 2. */
  readonly maxConcurrent?: number;
  /** Images waiting for their turn before more are refused (TRELLIS_IMAGE_BUSY); default 16. */
  readonly maxWaiting?: number;
}

/**
 * The page's picture. Chromium now and then has no frame to give for a page that has not been shown yet
 * ("Unable to capture screenshot"): brought to the front, it draws one, and the second try takes it.
 */
async function capture(page: Page, left: () => number): Promise<Buffer> {
  try {
    return await page.screenshot({ type: 'png', scale: 'device', timeout: left() });
  } catch (error) {
    if (!/Unable to capture screenshot/.test((error as Error).message)) throw error;
    await page.bringToFront();
    return page.screenshot({ type: 'png', scale: 'device', timeout: left() });
  }
}

export class Renderer {
  readonly #options: RendererOptions;
  #launch: Promise<LaunchedBrowser> | null = null;
  #launched: LaunchedBrowser | null = null;
  /** The shared contexts, by scale. */
  #contexts = new Map<number, Promise<BrowserContext>>();
  /** The drawing each page is showing. */
  readonly #jobs = new WeakMap<Page, Job>();
  #spare: { key: string; canvas: Promise<Canvas> } | null = null;
  readonly #closing = new Set<Promise<unknown>>();
  #active = 0;
  #drawn = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(options: RendererOptions = {}) {
    this.#options = options;
  }

  /** The program and version of the running browser, once one has started. */
  get browser(): { executable: string; version: string } | null {
    return this.#launched ? { executable: this.#launched.executable, version: this.#launched.version } : null;
  }

  /**
   * Draws a document at `width` × `height` CSS pixels and `scale`: a PNG of width × scale by height × scale.
   *
   * @example
   * const { png } = await renderer.draw({ document, width: 588, height: 369, scale: 1, allowRemoteImages: false, timeoutMs: 10_000 });
   */
  async draw(request: DrawRequest): Promise<Drawing> {
    await this.#turn();
    try {
      const { browser } = await this.#browser();
      const key = `${request.scale}${request.allowRemoteImages ? ' remote' : ''}`;
      const canvas = await this.#canvas(browser, key, request);
      try {
        return await this.#drawOn(canvas, request);
      } finally {
        this.#track(canvas.own ? canvas.own.close() : canvas.page.close());
        // The next image's page is made now, between images, rather than while one is drawn (on two cores
        // making it alongside a drawing slows the drawing more than it saves).
        if (!this.#spare && this.#launch) {
          const spare = this.#make(browser, request);
          spare.catch(() => undefined);
          this.#spare = { key, canvas: spare };
        }
      }
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    }
  }

  /** Closes the browser (it starts again on the next image). */
  async close(): Promise<void> {
    const launch = this.#launch;
    const spare = this.#spare;
    this.#launch = null;
    this.#launched = null;
    this.#spare = null;
    this.#contexts = new Map();
    if (spare) this.#track(spare.canvas.then((c) => (c.own ? c.own.close() : c.page.close())));
    await Promise.allSettled([...this.#closing]);
    if (launch) await launch.then((l) => l.browser.close()).catch(() => undefined);
  }

  async #turn(): Promise<void> {
    if (this.#active < (this.#options.maxConcurrent ?? 2)) {
      this.#active++;
      return;
    }
    if (this.#waiting.length >= (this.#options.maxWaiting ?? 16)) {
      throw new ImageError(
        'TRELLIS_IMAGE_BUSY',
        `${this.#waiting.length} widget images are already waiting for the browser; try again in a moment`,
      );
    }
    // The slot is handed over by the image that ends, so the count stays as it was.
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #browser(): Promise<LaunchedBrowser> {
    if (!this.#launch) {
      const launch = launchBrowser(this.#options.chromium);
      this.#launch = launch;
      launch.then(
        (launched) => {
          if (this.#launch !== launch) return;
          this.#launched = launched;
          launched.browser.on('disconnected', () => {
            if (this.#launch !== launch) return;
            this.#launch = null;
            this.#launched = null;
            this.#spare = null;
            this.#contexts = new Map();
          });
        },
        () => {
          if (this.#launch === launch) this.#launch = null;
        },
      );
    }
    return this.#launch;
  }

  async #canvas(browser: Browser, key: string, request: DrawRequest): Promise<Canvas> {
    const spare = this.#spare;
    this.#spare = null;
    if (spare) {
      const made = await spare.canvas.catch(() => null);
      if (made && spare.key === key && !made.page.isClosed()) return made;
      if (made) this.#track(made.own ? made.own.close() : made.page.close());
    }
    return this.#make(browser, request);
  }

  async #make(browser: Browser, request: DrawRequest): Promise<Canvas> {
    const key = `${request.scale}${request.allowRemoteImages ? ' remote' : ''}`;
    if (request.allowRemoteImages) {
      const own = await this.#newContext(browser, request.scale);
      return { page: await own.newPage(), own, key };
    }
    let shared = this.#contexts.get(request.scale);
    if (!shared) {
      shared = this.#newContext(browser, request.scale);
      shared.catch(() => this.#contexts.delete(request.scale));
      this.#contexts.set(request.scale, shared);
    }
    return { page: await (await shared).newPage(), own: null, key };
  }

  async #newContext(browser: Browser, scale: number): Promise<BrowserContext> {
    const context = await browser.newContext({
      viewport: { width: 800, height: 600 },
      deviceScaleFactor: scale,
      javaScriptEnabled: false,
      colorScheme: 'light',
      reducedMotion: 'reduce',
      forcedColors: 'none',
      locale: 'en-US',
      timezoneId: 'UTC',
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    await context.route('**/*', (route) => this.#route(route));
    return context;
  }

  async #drawOn(canvas: Canvas, request: DrawRequest): Promise<Drawing> {
    const url = `${DOCUMENT_URL}${++this.#drawn}`;
    const job: Job = { request, url, deadline: Date.now() + request.timeoutMs, served: false, blocked: [], remote: [] };
    const { page } = canvas;
    this.#jobs.set(page, job);
    const left = () => Math.max(1, job.deadline - Date.now());
    try {
      await page.setViewportSize({ width: request.width, height: request.height });
      // `load`: the document, its styles and its images (allowed or refused) are in before the picture.
      await page.goto(url, { waitUntil: 'load', timeout: left() });
      // Nothing moves in the document (STILL_CSS, scripts off, SVG animations removed): the picture needs no more.
      const png = await capture(page, left);
      return { png, blocked: job.blocked, remote: job.remote };
    } catch (error) {
      if ((error as Error).name === 'TimeoutError' || Date.now() >= job.deadline) {
        throw new ImageError('TRELLIS_IMAGE_TIMEOUT', `Drawing the widget took longer than ${request.timeoutMs} ms`);
      }
      throw new ImageError(
        'TRELLIS_IMAGE_BROWSER_UNAVAILABLE',
        `Chromium failed to draw the widget: ${(error as Error).message.split('\n')[0]}`,
      );
    } finally {
      this.#jobs.delete(page);
    }
  }

  /** Every request of a drawing: its document once, remote images when allowed and public, nothing else. */
  async #route(route: Route): Promise<void> {
    const request = route.request();
    const url = request.url();
    let job: Job | undefined;
    try {
      job = this.#jobs.get(request.frame().page());
    } catch {
      // A request of no page's (a worker's): nobody's drawing.
    }
    if (job && url === job.url && !job.served && request.isNavigationRequest()) {
      job.served = true;
      await route.fulfill({
        status: 200,
        headers: {
          'content-type': 'text/html; charset=utf-8',
          // Defence in depth: nothing but data: URLs and http(s) images may even be asked for; the images come
          // here, where they are refused (and listed) unless allowed.
          'content-security-policy':
            "default-src 'none'; style-src 'unsafe-inline' data:; img-src data: http: https:; font-src data:; media-src data:",
        },
        body: job.request.document,
      });
      return;
    }
    const refuse = async (reason: string) => {
      job?.blocked.push({ url, reason });
      await route.abort('blockedbyclient').catch(() => undefined);
    };
    if (!job) return refuse('no drawing is in progress');
    if (!job.request.allowRemoteImages) return refuse('only data: URLs load in widget images');
    if (request.resourceType() !== 'image' || request.method() !== 'GET' || !/^https?:/.test(url)) {
      return refuse('only http(s) images load from remote hosts');
    }
    try {
      const fetched = await fetchPublicImage(url, job.deadline - Date.now());
      const { headers, body, ...resource } = fetched;
      job.remote.push(resource);
      await route.fulfill({ status: fetched.status, headers, body });
    } catch (error) {
      await refuse((error as Error).message);
    }
  }

  #track(closing: Promise<unknown>): void {
    const settled = closing.catch(() => undefined);
    this.#closing.add(settled);
    void settled.then(() => this.#closing.delete(settled));
  }
}
