/**
 * `npm run bench`: every benchmark, each measuring Trellis against a named peer in the same run.
 * Pass names to run some: `npm run bench -- http store redis harness lint driver`.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const wanted = new Set(process.argv.slice(2));
const want = (name: string) => wanted.size === 0 || wanted.has(name);
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));

if (want('http')) await (await import('./http.bench.js')).runHttpBench();
if (want('store')) await (await import('./ratelimit-store.bench.js')).runRateLimitStoreBench();
if (want('redis')) {
  const { runRedisStoreBench, formatRedisStoreBench } = await import('./redis-store.bench.js');
  try {
    console.log(formatRedisStoreBench(await runRedisStoreBench()));
  } catch (error) {
    console.log(`\nRedis store benchmark skipped: ${(error as Error).message}`);
  }
}
if (want('harness') && existsSync(here('./harness.bench.ts'))) {
  const mod = (await import(here('./harness.bench.ts'))) as { runHarnessBench(): Promise<unknown> };
  await mod.runHarnessBench();
}
if (want('lint')) await (await import('./lint.bench.js')).runLintBench();
if (want('driver')) await (await import('./driver.bench.js')).runDriverBench();
