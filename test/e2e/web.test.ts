// The harness web page in a real browser (Debian's chromium through playwright-core), clicking through the
// bundled example dashboard against the real harness HTTP API.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FrameLocator, Page } from 'playwright-core';
import { loadFunctionsFile } from '../../packages/harness/src/dashboard/index.js';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, recordPageProblems, type ChromiumHandle } from '../support/chromium.js';
import { settledAtWidth } from './web-layout-facts.js';

const skip = chromiumSkipReason();
const EXAMPLE = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const STEP = { timeout: 15_000 };

/** The harness as `trellis harness` runs it: the bundled example's functions, the page at `/`. */
async function startWithPage(): Promise<RunningHarness> {
  return startHarness({ functions: await loadFunctionsFile(`${EXAMPLE}functions.json`), port: 0 });
}

describe('harness web page in chromium', { skip, timeout: 180_000 }, () => {
  let harness: RunningHarness;
  let browser: ChromiumHandle;
  let page: Page;
  const problems: string[] = [];
  const widget = (n: number) => page.locator(`[data-widget-id="widget-${n}"]`);
  const frameOf = (n: number): FrameLocator => page.frameLocator(`[data-widget-id="widget-${n}"] iframe`);
  const ready = (n: number) => page.locator(`[data-widget-id="widget-${n}"][data-state="ready"]`).waitFor(STEP);
  const calls = async (n: number) => Number(await widget(n).getAttribute('data-invocations'));

  before(async () => {
    harness = await startWithPage();
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(STEP.timeout);
    recordPageProblems(page, problems);
    await page.goto(`${harness.url}/`);
    await page.locator('body[data-ready="true"]').waitFor(STEP);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('starts empty and refuses an invalid dashboard with the validation messages', async () => {
    assert.equal(await page.locator('#no-dashboards').isVisible(), true);
    await page.getByRole('button', { name: 'Load dashboard' }).click();
    await page.locator('#loader-json').fill('{"widgets":[{"type":"custom","width":30,"properties":{}}]}');
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.locator('#loader-errors li').first().waitFor(STEP);
    assert.match(await page.locator('#loader-errors').innerText(), /\/widgets\/0\/width/);
    assert.equal(await page.locator('.dash-link').count(), 0);
    // The browser reports the refused request itself; that one line is expected, nothing else.
    assert.deepEqual(problems.splice(0), ['error: Failed to load resource: the server responded with a status of 400 (Bad Request)']);
  });

  it('loads the bundled example by pasting its JSON and lays it out on the 24-column grid', async () => {
    await page.locator('#loader-name').fill('example');
    await page.locator('#loader-json').fill(readFileSync(`${EXAMPLE}dashboard.json`, 'utf8'));
    await page.getByRole('button', { name: 'Load', exact: true }).click();
    await page.locator('.dash-link', { hasText: 'example' }).waitFor(STEP);
    // The first read starts each function's child process, which takes seconds on a busy machine.
    for (const n of [0, 1, 2, 3, 4]) await page.locator(`[data-widget-id="widget-${n}"][data-state="ready"]`).waitFor({ timeout: 90_000 });
    assert.equal(await page.locator('#loader').isHidden(), true);
    assert.match(await frameOf(0).locator('h1').innerText(), /Trellis example dashboard/);
    const [text, inventory, greeter, context] = await Promise.all([0, 1, 2, 3].map((n) => widget(n).boundingBox()));
    // Text widget 24 wide on row 0; inventory and greeter side by side (x 0 and 12, width 12); context below.
    assert.ok(text && inventory && greeter && context);
    assert.ok(Math.abs(inventory.width - greeter.width) < 2);
    assert.ok(Math.abs(text.width - (greeter.x + greeter.width - inventory.x)) < 2);
    assert.ok(Math.abs(inventory.y - greeter.y) < 1 && greeter.x > inventory.x + inventory.width - 1);
    assert.ok(context.y >= inventory.y + inventory.height);
    assert.match(await frameOf(4).locator('body').innerText(), /Orders status/);
    assert.equal(await calls(1), 1);
  });

  it('a call action replaces the widget, and the inspector shows the raw value, findings and count', async () => {
    await frameOf(1).getByRole('button', { name: 'Next page' }).click();
    await frameOf(1).getByText('Page 2 of 5').waitFor(STEP);
    await ready(1);
    assert.equal(await calls(1), 2);
    await widget(1).getByRole('button', { name: 'Inspect' }).click();
    await page.locator('#inspector .insp-title', { hasText: 'Inventory' }).waitFor(STEP);
    assert.match(await page.locator('#insp-raw').innerText(), /Page 2 of 5/);
    assert.match(await page.locator('#inspector .stats').innerText(), /Invocations\s*2/);
    assert.match(await page.locator('#insp-event').innerText(), /"page": 2/);
  });

  it('a popup opens with the function result and closes, leaving the widget as it was', async () => {
    const firstId = (await frameOf(1).locator('table a').first().innerText()).trim();
    await frameOf(1).locator('table a').first().click();
    const popup = page.locator('#popup-dialog');
    await popup.waitFor({ state: 'visible', ...STEP });
    await page.frameLocator('#popup-body iframe').locator('h4', { hasText: firstId }).waitFor(STEP);
    await page.getByRole('button', { name: 'Close popup' }).click();
    await popup.waitFor({ state: 'hidden', ...STEP });
    await frameOf(1).getByText('Page 2 of 5').waitFor(STEP);
  });

  it('a form value typed in the widget reaches the function', async () => {
    await frameOf(2).getByRole('textbox', { name: 'Name' }).fill('Ada');
    const before = await calls(2);
    await frameOf(2).getByRole('button', { name: 'Greet' }).click();
    await frameOf(2).getByText('Hello, Ada').waitFor(STEP);
    await ready(2);
    assert.equal(await calls(2), before + 1);
    await widget(2).getByRole('button', { name: 'Inspect' }).click();
    await page.locator('#inspector .insp-title', { hasText: 'Greeter' }).waitFor(STEP);
    assert.match(await page.locator('#insp-event').innerText(), /"visitor": "Ada"/);
  });

  it('a confirmation can be cancelled (nothing is called) and then confirmed', async () => {
    const before = await calls(2);
    await frameOf(2).getByRole('button', { name: 'Clear' }).click();
    const dialog = page.locator('#confirm-dialog');
    await dialog.waitFor({ state: 'visible', ...STEP });
    assert.equal(await page.locator('#confirm-text').innerText(), 'Clear the greeting?');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden', ...STEP });
    await page.locator('#status', { hasText: 'Cancelled' }).waitFor(STEP);
    assert.equal(await calls(2), before);
    await frameOf(2).getByText('Hello, Ada').waitFor(STEP);

    await frameOf(2).getByRole('button', { name: 'Clear' }).click();
    await dialog.waitFor({ state: 'visible', ...STEP });
    await page.getByRole('button', { name: 'Confirm' }).click();
    await frameOf(2).getByText('Nobody greeted yet.').waitFor(STEP);
    await ready(2);
    assert.equal(await calls(2), before + 1);
  });

  it('an html action opens its content as a popup without calling anything', async () => {
    const before = await calls(2);
    await frameOf(2).getByRole('button', { name: 'About' }).click();
    await page.frameLocator('#popup-body iframe').getByText('About this widget').waitFor(STEP);
    await page.keyboard.press('Escape');
    await page.locator('#popup-dialog').waitFor({ state: 'hidden', ...STEP });
    assert.equal(await calls(2), before);
  });

  it('actions work from the keyboard and focus is visible', async () => {
    const next = frameOf(1).getByRole('button', { name: 'Next page' });
    await next.focus();
    await page.keyboard.press('Enter');
    await frameOf(1).getByText('Page 3 of 5').waitFor(STEP);
    await ready(1);
    await page.locator('#refresh').focus();
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      return { id: el.id, style: getComputedStyle(el).outlineStyle, width: getComputedStyle(el).outlineWidth };
    });
    assert.equal(outline.id, 'auto-refresh');
    assert.notEqual(outline.style, 'none');
    assert.notEqual(outline.width, '0px');
  });

  it('refresh restores the widget an action replaced', async () => {
    const before = await calls(1);
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await frameOf(1).getByText('Page 1 of 5').waitFor(STEP);
    await page.locator('#status', { hasText: 'Refreshed' }).waitFor(STEP);
    await ready(1);
    assert.equal(await calls(1), before + 1);
  });

  it('the time range picker re-invokes the widgets that follow it', async () => {
    await page.getByRole('button', { name: '1h', exact: true }).click();
    await frameOf(3)
      .getByText(/last 60 min/)
      .waitFor(STEP);
    assert.equal(await page.getByRole('button', { name: '1h', exact: true }).getAttribute('aria-pressed'), 'true');
    await frameOf(4).getByText('Window: 1.0 h').waitFor(STEP);
  });

  it('the dark theme applies to the page, the widgets and the event', async () => {
    // The README's screenshots: a 1920 px window with the dashboards panel closed and the inspector open.
    const shoot = async (name: string) => {
      if (!process.env.WEB_SCREENSHOTS) return;
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.locator('#toggle-sidebar').click();
      // Widgets that run again on resize show their new size before the picture is taken.
      await settledAtWidth(page, STEP.timeout);
      await page.screenshot({ path: `${SCREENSHOTS}${name}` });
      await page.locator('#toggle-sidebar').click();
      await page.setViewportSize({ width: 1500, height: 1000 });
    };
    await shoot('harness-light.png');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await frameOf(3).locator('.theme', { hasText: 'dark' }).waitFor(STEP);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(
      await frameOf(2)
        .locator('html')
        .getAttribute('class')
        .then((c) => /cwdb-theme-dark/.test(c ?? '')),
      true,
    );
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, 'rgb(22, 25, 31)');
    for (const n of [0, 1, 2, 3, 4]) await ready(n);
    await shoot('harness-dark.png');
    await page.getByRole('button', { name: 'Light theme' }).click();
    await frameOf(3).locator('.theme', { hasText: 'light' }).waitFor(STEP);
  });

  it('loads a dashboard from a chosen file; what the console would strip is listed and highlighted, never run', async () => {
    await page.getByRole('button', { name: 'Load dashboard' }).click();
    const markdown = '## From a file\n\n<b onclick="steal()">bold</b>\n<script>window.ran = true</script>';
    const text = JSON.stringify({ widgets: [{ type: 'text', x: 0, y: 0, width: 8, height: 4, properties: { markdown } }] });
    await page.locator('#loader-file').setInputFiles({ name: 'from-file.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.locator('.dash-link', { hasText: 'from-file' }).waitFor(STEP);
    await page.locator('#dashboard-title', { hasText: 'from-file' }).waitFor(STEP);
    await ready(0);
    await frameOf(0).getByText('From a file').waitFor(STEP);
    assert.equal(await frameOf(0).locator('script').count(), 0);
    assert.equal(await frameOf(0).locator('b', { hasText: 'bold' }).getAttribute('onclick'), null);
    assert.equal(await page.evaluate(() => (window as unknown as { ran?: boolean }).ran), undefined);
    await widget(0).getByRole('button', { name: 'Inspect' }).click();
    const findings = page.locator('#insp-findings .finding');
    await findings.first().waitFor(STEP);
    const listed = await findings.allInnerTexts();
    assert.ok(listed.some((f) => /script/.test(f)) && listed.some((f) => /onclick/.test(f)), listed.join('\n'));
    assert.match(await page.locator('#inspector .stats').innerText(), new RegExp(`Findings\\s*${listed.length}`));
    assert.equal(await page.locator('#insp-findings .src-hit').count(), 2);
  });

  it('logged no console errors or warnings in the browser', () => {
    assert.deepEqual(problems, []);
  });
});
