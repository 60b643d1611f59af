// Vitest: the widget drawn in-process (WidgetImages over the driver), compared with its golden image.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createInterpreter, loadFunctionsFile } from 'trellis-harness/dashboard';
import { WidgetImages, compareWidgetImage } from 'trellis-harness';

const missing = WidgetImages.missingBrowser();
let interpreter;
let dashboard;
let images;

beforeAll(async () => {
  interpreter = createInterpreter({ functions: await loadFunctionsFile('functions.json') });
  dashboard = await interpreter.load(await readFile('dashboard.json', 'utf8'), { name: 'greeting' });
  images = new WidgetImages();
});

afterAll(() => Promise.all([images.close(), interpreter.close()]));

for (const theme of ['light', 'dark']) {
  test.skipIf(missing)(`the greeting looks as it did, ${theme}`, async () => {
    await dashboard.putState({ theme });
    const { png, width, height } = await images.widget(dashboard, 0);
    expect([width, height]).toEqual([787, 233]);
    const result = await compareWidgetImage(png, `screenshots/vitest/greeting-${theme}.png`, {
      update: process.env.UPDATE_SCREENSHOTS === '1',
    });
    expect(result, `see ${result.diffPath}`).toMatchObject({ equal: true, diffPixels: 0 });
  });
}
