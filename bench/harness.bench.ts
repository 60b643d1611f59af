/**
 * Harness widget reads over HTTP: a warm trivial widget (`GET /api/dashboards/{id}/widgets/0`, the function
 * already ran, so this is the harness's own cost) against a bare Trellis route answering the same JSON, each
 * server in its own process, in the same run. Throughput and p50/p99 with autocannon (32 connections, rounds
 * interleaved, best round counted), and the added latency of one request at a time on one keep-alive
 * connection, timed in microseconds. Bounded: about 25 s on 127.0.0.1.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/harness.bench.mjs
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Agent, get } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { createApp, route } from 'trellis';
import { createHarnessApp } from 'trellis-harness';

const SELF = fileURLToPath(import.meta.url);

/** Server side (in a child process): prints `port path` once ready. */
async function serve(kind: string): Promise<void> {
  const { app: harnessApp } = createHarnessApp({ functions: { functions: { trivial: { handler: async () => '<p>ok</p>' } } } });
  const created = await harnessApp.inject({
    method: 'POST',
    url: '/api/dashboards',
    body: JSON.stringify(JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'trivial' } }] })),
    headers: { 'content-type': 'application/json' },
  });
  const path = `/api/dashboards/${created.json().id}/widgets/0`;
  const warm = (await harnessApp.inject({ url: path })).json();
  let app = harnessApp;
  if (kind === 'bare') {
    app = createApp();
    app.route(route('GET', '/api/dashboards/:id/widgets/:wid', () => warm));
  }
  const { port } = await app.listen({ port: 0 });
  process.stdout.write(`${port} ${path}\n`);
}

interface Server {
  url: string;
  child: ChildProcess;
}

async function start(kind: string): Promise<Server> {
  const child = spawn(process.execPath, [SELF, '--serve', kind], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  const [port, path] = out.trim().split(' ');
  if (!port || !path) throw new Error(`the ${kind} server did not start: ${out}`);
  return { url: `http://127.0.0.1:${port}${path}`, child };
}

interface Load {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, seconds: number): Promise<Load> {
  const r = await autocannon({ url, connections: 32, duration: seconds });
  return { requests: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx };
}

/** One request at a time on one keep-alive connection: per-request latency in microseconds. */
async function sequential(url: string, count: number): Promise<{ p50: number; p99: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    await new Promise<void>((resolve, reject) => {
      get(url, { agent }, (res) => {
        res.resume();
        res.on('end', resolve);
      }).on('error', reject);
    });
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length * 0.5)]!, p99: times[Math.floor(times.length * 0.99)]! };
}

export interface HarnessBenchResult {
  harness: Load & { seqP50Us: number; seqP99Us: number };
  bare: Load & { seqP50Us: number; seqP99Us: number };
  ratio: number;
  addedP50Us: number;
}

/**
 * Runs the benchmark and prints a table.
 *
 * @example
 * const { ratio, addedP50Us } = await runHarnessBench();
 */
export async function runHarnessBench(options: { rounds?: number; seconds?: number } = {}): Promise<HarnessBenchResult> {
  const rounds = options.rounds ?? 3;
  const seconds = options.seconds ?? 3;
  const servers = new Map<string, Server>();
  const best = new Map<string, Load>();
  const seq = new Map<string, { p50: number; p99: number }>();
  try {
    for (const kind of ['harness', 'bare']) servers.set(kind, await start(kind));
    for (const s of servers.values()) await load(s.url, 1);
    for (let round = 0; round < rounds; round++) {
      for (const [kind, s] of servers) {
        const m = await load(s.url, seconds);
        if (!best.has(kind) || m.requests > best.get(kind)!.requests) best.set(kind, m);
        const q = await sequential(s.url, 2000);
        if (!seq.has(kind) || q.p50 < seq.get(kind)!.p50) seq.set(kind, q);
      }
    }
  } finally {
    for (const { child } of servers.values()) {
      child.kill();
      await once(child, 'exit').catch(() => undefined);
    }
  }
  const row = (kind: string) => ({ ...best.get(kind)!, seqP50Us: seq.get(kind)!.p50, seqP99Us: seq.get(kind)!.p99 });
  const result: HarnessBenchResult = {
    harness: row('harness'),
    bare: row('bare'),
    ratio: best.get('harness')!.requests / best.get('bare')!.requests,
    addedP50Us: seq.get('harness')!.p50 - seq.get('bare')!.p50,
  };
  console.log(`\nHarness: warm widget read over HTTP against a bare Trellis route with the same JSON (Node ${process.version})`);
  console.log(
    `autocannon 32 connections, best of ${rounds} × ${seconds} s; sequential: 2,000 requests on one keep-alive connection, best round`,
  );
  console.log('server     reads/s   p50 ms  p99 ms  errors   seq p50 µs  seq p99 µs');
  for (const [name, r] of [
    ['harness', result.harness],
    ['bare', result.bare],
  ] as const) {
    console.log(
      `${name.padEnd(8)} ${r.requests.toFixed(0).padStart(9)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(7)} ${String(r.errors).padStart(7)} ${r.seqP50Us.toFixed(0).padStart(12)} ${r.seqP99Us.toFixed(0).padStart(11)}`,
    );
  }
  console.log(`ratio harness / bare reads/s: ${result.ratio.toFixed(3)}`);
  console.log(`added p50 latency, one request at a time: ${(result.addedP50Us / 1000).toFixed(3)} ms (goal: ≤ 1 ms)`);
  console.log(`added p50 latency under load: ${result.harness.p50 - result.bare.p50} ms (autocannon reports whole milliseconds)`);
  return result;
}

const serveAt = process.argv.indexOf('--serve');
if (serveAt >= 0) {
  await serve(process.argv[serveAt + 1] ?? 'harness');
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runHarnessBench();
}
