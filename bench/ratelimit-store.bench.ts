/**
 * In-process acquire throughput: InProcessRateLimitStore against rate-limiter-flexible's RateLimiterMemory,
 * express-rate-limit's MemoryStore and hono-rate-limiter's MemoryStore, in the same run, on the same load.
 * Each round gives every contender a fresh limiter and a fixed number of sequential acquires; rounds are
 * interleaved and the best round counts. A round lasts tens of milliseconds and process CPU time includes the
 * engine's background threads (garbage collection, compilation), so one collection or a burst of other work on
 * the machine falling into a round moves it a lot: 25 rounds are run (ROUNDS=n in the environment to change
 * that), so that every contender has quiet rounds. (Forcing a collection before each round is worse: it throws
 * away the compiled code of the hot paths, which a running server keeps.) The peers count fixed windows; ours keeps a sliding one (exact up to
 * 128 permits per window). Also measured: retained heap per tracked partition at the default policy.
 * Bounded: about a minute on 2 cores.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/ratelimit-store.bench.mjs
 */
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { MemoryStore as ExpressMemoryStore } from 'express-rate-limit';
import { MemoryStore as HonoMemoryStore } from 'hono-rate-limiter';
import type { ExecutionContext } from '../packages/trellis/src/index.js';
import type { RateLimitDecision, RateLimitPolicy } from '../packages/trellis/src/ratelimit/types.js';
import { packageModule as from } from './package-module.js';
import { roundsFromEnvironment } from './rounds.js';

const { InProcessRateLimitStore, RateLimitScope } = (await import(
  from('ratelimit/index.js')
)) as typeof import('../packages/trellis/src/public/ratelimit.js');
const { ManualClock } = (await import(from('testing/index.js'))) as typeof import('../packages/trellis/src/public/testing.js');

/**
 * What the filters pass a store (their own class is not exported: a store sees only its shape): the cost, and
 * the request's abort signal, made only when read.
 */
class AcquireRequest {
  constructor(
    readonly context: ExecutionContext,
    readonly cost: number,
  ) {}
  get signal(): AbortSignal | undefined {
    return undefined;
  }
}

/**
 * One limiter under test, called the way its own middleware calls it: the loop awaits what `acquire`
 * returns (a promise, or a plain value for a synchronous store) and asks `allowed` about the answer; a
 * rejection counts as a refusal when `refusal` recognises it.
 */
interface Limiter<T> {
  acquire(key: string): T | Promise<T>;
  /** True when the middleware uses the answer at once, without awaiting it: the loop then awaits nothing. */
  readonly sync?: boolean;
  allowed(answer: T): boolean;
  refusal?(error: unknown): boolean;
  close(): void;
}

interface Contender {
  readonly name: string;
  /** Another way of calling one of the other contenders: left out of the memory figures. */
  readonly variant?: boolean;
  make(permitLimit: number, windowSeconds: number): Limiter<any>;
  /** Two limits in one limiter, when the contender keeps them that way (see {@link pairOf}). */
  makeTwo?(permitLimit: number, windowSeconds: number, second: SecondLimit): Limiter<any>;
}

/** A second limit every other request is checked against (a second route or a block policy). */
type SecondLimit = readonly [permitLimit: number, windowSeconds: number];

/**
 * Two limits, every other request checked against each: a contender's own way of keeping two (ours: one store
 * given two policies in turn, as the filters of two routes share one), else two of its limiters in turn.
 */
function pairOf(contender: Contender, permitLimit: number, windowSeconds: number, second: SecondLimit): Limiter<any> {
  if (contender.makeTwo) return contender.makeTwo(permitLimit, windowSeconds, second);
  const limiters = [contender.make(permitLimit, windowSeconds), contender.make(second[0], second[1])];
  let n = 0;
  return {
    acquire: (key) => limiters[n++ & 1]!.acquire(key),
    allowed: (answer) => limiters[0]!.allowed(answer),
    refusal: (error) => limiters[0]!.refusal?.(error) === true,
    close: () => limiters.forEach((l) => l.close()),
  };
}

/** Our store given two policies in turn, called as the filters call it (`sync`) or awaited. */
function ourPair(sync: boolean) {
  return (permitLimit: number, windowSeconds: number, second: SecondLimit): Limiter<RateLimitDecision> => {
    const store = new InProcessRateLimitStore({ maxTrackedPartitions: 1_000_000 });
    const policies = [benchPolicy(permitLimit, windowSeconds), { ...benchPolicy(second[0], second[1]), key: 'GET /other#default' }];
    let n = 0;
    return {
      acquire: (key) => store.acquire(key, policies[n++ & 1]!, new AcquireRequest(NO_CONTEXT, 1)),
      sync,
      allowed: (d) => d.allowed,
      close() {},
    };
  };
}

/**
 * The store called as Trellis's own rate-limit filters call it: `acquire` with a fresh options object per
 * request (the filters' own class, its cost and a signal made only if read), the decision used at once.
 */
