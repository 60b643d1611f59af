/**
 * RedisRateLimitStore against rate-limiter-flexible's RateLimiterRedis on the same redis-server in the same
 * run, with `redis-benchmark -t ping` as the server's ceiling and a plain ioredis PING as the client's.
 * Each contender runs a closed loop (a fixed number of acquires in flight) for a fixed time, interleaved
 * over rounds; the best round is reported. Beside throughput and latency, each row says what one acquire
 * costs Redis (script CPU time from `INFO commandstats`) and this process (CPU time per script call).
 * Bounded: about 40 s in all with the defaults.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/redis-store.bench.mjs
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimitPolicy } from '../packages/trellis/src/ratelimit/types.js';
import { redisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { closedLoop as loop, processCpuMicros, redisScriptMicros, type Operation } from './redis-loop.js';
import { packageModule as from } from './package-module.js';

// The compiled package, as users run it (see package-module.ts).
const { RedisRateLimitStore } = (await import(
  from('ratelimit/redis/index.js')
)) as typeof import('../packages/trellis/src/public/ratelimit-redis.js');

/** The shared loop, with the row named. */
async function closedLoop(name: string, op: Operation, durationMs: number, concurrency: number): Promise<RedisBenchRow> {
  return { name, ...(await loop(op, durationMs, concurrency)) };
}

export interface RedisBenchOptions {
  /** Milliseconds each contender runs per round (default 2,000). */
  readonly durationMs?: number;
  /** Acquires in flight at once (default 64). */
  readonly concurrency?: number;
  /** Partitions of the middle-sized scenario; the others use ten times more and ten times fewer (default 1,000). */
  readonly partitions?: number;
  /** Interleaved rounds; the best is kept (default 2). */
  readonly rounds?: number;
}

export interface RedisBenchRow {
  readonly name: string;
  readonly opsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Share of acquires that were allowed (both limiters see the same load). */
  readonly allowedShare?: number;
  /** Acquires completed. */
  readonly operations: number;
  /** Redis's time in script commands per acquire, from `INFO commandstats` (one call may carry many acquires). */
  readonly redisMicrosPerAcquire?: number;
  /** redis-server's process CPU time per acquire (/proc), network and protocol included. */
  readonly redisProcessMicrosPerAcquire?: number;
  /** This process's CPU time per acquire (user + system), what the application pays per acquire. */
  readonly clientMicrosPerAcquire?: number;
}

export interface RedisBenchResult {
  readonly redisVersion: string;
  readonly node: string;
  readonly settings: Required<RedisBenchOptions>;
  readonly ceiling: { readonly redisBenchmarkPing: number; readonly ioredisPing: RedisBenchRow };
  readonly scenarios: ReadonlyArray<{ readonly title: string; readonly rows: readonly RedisBenchRow[] }>;
}

