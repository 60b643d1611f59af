/**
 * Rate limiting at scale, against rate-limiter-flexible in the same run:
 *
 * 1. Memory per counter by `MEMORY USAGE` (42-byte keys) for typical limits, in steady use and after a burst,
 *    beside RateLimiterRedis's key for the same caller.
 * 2. One Redis holding 1,000,000 active partitions of 100 per 10 minutes for each contender (each counter 99
 *    admissions into its window, so the next acquire is allowed; the same layout and bytes as 100 per minute,
 *    with a window long enough for the fills and the measurement): `used_memory` per partition, then
 *    acquires per second, p99 and Redis CPU per acquire over random partitions, interleaved rounds.
 *
 * The partitions are filled by a Lua script that copies one real counter's value under a million keys in
 * batches (a few seconds), not by a million acquires. Bounded: each fill stops at `fillDeadlineMs`, and the
 * figures say how many partitions they reached. One to three minutes, depending on the machine's load. Not part of `npm test`.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/redis-scale.bench.mjs
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateLimitPolicy } from '../packages/trellis/src/ratelimit/types.js';
import { measureCounterMemory, MEMORY_KEY_PREFIX, MEMORY_POLICY_KEY, type CounterMemory } from '../test/support/redis-counter-memory.js';
import { redisServerAvailable, startRedisServer } from '../test/support/redis-server.js';
import { closedLoop, processCpuMicros, redisScriptMicros, type LoopRow } from './redis-loop.js';
import { packageModule as from } from './package-module.js';

// The compiled package, as users run it (see package-module.ts).
const { RedisRateLimitStore } = (await import(
  from('ratelimit/redis/index.js')
)) as typeof import('../packages/trellis/src/public/ratelimit-redis.js');

export interface ScaleBenchOptions {
  readonly partitions?: number;
  readonly durationMs?: number;
  readonly rounds?: number;
  readonly concurrency?: number;
  readonly fillDeadlineMs?: number;
}

interface MemoryRow extends CounterMemory {
  readonly peerBytes: number;
  /** The counter's value at the end of its steady use (its ring at its largest). */
  readonly steadyValue: Buffer;
  /** `used_memory` per counter with a million copies of that value (when measured). */
  readonly usedPerMillion?: number;
}

interface ScaleRow extends LoopRow {
  /** redis-server's process CPU time per acquire (/proc), network and protocol included. */
  readonly redisProcessMicrosPerAcquire?: number;
  readonly name: string;
  readonly partitions: number;
  readonly usedMemoryPerPartition: number;
  readonly fillSeconds: number;
}

const FILL = `
local head, tail, value, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[6]
for i = tonumber(ARGV[4]), tonumber(ARGV[5]) do
  redis.call('SET', head .. string.format('p%07d', i) .. tail, value, 'PX', ttl)
end
return 0
`;

function policy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: MEMORY_POLICY_KEY, handler: 'GET /bench', name: 'limit', permitLimit, windowSeconds, scope: 'transport' };
}

const partitionName = (i: number): string => `p${String(i).padStart(7, '0')}`;

/** Copies `value` under `partitions` keys `head + pNNNNNNN + tail`, 20,000 per script call, until the deadline. */
async function fill(
  admin: Redis,
  head: string,
  tail: string,
  value: Buffer | string,
  partitions: number,
  deadline: number,
): Promise<number> {
  const batch = 20_000;
  let filled = 0;
  while (filled < partitions && performance.now() < deadline) {
    const to = Math.min(partitions, filled + batch) - 1;
    await admin.eval(FILL, 0, head, tail, value, String(filled), String(to), '600000');
    filled = to + 1;
  }
  return filled;
}

async function usedMemory(admin: Redis): Promise<number> {
  return Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1]);
}