const OURS = 'trellis InProcessRateLimitStore (as its filters call it)';
/** The same store awaited, as every peer is called. */
const OURS_AWAITED = 'trellis InProcessRateLimitStore (awaited)';
/** The in-process store never reads the signal; a context that would make one is never asked. */
const NO_CONTEXT = {} as ExecutionContext;

const contenders: readonly Contender[] = [
  {
    name: OURS,
    makeTwo: ourPair(true),
    make(permitLimit, windowSeconds): Limiter<RateLimitDecision> {
      const store = new InProcessRateLimitStore({ maxTrackedPartitions: 1_000_000 });
      const policy = benchPolicy(permitLimit, windowSeconds);
      return {
        acquire: (key) => store.acquire(key, policy, new AcquireRequest(NO_CONTEXT, 1)),
        sync: true,
        allowed: (d) => d.allowed,
        close() {},
      };
    },
  },
  {
    name: OURS_AWAITED,
    variant: true,
    makeTwo: ourPair(false),
    make(permitLimit, windowSeconds): Limiter<RateLimitDecision> {
      const store = new InProcessRateLimitStore({ maxTrackedPartitions: 1_000_000 });
      const policy = benchPolicy(permitLimit, windowSeconds);
      return { acquire: (key) => store.acquire(key, policy, new AcquireRequest(NO_CONTEXT, 1)), allowed: (d) => d.allowed, close() {} };
    },
  },
  {
    name: 'rate-limiter-flexible RateLimiterMemory',
    make(points, duration): Limiter<RateLimiterRes> {
      const limiter = new RateLimiterMemory({ points, duration });
      return {
        acquire: (key) => limiter.consume(key),
        allowed: () => true,
        refusal: (error) => error instanceof RateLimiterRes,
        close() {},
      };
    },
  },
  {
    name: 'express-rate-limit MemoryStore',
    make(permitLimit, windowSeconds): Limiter<{ totalHits: number }> {
      const store = new ExpressMemoryStore();
      store.init({ windowMs: windowSeconds * 1000 } as Parameters<ExpressMemoryStore['init']>[0]);
      return { acquire: (key) => store.increment(key), allowed: (info) => info.totalHits <= permitLimit, close: () => store.shutdown() };
    },
  },
  {
    name: 'hono-rate-limiter MemoryStore',
    make(permitLimit, windowSeconds): Limiter<{ totalHits: number }> {
      const store = new HonoMemoryStore();
      store.init({ windowMs: windowSeconds * 1000 } as Parameters<HonoMemoryStore['init']>[0]);
      return { acquire: (key) => store.increment(key), allowed: (info) => info.totalHits <= permitLimit, close: () => store.shutdown() };
    },
  },
];

function benchPolicy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: 'GET /bench#default', handler: 'GET /bench', name: 'default', permitLimit, windowSeconds, scope: RateLimitScope.Transport };
}

interface Scenario {
  readonly title: string;
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly keys: readonly string[];
  readonly acquires: number;
  readonly second?: SecondLimit;
}

function keys(n: number): string[] {
  return Array.from({ length: n }, (_, i) => `sub:user-${i}`);
}

const scenarios: readonly Scenario[] = [
  { title: 'one hot key, default policy 100/60 s (then refusals)', permitLimit: 100, windowSeconds: 60, keys: keys(1), acquires: 100_000 },
  {
    title: 'one hot key, limit never reached (1e9/60 s, segmented window)',
    permitLimit: 1e9,
    windowSeconds: 60,
    keys: keys(1),
    acquires: 100_000,
  },
  {
    title: '10,000 keys, default policy 100/60 s (all allowed)',
    permitLimit: 100,
    windowSeconds: 60,
    keys: keys(10_000),
    acquires: 100_000,
  },
  { title: '10,000 keys, 10,000/hour (segmented window)', permitLimit: 10_000, windowSeconds: 3600, keys: keys(10_000), acquires: 100_000 },
  {
    title: '10,000 keys, two limits in turn (100/60 s and 10,000/hour)',
    permitLimit: 100,
    windowSeconds: 60,
    second: [10_000, 3600],
    keys: keys(10_000),
    acquires: 100_000,
  },
];