function measureRedisBenchmarkPing(port: number): number {
  const run = spawnSync('redis-benchmark', ['-h', '127.0.0.1', '-p', String(port), '-t', 'ping', '-n', '200000', '-c', '50', '--csv'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(`redis-benchmark failed: ${run.stderr || run.error?.message}`);
  // CSV rows: "PING_INLINE","<rps>",... and "PING_MBULK","<rps>",...; the multi-bulk form is what clients send.
  const row = run.stdout.split('\n').find((line) => line.startsWith('"PING_MBULK"'));
  const rps = Number(row?.split(',')[1]?.replaceAll('"', ''));
  if (!Number.isFinite(rps)) throw new Error(`cannot read redis-benchmark output: ${run.stdout}`);
  return Math.round(rps);
}

function best(rows: RedisBenchRow[]): RedisBenchRow {
  return rows.reduce((a, b) => (b.opsPerSecond > a.opsPerSecond ? b : a));
}

/** Runs the benchmark on a private redis-server and returns the figures (throws if redis-server is missing). */
export async function runRedisStoreBench(options: RedisBenchOptions = {}): Promise<RedisBenchResult> {
  const settings = { durationMs: 1_500, concurrency: 64, partitions: 1_000, rounds: 3, ...options };
  if (!redisServerAvailable())
    throw new Error('redis-server not found: install it (apt-get install -y redis-server) to run this benchmark');
  const server = await startRedisServer();
  const clients: Redis[] = [];
  const client = (): Redis => {
    const c = new Redis(server.url);
    clients.push(c);
    return c;
  };
  try {
    const admin = client();
    const info = await admin.info('server');
    const redisVersion = /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
    const redisBenchmarkPing = measureRedisBenchmarkPing(server.port);
    const pingClient = client();
    const ping = (): Promise<RedisBenchRow> =>
      closedLoop(
        'ioredis PING (client ceiling)',
        async () => (await pingClient.ping()) === 'PONG',
        settings.durationMs,
        settings.concurrency,
      );

    // Allowed and refused acquires cost differently (a refusal writes nothing), so both regimes are measured.
    const scenarios = [
      { shape: 'exact window, mostly allowed', permitLimit: 100, windowSeconds: 60, partitions: 10 * settings.partitions },
      {
        shape: 'exact window, mostly refused',
        permitLimit: 10,
        windowSeconds: 60,
        partitions: Math.max(1, Math.round(settings.partitions / 10)),
      },
      { shape: 'segmented window', permitLimit: 10_000, windowSeconds: 3_600, partitions: settings.partitions },
    ].map((s) => ({
      ...s,
      title: `${s.shape}: ${s.permitLimit.toLocaleString('en-US')} per ${s.windowSeconds} s over ${s.partitions.toLocaleString('en-US')} partitions`,
    }));
    const results: Array<{ title: string; rows: RedisBenchRow[] }> = [];
    const pingRounds: RedisBenchRow[] = [];
    for (const scenario of scenarios) {
      const policy: RateLimitPolicy = {
        key: 'GET /bench:limit',
        handler: 'GET /bench',
        name: 'limit',
        permitLimit: scenario.permitLimit,
        windowSeconds: scenario.windowSeconds,
        scope: 'transport',
      };
      const store = new RedisRateLimitStore({ client: client(), keyPrefix: 'bench:trellis:', timeoutMs: 1_000 });
      const peer = new RateLimiterRedis({
        storeClient: client(),
        keyPrefix: 'bench:rlf',
        points: scenario.permitLimit,
        duration: scenario.windowSeconds,
      });
      const ours: Operation = async (i) => (await store.acquire(`p${i % scenario.partitions}`, policy)).allowed;
      const theirs: Operation = async (i) => {
        try {
          await peer.consume(`p${i % scenario.partitions}`);
          return true;
        } catch (error) {
          if (error instanceof RateLimiterRes) return false;
          throw error;
        }
      };
      const oursRounds: RedisBenchRow[] = [];
      const theirsRounds: RedisBenchRow[] = [];
      const measured = async (name: string, op: Operation): Promise<RedisBenchRow> => {
        await admin.flushall();
        await admin.config('RESETSTAT');
        const cpu = process.cpuUsage();
        const serverCpu = processCpuMicros(server.pid);
        const row = await closedLoop(name, op, settings.durationMs, settings.concurrency);
        const used = process.cpuUsage(cpu);
        const serverUsed = (processCpuMicros(server.pid) ?? Number.NaN) - (serverCpu ?? Number.NaN);
        const stats = await admin.info('commandstats');
        const acquires = row.operations;
        const micros = (redisScriptMicros(stats) ?? Number.NaN) / acquires;
        const client = acquires > 0 ? (used.user + used.system) / acquires : Number.NaN;
        return {
          ...row,
          ...(Number.isFinite(micros) ? { redisMicrosPerAcquire: micros } : {}),
          ...(Number.isFinite(serverUsed) && acquires > 0 ? { redisProcessMicrosPerAcquire: serverUsed / acquires } : {}),
          ...(Number.isFinite(client) ? { clientMicrosPerAcquire: client } : {}),
        };
      };
      for (let round = 0; round < settings.rounds; round++) {
        oursRounds.push(await measured('RedisRateLimitStore (sliding window)', ours));
        theirsRounds.push(await measured('rate-limiter-flexible RateLimiterRedis (fixed window)', theirs));
        if (scenario === scenarios[0]) pingRounds.push(await ping());
      }
      results.push({ title: scenario.title, rows: [best(oursRounds), best(theirsRounds)] });
    }
    return {
      redisVersion,
      node: process.version,
      settings,
      ceiling: { redisBenchmarkPing, ioredisPing: best(pingRounds) },
      scenarios: results,
    };
  } finally {
    for (const c of clients) c.disconnect();
    await server.close();
  }
}

/** Formats a result as the Markdown table used in docs/performance.md. */
export function formatRedisStoreBench(result: RedisBenchResult): string {
  const { settings } = result;
  const row = (r: RedisBenchRow): string =>
    `| ${r.name} | ${r.opsPerSecond.toLocaleString('en-US')} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.allowedShare === undefined ? '' : `${(r.allowedShare * 100).toFixed(1)} %`} | ${r.redisMicrosPerAcquire?.toFixed(1) ?? ''} | ${r.redisProcessMicrosPerAcquire?.toFixed(1) ?? ''} | ${r.clientMicrosPerAcquire?.toFixed(1) ?? ''} |`;
  const lines = [
    `Redis ${result.redisVersion}, Node ${result.node}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' / ',
      )} (1 / 5 / 15 min); each contender on its own ioredis connection with ${settings.concurrency} acquires in flight, ${settings.durationMs} ms per contender per round, best of ${settings.rounds} interleaved rounds.`,
    '',
    `Ceiling: \`redis-benchmark -t ping -c 50\` ${result.ceiling.redisBenchmarkPing.toLocaleString('en-US')} req/s (50 connections); ioredis PING on one connection ${result.ceiling.ioredisPing.opsPerSecond.toLocaleString('en-US')} req/s (p50 ${result.ceiling.ioredisPing.p50Ms.toFixed(2)} ms, p99 ${result.ceiling.ioredisPing.p99Ms.toFixed(2)} ms).`,
  ];
  for (const scenario of result.scenarios) {
    lines.push(
      '',
      `**${scenario.title}**`,
      '',
      '| contender | acquires/s | p50 ms | p99 ms | allowed | Redis script µs/acquire | redis-server CPU µs/acquire | client µs/acquire |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const r of scenario.rows) lines.push(row(r));
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    console.log(formatRedisStoreBench(await runRedisStoreBench()));
  } catch (error) {
    // Without redis-server (or redis-benchmark) there is nothing to measure: say so in one line.
    console.log(`\nRedis store benchmark skipped: ${(error as Error).message}`);
  }
}
