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
  /** Operations completed. */
  readonly operations: number;
  /** Redis's own time per acquire in its script commands (`INFO commandstats`), when measured. */
  readonly redisMicrosPerAcquire?: number;
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
    operations: latencies.length,
  };
}

/**
 * Microseconds Redis spent in script commands (EVALSHA and EVAL) since the last `CONFIG RESETSTAT`, from
 * `INFO commandstats`; undefined when it ran none. Divided by the acquires, not the calls: one call may carry
 * many acquires.
 */
export function redisScriptMicros(commandstats: string): number | undefined {
  let total: number | undefined;
  for (const m of commandstats.matchAll(/cmdstat_(?:evalsha|eval):calls=\d+,usec=(\d+)/g)) total = (total ?? 0) + Number(m[1]);
  return total;
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
