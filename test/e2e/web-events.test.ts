// The web page in chromium with widgets made for the cases the bundled example does not show: double-click
// and mouse-enter actions, every kind of form field, default styles and their opt-out, a failing function,
// and a widget type the harness cannot read.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, recordPageProblems, type ChromiumHandle } from '../support/chromium.js';
import { settledAtWidth } from './web-layout-facts.js';

const skip = chromiumSkipReason();
const STEP = { timeout: 15_000 };

const EVENTS_HTML = `<h3>Events</h3>
<span class="dbl">Double me</span><cwdb-action action="call" endpoint="events" event="dblclick">{"kind":"dbl"}</cwdb-action>
<span class="hover">Hover me</span><cwdb-action event="mouseenter" display="popup"><p class="hovered">Hovered!</p></cwdb-action>
<form>
  <select name="size"><option>s</option><option selected>m</option></select>
  <label><input type="radio" name="tier" value="gold" checked> gold</label>
  <label><input type="radio" name="tier" value="silver"> silver</label>
  <label><input type="checkbox" name="tags" value="a"> a</label>
  <label><input type="checkbox" name="tags" value="b"> b</label>
  <textarea name="note">hi</textarea>
  <input name="locked" value="x" disabled>
</form>
<button class="btn btn-primary">Primary</button>`;

