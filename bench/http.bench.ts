/**
 * HTTP throughput with autocannon on loopback, every server in its own process and the load generator in
 * this one, peers in the same run, rounds interleaved (each round in the reverse order of the last), the best
 * round of each counted, and for the goals the median of the rounds' own ratios too. Bounded: about three
 * minutes with the default 6 rounds (ROUNDS=n in the environment changes that).
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/http.bench.mjs
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { pinLoadGenerator } from './cpu-pinning.js';
import { startServerProcess } from './server-process.js';
import { median, roundOrder, roundsFromEnvironment } from './rounds.js';

interface Measurement {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  cpuMicrosPerRequest: number | null;
}

const serverScript = fileURLToPath(new URL('./http-servers.mjs', import.meta.url));

/**
 * The server process's own CPU time in microseconds (`process.cpuUsage()`, user + system, asked over IPC),
 * to report CPU per request: on a 2-core machine the load generator competes for the CPU, so req/s alone says
 * little about the server's own cost.
 */
async function cpuMicros(child: ChildProcess | undefined): Promise<number | null> {
  if (child?.connected !== true) return null;
  const answer = once(child, 'message') as Promise<[{ user: number; system: number }]>;
  child.send('cpu');
  const [{ user, system }] = await answer;
  return user + system;
}

/** What the load generator sends a server: GET /hello, or a JSON order to the schema-validated routes. */
const ORDER = JSON.stringify({ sku: 'A-1', qty: 2 });
function requestOf(kind: string, port: number): autocannon.Options {
  if (kind.endsWith('-validated')) {
    return { url: `http://127.0.0.1:${port}/orders`, method: 'POST', body: ORDER, headers: { 'content-type': 'application/json' } };
  }
  return { url: `http://127.0.0.1:${port}/hello` };
}

async function measure(kind: string, port: number, seconds: number, child?: ChildProcess): Promise<Measurement> {
  const before = await cpuMicros(child);
  const result = await autocannon({ ...requestOf(kind, port), connections: 64, pipelining: 1, duration: seconds });
  const after = await cpuMicros(child);
  const cpu = before !== null && after !== null && result.requests.total > 0 ? (after - before) / result.requests.total : null;
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuMicrosPerRequest: cpu,
  };
}

export interface HttpBenchOptions {
  rounds?: number;
  seconds?: number;
  kinds?: string[];
}

