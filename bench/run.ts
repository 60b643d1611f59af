/**
 * `npm run bench`: every benchmark, each measuring Trellis against a named peer in the same run.
 * Pass names to run some: `npm run bench -- http store store-scale redis dynamodb scale redis-http harness lint driver lambda lambda-bundle lambda-widget charts widget-image request-path`.
 *
 * Each benchmark runs in a process of its own, so that one's heap, JIT state and engine flags (the store
 * benchmark exposes `gc` to measure retained memory) cannot move another's figures.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCHES: Record<string, string> = {
  http: './http.bench.ts',
  store: './ratelimit-store.bench.ts',
  redis: './redis-store.bench.ts',
  dynamodb: './dynamodb-store.bench.ts',
  scale: './redis-scale.bench.ts',
  'redis-http': './redis-http.bench.ts',
  'store-scale': './in-process-scale.bench.ts',
  harness: './harness.bench.ts',
  lint: './lint.bench.ts',
  driver: './driver.bench.ts',
  lambda: './lambda.bench.ts',
  'lambda-bundle': './lambda-bundle.bench.ts',
  'lambda-widget': './lambda-widget.bench.ts',
  charts: './charts.bench.ts',
  'widget-image': './widget-image.bench.ts',
  'request-path': './request-path.bench.ts',
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHES));
if (unknown.length > 0) {
  console.error(`Unknown benchmark ${unknown.join(', ')}; choose from: ${Object.keys(BENCHES).join(' ')}`);
  process.exit(2);
}

let failed = 0;
for (const [name, file] of Object.entries(BENCHES)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  // The compiled benchmark beside this compiled file (.bench/, scripts/build-bench.mjs): plain node, no loader.
  const run = spawnSync(process.execPath, [fileURLToPath(new URL(file.replace(/\.ts$/, '.mjs'), import.meta.url))], {
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    failed++;
    console.log(`\nThe ${name} benchmark did not finish (${run.signal ?? `exit code ${String(run.status)}`}); see its output above.`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
