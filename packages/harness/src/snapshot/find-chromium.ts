// Where the Chromium that draws widget images is found, in the documented order: the path given (option, then
// TRELLIS_CHROMIUM), the system's Chromium or Chrome, then Playwright's browser cache. Nothing is downloaded.
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';

/** What the lookup sees of the machine; tests give their own. */
export interface ChromiumLookupEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
  readonly home: string;
}

/** The program to start, or why there is none (one message saying what to install). */
export type ChromiumLookup = { readonly path: string; readonly source: string } | { readonly problem: string };

/** The programs searched for on PATH, in order. */
const PATH_NAMES = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];

/** Where browsers are installed outside PATH, per platform. */
function installedPaths(platform: NodeJS.Platform, env: ChromiumLookupEnvironment['env'], home: string): string[] {
  if (platform === 'darwin') {
    return [
      '/Applications/Chromium.app/Contents/MacOS/Chromium',
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      join(home, 'Applications/Chromium.app/Contents/MacOS/Chromium'),
      join(home, 'Applications/Google Chrome.app/Contents/MacOS/Google Chrome'),
    ];
  }
  if (platform === 'win32') {
    return [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA]
      .filter((dir): dir is string => typeof dir === 'string' && dir !== '')
      .flatMap((dir) => [join(dir, 'Google', 'Chrome', 'Application', 'chrome.exe'), join(dir, 'Chromium', 'Application', 'chrome.exe')]);
  }
  return [
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome-stable',
    '/usr/bin/google-chrome',
    '/snap/bin/chromium',
    '/opt/google/chrome/chrome',
  ];
}

/** Playwright's browser cache: PLAYWRIGHT_BROWSERS_PATH, else its default folder for the platform. */
function playwrightCache(platform: NodeJS.Platform, env: ChromiumLookupEnvironment['env'], home: string): string {
  const given = env.PLAYWRIGHT_BROWSERS_PATH;
  if (given && given !== '0') return given;
  if (platform === 'darwin') return join(home, 'Library', 'Caches', 'ms-playwright');
  if (platform === 'win32') return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'ms-playwright');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'ms-playwright');
}

/** The programs inside one of Playwright's browser folders, across its layouts (Chromium builds, Chrome for Testing, headless shell). */
const PLAYWRIGHT_PROGRAMS = [
  'chrome-linux64/chrome',
  'chrome-linux/chrome',
  'chrome-headless-shell-linux64/chrome-headless-shell',
  'chrome-linux/headless_shell',
  'chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing',
  'chrome-mac/Chromium.app/Contents/MacOS/Chromium',
  'chrome-headless-shell-mac-arm64/chrome-headless-shell',
  'chrome-headless-shell-mac-x64/chrome-headless-shell',
  'chrome-mac/headless_shell',
  'chrome-win64/chrome.exe',
  'chrome-win/chrome.exe',
  'chrome-headless-shell-win64/chrome-headless-shell.exe',
  'chrome-win/headless_shell.exe',
];

function isProgram(path: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    if (platform !== 'win32') accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Playwright's Chromium builds in its cache, newest revision first (full builds before headless shells). */
function playwrightPrograms(cache: string, platform: NodeJS.Platform): string[] {
  let names: string[];
  try {
    names = readdirSync(cache);
  } catch {
    return [];
  }
  const revision = (name: string) => Number(/-(\d+)$/.exec(name)?.[1] ?? 0);
  const folders = names
    .filter((name) => /^chromium(_headless_shell)?-\d+$/.test(name))
    .sort((a, b) => Number(a.includes('headless')) - Number(b.includes('headless')) || revision(b) - revision(a));
  return folders
    .flatMap((folder) => PLAYWRIGHT_PROGRAMS.map((program) => join(cache, folder, program)))
    .filter((p) => isProgram(p, platform));
}

/**
 * Finds the Chromium to draw widget images with: `explicit` (the `chromium` option or `--chromium`), else
 * `TRELLIS_CHROMIUM`, else Chromium or Chrome on PATH or where it installs, else a Chromium in Playwright's
 * browser cache. A path that is given and is not a program is a problem, not a reason to look elsewhere.
 *
 * @example
 * const found = findChromium(undefined); // { path: '/usr/bin/chromium', source: 'PATH' } or { problem: 'Widget images need …' }
 */
export function findChromium(
  explicit: string | undefined,
  machine: ChromiumLookupEnvironment = { env: process.env, platform: process.platform, home: homedir() },
): ChromiumLookup {
  const { env, platform, home } = machine;
  for (const [given, source] of [
    [explicit, 'the chromium option'],
    [env.TRELLIS_CHROMIUM, 'TRELLIS_CHROMIUM'],
  ] as const) {
    if (given === undefined || given === '') continue;
    if (isProgram(given, platform)) return { path: given, source };
    return {
      problem: `Widget images need Chromium: ${source} names ${given}, which is not a program on this machine. Give the path of a Chromium or Chrome program.`,
    };
  }
  const pathDirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  const exe = platform === 'win32' ? '.exe' : '';
  for (const name of PATH_NAMES) {
    for (const dir of pathDirs) {
      const candidate = join(dir, `${name}${exe}`);
      if (isProgram(candidate, platform)) return { path: candidate, source: 'PATH' };
    }
  }
  for (const candidate of installedPaths(platform, env, home)) {
    if (isProgram(candidate, platform)) return { path: candidate, source: 'installed' };
  }
  const cache = playwrightCache(platform, env, home);
  const cached = playwrightPrograms(cache, platform)[0];
  if (cached) return { path: cached, source: "Playwright's browser cache" };
  return {
    problem:
      `Widget images need Chromium or Chrome, and none was found (looked at TRELLIS_CHROMIUM, ${PATH_NAMES.join(', ')} on PATH, ` +
      `where Chrome installs, and Playwright's browsers in ${cache}). Install one: apt-get install chromium (Debian, Ubuntu), ` +
      'Google Chrome, or npx playwright-core install chromium; or set TRELLIS_CHROMIUM to the program.',
  };
}