describe('harness web page: events, forms, styles and errors in chromium', { skip, timeout: 120_000 }, () => {
  let harness: RunningHarness;
  let browser: ChromiumHandle;
  let page: Page;
  let url: string;
  const problems: string[] = [];
  const received: unknown[] = [];
  const widget = (n: number) => page.locator(`[data-widget-id="widget-${n}"]`);
  const frameOf = (n: number): FrameLocator => page.frameLocator(`[data-widget-id="widget-${n}"] iframe`);
  const calls = async (n: number) => Number(await widget(n).getAttribute('data-invocations'));

  before(async () => {
    harness = await startHarness({
      port: 0,
      functions: {
        functions: {
          events: {
            handler: (event: any) => {
              received.push(event);
              console.log('events got', event.kind ?? 'own');
              return event.kind === 'dbl' ? `<p class="got">${JSON.stringify(event.widgetContext.forms.all)}</p>` : EVENTS_HTML;
            },
          },
          plain: { handler: () => '<div class="cwdb-no-default-styles"><button class="btn btn-primary">Plain</button></div>' },
          broken: {
            handler: () => {
              throw new TypeError('boom: the widget failed');
            },
          },
        },
      },
    });
    const dashboard = {
      widgets: [
        { type: 'custom', x: 0, y: 0, width: 12, height: 8, properties: { endpoint: 'events', title: 'Events' } },
        { type: 'custom', x: 12, y: 0, width: 6, height: 3, properties: { endpoint: 'plain', title: 'Plain' } },
        { type: 'custom', x: 12, y: 3, width: 6, height: 3, properties: { endpoint: 'broken', title: 'Broken' } },
        {
          type: 'metric',
          x: 18,
          y: 0,
          width: 6,
          height: 3,
          properties: { metrics: [['AWS/Lambda', 'Errors', 'FunctionName', 'orders']], stat: 'Sum', region: 'eu-west-1' },
        },
      ],
    };
    const created = await fetch(`${harness.url}/api/dashboards?name=cases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(JSON.stringify(dashboard)),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(STEP.timeout);
    recordPageProblems(page, problems);
    url = `${harness.url}/#/dashboards/${id}`;
    await page.goto(url);
    await page.locator('[data-widget-id="widget-0"][data-state="ready"]').waitFor(STEP);
    await page.locator('[data-widget-id="widget-1"][data-state="ready"]').waitFor(STEP);
    await page.locator('[data-widget-id="widget-2"][data-state="error"]').waitFor(STEP);
    await page.locator('[data-widget-id="widget-3"][data-state="placeholder"]').waitFor(STEP);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  it('a dblclick action ignores a single click and sends every kind of form field on a double click', async () => {
    const target = frameOf(0).locator('.dbl');
    await target.click();
    assert.equal(await calls(0), 1);
    await frameOf(0).locator('select[name="size"]').selectOption('s');
    await frameOf(0).locator('input[name="tier"][value="silver"]').check();
    await frameOf(0).locator('input[name="tags"][value="b"]').check();
    await frameOf(0).locator('textarea[name="note"]').fill('typed');
    await target.dblclick();
    const got = frameOf(0).locator('.got');
    await got.waitFor(STEP);
    assert.deepEqual(JSON.parse(await got.innerText()), { size: 's', tier: 'silver', tags: ['b'], note: 'typed' });
    assert.equal(await calls(0), 2);
  });

  it('the inspector shows the event the function received, its duration and what it printed', async () => {
    // Opening the inspector narrows the grid, and this widget (updateOn.resize) runs again at its new size:
    // let that settle, then double-click again.
    await widget(0).getByRole('button', { name: 'Inspect' }).click();
    await page.locator('#inspector .insp-title', { hasText: 'Events' }).waitFor(STEP);
    await settledAtWidth(page, STEP.timeout);
    await frameOf(0).locator('.dbl').dblclick();
    await frameOf(0).locator('.got').waitFor(STEP);
    await page.locator('#insp-event', { hasText: '"kind": "dbl"' }).waitFor(STEP);
    const shown = JSON.parse(await page.locator('#insp-event pre.json').innerText()) as { kind?: string };
    assert.deepEqual(shown, received.at(-1));
    assert.equal(shown.kind, 'dbl');
    assert.match(await page.locator('#inspector .stats').innerText(), /Function\s*\d+\.\d ms/);
    assert.match(await page.locator('#insp-logs').innerText(), /INFO\s+events got dbl/);
  });

  it('a mouseenter html action opens its popup when the pointer enters', async () => {
    await page.getByRole('button', { name: 'Refresh', exact: true }).click();
    await frameOf(0).locator('.hover').waitFor(STEP);
    await frameOf(0).locator('.hover').hover();
    await page.frameLocator('#popup-body iframe').locator('.hovered').waitFor(STEP);
    await page.getByRole('button', { name: 'Close popup' }).click();
    await page.locator('#popup-dialog').waitFor({ state: 'hidden', ...STEP });
  });

  it('applies the console default styles, and cwdb-no-default-styles turns them off', async () => {
    const background = (f: FrameLocator) => f.locator('.btn-primary').evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(await background(frameOf(0)), 'rgb(236, 114, 17)');
    assert.notEqual(await background(frameOf(1)), 'rgb(236, 114, 17)');
  });

  it('shows a failing function as an error in the widget and its details in the inspector', async () => {
    assert.match(await widget(2).locator('.widget-error').innerText(), /TypeError[\s\S]*boom: the widget failed/);
    await widget(2).getByRole('button', { name: 'Inspect' }).click();
    assert.match(await page.locator('#insp-error').innerText(), /TypeError[\s\S]*boom: the widget failed/);
    assert.match(await page.locator('#inspector .stats').innerText(), /Error\s*TypeError/);
  });

  it('shows a metric widget as a placeholder naming its type and what it would query, without asking the API', async () => {
    const text = await widget(3).locator('.placeholder').innerText();
    assert.match(text, /Metric widget/);
    assert.match(text, /AWS\/Lambda Errors FunctionName=orders/);
    assert.match(text, /region eu-west-1/);
  });

  it('logged nothing in the browser', () => {
    assert.deepEqual(problems, []);
  });

  it('refreshes automatically at the chosen interval, and stops when switched off', async () => {
    // Last, on a second page: Playwright's clock (installed for the whole browser context, so the interval
    // passes without waiting) is a script added to every frame; the widget frames' sandbox blocks it, and the
    // browser reports that — the only messages this page may log.
    const clocked = await browser.context.newPage();
    const logged: string[] = [];
    clocked.on('console', (m) => {
      if ((m.type() === 'error' || m.type() === 'warning') && !m.text().startsWith("Blocked script execution in 'about:srcdoc'"))
        logged.push(m.text());
    });
    try {
      await clocked.clock.install();
      await clocked.goto(url);
      const first = clocked.locator('[data-widget-id="widget-0"]');
      await clocked.locator('[data-widget-id="widget-0"][data-state="ready"]').waitFor(STEP);
      const before = Number(await first.getAttribute('data-invocations'));
      await clocked.locator('#auto-refresh').selectOption('10');
      await clocked.clock.runFor(10_500);
      await clocked.locator('#status', { hasText: '(auto)' }).waitFor(STEP);
      await clocked.locator('[data-widget-id="widget-0"][data-state="ready"]').waitFor(STEP);
      assert.equal(Number(await first.getAttribute('data-invocations')), before + 1);
      await clocked.locator('#auto-refresh').selectOption('0');
      await clocked.clock.runFor(30_000);
      assert.equal(Number(await first.getAttribute('data-invocations')), before + 1);
      assert.deepEqual(logged, []);
    } finally {
      await clocked.close();
    }
  });
});
