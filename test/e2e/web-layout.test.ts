// The harness page held to the console's layout in chromium: the bundled example and a dashboard of fixture
// widgets that reproduce the layout patterns of AWS's samples, at 1280 and 1920 px in both themes, with
// screenshots, layout facts read from the page, an accessibility check and no console errors. Every custom
// widget is drawn at scale 1 in its cell, and told that size.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { loadFunctionsFile } from '../../packages/harness/src/dashboard/index.js';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, recordPageProblems, type ChromiumHandle } from '../support/chromium.js';
import { FIXTURE_DASHBOARD, LONG_TITLE, fixtureFunctions } from './web-fixtures.js';
import { layoutFacts, screenshotPath, seriousViolations, settledAtWidth, type LayoutFacts } from './web-layout-facts.js';

const skip = chromiumSkipReason();
const EXAMPLE = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));
const STEP = { timeout: 60_000 };

async function createDashboard(url: string, name: string, text: string): Promise<string> {
  const res = await fetch(`${url}/api/dashboards?name=${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(text),
  });
  const body = await res.text();
  assert.equal(res.status, 201, body);
  return (JSON.parse(body) as { id: string }).id;
}

/** Waits until no widget is loading and the harness knows the page's dashboard width. */
const settled = (page: Page) => settledAtWidth(page, STEP.timeout);

/** The widgets of a dashboard that run again when their size changes (updateOn.resize). */
async function resizing(url: string, dashboard: string): Promise<Set<string>> {
  const info = (await (await fetch(`${url}/api/dashboards/${dashboard}`)).json()) as {
    widgets: { widgetId: string; updateOn: { resize: boolean } | null }[];
  };
  return new Set(info.widgets.filter((w) => w.updateOn?.resize).map((w) => w.widgetId));
}

/**
 * What every layout must satisfy. `told` names the widgets whose function must have been told the size they
 * are drawn at (all of them after a dashboard opens; after a resize, those with updateOn.resize).
 */
function assertCommonFacts(facts: LayoutFacts, label: string, told: (id: string) => boolean = () => true): void {
  assert.deepEqual(facts.overlaps, [], `${label}: cards overlap`);
  assert.deepEqual(facts.outside, [], `${label}: cards outside the grid`);
  for (const c of facts.cards) {
    assert.ok(c.frameInside, `${label}: the frame of ${c.id} sticks out of its card`);
    assert.equal(c.badgesOverTitle, false, `${label}: badges cover the title of ${c.id}`);
    assert.ok(c.titleWhole || c.titleShare >= 0.5, `${label}: the title of ${c.id} has ${c.titleShare.toFixed(2)} of its room`);
    assert.deepEqual(c.chromeOutside, [], `${label}: badges or buttons leave the card of ${c.id}`);
    if (c.frame && c.type === 'custom') {
      const f = c.frame;
      assert.ok(Math.abs(f.scale - 1) < 0.005, `${label}: ${c.id} is drawn at scale ${f.scale}`);
      assert.deepEqual([f.width, f.height], [f.bodyWidth, f.bodyHeight], `${label}: ${c.id} fills its cell's content area`);
      if (told(c.id)) {
        assert.ok(
          Math.abs(f.contextWidth - f.screenWidth) <= 2 && Math.abs(f.contextHeight - f.screenHeight) <= 2,
          `${label}: ${c.id} was told ${f.contextWidth} × ${f.contextHeight} and is ${f.screenWidth} × ${f.screenHeight} on screen`,
        );
      }
    }
  }
}

