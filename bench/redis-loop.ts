/** The closed load loop the Redis benchmarks share, and the Redis CPU time per script call. */
import { readFileSync } from 'node:fs';

/** Linux's clock ticks per second for /proc times (USER_HZ, 100 on every common build). */
const CLOCK_TICKS = 100;

/** One operation; resolves true when the acquire was allowed. */
export type Operation = (i: number) => Promise<boolean>;

export interface LoopRow {
  readonly opsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Share of operations that were allowed. */
  readonly allowedShare: number;
  /** Redis CPU time per script call (`INFO commandstats`), when measured. */
  readonly redisMicrosPerCall?: number;
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Keeps `concurrency` operations in flight for `durationMs`; returns throughput and latency. */
export async function closedLoop(op: Operation, durationMs: number, concurrency: number): Promise<LoopRow> {
  const latencies: number[] = [];
  let allowed = 0;
  let next = 0;
  const start = performance.now();
  const end = start + durationMs;
  const lane = async (): Promise<void> => {
    while (performance.now() < end) {
      const t0 = performance.now();
      if (await op(next++)) allowed++;
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  const elapsed = performance.now() - start;
  const sorted = Float64Array.from(latencies).sort();
  return {
    opsPerSecond: Math.round((latencies.length / elapsed) * 1000),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    allowedShare: allowed / latencies.length,
  };
}

/** Microseconds of Redis CPU per EVALSHA since the last `CONFIG RESETSTAT`, from `INFO commandstats`. */
export function redisCallStats(commandstats: string): number | undefined {
  const micros = Number(/cmdstat_evalsha:[^\r\n]*usec_per_call=([\d.]+)/.exec(commandstats)?.[1]);
  return Number.isFinite(micros) ? micros : undefined;
}

/**
 * CPU time (user + system) a process has used so far, in microseconds, from /proc (Linux; undefined
 * elsewhere). Unlike `INFO commandstats`, which times each call on the wall clock, it does not count the
 * time a busy machine keeps Redis waiting, and it includes what Redis spends on the network and protocol.
 */
export function processCpuMicros(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** EVALSHA calls since the last `CONFIG RESETSTAT`. */
export function redisCalls(commandstats: string): number {
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(commandstats)?.[1] ?? 0);
}
