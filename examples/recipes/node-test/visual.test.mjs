// node --test: the widget as the console's page draws it (GET …/image), compared with its golden image.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { loadFunctionsFile } from 'trellis-harness/dashboard';
import { HarnessClient, WidgetImages, compareWidgetImage, startHarness } from 'trellis-harness';

// Without playwright-core, or without Chromium or Chrome, the tests are skipped with the reason.
const skip = WidgetImages.missingBrowser() ?? false;
let harness;
let client;
let id;

before(async () => {
  harness = await startHarness({ functions: await loadFunctionsFile('functions.json'), port: 0 });
  client = new HarnessClient(harness.url);
  ({ id } = await client.createDashboard(await readFile('dashboard.json', 'utf8'), { name: 'greeting' }));
});

after(() => harness.close());

for (const theme of ['light', 'dark']) {
  test(`the greeting looks as it did, ${theme}`, { skip }, async () => {
    await client.putState(id, { theme });
    const png = await client.widgetImage(id, 0);
    // The first run writes the golden image; UPDATE_SCREENSHOTS=1 writes it again.
    const golden = `screenshots/node-test/greeting-${theme}.png`;
    const { equal, diffPixels, diffPath } = await compareWidgetImage(png, golden, { update: process.env.UPDATE_SCREENSHOTS === '1' });
    assert.ok(equal, `${diffPixels} pixels differ from ${golden}: see ${diffPath}`);
  });
}
