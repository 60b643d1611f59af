// A visual test of the greeting widget: drawn as the CloudWatch console's page draws it (in Chromium, through
// playwright-core), in the light and dark themes, and compared with its golden images in test/screenshots/. The
// first run writes them: look at them, then commit them; UPDATE_SCREENSHOTS=1 writes them again. They belong to
// the platform that made them (fonts differ between systems). Skipped, saying what to install, without a browser.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WidgetImages, compareWidgetImage } from 'trellis-harness';
import { createInterpreter, loadFunctionsFile, type DashboardDriver, type Interpreter } from 'trellis-harness/dashboard';

/** The project folder. */
const PROJECT = fileURLToPath(new URL('../', import.meta.url));

describe('the greeting widget, as the console draws it', { skip: WidgetImages.missingBrowser() ?? false }, () => {
  let interpreter: Interpreter;
  let dashboard: DashboardDriver;
  let images: WidgetImages;

  before(async () => {
    interpreter = createInterpreter({ functions: await loadFunctionsFile(`${PROJECT}functions.json`) });
    dashboard = await interpreter.load(await readFile(`${PROJECT}dashboard.json`, 'utf8'), { name: 'greeting' });
    images = new WidgetImages();
  });

  after(() => Promise.all([images.close(), interpreter.close()]));

  for (const theme of ['light', 'dark'] as const) {
    it(`looks as it did in the ${theme} theme`, async () => {
      await dashboard.putState({ theme });
      const image = await images.widget(dashboard, 0);
      const golden = `${PROJECT}test/screenshots/greeting-${theme}.png`;
      const result = await compareWidgetImage(image.png, golden, { update: process.env.UPDATE_SCREENSHOTS === '1' });
      assert.ok(result.equal, `${result.message}: see ${result.diffPath}`);
    });
  }
});
