/**
 * HTTP throughput with the limit kept in Redis: Trellis with RedisRateLimitStore against Fastify with
 * @fastify/rate-limit on its Redis store, the same redis-server, the same run. autocannon on loopback, every
 * server in its own process, rounds interleaved (each in the reverse order of the last), the best round of
 * each counted; server CPU per request and redis-server CPU per request beside throughput (the shared cores
 * disturb CPU figures less), and the median of the rounds' own ratios (each round of one server beside the
 * other's next to it), which one lucky or unlucky round cannot move. Bounded: about a minute and a half with
 * the defaults. ROUNDS=n in the environment runs n rounds (default 6); VERBOSE=1 prints every round.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/redis-http.bench.mjs
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { pinLoadGenerator } from './cpu-pinning.js';
import { startServerProcess } from './server-process.js';
import { Redis } from 'ioredis';
import { redisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { processCpuMicros } from './redis-loop.js';
import { median, roundOrder, roundsFromEnvironment } from './rounds.js';

interface Measurement {
  readonly requests: number;
  readonly p99: number;
  readonly errors: number;
  readonly serverMicrosPerRequest: number;
  readonly redisMicrosPerRequest: number;
  /** Redis's own time in the limiter's scripts per request (INFO commandstats). */
  readonly redisCommandMicrosPerRequest: number;
  /** Requests per command the limiter sent (the Redis store sends the acquires of one event-loop turn together). */
  readonly requestsPerCommand: number;
}

const serverScript = fileURLToPath(new URL('./redis-http-servers.mjs', import.meta.url));
const KINDS = ['trellis-redis', 'fastify-redis'] as const;

/**
 * Calls and usec of the script commands (EVALSHA, EVAL) since the last CONFIG RESETSTAT: both limiters send
 * one script per call, and a script's usec include the commands it runs (which commandstats lists too).
 */
function scriptStats(commandstats: string): { calls: number; micros: number } {
  let calls = 0;
  let micros = 0;
  for (const m of commandstats.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+),usec=(\d+)/g)) {
    calls += Number(m[1]);
    micros += Number(m[2]);
  }
  return { calls, micros };
}

export async function runRedisHttpBench(options: { rounds?: number; seconds?: number } = {}): Promise<Map<string, Measurement>> {
  const placement = pinLoadGenerator();
  const rounds = options.rounds ?? roundsFromEnvironment(6);
  const seconds = options.seconds ?? 3;
  if (!redisServerAvailable())
    throw new Error('redis-server not found: install it (apt-get install -y redis-server) to run this benchmark');
  const redis = await startRedisServer();
  const admin = new Redis(redis.url);
  const servers = new Map<string, { port: number; child: ChildProcess }>();
  const best = new Map<string, Measurement>();
  const roundRatios: number[] = [];
  try {
    for (const kind of KINDS) servers.set(kind, await startServerProcess(serverScript, [kind, redis.url]));
    const measure = async (kind: string, duration: number): Promise<Measurement> => {
      const { port, child } = servers.get(kind)!;
      await admin.config('RESETSTAT');
      const server0 = processCpuMicros(child.pid!) ?? Number.NaN;
      const redis0 = processCpuMicros(redis.pid) ?? Number.NaN;
      const result = await autocannon({ url: `http://127.0.0.1:${port}/hello`, connections: 64, pipelining: 1, duration });
      const n = Math.max(1, result.requests.total);
      const stats = await admin.info('commandstats');
      return {
        requests: result.requests.average,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
        serverMicrosPerRequest: ((processCpuMicros(child.pid!) ?? Number.NaN) - server0) / n,
        redisMicrosPerRequest: ((processCpuMicros(redis.pid) ?? Number.NaN) - redis0) / n,
        redisCommandMicrosPerRequest: scriptStats(stats).micros / n,
        requestsPerCommand: n / Math.max(1, scriptStats(stats).calls),
      };
    };
    for (const kind of KINDS) await measure(kind, 1); // warm-up
    for (let round = 0; round < rounds; round++) {
      const thisRound = new Map<string, number>();
      for (const kind of roundOrder(KINDS, round)) {
        const m = await measure(kind, seconds);
        if (process.env.VERBOSE)
          console.log(
            `round ${round + 1} ${kind}: ${m.requests.toFixed(0)} req/s, server CPU ${m.serverMicrosPerRequest.toFixed(1)} µs/req, ${m.requestsPerCommand.toFixed(1)} req/script call`,
          );
        thisRound.set(kind, m.requests);
        const prev = best.get(kind);
        if (!prev || m.requests > prev.requests) best.set(kind, m);
      }
      roundRatios.push(thisRound.get('trellis-redis')! / thisRound.get('fastify-redis')!);
    }
  } finally {
    for (const { child } of servers.values()) {
      child.kill();
      await once(child, 'exit').catch(() => undefined);
    }
    admin.disconnect();
    await redis.close();
  }
  console.log(
    `\nHTTP with the limit in Redis: GET /hello under a limit never reached (autocannon, 64 connections, best of ${rounds} × ${seconds} s)`,
  );
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')} (1 / 5 / 15 min); ${placement}; redis-server not pinned`,
  );
  console.log(
    'server              req/s   p99 ms  errors  server CPU µs/req  redis-server CPU µs/req  Redis script µs/req  req/script call',
  );
  for (const [kind, m] of best) {
    console.log(
      `${kind.padEnd(16)} ${m.requests.toFixed(0).padStart(8)} ${String(m.p99).padStart(8)} ${String(m.errors).padStart(7)}  ${m.serverMicrosPerRequest.toFixed(1).padStart(17)}  ${m.redisMicrosPerRequest.toFixed(1).padStart(23)}  ${m.redisCommandMicrosPerRequest.toFixed(1).padStart(19)}  ${m.requestsPerCommand.toFixed(1).padStart(15)}`,
    );
  }
  const a = best.get('trellis-redis')!;
  const b = best.get('fastify-redis')!;
  console.log(`ratio trellis-redis / fastify-redis (req/s)            ${(a.requests / b.requests).toFixed(3)}   (goal >= 1.2)`);
  const sorted = roundRatios.sort((x, y) => x - y);
  console.log(
    `median of the ${sorted.length} rounds' own ratios                ${median(sorted).toFixed(3)}   (${sorted.map((r) => r.toFixed(2)).join(', ')})`,
  );
  console.log(
    `ratio by server CPU per request (fastify / trellis)     ${(b.serverMicrosPerRequest / a.serverMicrosPerRequest).toFixed(3)}`,
  );
  return best;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await runRedisHttpBench();
  } catch (error) {
    console.log(`\nRedis HTTP benchmark skipped: ${(error as Error).message}`);
  }
}