/** Per-counter memory of ours (steady and burst) and of the peer's key, same Redis, same run. */
async function memoryRows(admin: Redis, client: Redis): Promise<MemoryRow[]> {
  const rows: MemoryRow[] = [];
  const limits: Array<[number, number]> = [
    [1, 60],
    [10, 60],
    [100, 60],
    [128, 60],
    [129, 60],
    [10_000, 3_600],
    [1_000_000, 86_400],
  ];
  for (const [permitLimit, windowSeconds] of limits) {
    const partition = partitionName(rows.length + 1);
    const ours = await measureCounterMemory(client, permitLimit, windowSeconds, partition);
    const peer = new RateLimiterRedis({ storeClient: client, keyPrefix: 'rlflx:rl', points: permitLimit, duration: windowSeconds });
    await peer.consume(`${MEMORY_POLICY_KEY}|${partition}`);
    const peerBytes = Number(await admin.memory('USAGE', `rlflx:rl:${MEMORY_POLICY_KEY}|${partition}`));
    const steadyValue = await admin.getBuffer(`${MEMORY_KEY_PREFIX}{${MEMORY_POLICY_KEY}|${partition}}:sw3`);
    if (steadyValue === null) throw new Error(`counter ${partition} missing`);
    rows.push({ ...ours, peerBytes, steadyValue });
  }
  return rows;
}

/** Runs the benchmark on a private redis-server and returns the figures. */
export async function runScaleBench(
  options: ScaleBenchOptions = {},
): Promise<{ memory: MemoryRow[]; scale: ScaleRow[]; load: number[]; redisVersion: string }> {
  const settings = { partitions: 1_000_000, durationMs: 3_000, rounds: 2, concurrency: 64, fillDeadlineMs: 60_000, ...options };
  if (!redisServerAvailable())
    throw new Error('redis-server not found: install it (apt-get install -y redis-server) to run this benchmark');
  const server = await startRedisServer();
  const admin = new Redis(server.url);
  const ours = new Redis(server.url);
  const theirs = new Redis(server.url);
  try {
    const redisVersion = /redis_version:(\S+)/.exec(await admin.info('server'))?.[1] ?? 'unknown';
    const measured = await memoryRows(admin, ours);
    await admin.flushall();
    // A million copies of each steady counter: what Redis itself counts per counter (key and expiry tables too).
    const memory: MemoryRow[] = [];
    for (const row of measured) {
      if (![10, 100, 10_000, 1_000_000].includes(row.permitLimit)) {
        memory.push(row);
        continue;
      }
      const before = await usedMemory(admin);
      const t0 = performance.now();
      const copies = await fill(
        admin,
        `${MEMORY_KEY_PREFIX}{${MEMORY_POLICY_KEY}|`,
        '}:sw3',
        row.steadyValue,
        settings.partitions,
        t0 + settings.fillDeadlineMs,
      );
      memory.push({ ...row, usedPerMillion: ((await usedMemory(admin)) - before) / copies });
      await admin.flushall();
    }

    // One real counter of each contender with 99 admissions in its window, copied under every partition.
    const p = policy(100, 600);
    const store = new RedisRateLimitStore({ client: ours, keyPrefix: MEMORY_KEY_PREFIX, timeoutMs: 2_000 });
    const peer = new RateLimiterRedis({ storeClient: theirs, keyPrefix: 'rlflx:rl', points: 100, duration: 600 });
    for (let i = 0; i < 99; i++) {
      await store.acquire('template', p);
      await peer.consume(`${MEMORY_POLICY_KEY}|template`);
    }
    const ourTemplate = await admin.getBuffer(`${MEMORY_KEY_PREFIX}{${MEMORY_POLICY_KEY}|template}:sw3`);
    const peerTemplate = await admin.get(`rlflx:rl:${MEMORY_POLICY_KEY}|template`);
    if (ourTemplate === null || peerTemplate === null) throw new Error('template counters missing');
    const filled = async (
      head: string,
      tail: string,
      value: Buffer | string,
    ): Promise<{ partitions: number; perPartition: number; seconds: number }> => {
      const before = await usedMemory(admin);
      const t0 = performance.now();
      const partitions = await fill(admin, head, tail, value, settings.partitions, t0 + settings.fillDeadlineMs);
      const seconds = (performance.now() - t0) / 1000;
      return { partitions, perPartition: ((await usedMemory(admin)) - before) / partitions, seconds };
    };
    const ourFill = await filled(`${MEMORY_KEY_PREFIX}{${MEMORY_POLICY_KEY}|`, '}:sw3', ourTemplate);
    const peerFill = await filled(`rlflx:rl:${MEMORY_POLICY_KEY}|`, '', peerTemplate);

    // Random partitions among those filled.
    const pick = (n: number): string => partitionName(Math.floor(Math.random() * n));
    const oursOp = async (): Promise<boolean> => (await store.acquire(pick(ourFill.partitions), p)).allowed;
    const theirsOp = async (): Promise<boolean> => {
      try {
        await peer.consume(`${MEMORY_POLICY_KEY}|${pick(peerFill.partitions)}`);
        return true;
      } catch (error) {
        if (error instanceof Error) throw error;
        return false;
      }
    };
    const best: Record<string, LoopRow & { redisProcessMicrosPerAcquire?: number }> = {};
    for (let round = 0; round < settings.rounds; round++) {
      for (const [name, op] of [
        ['ours', oursOp],
        ['theirs', theirsOp],
      ] as const) {
        await admin.config('RESETSTAT');
        const cpu0 = processCpuMicros(server.pid) ?? Number.NaN;
        const row = await closedLoop(op, settings.durationMs, settings.concurrency);
        const serverCpu = (processCpuMicros(server.pid) ?? Number.NaN) - cpu0;
        const stats = await admin.info('commandstats');
        const scriptMicros = redisScriptMicros(stats);
        const redisMicrosPerAcquire = scriptMicros === undefined ? undefined : scriptMicros / row.operations;
        const processMicros = serverCpu / row.operations;
        const withStats = {
          ...row,
          ...(redisMicrosPerAcquire === undefined ? {} : { redisMicrosPerAcquire }),
          ...(Number.isFinite(processMicros) ? { redisProcessMicrosPerAcquire: processMicros } : {}),
        };
        if (!best[name] || withStats.opsPerSecond > best[name].opsPerSecond) best[name] = withStats;
      }
    }
    const scale: ScaleRow[] = [
      {
        name: 'RedisRateLimitStore (sliding window)',
        partitions: ourFill.partitions,
        usedMemoryPerPartition: ourFill.perPartition,
        fillSeconds: ourFill.seconds,
        ...best.ours!,
      },
      {
        name: 'RateLimiterRedis (fixed window)',
        partitions: peerFill.partitions,
        usedMemoryPerPartition: peerFill.perPartition,
        fillSeconds: peerFill.seconds,
        ...best.theirs!,
      },
    ];
    return { memory, scale, load: loadavg(), redisVersion };
  } finally {
    admin.disconnect();
    ours.disconnect();
    theirs.disconnect();
    await server.close();
  }
}

