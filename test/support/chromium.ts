/**
 * Launches Debian's `chromium` through playwright-core for browser tests: headless, with the features that
 * reach the network turned off, in a fresh profile directory that `close()` removes.
 *
 * @example
 * const browser = await launchChromium();
 * try { const page = await browser.context.newPage(); ... } finally { await browser.close(); }
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * What a browser test file does when chromium is missing: in CI that is a failure, elsewhere the tests are
 * skipped with one line saying how to run them. Returns the `skip` option for `node:test`.
 */
export function chromiumSkipReason(): string | false {
  if (existsSync(CHROMIUM_PATH)) return false;
  const message = `chromium not found at ${CHROMIUM_PATH}: install it (apt-get install -y chromium) to run the browser tests`;
  if (process.env.CI === 'true') throw new Error(message);
  return message;
}

export interface ChromiumHandle {
  readonly context: BrowserContext;
  /** Closes the browser and removes its profile directory. */
  close(): Promise<void>;
}

/** Starts headless chromium with a fresh user-data directory. */
export async function launchChromium(
  options: { viewport?: { width: number; height: number }; timezoneId?: string } = {},
): Promise<ChromiumHandle> {
  const profile = mkdtempSync(join(tmpdir(), 'trellis-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: ARGS,
      viewport: options.viewport ?? { width: 1500, height: 1000 },
      ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
      timeout: 30_000,
    });
  } catch (error) {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  }
  return {
    context,
    close: async () => {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Records into `problems` what a page reports that a test should fail on: console errors and warnings, and uncaught errors. */
export function recordPageProblems(page: Page, problems: string[]): void {
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
}

/** An app served on a loopback port with Chromium beside it, for the tests of one `describe`. */
export interface ServedInChromium {
  /** The app's origin (`http://127.0.0.1:<port>`), once the suite's `before` has run. */
  readonly origin: string;
  /** Runs `use` in a new tab that records the page's problems, and closes the tab. */
  withTab<T>(use: (tab: Page, problems: string[]) => Promise<T>): Promise<T>;
}

/**
 * Serves `makeApp()` with `listen()` and launches Chromium before the surrounding suite's tests, and closes
 * both after them.
 *
 * @example
 * describe('in Chromium', { skip: chromiumSkipReason() }, () => {
 *   const served = servedInChromium(() => myApp());
 *   it('…', () => served.withTab(async (tab, problems) => { await tab.goto(`${served.origin}/`); … }));
 * });
 */
export function servedInChromium(makeApp: () => { listen(): Promise<{ url: string }>; close(): Promise<void> }): ServedInChromium {
  let app: ReturnType<typeof makeApp> | undefined;
  let browser: ChromiumHandle | undefined;
  let origin = '';
  before(async () => {
    app = makeApp();
    origin = (await app.listen()).url;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });
  return {
    get origin() {
      return origin;
    },
    async withTab(use) {
      const tab = await browser!.context.newPage();
      const problems: string[] = [];
      recordPageProblems(tab, problems);
      try {
        return await use(tab, problems);
      } finally {
        await tab.close();
      }
    },
  };
}
