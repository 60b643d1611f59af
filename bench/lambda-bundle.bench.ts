/**
 * The guide's Lambda API (examples/lambda-api) bundled with the guide's own command (`npm run build`: esbuild,
 * one ES module) beside the same API written with Hono (bench/lambda-api-hono: the same routes, API keys from
 * SSM, grants, a per-caller rate limit, ioredis) bundled by the same command, in the same run:
 * - size: bytes of each bundle, and gzipped (what Lambda's deployment package compresses);
 * - cold start: a fresh plain `node` process in a folder holding only the bundle (and a stand-in for the AWS
 *   SDK the runtime brings) imports it, reads its keys, and answers its first API Gateway HTTP API event; the
 *   time from process start to that answer, median of ROUNDS processes per bundle, interleaved.
 * Goal: Trellis's cold start at or below 0.85× Hono's.
 *
 * Run alone: npm run build && node scripts/build-bench.mjs && node .bench/lambda-bundle.bench.mjs
 */
import { execFileSync, execSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { httpEvent } from '../test/support/lambda-events.js';
import { writeSsmStandIn } from '../test/support/runtime-sdk.js';
import { roundsFromEnvironment } from './rounds.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const EXAMPLE = join(ROOT, 'examples', 'lambda-api');
const ROUNDS = roundsFromEnvironment(15);
const KEYS = JSON.stringify({ k1: { subject: 'ana', grants: ['orders:read'] } });

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const work = mkdtempSync(join(tmpdir(), 'trellis-bundle-bench-'));
try {
  // The guide's build command, as its package.json says it, run by npm in the example project.
  const command: string = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')).scripts.build;
  // esbuild's summary goes to stderr: kept, and shown only when a build fails.
  execSync('npm run --silent build', { cwd: EXAMPLE, stdio: ['ignore', 'ignore', 'pipe'] });
  // The same command for the Hono app: only the entry point and the output file differ.
  const honoEntry = join(ROOT, 'bench', 'lambda-api-hono', 'handler.ts');
  const honoCommand = command
    .replace(/^esbuild handler\.ts /, `esbuild ${JSON.stringify(honoEntry)} `)
    .replace('--outfile=dist/handler.mjs', `--outfile=${join(work, 'hono.mjs')}`);
  if (honoCommand === command || !honoCommand.includes(work)) throw new Error(`the guide's build command changed shape: ${command}`);
  execSync(honoCommand, {
    cwd: EXAMPLE,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH}` },
  });

  const bundles = { trellis: join(EXAMPLE, 'dist', 'handler.mjs'), hono: join(work, 'hono.mjs') };
  const folders: Record<string, string> = {};
  for (const [name, file] of Object.entries(bundles)) {
    const dir = join(work, name);
    mkdirSync(dir);
    copyFileSync(file, join(dir, 'handler.mjs'));
    writeSsmStandIn(dir, { '/orders-api/api-keys': KEYS });
    folders[name] = dir;
  }

  const event = httpEvent('http-api', { path: '/orders', headers: { 'x-api-key': 'k1' } });
  const probe = `const { handler } = await import('./handler.mjs');
const r = await handler(${JSON.stringify(event)}, { awsRequestId: 'r1' });
if (r.statusCode !== 200) throw new Error('answered ' + r.statusCode + ': ' + r.body);
const cpu = process.cpuUsage();
process.stdout.write(performance.now() + ' ' + (cpu.user + cpu.system) / 1000);`;
  const cold = (name: string): [number, number] => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', probe], {
      cwd: folders[name],
      env: { PATH: process.env.PATH, API_KEYS_PARAMETER: '/orders-api/api-keys' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    return out.split(' ').map(Number) as [number, number];
  };
  const wall: Record<string, number[]> = { trellis: [], hono: [] };
  const cpu: Record<string, number[]> = { trellis: [], hono: [] };
  cold('trellis');
  cold('hono');
  for (let round = 0; round < ROUNDS; round++) {
    for (const name of ['trellis', 'hono']) {
      const [w, c] = cold(name);
      wall[name]!.push(w);
      cpu[name]!.push(c);
    }
  }

  console.log(
    `\nThe guide's Lambda API, bundled by its own command (esbuild, ESM), beside the same API with Hono; ${ROUNDS} cold starts each`,
  );
  console.log('\n  bundle    bytes      gzip    cold start: wall ms median (min–max)   CPU ms median');
  for (const [name, file] of Object.entries(bundles)) {
    const bytes = statSync(file).size;
    const gz = gzipSync(readFileSync(file)).length;
    const w = wall[name]!;
    console.log(
      `  ${name.padEnd(8)} ${String(bytes).padStart(7)}  ${String(gz).padStart(7)}    ${median(w).toFixed(1).padStart(6)} (${Math.min(...w).toFixed(1)}–${Math.max(...w).toFixed(1)})${' '.repeat(14)}${median(cpu[name]!).toFixed(1).padStart(6)}`,
    );
  }
  const sizeRatio = statSync(bundles.trellis).size / statSync(bundles.hono).size;
  const coldRatio = median(wall.trellis!) / median(wall.hono!);
  const cpuRatio = median(cpu.trellis!) / median(cpu.hono!);
  console.log(`\n  size: Trellis's bundle is ${sizeRatio.toFixed(2)}× Hono's`);
  console.log(
    `  cold start: Trellis takes ${coldRatio.toFixed(2)}× Hono's wall time and ${cpuRatio.toFixed(2)}× its CPU time (goal: ≤ 0.85× wall) ${coldRatio <= 0.85 ? 'met' : 'NOT met'}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