/** Formats the figures as the Markdown tables of docs/performance.md. */
export function formatScaleBench(result: Awaited<ReturnType<typeof runScaleBench>>): string {
  const n = (x: number): string => Math.round(x).toLocaleString('en-US');
  const lines = [
    `Redis ${result.redisVersion}, Node ${process.version}, load average ${result.load.map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min).`,
    '',
    '| limit | RedisRateLimitStore, steady (largest) | value bytes | after a burst | `used_memory` per counter, a million of them | RateLimiterRedis | ours / peer |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const m of result.memory) {
    const perMillion = m.usedPerMillion === undefined ? '' : n(m.usedPerMillion);
    lines.push(
      `| ${n(m.permitLimit)} per ${n(m.windowSeconds)} s | ${n(m.maxBytes)} | ${n(m.maxValueBytes)} | ${n(m.burstBytes)} | ${perMillion} | ${n(m.peerBytes)} | ${(m.maxBytes / m.peerBytes).toFixed(1)}× |`,
    );
  }
  lines.push(
    '',
    '| contender | partitions | used_memory per partition | fill s | acquires/s | p50 ms | p99 ms | allowed | Redis script µs/acquire | redis-server CPU µs/acquire |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of result.scale) {
    lines.push(
      `| ${r.name} | ${n(r.partitions)} | ${n(r.usedMemoryPerPartition)} | ${r.fillSeconds.toFixed(1)} | ${n(r.opsPerSecond)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${(r.allowedShare * 100).toFixed(1)} % | ${r.redisMicrosPerAcquire?.toFixed(2) ?? ''} | ${r.redisProcessMicrosPerAcquire?.toFixed(2) ?? ''} |`,
    );
  }
  const [a, b] = result.scale;
  if (a && b)
    lines.push(
      '',
      `Acquires per second, ours / peer at ${n(a.partitions)} partitions: **${(a.opsPerSecond / b.opsPerSecond).toFixed(2)}×**.`,
    );
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    console.log(formatScaleBench(await runScaleBench()));
  } catch (error) {
    console.log(`\nRedis scale benchmark skipped: ${(error as Error).message}`);
  }
}
