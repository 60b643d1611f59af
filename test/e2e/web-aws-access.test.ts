// The web page's inspector says what of AWS a widget's function may reach: real credentials (and from where),
// an AWS endpoint, setup modules.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, launchChromium, type ChromiumHandle } from '../support/chromium.js';

const skip = chromiumSkipReason();
const STEP = { timeout: 15_000 };
const fixtures = fileURLToPath(new URL('../fixtures/functions/', import.meta.url));
const examples = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));

describe('harness web page: which functions got AWS credentials', { skip, timeout: 120_000 }, () => {
  let harness: RunningHarness;
  let browser: ChromiumHandle;
  let page: Page;
  const problems: string[] = [];
  const widget = (n: number) => page.locator(`[data-widget-id="widget-${n}"]`);

  before(async () => {
    harness = await startHarness({
      port: 0,
      functions: {
        baseDir: fixtures,
        awsEndpoint: 'http://127.0.0.1:4566',
        functions: {
          plain: { handler: 'aws/metric-table.handler', setup: [`${examples}aws/stub-cloudwatch.cjs`] },
          'arn:aws:lambda:eu-west-1:111122223333:function:withProfile': {
            handler: 'aws/metric-table.handler',
            awsCredentials: 'profile:dev',
            setup: [`${examples}aws/stub-cloudwatch.cjs`],
          },
          inProcess: { handler: () => '<p>in process</p>' },
        },
      },
    });
    const query = { MetricDataQueries: [{ Id: 'a', Label: 'Errors' }] };
    const dashboard = {
      widgets: [
        { type: 'custom', x: 0, y: 0, width: 8, height: 4, properties: { endpoint: 'plain', title: 'Plain', params: query } },
        {
          type: 'custom',
          x: 8,
          y: 0,
          width: 8,
          height: 4,
          properties: { endpoint: 'arn:aws:lambda:eu-west-1:111122223333:function:withProfile:live', title: 'Profiled', params: query },
        },
        { type: 'custom', x: 16, y: 0, width: 8, height: 4, properties: { endpoint: 'inProcess', title: 'Local' } },
      ],
    };
    const created = await fetch(`${harness.url}/api/dashboards?name=aws`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(JSON.stringify(dashboard)),
    });
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    browser = await launchChromium();
    page = await browser.context.newPage();
    page.setDefaultTimeout(STEP.timeout);
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    await page.goto(`${harness.url}/#/dashboards/${id}`);
    for (const n of [0, 1, 2]) await page.locator(`[data-widget-id="widget-${n}"][data-state="ready"]`).waitFor(STEP);
  });

  after(async () => {
    await browser?.close();
    await harness?.close();
  });

  const inspect = async (n: number, title: string): Promise<string> => {
    await widget(n).getByRole('button', { name: 'Inspect' }).click();
    await page.locator('#inspector .insp-title', { hasText: title }).waitFor(STEP);
    return page.locator('#insp-aws').innerText();
  };

  it('a function without credentials says so, with its endpoint and setup module', async () => {
    const line = await inspect(0, 'Plain');
    assert.match(line, /^nodejs · no AWS credentials · AWS endpoint http:\/\/127\.0\.0\.1:4566 · setup stub-cloudwatch\.cjs$/);
    assert.equal(await page.locator('#insp-aws .aws-credentials.real').count(), 0);
  });

  it('a function given a profile is marked as holding real credentials, found by its qualified ARN', async () => {
    const line = await inspect(1, 'Profiled');
    assert.match(line, /real AWS credentials from profile dev/);
    assert.equal(await page.locator('#insp-aws .aws-credentials.real').count(), 1);
  });

  it("an in-process function runs with the harness's own environment, and the page says that", async () => {
    assert.match(await inspect(2, 'Local'), /^in-process · the harness's own environment/);
    assert.deepEqual(problems, []);
  });
});
