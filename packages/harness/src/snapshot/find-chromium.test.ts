import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findChromium, type ChromiumLookupEnvironment } from './find-chromium.js';

const root = mkdtempSync(join(tmpdir(), 'trellis-find-chromium-'));
after(() => rmSync(root, { recursive: true, force: true }));

function program(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

/** A macOS-shaped machine with nothing installed where Chrome installs, so only what a test makes is found. */
const machine = (env: Record<string, string>, home = join(root, 'home')): ChromiumLookupEnvironment => ({ env, platform: 'darwin', home });

describe('findChromium', () => {
  it('takes the path given, then TRELLIS_CHROMIUM, before anything on the machine', () => {
    const given = program(join(root, 'given', 'chrome'));
    const variable = program(join(root, 'variable', 'chromium'));
    const onPath = program(join(root, 'bin', 'chromium'));
    const env = { TRELLIS_CHROMIUM: variable, PATH: dirname(onPath) };
    assert.deepEqual(findChromium(given, machine(env)), { path: given, source: 'the chromium option' });
    assert.deepEqual(findChromium(undefined, machine(env)), { path: variable, source: 'TRELLIS_CHROMIUM' });
    assert.deepEqual(findChromium(undefined, machine({ PATH: dirname(onPath) })), { path: onPath, source: 'PATH' });
  });

  it('a path given that is not a program is a problem naming it, not a reason to look elsewhere', () => {
    const onPath = program(join(root, 'bin2', 'google-chrome'));
    const missing = join(root, 'nowhere', 'chrome');
    const found = findChromium(undefined, machine({ TRELLIS_CHROMIUM: missing, PATH: dirname(onPath) }));
    assert.ok('problem' in found);
    assert.match(found.problem, new RegExp(`TRELLIS_CHROMIUM names ${missing}, which is not a program`));
    writeFileSync(join(root, 'not-executable'), '');
    assert.ok('problem' in findChromium(join(root, 'not-executable'), machine({})));
  });

  it("finds Playwright's newest Chromium in its cache (PLAYWRIGHT_BROWSERS_PATH, else the platform's folder), full builds before headless shells", () => {
    const cache = join(root, 'pw');
    program(join(cache, 'chromium-1100', 'chrome-mac', 'Chromium.app', 'Contents', 'MacOS', 'Chromium'));
    const newest = program(
      join(cache, 'chromium-1200', 'chrome-mac-arm64', 'Google Chrome for Testing.app', 'Contents', 'MacOS', 'Google Chrome for Testing'),
    );
    program(join(cache, 'chromium_headless_shell-1300', 'chrome-headless-shell-mac-arm64', 'chrome-headless-shell'));
    assert.deepEqual(findChromium(undefined, machine({ PLAYWRIGHT_BROWSERS_PATH: cache })), {
      path: newest,
      source: "Playwright's browser cache",
    });
    const home = join(root, 'home-with-cache');
    const linux = program(join(home, '.cache', 'ms-playwright', 'chromium-1200', 'chrome-linux64', 'chrome'));
    const lookup = findChromium(undefined, { env: { PATH: '' }, platform: 'linux', home });
    // A Linux machine may have its own Chromium installed, which comes first.
    assert.ok('path' in lookup && (lookup.path === linux || lookup.source === 'installed'), JSON.stringify(lookup));
  });

  it('with none anywhere, one sentence saying where it looked and what to install', () => {
    const found = findChromium(undefined, machine({ PATH: join(root, 'empty') }, join(root, 'empty-home')));
    assert.ok('problem' in found);
    assert.match(
      found.problem,
      /^Widget images need Chromium or Chrome, and none was found \(looked at TRELLIS_CHROMIUM, chromium, .* on PATH/,
    );
    assert.match(found.problem, /Library\/Caches\/ms-playwright\)/);
    assert.match(
      found.problem,
      /apt-get install chromium .*npx playwright-core install chromium; or set TRELLIS_CHROMIUM to the program\.$/,
    );
  });
});
