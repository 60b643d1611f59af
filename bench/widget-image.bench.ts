/**
 * A warm widget image: the time `WidgetImages.widget` takes to draw a custom widget that has been read (Chromium
 * running), against the peer in the same run — reading that widget's HTML through the driver, the call every
 * image starts with. Three widgets of the bundled example (a table, a form, a line chart) as the harness draws
 * them, back to back with no pause between images (the next image's browser context is made between images, so
 * this is the slowest case). Rounds alternate the order of the two; each round's median is printed beside the
 * median of rounds. The goal is at most 500 ms per image on a two-core machine. Needs playwright-core and
 * Chromium (as the harness finds it); without them it says what to install and ends.
 *
 * Run alone: npm run build && node scripts/build-bench.mjs && node .bench/widget-image.bench.mjs
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createInterpreter, loadFunctionsFile, type DashboardDriver } from 'trellis-harness/dashboard';
import { WidgetImages } from 'trellis-harness';
import { median, roundOrder, roundsFromEnvironment } from './rounds.js';

const EXAMPLES = fileURLToPath(new URL('../packages/harness/examples/', import.meta.url));
const WIDGETS = ['widget-1', 'widget-2', 'widget-9'];
/** Images (and reads) per widget in a round. */
const PER_WIDGET = 4;

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** One round of one contender: every widget PER_WIDGET times; the median milliseconds. */
async function round(name: 'image' | 'read', dashboard: DashboardDriver, images: WidgetImages): Promise<number> {
  const times: number[] = [];
  for (const wid of WIDGETS) {
    for (let i = 0; i < PER_WIDGET; i++) {
      times.push(await timed(() => (name === 'image' ? images.widget(dashboard, wid) : dashboard.readWidget(wid))));
    }
  }
  return median(times);
}

export async function runWidgetImageBench(): Promise<void> {
  const missing = WidgetImages.missingBrowser();
  if (missing !== null) {
    console.log(`\nWidget images: skipped. ${missing}`);
    return;
  }
  const rounds = roundsFromEnvironment(5);
  const interpreter = createInterpreter({
    functions: await loadFunctionsFile(`${EXAMPLES}functions.json`),
    clock: () => Date.UTC(2025, 0, 1),
  });
  const images = new WidgetImages();
  try {
    const dashboard = await interpreter.load(readFileSync(`${EXAMPLES}dashboard.json`, 'utf8'), { name: 'bench' });
    // Warm: every widget read, Chromium started, a few images drawn.
    for (const wid of WIDGETS) await images.widget(dashboard, wid);
    await round('image', dashboard, images);
    const results: Record<'image' | 'read', number[]> = { image: [], read: [] };
    for (let r = 0; r < rounds; r++) {
      for (const name of roundOrder(['image', 'read'] as const, r)) results[name].push(await round(name, dashboard, images));
    }
    const image = median(results.image);
    const read = median(results.read);
    console.log(
      `\nA warm widget image (${WIDGETS.length} widgets of the example × ${PER_WIDGET} per round, ${rounds} alternating rounds; ` +
        `${availableParallelism()} cores, Chromium ${images.browser?.version ?? '?'}, Node ${process.version})`,
    );
    console.log('| contender | median of rounds (ms) | each round (ms) |');
    console.log('|---|---:|---|');
    console.log(
      `| WidgetImages.widget (draw a read widget) | ${image.toFixed(1)} | ${results.image.map((x) => x.toFixed(1)).join(', ')} |`,
    );
    console.log(`| dashboard.widget (read its HTML, warm) | ${read.toFixed(2)} | ${results.read.map((x) => x.toFixed(2)).join(', ')} |`);
    console.log(`Warm image: ${image.toFixed(0)} ms (goal: at most 500 ms), ${(image / read).toFixed(0)}× the read of its HTML.`);
  } finally {
    await images.close();
    await interpreter.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runWidgetImageBench();
