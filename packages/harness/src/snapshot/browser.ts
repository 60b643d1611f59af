// The one Chromium a harness draws widget images with: started on the first image, through playwright-core (an
// optional peer dependency, loaded only then), and closed with the harness. Nothing else in the harness needs it.
import { createRequire } from 'node:module';
import type { Browser } from 'playwright-core';
import { ImageError } from './errors.js';
import { findChromium } from './find-chromium.js';

const PLAYWRIGHT_MISSING =
  'Widget images are drawn by Chromium through playwright-core, an optional peer dependency of trellis-harness that is not installed: npm install --save-dev playwright-core';

/** Chromium's switches: headless, and none of the features that reach the network on their own. */
const ARGS = [
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--disable-domain-reliability',
  '--font-render-hinting=none',
  // Every image's page is drawn in one renderer process, reused rather than started per image (a third of a
  // warm image's time on two cores). No script runs in any of them, so a page has nothing to take from another.
  '--renderer-process-limit=1',
  // An animated GIF shows its first frame, whenever the picture is taken (with the pointer settings Playwright
  // passes in the same switch, which this one replaces).
  '--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4,imageAnimationPolicy=2',
];

async function loadPlaywright(): Promise<typeof import('playwright-core')> {
  try {
    return await import('playwright-core');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new ImageError('TRELLIS_IMAGE_BROWSER_UNAVAILABLE', PLAYWRIGHT_MISSING);
    throw error;
  }
}

/**
 * Whether widget images can be drawn here: null when playwright-core and a Chromium are found, else one
 * sentence saying what to install. Nothing is started.
 *
 * @example
 * const missing = browserMissing(); // null, or 'Widget images need Chromium or Chrome, and none was found …'
 */
export function browserMissing(chromium?: string): string | null {
  try {
    // Resolved from this package, as the dynamic import above resolves it.
    createRequire(import.meta.url).resolve('playwright-core');
  } catch {
    return PLAYWRIGHT_MISSING;
  }
  const found = findChromium(chromium);
  return 'problem' in found ? found.problem : null;
}

/** A launched Chromium and what it is, for the images' metadata. */
export interface LaunchedBrowser {
  readonly browser: Browser;
  readonly executable: string;
  readonly version: string;
}

/**
 * Starts Chromium headless: the program `findChromium` chooses, through playwright-core. Throws an ImageError
 * (`TRELLIS_IMAGE_BROWSER_UNAVAILABLE`) saying what to install when there is none, or why it would not start.
 *
 * @example
 * const { browser } = await launchBrowser(undefined);
 */
export async function launchBrowser(chromium: string | undefined): Promise<LaunchedBrowser> {
  const found = findChromium(chromium);
  if ('problem' in found) throw new ImageError('TRELLIS_IMAGE_BROWSER_UNAVAILABLE', found.problem);
  const playwright = await loadPlaywright();
  let browser: Browser;
  try {
    browser = await playwright.chromium.launch({ executablePath: found.path, headless: true, args: ARGS, timeout: 30_000 });
  } catch (error) {
    const first = (error as Error).message.split('\n')[0];
    throw new ImageError('TRELLIS_IMAGE_BROWSER_UNAVAILABLE', `Chromium at ${found.path} (${found.source}) did not start: ${first}`);
  }
  return { browser, executable: found.path, version: browser.version() };
}
