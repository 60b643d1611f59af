/**
 * The limiter's own cost over HTTP, counted in instructions: a `@RateLimit` route whose limit is never reached
 * against the same route writing the three `RateLimit-*` headers by hand, each server process run under
 * `valgrind --tool=cachegrind`, which counts the instructions the process executes. Each server answers a
 * small and a large number of requests in separate runs; the difference divided by the extra requests is the
 * cost of one request, with most of start-up and compilation cancelled out. The count does not depend on
 * how fast the machine happens to be, but it does move with how requests bunch into turns of the event loop
 * (0.90–1.01 for the ratio over three runs on a 2-core machine), where server CPU time on a shared machine
 * moves by tens of per cent between rounds of `bench/http.bench.ts`. Counts leave out the kernel's share
 * (the sockets), which is the same for both routes: they write the same bytes.
 *
 * Needs valgrind (`apt-get install -y valgrind`); without it the benchmark says so and skips. Bounded: about
 * three minutes (the two servers run side by side, one per core, under valgrind's slowdown).
 *
 * Run alone: node --import tsx bench/limiter-instructions.bench.ts
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';

const serverScript = fileURLToPath(new URL('./http-servers.ts', import.meta.url));
const KINDS = ['trellis-three-headers', 'trellis-rate-limited'] as const;
/** Requests of the short and the long run; their difference is what is counted. */
const SMALL = 3_000;
const LARGE = 23_000;

/** Instructions the server process executed while starting and answering `requests` requests. */
async function instructions(kind: string, requests: number, dir: string): Promise<number> {
  const out = join(dir, `${kind}-${requests}.cachegrind`);
  const child = spawn(
    'valgrind',
    ['--tool=cachegrind', '--cache-sim=no', `--cachegrind-out-file=${out}`, '--smc-check=all', process.execPath, '--single-threaded', '--import', 'tsx', serverScript, kind],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let printed = '';
  child.stdout!.setEncoding('utf8');
  for await (const chunk of child.stdout!) {
    printed += chunk;
    if (printed.includes('\n')) break;
  }
  const port = Number(printed.trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error(`server ${kind} did not start under valgrind: ${printed}`);
  const result = await autocannon({ url: `http://127.0.0.1:${port}/hello`, connections: 16, amount: requests });
  if (result.errors + result.non2xx > 0) throw new Error(`server ${kind}: ${result.errors + result.non2xx} failed requests`);
  const exited = once(child, 'exit');
  child.kill('SIGINT');
  await exited;
  const summary = /^summary: (\d+)/m.exec(readFileSync(out, 'utf8'));
  if (summary === null) throw new Error(`no cachegrind summary for ${kind}`);
  return Number(summary[1]);
}

export async function runLimiterInstructionsBench(): Promise<Map<string, number>> {
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    throw new Error('valgrind not found: install it (apt-get install -y valgrind) to run this benchmark');
  }
  const dir = mkdtempSync(join(tmpdir(), 'trellis-instructions-'));
  const perRequest = new Map<string, number>();
  try {
    // One server per core at a time: valgrind runs a process on one thread.
    const small = await Promise.all(KINDS.map((kind) => instructions(kind, SMALL, dir)));
    const large = await Promise.all(KINDS.map((kind) => instructions(kind, LARGE, dir)));
    KINDS.forEach((kind, i) => perRequest.set(kind, (large[i]! - small[i]!) / (LARGE - SMALL)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nThe limiter's own cost by instructions per request (cachegrind, ${LARGE} − ${SMALL} requests, 16 connections)`);
  for (const [kind, count] of perRequest) console.log(`${kind.padEnd(24)} ${count.toFixed(0).padStart(8)} instructions/request`);
  const ratio = perRequest.get('trellis-rate-limited')! / perRequest.get('trellis-three-headers')!;
  console.log(`ratio trellis-rate-limited / trellis-three-headers   ${ratio.toFixed(3)}   (the limiter's own cost; goal <= 1.03)`);
  return perRequest;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await runLimiterInstructionsBench();
  } catch (error) {
    console.log(`\nLimiter instruction benchmark skipped: ${(error as Error).message}`);
  }
}
