// The page downloads any custom widget as the harness draws it: "Download image (PNG)" in the inspector calls the
// image endpoint (with the token of a harness that needs one) and saves the PNG under the harness's file name;
// without a browser on the harness's machine it says what to install. Without chromium the test skips with one
// line (and fails under CI=true).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, recordPageProblems, type ChromiumHandle } from '../support/chromium.js';

const skip = chromiumSkipReason();
const STEP = { timeout: 15_000 };
const functions = { functions: { hello: { handler: () => '<p class="hello">Hello</p><button class="btn btn-primary">Go</button>' } } };
const dashboard = JSON.stringify({
  widgets: [{ type: 'custom', x: 0, y: 0, width: 6, height: 4, properties: { endpoint: 'hello', title: 'Hello' } }],
});

async function openDashboard(page: Page, harness: RunningHarness, token?: string): Promise<void> {
  const created = await fetch(`${harness.url}/api/dashboards?name=images`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(dashboard),
  });
  assert.equal(created.status, 201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`${harness.url}/#/dashboards/${id}${token ? `&token=${token}` : ''}`);
  await page.locator('[data-widget-id="widget-0"][data-state="ready"]').waitFor(STEP);
  await page.locator('[data-widget-id="widget-0"] .inspect').click();
  await page.locator('#insp-image').waitFor(STEP);
}

describe('harness web page: a widget as an image', { skip, timeout: 120_000 }, () => {
  let browser: ChromiumHandle;
  const harnesses: RunningHarness[] = [];
  const problems: string[] = [];

  before(async () => {
    browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
  });
  after(async () => {
    await browser?.close();
    for (const h of harnesses) await h.close();
  });

  it('downloads the widget as a PNG at its size, named after the dashboard, the widget and the theme', async () => {
    const harness = await startHarness({ functions, port: 0 });
    harnesses.push(harness);
    const page = await browser.context.newPage();
    recordPageProblems(page, problems);
    await openDashboard(page, harness);
    // Opening the inspector narrowed the grid: once the widget has been told its new size, the page draws it there.
    await page.waitForFunction(
      () => {
        const frame = document.querySelector<HTMLIFrameElement>('[data-widget-id="widget-0"] iframe');
        return (
          frame !== null &&
          frame.dataset.contextWidth === String(frame.clientWidth) &&
          frame.dataset.contextHeight === String(frame.clientHeight)
        );
      },
      undefined,
      STEP,
    );
    const size = await page.locator('[data-widget-id="widget-0"] iframe').evaluate((f) => [f.clientWidth, f.clientHeight]);
    const [download] = await Promise.all([page.waitForEvent('download', STEP), page.locator('#insp-image').click()]);
    assert.equal(download.suggestedFilename(), 'images-widget-0-light.png');
    const png = PNG.sync.read(await readFile(await download.path()));
    assert.deepEqual([png.width, png.height], size, 'the size the page draws it at');
    await page.locator('#insp-image-status', { hasText: 'Saved images-widget-0-light.png.' }).waitFor(STEP);
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('sends the token of a harness that needs one', async () => {
    const harness = await startHarness({ functions, port: 0, host: '127.0.0.1', token: 'page-token' });
    harnesses.push(harness);
    const page = await browser.context.newPage();
    await openDashboard(page, harness, 'page-token');
    const [download] = await Promise.all([page.waitForEvent('download', STEP), page.locator('#insp-image').click()]);
    assert.equal(download.suggestedFilename(), 'images-widget-0-light.png');
    await page.close();
  });

  it('without a browser on the harness machine, says what to install', async () => {
    const harness = await startHarness({ functions, port: 0, images: { chromium: '/nonexistent/chromium' } });
    harnesses.push(harness);
    const page = await browser.context.newPage();
    await openDashboard(page, harness);
    await page.locator('#insp-image').click();
    const status = page.locator('#insp-image-status.bad');
    await status.waitFor(STEP);
    assert.match(
      (await status.textContent()) ?? '',
      /^No image: 503 Service Unavailable — Widget images need Chromium: the chromium option names/,
    );
    await page.close();
  });
});
