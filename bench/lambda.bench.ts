/**
 * Trellis on AWS Lambda against Hono (`hono/aws-lambda`) and Fastify (`@fastify/aws-lambda`), in the same run:
 * - cold start: a fresh `node` process imports the framework, builds a three-route app and answers its first
 *   API Gateway HTTP API (payload 2.0) event; the time from process start to that answer, median of
 *   ROUNDS processes per framework, interleaved so load on the machine falls on all alike;
 * - warm: events per CPU-second through the handler (payload 2.0, three routes in turn), best of ROUNDS
 *   processes per framework, the process's own CPU time counted (not wall time).
 * The apps are in bench/lambda-peers.mjs. Needs packages/trellis/dist/ (`npm run bench` builds it).
 *
 * Run alone: npm run build && node scripts/build-bench.mjs && node .bench/lambda.bench.mjs
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const FRAMEWORKS = ['trellis', 'hono', 'fastify'] as const;
type Framework = (typeof FRAMEWORKS)[number];
const ROUNDS = Number(process.env.LAMBDA_BENCH_ROUNDS ?? 11);
const WARM_EVENTS = Number(process.env.LAMBDA_BENCH_EVENTS ?? 20_000);
const script = fileURLToPath(new URL('./lambda-peers.mjs', import.meta.url));

if (!existsSync(new URL('../packages/trellis/dist/lambda/index.js', import.meta.url))) {
  console.error('bench/lambda.bench.ts measures the compiled package: run `npm run build` first (npm run bench does).');
  process.exit(1);
}

const run = (...args: string[]): number[] =>
  execFileSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 120_000 })
    .trim()
    .split(' ')
    .map(Number);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

console.log(`\nLambda: cold start and warm events (payload 2.0), ${ROUNDS} processes per framework, load average ${load()}`);

const cold: Record<Framework, number[]> = { trellis: [], hono: [], fastify: [] };
const coldCpu: Record<Framework, number[]> = { trellis: [], hono: [], fastify: [] };
const warm: Record<Framework, number[]> = { trellis: [], hono: [], fastify: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const f of FRAMEWORKS) {
    const [wall, cpu] = run('cold', f);
    cold[f].push(wall!);
    coldCpu[f].push(cpu!);
  }
}
for (let round = 0; round < Math.max(3, Math.ceil(ROUNDS / 3)); round++) {
  for (const f of FRAMEWORKS) warm[f].push(WARM_EVENTS / (run('warm', f, String(WARM_EVENTS))[0]! / 1e6));
}

const coldMedian = Object.fromEntries(FRAMEWORKS.map((f) => [f, median(cold[f])])) as Record<Framework, number>;
const coldCpuMedian = Object.fromEntries(FRAMEWORKS.map((f) => [f, median(coldCpu[f])])) as Record<Framework, number>;
const warmBest = Object.fromEntries(FRAMEWORKS.map((f) => [f, Math.max(...warm[f])])) as Record<Framework, number>;
console.log('\n  framework   cold start: wall ms (min–max)   CPU ms   warm: events per CPU-second (best)');
for (const f of FRAMEWORKS) {
  const range = `(${Math.min(...cold[f]).toFixed(0)}–${Math.max(...cold[f]).toFixed(0)})`;
  console.log(
    `  ${f.padEnd(10)}  ${coldMedian[f].toFixed(0).padStart(6)} ${range.padEnd(14)}  ${coldCpuMedian[f].toFixed(0).padStart(8)}   ${warmBest[f].toFixed(0).padStart(12)}`,
  );
}
const fastestCold = Math.min(coldMedian.hono, coldMedian.fastify);
const fastestColdCpu = Math.min(coldCpuMedian.hono, coldCpuMedian.fastify);
const fastestWarm = Math.max(warmBest.hono, warmBest.fastify);
console.log(
  `\n  cold start: the fastest peer takes ${(fastestCold / coldMedian.trellis).toFixed(2)}× Trellis's wall time and ${(fastestColdCpu / coldCpuMedian.trellis).toFixed(2)}× its CPU time (≥ 1.00: Trellis is no slower)`,
);
console.log(`  warm: Trellis answers ${(warmBest.trellis / fastestWarm).toFixed(2)}× the events per CPU-second of the fastest peer`);
console.log(`  load average after: ${load()}`);
