// The page's time controls, widget sizes, panels, focus and the inspector's documentation in chromium, in a
// browser whose own timezone is New York: the timezone switch, custom ranges read and labelled in the
// dashboard's zone, the period override, a size for one widget, a fixed dashboard width, and focus going back
// where it came from.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, recordPageProblems, type ChromiumHandle } from '../support/chromium.js';
import { FIXTURE_DASHBOARD, fixtureFunctions } from './web-fixtures.js';
import { settledAtWidth } from './web-layout-facts.js';

const skip = chromiumSkipReason();
const STEP = { timeout: 15_000 };
const ZONE = 'America/New_York';

describe('harness page controls in chromium (browser in New York)', { skip, timeout: 180_000 }, () => {
  let harness: RunningHarness;
  let browser: ChromiumHandle;
  let page: Page;
  let id: string;
  const received: any[] = [];
  const problems: string[] = [];
  const context = (): FrameLocator => page.frameLocator('[data-widget-id="widget-2"] iframe');
  const last = () => received.at(-1).widgetContext;
  const state = async () => await (await fetch(`${harness.url}/api/dashboards/${id}/state`)).json();
  /** Waits until the context widget has run again (its function is called once more). */
  const nextCall = async (act: () => Promise<unknown>) => {
    const before = received.length;
    await act();
    await page.waitForFunction(
      () => document.querySelector('[data-widget-id="widget-2"]')?.getAttribute('data-state') === 'ready',
      null,
      STEP,
    );
    // As long as any other step may take: on a loaded machine a function's run can outlast 5 s.
    for (const until = Date.now() + 15_000; received.length === before && Date.now() < until;) await page.waitForTimeout(50);
    assert.ok(received.length > before, 'the context widget did not run again');
    await page.locator('[data-widget-id="widget-2"][data-state="ready"]:not([aria-busy])').waitFor(STEP);
  };

  before(async () => {
    harness = await startHarness({ port: 0, functions: { functions: fixtureFunctions(received) } });
    const res = await fetch(`${harness.url}/api/dashboards?name=controls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(JSON.stringify(FIXTURE_DASHBOARD)),
    });
    id = ((await res.json()) as { id: string }).id;
    browser = await launchChromium({ viewport: { width: 1600, height: 1000 }, timezoneId: ZONE });
    page = await browser.context.newPage();
    page.setDefaultTimeout(STEP.timeout);
    recordPageProblems(page, problems);
    await page.goto(`${harness.url}/#/dashboards/${id}`);
    await page.locator('[data-widget-id="widget-2"][data-state="ready"]').waitFor(STEP);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('switches between UTC and local time, with getTimezoneOffset() signs in widgetContext.timezone', async () => {
    assert.deepEqual(last().timezone, { label: 'UTC', offsetISO: '+00:00', offsetInMinutes: 0 });
    await nextCall(() => page.locator('#timezone').selectOption(ZONE));
    const offset = await page.evaluate(() => new Date().getTimezoneOffset());
    assert.ok(offset === 300 || offset === 240);
    assert.deepEqual(last().timezone, { label: 'Local', offsetISO: `-0${offset / 60}:00`, offsetInMinutes: offset });
    assert.match(await context().locator('.tz').innerText(), new RegExp(`Local -0${offset / 60}:00 ${offset}`));
  });

  it('reads a custom range in the dashboard timezone and labels it there', async () => {
    await page.locator('#custom-range summary').click();
    await page.locator('#custom-range-form input[name="start"]').fill('2024-01-15T00:00');
    await page.locator('#custom-range-form input[name="end"]').fill('2024-01-16T00:00');
    assert.equal(await page.locator('#custom-zone').innerText(), `Times in ${ZONE}`);
    await nextCall(() => page.getByRole('button', { name: 'Apply' }).first().click());
    // Midnight in New York in January is 05:00 UTC.
    assert.deepEqual((await state()).timeRange, { start: Date.UTC(2024, 0, 15, 5), end: Date.UTC(2024, 0, 16, 5) });
    assert.equal(last().timeRange.start, Date.UTC(2024, 0, 15, 5));
    // As below: the label is drawn once the page has the new state, which may come after the widget's call.
    await page.locator('#custom-range summary', { hasText: '2024-01-15 00:00' }).waitFor(STEP);
    assert.equal(await page.locator('#custom-range summary').innerText(), '2024-01-15 00:00 – 2024-01-16 00:00');
    await nextCall(() => page.locator('#timezone').selectOption('UTC'));
    // The label is drawn again once the page has the new state, which may be after the widget's call.
    await page.locator('#custom-range summary', { hasText: '05:00' }).waitFor(STEP);
    assert.equal(await page.locator('#custom-range summary').innerText(), '2024-01-15 05:00 – 2024-01-16 05:00');
    assert.deepEqual(last().timezone, { label: 'UTC', offsetISO: '+00:00', offsetInMinutes: 0 });
  });

  it('overrides the period, and goes back to auto', async () => {
    await nextCall(() => page.locator('#period').selectOption('3600'));
    assert.deepEqual([last().period, last().isAutoPeriod], [3600, false]);
    assert.equal(await context().locator('.period').innerText(), '3600 fixed');
    await nextCall(() => page.locator('#period').selectOption('auto'));
    assert.deepEqual([last().period, last().isAutoPeriod], [300, true]);
  });

  it('sets a size for one widget in the inspector: it reaches that widget, drawn unscaled; "Use its cell" goes back', async () => {
    // Opening the inspector narrows the grid: the context widget (updateOn.resize) runs again at its new size.
    await page.locator('[data-widget-id="widget-2"] .inspect').click();
    await settledAtWidth(page, STEP.timeout);
    const pie = page.locator('[data-widget-id="widget-1"]');
    const pieCalls = await pie.getAttribute('data-invocations');
    await page.locator('#insp-size summary').click();
    await page.locator('#insp-size-form input[name="width"]').fill('400');
    await page.locator('#insp-size-form input[name="height"]').fill('250');
    await nextCall(() => page.locator('#insp-size-form button[type="submit"]').click());
    assert.deepEqual([last().width, last().height], [400, 250]);
    const event = (await (await fetch(`${harness.url}/api/dashboards/${id}/widgets/widget-2`)).json()) as { event: string };
    assert.equal(event.event, 'resize');
    assert.deepEqual((await state()).widgetSizes, { 'widget-2': { width: 400, height: 250 } });
    const drawn = () =>
      page.locator('[data-widget-id="widget-2"] iframe').evaluate((f) => {
        const r = f.getBoundingClientRect();
        return [r.width, r.height, getComputedStyle(f).transform];
      });
    assert.deepEqual(await drawn(), [400, 250, 'none']);
    assert.equal(await context().locator('.size').innerText(), '400x250');
    assert.equal(await page.locator('[data-widget-id="widget-2"] .badge.own-size').innerText(), '400 × 250');
    // Only the widget whose size changed runs again.
    assert.equal(await pie.getAttribute('data-invocations'), pieCalls);
    await nextCall(() => page.locator('#insp-size-cell').click());
    assert.deepEqual((await state()).widgetSizes, {});
    // The function has run; its new content may still be on its way to the page: measure once it shows.
    await context()
      .locator('.size', { hasText: `${last().width}x${last().height}` })
      .waitFor(STEP);
    const body = await page.locator('[data-widget-id="widget-2"] .widget-body').evaluate((b) => [b.clientWidth, b.clientHeight]);
    assert.deepEqual([last().width, last().height], body);
    assert.deepEqual((await drawn()).slice(0, 2), body);
  });

  it('a fixed width lays the dashboard out that wide and tells widgets their cells there; Window follows the window again', async () => {
    await nextCall(() => page.locator('#dashboard-width').selectOption('2392'));
    assert.equal((await state()).dashboardWidth, 2392);
    // 12 columns and 9 rows at 2392 px: round(12 × 2392 / 24) − 10 by 9 × 68 − 39.
    assert.deepEqual([last().width, last().height], [1186, 573]);
    assert.equal(await page.locator('#grid').evaluate((g) => g.getBoundingClientRect().width), 2392);
    assert.equal(await page.locator('#dashboard').evaluate((m) => m.scrollWidth > m.clientWidth), true, 'the page scrolls sideways');
    await nextCall(() => page.locator('#dashboard-width').selectOption('window'));
    const measured = await page.locator('#grid').evaluate((g) => Math.floor(g.getBoundingClientRect().width));
    assert.equal((await state()).dashboardWidth, measured);
    assert.equal(last().width, Math.round((12 * measured) / 24) - 10);
  });

  it('gives focus back to the element that opened a popup or a confirmation, and shows a focus ring on the frame', async () => {
    const focusedInFrame = () =>
      page.evaluate(() => {
        const frame = document.activeElement as HTMLIFrameElement;
        return frame?.localName === 'iframe'
          ? (frame.contentDocument?.activeElement?.textContent ?? null)
          : `page: ${frame?.id ?? frame?.localName}`;
      });
    await context().getByText('Popup', { exact: true }).focus();
    const ring = await page.locator('[data-widget-id="widget-2"]').evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.notEqual(ring, 'none');
    await page.keyboard.press('Enter');
    await page.frameLocator('#popup-body iframe').locator('.in-popup').waitFor(STEP);
    await page.keyboard.press('Escape');
    await page.locator('#popup-dialog').waitFor({ state: 'hidden', ...STEP });
    await page.waitForFunction(
      () => (document.activeElement as HTMLIFrameElement)?.contentDocument?.activeElement?.textContent === 'Popup',
      null,
      STEP,
    );
    assert.equal(await focusedInFrame(), 'Popup');

    await context().getByText('Ask', { exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.locator('#confirm-dialog').waitFor({ state: 'visible', ...STEP });
    await page.keyboard.press('Escape');
    await page.locator('#confirm-dialog').waitFor({ state: 'hidden', ...STEP });
    await page.waitForFunction(
      () => (document.activeElement as HTMLIFrameElement)?.contentDocument?.activeElement?.textContent === 'Ask',
      null,
      STEP,
    );
    // The widget shows itself busy until the harness has recorded the cancelled action; an action started
    // while it is busy is ignored, as a user sees, so activate it again once it is ready.
    await page.locator('[data-widget-id="widget-2"][data-state="ready"]:not([aria-busy])').waitFor(STEP);
    // Confirmed, the action replaces the widget's content; focus goes to the same action in the new content.
    await page.keyboard.press('Enter');
    await page.locator('#confirm-dialog').waitFor({ state: 'visible', ...STEP });
    await nextCall(() => page.locator('#confirm-ok').press('Enter'));
    await page.waitForFunction(
      () => (document.activeElement as HTMLIFrameElement)?.contentDocument?.activeElement?.textContent === 'Ask',
      null,
      STEP,
    );

    await page.locator('#custom-range summary').click();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('#custom-range').getAttribute('open'), null);
    assert.equal(
      await page.evaluate(
        () => document.activeElement?.closest('#custom-range') !== null && document.activeElement?.localName === 'summary',
      ),
      true,
    );
  });

  it('shows the function documentation rendered from Markdown, with a raw toggle', async () => {
    await page.locator('[data-widget-id="widget-2"] .inspect').click();
    await page.getByRole('button', { name: /documentation/ }).click();
    const doc = page.frameLocator('#insp-doc-body iframe');
    await doc.locator('h2', { hasText: 'Context printer' }).waitFor(STEP);
    assert.equal(await doc.locator('table th').first().innerText(), 'Param');
    await page.locator('#insp-doc-raw').click();
    assert.match(await page.locator('#insp-doc-text').innerText(), /^## Context printer/);
    assert.equal(await page.locator('#insp-doc-raw').getAttribute('aria-pressed'), 'true');
    await page.locator('#insp-doc-raw').click();
    await doc.locator('h2').waitFor(STEP);
  });

  it('closes the inspector and the dashboards panel, giving the grid their room', async () => {
    const width = () => page.locator('#grid').evaluate((g) => g.clientWidth);
    const open = await width();
    await page.locator('#inspector .panel-close').click();
    await page.locator('#inspector').waitFor({ state: 'hidden', ...STEP });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'toggle-inspector');
    assert.equal(await page.locator('#toggle-inspector').getAttribute('aria-expanded'), 'false');
    await page.locator('#toggle-sidebar').click();
    const closed = await width();
    assert.ok(closed > open + 500, `${open} → ${closed}`);
    const main = await page.locator('#dashboard').evaluate((m) => m.clientWidth);
    assert.ok(main - closed < 30);
  });

  it('logged no console errors or warnings', () => {
    assert.deepEqual(problems, []);
  });
});