export async function runHttpBench(options: HttpBenchOptions = {}): Promise<Map<string, Measurement>> {
  const placement = pinLoadGenerator();
  const rounds = options.rounds ?? roundsFromEnvironment(6);
  const seconds = options.seconds ?? 3;
  // Each pair a goal compares stands side by side, so its two servers are measured one right after the other.
  const all = [
    'node-http',
    'trellis-hello',
    'fastify-hello',
    'trellis-default-pipeline',
    'node-http-three-headers',
    'trellis-three-headers',
    'trellis-rate-limited',
    'fastify-rate-limited',
    'trellis-validated',
    'fastify-validated',
    'node-http-validated',
  ];
  const kinds = options.kinds ?? all;
  const best = new Map<string, Measurement>();
  const leastCpu = new Map<string, number>();
  const perRound: Map<string, Measurement>[] = [];
  const servers = new Map<string, { port: number; child: ChildProcess }>();
  try {
    for (const kind of kinds) servers.set(kind, await startServerProcess(serverScript, [kind], { ipc: true }));
    for (const kind of kinds) await measure(kind, servers.get(kind)!.port, 1); // warm-up
    for (let round = 0; round < rounds; round++) {
      const thisRound = new Map<string, Measurement>();
      perRound.push(thisRound);
      for (const kind of roundOrder(kinds, round)) {
        const server = servers.get(kind)!;
        const m = await measure(kind, server.port, seconds, server.child);
        thisRound.set(kind, m);
        const prev = best.get(kind);
        if (!prev || m.requests > prev.requests) best.set(kind, m);
        // CPU per request: the least over the rounds (another process's burst can only add to it).
        if (m.cpuMicrosPerRequest !== null && !(leastCpu.get(kind)! <= m.cpuMicrosPerRequest)) leastCpu.set(kind, m.cpuMicrosPerRequest);
      }
    }
  } finally {
    for (const { child } of servers.values()) {
      child.kill();
      await once(child, 'exit').catch(() => undefined);
    }
  }
  const rps = (k: string) => best.get(k)!.requests;
  console.log('\nHTTP: GET /hello → {"hello":"world"} (autocannon, 64 connections, best of %d × %d s)', rounds, seconds);
  console.log(placement);
  console.log('server                      req/s      p50 ms  p99 ms  errors  server CPU µs/req (least of the rounds)');
  for (const [kind, m] of best) {
    const least = leastCpu.get(kind);
    const cpu = least === undefined ? 'n/a' : least.toFixed(2);
    console.log(
      `${kind.padEnd(26)} ${m.requests.toFixed(0).padStart(8)} ${String(m.p50).padStart(8)} ${String(m.p99).padStart(7)} ${String(m.errors).padStart(7)}  ${cpu.padStart(8)}`,
    );
  }
  const ratio = (a: string, b: string) => (best.has(a) && best.has(b) ? (rps(a) / rps(b)).toFixed(3) : 'n/a');
  console.log(`ratio trellis-hello / fastify-hello                 ${ratio('trellis-hello', 'fastify-hello')}   (goal >= 0.90)`);
  console.log(`ratio trellis-default-pipeline / trellis-hello      ${ratio('trellis-default-pipeline', 'trellis-hello')}`);
  console.log(`ratio trellis-default-pipeline / node-http (bare)   ${ratio('trellis-default-pipeline', 'node-http')}`);
  console.log(`ratio trellis-rate-limited / trellis-hello          ${ratio('trellis-rate-limited', 'trellis-hello')}   (goal >= 0.95)`);
  console.log(
    `ratio node-http-three-headers / node-http          ${ratio('node-http-three-headers', 'node-http')}   (the three headers in bare node:http)`,
  );
  // The same comparisons in server CPU per request, which the shared cores disturb less.
  const cpuRatio = (a: string, b: string) => {
    const ca = leastCpu.get(a);
    const cb = leastCpu.get(b);
    return ca && cb ? (ca / cb).toFixed(3) : 'n/a';
  };
  console.log(`cpu/req trellis-rate-limited / trellis-hello          ${cpuRatio('trellis-rate-limited', 'trellis-hello')}`);
  console.log(`cpu/req node-http-three-headers / node-http          ${cpuRatio('node-http-three-headers', 'node-http')}`);
  console.log(
    `ratio trellis-rate-limited / trellis-three-headers ${ratio('trellis-rate-limited', 'trellis-three-headers')}   (the limiter alone, headers aside)`,
  );
  console.log(
    `cpu/req trellis-rate-limited / trellis-three-headers  ${cpuRatio('trellis-rate-limited', 'trellis-three-headers')}   (the limiter's own cost; goal <= 1.03)`,
  );
  console.log(
    `ratio trellis-rate-limited / fastify-rate-limited   ${ratio('trellis-rate-limited', 'fastify-rate-limited')}   (goal >= 1.10)`,
  );
  console.log(
    `cpu/req fastify-rate-limited / trellis-rate-limited   ${cpuRatio('fastify-rate-limited', 'trellis-rate-limited')}   (the same, by server CPU)`,
  );
  // The same goals as medians of the rounds' own ratios (servers measured one after the other within a
  // round): one lucky or unlucky round moves a best-of figure, not these.
  const roundMedian = (a: string, b: string, value: (m: Measurement) => number | null): string => {
    const ratios: number[] = [];
    for (const round of perRound) {
      const ma = round.get(a);
      const mb = round.get(b);
      const va = ma && value(ma);
      const vb = mb && value(mb);
      if (va && vb) ratios.push(va / vb);
    }
    if (ratios.length === 0) return 'n/a';
    ratios.sort((x, y) => x - y);
    return `${median(ratios).toFixed(3)}   (${ratios.map((r) => r.toFixed(2)).join(', ')})`;
  };
  console.log(
    `median of rounds, cpu/req trellis-rate-limited / trellis-three-headers  ${roundMedian('trellis-rate-limited', 'trellis-three-headers', (m) => m.cpuMicrosPerRequest)}`,
  );
  console.log(
    `median of rounds, ratio trellis-rate-limited / fastify-rate-limited    ${roundMedian('trellis-rate-limited', 'fastify-rate-limited', (m) => m.requests)}   (goal >= 1.15)`,
  );
  // Requests per server CPU-second: what the server itself can do, the load generator's share of the cores aside.
  const perCpu = (m: Measurement) => (m.cpuMicrosPerRequest ? 1 / m.cpuMicrosPerRequest : null);
  console.log(
    `median of rounds, req per CPU-s trellis-hello / node-http (bare)       ${roundMedian('trellis-hello', 'node-http', perCpu)}   (goal >= 0.97)`,
  );
  console.log(
    `median of rounds, req per CPU-s trellis-hello / fastify-hello          ${roundMedian('trellis-hello', 'fastify-hello', perCpu)}`,
  );
  console.log(
    `median of rounds, ratio trellis-validated / fastify-validated          ${roundMedian('trellis-validated', 'fastify-validated', (m) => m.requests)}   (goal >= 1.15; POST /orders, a schema-validated JSON body)`,
  );
  console.log(
    `median of rounds, req per CPU-s trellis-validated / fastify-validated  ${roundMedian('trellis-validated', 'fastify-validated', perCpu)}   (goal >= 1.15)`,
  );
  console.log(
    `median of rounds, req per CPU-s node-http-validated / fastify-validated ${roundMedian('node-http-validated', 'fastify-validated', perCpu)}   (no framework: the most any can gain)`,
  );
  console.log(
    `median of rounds, req per CPU-s trellis-validated / node-http-validated ${roundMedian('trellis-validated', 'node-http-validated', perCpu)}`,
  );
  return best;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const kinds = process.argv.slice(2);
  await runHttpBench(kinds.length ? { kinds } : {});
}
