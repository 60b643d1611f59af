// Widget images drawn in Chromium through the in-process driver: every custom widget of the bundled example (what
// `trellis harness` serves with no arguments) and of AWS's simple samples is a PNG of the size its function is
// told (times the scale), in light and dark, and drawing it again gives the same bytes. Without chromium the
// tests skip with one line (and fail under CI=true).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  createInterpreter,
  loadFunctionsFile,
  type DashboardDriver,
  type FunctionsConfig,
  type Interpreter,
  type WidgetEvent,
} from '../../packages/harness/src/dashboard/index.js';
import { WidgetImages, compareWidgetImage } from '../../packages/harness/src/harness/index.js';
import { chromiumSkipReason, CHROMIUM_PATH } from '../support/chromium.js';

const EXAMPLES = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));
const SAMPLES = fileURLToPath(new URL('../fixtures/aws-samples-checkout/samples/', import.meta.url));
const NOW = Date.UTC(2025, 0, 1);
const skip = chromiumSkipReason();

/** A PNG's pixel size, from its IHDR chunk. */
function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = Buffer.from(png);
  assert.equal(view.subarray(1, 4).toString('latin1'), 'PNG', 'a PNG');
  return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
}

/** Draws every custom widget in both themes twice; checks sizes against what each function was told, and sameness. */
async function checkEveryWidget(images: WidgetImages, dashboard: DashboardDriver, scale: number): Promise<string[]> {
  const checked: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await dashboard.putState({ ...dashboard.getState(), theme });
    for (const summary of dashboard.widgets().filter((w) => w.type === 'custom')) {
      const first = await images.widget(dashboard, summary.widgetId, { scale });
      const told = ((await dashboard.readWidget(summary.widgetId)).invocation!.event as WidgetEvent).widgetContext;
      assert.equal(told.theme, theme, `${summary.widgetId} was told ${theme}`);
      assert.equal(first.theme, theme);
      assert.deepEqual(
        pngSize(first.png),
        { width: told.width * scale, height: told.height * scale },
        `${summary.widgetId} (${theme}) is ${told.width} × ${told.height} at scale ${scale}`,
      );
      assert.deepEqual([first.width, first.height, first.scale], [told.width, told.height, scale]);
      const second = await images.widget(dashboard, summary.widgetId, { scale });
      assert.ok(Buffer.compare(first.png, second.png) === 0, `${summary.widgetId} (${theme}) draws the same twice`);
      assert.deepEqual(first.blocked, [], `${summary.widgetId} asked for nothing it was refused`);
      checked.push(`${summary.widgetId} ${theme}`);
    }
  }
  return checked;
}

