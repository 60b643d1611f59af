/**
 * The in-process store with its cap raised to 1,000,000 partitions, against rate-limiter-flexible's
 * RateLimiterMemory in the same process: retained heap per partition (one acquire each, 100 per minute),
 * then the cost of an acquire on random partitions at that size and at 10,000, so the cost of size (cache
 * misses, a larger map) shows beside the cost of the counter. About 20 s. Not part of `npm test`.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/in-process-scale.bench.mjs
 */
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { InProcessRateLimitStore, RateLimitScope, type RateLimitPolicy } from 'trellis/ratelimit';
import { ManualClock } from 'trellis/testing';

const POLICY: RateLimitPolicy = {
  key: 'GET /bench:default',
  handler: 'GET /bench',
  name: 'default',
  permitLimit: 100,
  windowSeconds: 60,
  scope: RateLimitScope.Transport,
};

export interface ScaleRow {
  readonly name: string;
  readonly partitions: number;
  readonly heapBytesPerPartition: number;
  /** Nanoseconds per acquire on random partitions, at this size and at 10,000. */
  readonly nsPerAcquire: number;
  readonly nsPerAcquireSmall: number;
}

function collect(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

interface Contender {
  readonly name: string;
  /** A limiter that tracks up to `cap` partitions; `acquire` resolves or returns when done. */
  make(cap: number): { acquire(partition: string): unknown };
}

const contenders: Contender[] = [
  {
    name: 'InProcessRateLimitStore.acquire',
    make: (cap) => {
      const store = new InProcessRateLimitStore({ maxTrackedPartitions: cap, clock: new ManualClock(1_000) });
      return { acquire: (p) => store.acquire(p, POLICY) };
    },
  },
  {
    name: 'RateLimiterMemory.consume (awaited)',
    make: () => {
      const peer = new RateLimiterMemory({ points: 100, duration: 60 });
      return { acquire: (p) => peer.consume(p).catch(() => undefined) };
    },
  },
];

/** Random indices, drawn once, so every contender meets the same sequence. */
function draws(count: number, range: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.floor(Math.random() * range);
  return out;
}

/** CPU nanoseconds per acquire (CPU time, not wall time: the machine may be shared). */
async function timeAcquires(limiter: { acquire(p: string): unknown }, names: readonly string[], picks: Uint32Array): Promise<number> {
  const cpu = process.cpuUsage();
  for (let i = 0; i < picks.length; i++) await limiter.acquire(names[picks[i]!]!);
  const used = process.cpuUsage(cpu);
  return ((used.user + used.system) * 1000) / picks.length;
}

/** Fills a fresh limiter with `partitions` callers (one acquire each) and measures heap and acquire cost. */
async function measure(
  contender: Contender,
  names: readonly string[],
  partitions: number,
  picks: Uint32Array,
): Promise<{ heap: number; ns: number }> {
  const gc = collect();
  gc();
  const before = process.memoryUsage().heapUsed;
  const limiter = contender.make(partitions);
  for (let i = 0; i < partitions; i++) await limiter.acquire(names[i]!);
  gc();
  const heap = (process.memoryUsage().heapUsed - before) / partitions;
  // Twice: the first pass also grows each touched counter's ring (its second admission), the second does not.
  await timeAcquires(limiter, names, picks);
  const ns = await timeAcquires(limiter, names, picks);
  return { heap, ns };
}

export async function runInProcessScaleBench(partitions = 1_000_000): Promise<{ rows: ScaleRow[]; load: number[] }> {
  const names = Array.from({ length: partitions }, (_, i) => `subject:user-${i}`);
  const picksLarge = draws(1_000_000, partitions);
  const picksSmall = draws(1_000_000, 10_000);
  const rows: ScaleRow[] = [];
  for (const contender of contenders) {
    // Warm-up at a small size first, so the large measurement counts no compiled code.
    await measure(contender, names, 10_000, picksSmall.subarray(0, 100_000));
    const small = await measure(contender, names, 10_000, picksSmall);
    const large = await measure(contender, names, partitions, picksLarge);
    rows.push({ name: contender.name, partitions, heapBytesPerPartition: large.heap, nsPerAcquire: large.ns, nsPerAcquireSmall: small.ns });
  }
  return { rows, load: loadavg() };
}

export function formatInProcessScaleBench(result: Awaited<ReturnType<typeof runInProcessScaleBench>>): string {
  const lines = [
    `Node ${process.version}, load average ${result.load.map((l) => l.toFixed(2)).join(' / ')} (1 / 5 / 15 min).`,
    '',
    '| contender | partitions | heap bytes per partition | CPU ns per acquire (random partition) | at 10,000 partitions |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const r of result.rows) {
    lines.push(
      `| ${r.name} | ${r.partitions.toLocaleString('en-US')} | ${Math.round(r.heapBytesPerPartition)} | ${Math.round(r.nsPerAcquire)} | ${Math.round(r.nsPerAcquireSmall)} |`,
    );
  }
  return lines.join('\n');
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatInProcessScaleBench(await runInProcessScaleBench()));
}
