// Widgets at their real size on the page, in chromium: at 1280 and 1920 px in both themes, every custom widget
// of the bundled example, of the sample patterns and of a dashboard of one-column widgets is drawn at scale 1
// in its cell, told exactly that size (as its function received it), its text shows at its CSS size, and no
// badge or button leaves its card. A side panel or the window changes every cell: widgets with
// updateOn.resize run again at their new size, the others reflow without running. The driver and the API give
// a widget the size the page draws at the same dashboard width.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { cellPixelSize, createInterpreter, loadFunctionsFile } from '../../packages/harness/src/dashboard/index.js';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, recordPageProblems, type ChromiumHandle } from '../support/chromium.js';
import { FIXTURE_DASHBOARD, NARROW_DASHBOARD, fixtureFunctions } from './web-fixtures.js';
import { layoutFacts, screenshotPath, seriousViolations, settledAtWidth } from './web-layout-facts.js';

const skip = chromiumSkipReason();
const EXAMPLE = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));
const STEP = { timeout: 60_000 };

interface Told {
  width: number;
  height: number;
}
interface DrawnFrame {
  id: string;
  /** The frame's box on screen and its layout box. */
  screen: Told;
  layout: Told;
  transform: string;
  /** Computed font size of the frame's body and of its first text element, in CSS pixels. */
  bodyFont: number;
  textFont: number;
  /** The Size line the context widget prints, if it is one. */
  printed: string | null;
}