describe('widget images through the driver', { skip, timeout: 300_000 }, () => {
  let images: WidgetImages;
  let interpreter: Interpreter;
  before(() => {
    images = new WidgetImages();
  });
  after(async () => {
    await images.close();
    await interpreter?.close();
  });

  it('says the browser is there', () => {
    assert.equal(WidgetImages.missingBrowser(), null);
    assert.equal(WidgetImages.missingBrowser(CHROMIUM_PATH), null);
  });

  it('draws every custom widget of the bundled example at the size it is told, in light and dark, the same twice', async () => {
    interpreter = createInterpreter({ functions: await loadFunctionsFile(join(EXAMPLES, 'functions.json')), clock: () => NOW });
    const dashboard = await interpreter.load(readFileSync(join(EXAMPLES, 'dashboard.json'), 'utf8'), { name: 'dashboard' });
    const checked = await checkEveryWidget(images, dashboard, 1);
    assert.equal(checked.length, 22, checked.join(', '));
    assert.match(images.browser?.version ?? '', /^\d+\./);
  });

  it('at scale 2 and a narrower dashboard, each PNG is twice the size its function is told', async () => {
    const dashboard = await interpreter.load(readFileSync(join(EXAMPLES, 'dashboard.json'), 'utf8'), { name: 'narrow' });
    await dashboard.putState({ dashboardWidth: 1280 });
    const greeter = await images.widget(dashboard, 'widget-2', { scale: 2 });
    assert.deepEqual(pngSize(greeter.png), { width: 1260, height: 1010 });
  });

  it('a whole dashboard: every custom widget in each theme, its function told the theme', async () => {
    const dashboard = await interpreter.load(readFileSync(join(EXAMPLES, 'dashboard.json'), 'utf8'), { name: 'whole' });
    const all = await images.dashboard(dashboard, { themes: ['dark', 'light'] });
    assert.equal(all.length, 22);
    assert.deepEqual([...new Set(all.map((i) => i.theme))], ['dark', 'light']);
    const dark = all.find((i) => i.widgetId === 'widget-3' && i.theme === 'dark')!;
    const light = all.find((i) => i.widgetId === 'widget-3' && i.theme === 'light')!;
    assert.ok(Buffer.compare(dark.png, light.png) !== 0, 'the themes differ');
  });

  it("draws AWS's simple samples (Node.js, Python, and the EC2 and metric tables with the harness's stubs) the same way", async () => {
    const python = spawnSync('python3', ['--version']).status === 0;
    const stubs = join(EXAMPLES, 'aws');
    const samples: Array<[string, FunctionsConfig['functions'][string]]> = [
      ['helloWorld', { handler: join(SAMPLES, 'helloWorld', 'helloWorld.handler') }],
      [
        'ec2Table',
        {
          handler: join(SAMPLES, 'ec2Table', 'ec2Table.handler'),
          setup: [join(stubs, 'stub-ec2.cjs'), join(stubs, 'stub-cloudwatch.cjs')],
        },
      ],
      [
        'cloudWatchMetricDataTable',
        {
          handler: join(SAMPLES, 'cloudWatchMetricDataTable', 'cloudWatchMetricDataTable.handler'),
          setup: [join(stubs, 'stub-cloudwatch.cjs')],
        },
      ],
      ...(python
        ? [
            ['helloWorldPython', { handler: join(SAMPLES, 'helloWorld', 'helloWorld.lambda_handler'), runtime: 'python' }] as [
              string,
              FunctionsConfig['functions'][string],
            ],
          ]
        : []),
    ];
    const own = createInterpreter({ functions: { functions: Object.fromEntries(samples) }, clock: () => NOW });
    try {
      for (const [name] of samples) {
        const folder = name === 'helloWorldPython' ? 'helloWorld' : name;
        const text = readFileSync(join(SAMPLES, folder, 'dashboard.json'), 'utf8')
          .replaceAll('${lambdaFunction.Arn}', name)
          .replaceAll('${AWS::Region}', 'us-east-1');
        const dashboard = await own.load(text, { name });
        const read = await dashboard.readWidget(0);
        assert.equal(read.error, null, `${name}: ${read.error?.message ?? ''}`);
        assert.deepEqual(await checkEveryWidget(images, dashboard, 1), ['widget-0 light', 'widget-0 dark'], name);
      }
    } finally {
      await own.close();
    }
  });

  it('compares with a golden image: written when missing, equal when the same, a diff image and a count when not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-golden-'));
    try {
      const dashboard = await interpreter.load(
        JSON.stringify({
          widgets: [{ type: 'custom', width: 4, height: 3, properties: { endpoint: 'trellis-example-hello', params: { name: 'Ada' } } }],
        }),
      );
      const golden = join(dir, 'hello.png');
      const image = await images.widget(dashboard, 0);
      assert.deepEqual(await compareWidgetImage(image.png, golden), {
        equal: true,
        diffPixels: 0,
        diffPath: null,
        written: true,
        message: '',
      });
      assert.deepEqual(readFileSync(golden), image.png);
      const again = await compareWidgetImage((await images.widget(dashboard, 0)).png, golden);
      assert.deepEqual(again, { equal: true, diffPixels: 0, diffPath: null, written: false, message: '' });
      const other = await interpreter.load(
        JSON.stringify({
          widgets: [{ type: 'custom', width: 4, height: 3, properties: { endpoint: 'trellis-example-hello', params: { name: 'Grace' } } }],
        }),
      );
      const changed = await compareWidgetImage((await images.widget(other, 0)).png, golden);
      assert.equal(changed.equal, false);
      assert.ok(changed.diffPixels > 10, `${changed.diffPixels} pixels differ`);
      assert.equal(changed.diffPath, join(dir, 'hello.diff.png'));
      assert.deepEqual(pngSize(readFileSync(changed.diffPath)), pngSize(image.png));
      const tolerated = await compareWidgetImage((await images.widget(other, 0)).png, golden, { maxDiffPixels: changed.diffPixels });
      assert.equal(tolerated.equal, true);
      const wider = await compareWidgetImage((await images.widget(dashboard, 0, { width: 400 })).png, golden);
      assert.equal(wider.equal, false);
      assert.match(wider.message, /^the image is 400 × \d+ pixels, the golden \d+ × \d+$/);
      assert.equal((await compareWidgetImage((await images.widget(other, 0)).png, golden, { update: true })).written, true);
      assert.equal((await compareWidgetImage((await images.widget(other, 0)).png, golden)).equal, true, 'the golden was rewritten');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('draws the error the page shows for a function that fails', async () => {
    const own = createInterpreter({ functions: { functions: { boom: { handler: () => Promise.reject(new TypeError('no data')) } } } });
    try {
      const dashboard = await own.load({ widgets: [{ type: 'custom', properties: { endpoint: 'boom' } }] });
      const image = await images.widget(dashboard, 0);
      assert.deepEqual(pngSize(image.png), { width: 588, height: 369 });
      writeFileSync(join(tmpdir(), 'trellis-widget-error.png'), image.png);
    } finally {
      await own.close();
    }
  });
});