describe('harness page layout at the console fidelity, in chromium', { skip, timeout: 300_000 }, () => {
  let harness: RunningHarness;
  let browser: ChromiumHandle;
  let page: Page;
  let example: string;
  let fixtures: string;
  const received: any[] = [];
  const problems: string[] = [];

  before(async () => {
    const config = await loadFunctionsFile(`${EXAMPLE}functions.json`);
    harness = await startHarness({ port: 0, functions: { ...config, functions: { ...config.functions, ...fixtureFunctions(received) } } });
    example = await createDashboard(harness.url, 'example', readFileSync(`${EXAMPLE}dashboard.json`, 'utf8'));
    fixtures = await createDashboard(harness.url, 'samples', JSON.stringify(FIXTURE_DASHBOARD));
    // The example's functions start in child processes on their first call, which takes seconds on a busy
    // machine: read every widget once so the page's first reads are not what the tests wait for.
    await Promise.all(
      Array.from({ length: 12 }, (_, n) => fetch(`${harness.url}/api/dashboards/${example}/widgets/${n}`).then((r) => r.text())),
    );
    browser = await launchChromium({ viewport: { width: 1280, height: 900 } });
    page = await browser.context.newPage();
    page.setDefaultTimeout(STEP.timeout);
    recordPageProblems(page, problems);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  /**
   * Opens a dashboard in the page with the theme set through the API first: these tests are about the layout
   * in each theme (the theme button has tests of its own), so they do not depend on a click's timing. The page
   * leaves first: an open page writes its whole state when its width changes (opening the inspector narrows
   * the grid), and such a write landing after this one would put the old theme back.
   */
  async function openInTheme(dashboard: string, theme: 'light' | 'dark'): Promise<void> {
    await page.goto('about:blank');
    const state = (await (await fetch(`${harness.url}/api/dashboards/${dashboard}/state`)).json()) as Record<string, unknown>;
    const put = await fetch(`${harness.url}/api/dashboards/${dashboard}/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...state, theme }),
    });
    assert.equal(put.status, 200, await put.text());
    await page.goto(`${harness.url}/#/dashboards/${dashboard}`);
    await page.locator(`html[data-theme="${theme}"]`).waitFor(STEP);
    await settled(page);
  }

  for (const width of [1280, 1920]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`lays out the example at ${width} px in the ${theme} theme`, async () => {
        await page.setViewportSize({ width, height: 1000 });
        await openInTheme(example, theme);
        // The dashboards panel closes and the grid takes its room; widgets with updateOn.resize run at their new
        // size. (The dashboard stays loaded from one width to the next, so the others keep the size they were
        // first told; web-sizes.test.ts opens fresh dashboards.)
        const resizes = await resizing(harness.url, example);
        const before = await layoutFacts(page);
        await page.locator('#toggle-sidebar').click();
        await page.locator('#sidebar').waitFor({ state: 'hidden', ...STEP });
        assertCommonFacts(before, `example ${width} ${theme} with the dashboards panel open`, (id) => resizes.has(id));
        await settled(page);
        const facts = await layoutFacts(page);
        assert.ok(facts.gridWidth > before.gridWidth + 150, `${before.gridWidth} → ${facts.gridWidth}`);
        assert.ok(Math.abs(facts.gridWidth - facts.mainWidth) < 30, 'the grid takes the whole width of the page');
        assertCommonFacts(facts, `example ${width} ${theme}`, (id) => resizes.has(id));
        // The text widget (24 × 2) has no title bar and its Markdown fits.
        const text = facts.cards.find((c) => c.id === 'widget-0')!;
        assert.equal(text.hasHeader, false);
        assert.equal(text.overflowY, false, 'the example text widget is clipped');
        for (const c of facts.cards) assert.equal(c.state, 'ready', `${c.id} is ${c.state}`);
        await page.screenshot({ path: screenshotPath(`layout-example-${width}-${theme}.png`) });
        await page.locator('#toggle-sidebar').click();
        await page.locator('#sidebar').waitFor({ state: 'visible', ...STEP });
      });
    }
  }

  for (const width of [1280, 1920]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`lays out the sample patterns at ${width} px in the ${theme} theme`, async () => {
        await page.setViewportSize({ width, height: 1000 });
        await openInTheme(fixtures, theme);
        // Narrowest first: the dashboards panel and the inspector both open.
        const resizes = await resizing(harness.url, fixtures);
        await page.locator('#toggle-inspector').click();
        await settled(page);
        const narrow = await layoutFacts(page);
        assertCommonFacts(narrow, `samples ${width} ${theme} with both panels open`, (id) => resizes.has(id));
        for (const title of ['Hi', 'Bad HTML', 'Broken']) {
          assert.equal(narrow.cards.find((c) => c.title === title)!.titleWhole, true, `the title "${title}" is cut with both panels open`);
        }
        await page.locator('#toggle-inspector').click();
        await page.locator('#toggle-sidebar').click();
        await settled(page);
        const facts = await layoutFacts(page);
        assertCommonFacts(facts, `samples ${width} ${theme}`, (id) => resizes.has(id));
        const card = (title: string) => facts.cards.find((c) => c.title === title)!;
        // The pie (svg at calc(100% - 25px)) and its legend fit the widget's height; nothing scrolls.
        assert.deepEqual([card('Pyramid').overflowX, card('Pyramid').overflowY], [false, false]);
        const pie = await page
          .frameLocator('[data-widget-id="widget-1"] iframe')
          .locator('body')
          .evaluate(() => {
            const svg = document.querySelector('svg')!.getBoundingClientRect();
            const legend = document.querySelector('.legend')!.getBoundingClientRect();
            return { svg: svg.height, legendBottom: legend.bottom, viewport: document.documentElement.clientHeight };
          });
        assert.ok(pie.legendBottom <= pie.viewport + 0.5, JSON.stringify(pie));
        assert.ok(pie.svg > 0.8 * pie.viewport - 25, `the pie is ${pie.svg} px in ${pie.viewport} px`);
        // Short titles in 6-column widgets are shown whole next to their badges; a long one keeps most of its bar.
        assert.equal(card('Hi').titleWhole, true, 'the title "Hi" is cut');
        assert.equal(card('Bad HTML').titleWhole, true, 'the title "Bad HTML" is cut');
        assert.equal(card('Broken').titleWhole, true, 'the title "Broken" is cut');
        assert.ok(card(LONG_TITLE).titleShare >= 0.5);
        // The wide table scrolls inside its frame; the text widget is whole and has no title bar.
        assert.equal(card(LONG_TITLE).overflowX, true);
        assert.equal(facts.cards[0]!.hasHeader, false);
        assert.equal(facts.cards[0]!.overflowY, false);
        // Metric, log and alarm widgets are placeholders naming their type.
        for (const [title, type] of [
          ['Lambda invocations', 'Metric widget'],
          ['Errors in the log', 'Logs Insights widget'],
          ['Alarms', 'Alarm status widget'],
        ] as const) {
          assert.equal(card(title).state, 'placeholder');
          const id = card(title).id;
          assert.match(await page.locator(`[data-widget-id="${id}"] .placeholder`).innerText(), new RegExp(type));
        }
        await page.screenshot({ path: screenshotPath(`layout-samples-${width}-${theme}.png`), fullPage: true });
        await page.locator('#toggle-sidebar').click();
      });
    }
  }

  it('renders text-widget button links as the console does', async () => {
    await page.goto(`${harness.url}/#/dashboards/${fixtures}`);
    await settled(page);
    const text = page.frameLocator('[data-widget-id="widget-0"] iframe');
    assert.equal(await text.locator('a.btn.btn-primary').innerText(), 'Go');
    assert.equal(await text.locator('a.btn:not(.btn-primary)').innerText(), 'Docs');
  });

  it('passes the accessibility check with no serious or critical violation, in both themes', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await openInTheme(fixtures, theme);
      await page.locator('[data-widget-id="widget-2"] .inspect').click();
      await page.locator('#inspector .insp-title', { hasText: 'Context' }).waitFor(STEP);
      assert.deepEqual(await seriousViolations(page), [], `${theme} theme`);
    }
  });

  it('logged no console errors or warnings', () => {
    assert.deepEqual(problems, []);
  });
});