describe('widgets at their real size on the page, in chromium', { skip, timeout: 600_000 }, () => {
  let harness: RunningHarness;
  let browser: ChromiumHandle;
  let page: Page;
  const ids: Record<'example' | 'samples' | 'narrow', string> = { example: '', samples: '', narrow: '' };
  const problems: string[] = [];
  const api = async (path: string, init?: RequestInit) => {
    const res = await fetch(`${harness.url}/api/dashboards/${path}`, init);
    const text = await res.text();
    assert.ok(res.ok, `${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const create = async (name: string, text: string): Promise<string> => {
    const res = await fetch(`${harness.url}/api/dashboards?name=${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(text),
    });
    assert.equal(res.status, 201);
    return ((await res.json()) as { id: string }).id;
  };

  const sources: Record<keyof typeof ids, string> = {
    example: readFileSync(`${EXAMPLE}dashboard.json`, 'utf8'),
    samples: JSON.stringify(FIXTURE_DASHBOARD),
    narrow: JSON.stringify(NARROW_DASHBOARD),
  };

  before(async () => {
    const config = await loadFunctionsFile(`${EXAMPLE}functions.json`);
    harness = await startHarness({ port: 0, functions: { ...config, functions: { ...config.functions, ...fixtureFunctions([]) } } });
    // The example's functions start child processes on their first call: start them (on a dashboard of their
    // own) before the page waits for them.
    const warm = await create('warm', sources.example);
    await Promise.all(
      Array.from({ length: 11 }, (_, n) => fetch(`${harness.url}/api/dashboards/${warm}/widgets/${n}`).then((r) => r.text())),
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
   * Loads a dashboard afresh (nothing read yet, as when the console opens it), sets its theme through the API,
   * opens it and waits until it has settled at the page's width.
   */
  async function open(name: keyof typeof ids, theme: 'light' | 'dark'): Promise<void> {
    const dashboard = (ids[name] = await create(name, sources[name]));
    const state = await api(`${dashboard}/state`);
    await api(`${dashboard}/state`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...state, theme }),
    });
    await page.goto(`${harness.url}/#/dashboards/${dashboard}`);
    await page.reload();
    await page.locator(`html[data-theme="${theme}"]`).waitFor(STEP);
    await settledAtWidth(page, STEP.timeout);
  }

  /** What each custom widget's function was told, as it received it (the API's record of its last call). */
  async function told(dashboard: string): Promise<Map<string, Told>> {
    const info = await api(dashboard);
    const out = new Map<string, Told>();
    for (const w of info.widgets as { widgetId: string; type: string }[]) {
      if (w.type !== 'custom') continue;
      const result = await api(`${dashboard}/widgets/${w.widgetId}`);
      const ctx = result.invocation?.event?.widgetContext;
      if (ctx) out.set(w.widgetId, { width: ctx.width, height: ctx.height });
    }
    return out;
  }

  /** Every custom widget's frame as drawn. */
  function drawnFrames(): Promise<DrawnFrame[]> {
    return page.evaluate(() =>
      [...document.querySelectorAll<HTMLIFrameElement>('#grid > .widget-custom .widget-body > iframe')].map((frame) => {
        const r = frame.getBoundingClientRect();
        const doc = frame.contentDocument!;
        const text =
          [...doc.body.querySelectorAll<HTMLElement>('*')].find(
            (el) => el.childNodes.length > 0 && [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent!.trim() !== ''),
          ) ?? doc.body;
        return {
          id: frame.closest<HTMLElement>('.widget')!.dataset.widgetId!,
          screen: { width: r.width, height: r.height },
          layout: { width: frame.offsetWidth, height: frame.offsetHeight },
          transform: getComputedStyle(frame).transform,
          bodyFont: parseFloat(getComputedStyle(doc.body).fontSize),
          textFont: parseFloat(getComputedStyle(text).fontSize),
          printed: doc.querySelector('.size')?.textContent ?? null,
        };
      }),
    );
  }

  /** Checks the acceptance facts of the dashboard on screen; returns one line on what was measured. */
  async function checkDashboard(name: keyof typeof ids, label: string): Promise<string> {
    const facts = await layoutFacts(page);
    const frames = await drawnFrames();
    const toldSizes = await told(ids[name]);
    assert.ok(frames.length > 0, `${label}: no custom widget drawn`);
    for (const c of facts.cards) assert.deepEqual(c.chromeOutside, [], `${label}: ${c.id} has badges or buttons outside its card`);
    for (const c of facts.cards) assert.ok(c.frameInside, `${label}: the frame of ${c.id} sticks out of its card`);
    for (const f of frames) {
      const scale = f.screen.width / f.layout.width;
      assert.equal(f.transform, 'none', `${label}: ${f.id} is transformed`);
      assert.ok(
        Math.abs(scale - 1) < 0.005 && Math.abs(f.screen.height / f.layout.height - 1) < 0.005,
        `${label}: ${f.id} is drawn at scale ${scale}`,
      );
      const t = toldSizes.get(f.id);
      assert.ok(t, `${label}: ${f.id} has no recorded call`);
      assert.ok(
        Math.abs(t.width - f.screen.width) <= 2 && Math.abs(t.height - f.screen.height) <= 2,
        `${label}: ${f.id} was told ${t.width} × ${t.height} and is ${f.screen.width} × ${f.screen.height} on screen`,
      );
      // Text shows at its CSS size (font size × scale), and with the console's default styles that is 14 px.
      assert.ok(Math.abs(f.bodyFont * scale - f.bodyFont) < 0.01, `${label}: ${f.id}'s body text is ${f.bodyFont} px × ${scale}`);
      assert.ok(
        f.textFont >= 11 && Math.abs(f.textFont * scale - f.textFont) < 0.01,
        `${label}: ${f.id}'s text is ${f.textFont} px × ${scale}`,
      );
      if (f.printed !== null) assert.equal(f.bodyFont * scale, 14, `${label}: ${f.id}'s body text is ${f.bodyFont * scale} px`);
      if (f.printed !== null) assert.equal(f.printed, `${t.width}x${t.height}`, `${label}: ${f.id} printed another size`);
    }
    assert.deepEqual(await seriousViolations(page), [], `${label}: accessibility`);
    const width = await page.locator('#grid').getAttribute('data-dashboard-width');
    const sample = frames
      .slice(0, 3)
      .map((f) => `${f.id} ${f.screen.width}×${f.screen.height}`)
      .join(', ');
    return `${label}: dashboard ${width} px, scale 1, ${sample}`;
  }

  for (const width of [1280, 1920]) {
    for (const theme of ['light', 'dark'] as const) {
      it(`at ${width} px in the ${theme} theme: scale 1, told the size on screen, text at its size, chrome inside the cards`, async (t) => {
        await page.setViewportSize({ width, height: 1000 });
        for (const name of ['example', 'samples', 'narrow'] as const) {
          await open(name, theme);
          t.diagnostic(await checkDashboard(name, `${name} ${width} ${theme}`));
          if (name !== 'narrow') continue;
          await page.screenshot({ path: screenshotPath(`sizes-narrow-${width}-${theme}.png`) });
          // Narrower still: both panels open.
          await page.locator('#toggle-inspector').click();
          await settledAtWidth(page, STEP.timeout);
          for (const c of (await layoutFacts(page)).cards)
            assert.deepEqual(c.chromeOutside, [], `${width} ${theme} with both panels: ${c.id}`);
          await page.locator('#toggle-inspector').click();
        }
      });
    }
  }

  it('a side panel and the window change every cell: updateOn.resize widgets run at their new size, the others reflow', async () => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    await open('narrow', 'light');
    const card = (id: string) => page.locator(`[data-widget-id="${id}"]`);
    const frameWidth = (id: string) =>
      card(id)
        .locator('iframe')
        .evaluate((f) => f.getBoundingClientRect().width);
    // widget-8 (three columns) runs on resize; widget-9 (twelve columns, updateOn.resize false) does not.
    const calls = async (id: string) => Number(await card(id).getAttribute('data-invocations'));
    const [resizing, fixed] = [await calls('widget-8'), await calls('widget-9')];
    const fixedBefore = await frameWidth('widget-9');
    for (const act of [
      () => page.locator('#toggle-sidebar').click(),
      () => page.setViewportSize({ width: 1600, height: 1000 }),
      () => page.locator('#toggle-inspector').click(),
    ]) {
      const before = await frameWidth('widget-8');
      await act();
      await settledAtWidth(page, STEP.timeout);
      const after = await frameWidth('widget-8');
      assert.notEqual(after, before, 'the cell changed');
      const toldNow = (await told(ids.narrow)).get('widget-8')!;
      assert.ok(Math.abs(toldNow.width - after) <= 2, `told ${toldNow.width}, drawn ${after}`);
      assert.equal(await card('widget-8').frameLocator('iframe').locator('.size').innerText(), `${toldNow.width}x${toldNow.height}`);
    }
    assert.equal(await calls('widget-8'), resizing + 3, 'one run per settled change of size, not one per resize event');
    assert.equal(await calls('widget-9'), fixed, 'a widget without updateOn.resize does not run');
    // It reflows: drawn at its new cell's size, still unscaled, while its function keeps the size it was told.
    const fixedAfter = await frameWidth('widget-9');
    assert.notEqual(fixedAfter, fixedBefore);
    const body = await card('widget-9')
      .locator('.widget-body')
      .evaluate((b) => b.clientWidth);
    assert.equal(fixedAfter, body);
    assert.equal((await told(ids.narrow)).get('widget-9')!.width, Math.round(fixedBefore));
    await page.locator('#toggle-inspector').click();
    await page.locator('#toggle-sidebar').click();
  });

  it('the driver and the API give a widget the size the page draws at the same dashboard width', async () => {
    await page.setViewportSize({ width: 1280, height: 1000 });
    await open('samples', 'light');
    const { dashboardWidth } = await api(`${ids.samples}/state`);
    assert.equal(String(dashboardWidth), await page.locator('#grid').getAttribute('data-width'), 'the page sent its measured width');
    const drawn = new Map((await drawnFrames()).map((f) => [f.id, f.screen]));
    const driver = createInterpreter({ functions: { functions: fixtureFunctions([]) } });
    try {
      const dash = await driver.load(FIXTURE_DASHBOARD);
      await dash.putState({ dashboardWidth });
      for (const [id, screen] of drawn) {
        const ctx = ((await dash.readWidget(id)).invocation!.event as { widgetContext: Told }).widgetContext;
        assert.deepEqual([ctx.width, ctx.height], [screen.width, screen.height], `${id} in the driver at ${dashboardWidth} px`);
        const source = FIXTURE_DASHBOARD.widgets[Number(id.slice('widget-'.length))]!;
        assert.deepEqual(cellPixelSize(source.width, source.height, dashboardWidth), { width: screen.width, height: screen.height });
      }
    } finally {
      await driver.close();
    }
  });

  it('logged no console errors or warnings', () => {
    assert.deepEqual(problems, []);
  });
});