/**
 * CPU time of this process (all its threads, so garbage collection counts), in ms. The benchmark shares its
 * machine with other work, and CPU time is what a contender costs whatever else is running.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function timeRound<T>(contender: Contender, s: Scenario): Promise<{ opsPerSecond: number; allowed: number }> {
  const limiter: Limiter<T> =
    s.second === undefined ? contender.make(s.permitLimit, s.windowSeconds) : pairOf(contender, s.permitLimit, s.windowSeconds, s.second);
  const { keys: ks, acquires } = s;
  let allowed = 0;
  const start = cpuMs();
  if (limiter.sync) {
    for (let i = 0; i < acquires; i++) if (limiter.allowed(limiter.acquire(ks[i % ks.length]!) as T)) allowed++;
  } else {
    for (let i = 0; i < acquires; i++) {
      try {
        if (limiter.allowed(await limiter.acquire(ks[i % ks.length]!))) allowed++;
      } catch (error) {
        if (limiter.refusal?.(error) !== true) throw error;
      }
    }
  }
  const elapsed = cpuMs() - start;
  limiter.close();
  return { opsPerSecond: (acquires / elapsed) * 1000, allowed };
}

/** A full collection, twice so that the first one's sweeping has finished before heapUsed is read. */
function gcFunction(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/** Bytes of heap still held after giving `partitions` callers one acquire each, per caller. */
async function retainedBytesPerPartition(contender: Contender, partitions: number): Promise<number> {
  const gc = gcFunction();
  gc();
  const before = process.memoryUsage().heapUsed;
  const limiter = contender.make(100, 60);
  for (let i = 0; i < partitions; i++) await limiter.acquire(`sub:user-${i}`);
  gc();
  const after = process.memoryUsage().heapUsed;
  limiter.close();
  return (after - before) / partitions;
}

/** Heap held by `counters` 10,000/hour counters, each given 10,000 permits evenly over the hour. */
async function heapOfFullHourlyCounters(counters: number): Promise<number> {
  const gc = gcFunction();
  const clock = new ManualClock();
  const policy = benchPolicy(10_000, 3600);
  const names = keys(counters);
  gc();
  const before = process.memoryUsage().heapUsed;
  const store = new InProcessRateLimitStore({ clock });
  for (let i = 0; i < 10_000; i++) {
    clock.set(i * 360);
    for (const name of names) store.acquire(name, policy);
  }
  gc();
  const after = process.memoryUsage().heapUsed;
  if (store.trackedPartitions !== counters) throw new Error('the store lost a partition');
  return after - before;
}

/**
 * Per counter, from the difference of two sizes, so the fixed cost of a store and its first use cancels. After
 * a warm-up (compiled code and type feedback are heap too), the median of three differences.
 */
async function bytesPerFullHourlyCounter(): Promise<number> {
  await heapOfFullHourlyCounters(20);
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const small = await heapOfFullHourlyCounters(20);
    const large = await heapOfFullHourlyCounters(220);
    samples.push((large - small) / 200);
  }
  return samples.sort((a, b) => a - b)[1]!;
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Runs the benchmark and prints a table of acquires/s with ratios, and the memory figures. */
export async function runRateLimitStoreBench(options: { rounds?: number } = {}): Promise<void> {
  const rounds = options.rounds ?? roundsFromEnvironment(25);
  console.log(
    `# Rate-limit store: acquires per CPU-second (sequential awaits, best of ${rounds} interleaved rounds), Node ${process.version}`,
  );
  for (const s of scenarios) {
    const best = new Map<string, { opsPerSecond: number; allowed: number }>();
    for (let r = 0; r < rounds; r++) {
      for (const c of contenders) {
        const result = await timeRound(c, s);
        const prev = best.get(c.name);
        if (prev === undefined || result.opsPerSecond > prev.opsPerSecond) best.set(c.name, result);
      }
    }
    const ours = best.get(OURS)!.opsPerSecond;
    const oursAwaited = best.get(OURS_AWAITED)!.opsPerSecond;
    const fastestPeer = Math.max(...[...best].filter(([n]) => n !== OURS && n !== OURS_AWAITED).map(([, v]) => v.opsPerSecond));
    const perKey = s.keys.length > 1 ? `, ${fmt(s.acquires / s.keys.length)} per key` : '';
    console.log(`\n## ${s.title} — ${fmt(s.acquires)} acquires per round${perKey}`);
    for (const [name, { opsPerSecond, allowed }] of best) {
      const ratio = name === OURS || name === OURS_AWAITED ? '' : `  (ours ${(ours / opsPerSecond).toFixed(2)}x)`;
      console.log(`  ${name.padEnd(54)} ${fmt(opsPerSecond).padStart(12)} /cpu-s  allowed ${fmt(allowed)}${ratio}`);
    }
    console.log(`  ours / fastest peer: ${(ours / fastestPeer).toFixed(2)}x (as the filters call it; goal >= 1.5x)`);
    console.log(`  ours awaited / fastest peer: ${(oursAwaited / fastestPeer).toFixed(2)}x (awaited, as every peer is called)`);
  }
  console.log('\n## Retained heap per tracked partition, default policy (100/60 s), 10,000 partitions, one acquire each');
  for (const c of contenders.filter((x) => !x.variant)) {
    console.log(`  ${c.name.padEnd(54)} ${fmt(await retainedBytesPerPartition(c, 10_000)).padStart(6)} bytes`);
  }
  console.log(
    `\n## A 10,000/hour counter holding 10,000 permits taken evenly over the hour: ${fmt(await bytesPerFullHourlyCounter())} bytes each`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runRateLimitStoreBench();
}
