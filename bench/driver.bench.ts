/**
 * The in-process dashboard driver and function targets:
 *  - a warm trivial widget read that invokes its function (the first read of a freshly loaded dashboard),
 *    timed around `dashboard.widget(0)`; the overhead is that time minus the function's own time — measured
 *    inside the handler for an in-process function, and the target's `durationMs` (the child process round
 *    trip) for a Node.js module target. The function itself is the peer: same run, same process.
 *  - a cold start of a Node.js module target: a fresh registry's first invoke (spawn, Lambda runtime
 *    start-up, module import, the call), for an ESM JavaScript handler and for a TypeScript one (via tsx),
 *    against the peer of a bare `node -e ""` process started and ended.
 * Bounded: about 10 s.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/driver.bench.mjs
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createInterpreter,
  FunctionRegistry,
  type FunctionInvoker,
  type InvokeOptions,
  type InvokeOutcome,
} from '../packages/harness/src/dashboard/index.js';

const WIDGETS = fileURLToPath(new URL('../packages/harness/examples/widgets/', import.meta.url));
const ONE_WIDGET = JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'trivial' } }] });

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export interface Latency {
  median: number;
  p99: number;
}

function summarize(samples: number[]): Latency {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) };
}

export interface DriverBenchResult {
  inProcess: { reads: number; read: Latency; fn: Latency; overhead: Latency };
  moduleTarget: { reads: number; read: Latency; fn: Latency; overhead: Latency };
  coldStart: { js: { runs: number } & Latency; ts: { runs: number } & Latency; bareNode: { runs: number } & Latency };
}

/** Loads a fresh one-widget dashboard per sample and times the read that invokes the function. */
async function timeReads(functions: FunctionInvoker, ownTime: () => number, reads: number, warmup: number) {
  const interpreter = createInterpreter({ functions, maxDashboards: 100 });
  const read: number[] = [];
  const fn: number[] = [];
  const overhead: number[] = [];
  for (let i = 0; i < warmup + reads; i++) {
    const dash = await interpreter.load(ONE_WIDGET);
    const started = performance.now();
    const w = await dash.readWidget(0);
    const elapsed = performance.now() - started;
    if (w.error) throw new Error(`the trivial widget failed: ${w.error.message}`);
    if (i < warmup) continue;
    const own = ownTime();
    read.push(elapsed);
    fn.push(own);
    overhead.push(elapsed - own);
  }
  await interpreter.close();
  return { reads, read: summarize(read), fn: summarize(fn), overhead: summarize(overhead) };
}

/** Wraps an invoker to keep the last outcome's `durationMs`. */
function recording(inner: FunctionInvoker): { invoker: FunctionInvoker; last: () => number } {
  let last = 0;
  return {
    invoker: {
      async invoke(endpoint: string, event: unknown, options?: InvokeOptions): Promise<InvokeOutcome> {
        const outcome = await inner.invoke(endpoint, event, options);
        last = outcome.durationMs;
        return outcome;
      },
    },
    last: () => last,
  };
}

async function coldStarts(handler: string, runs: number, budgetMs: number): Promise<{ runs: number } & Latency> {
  const samples: number[] = [];
  const until = performance.now() + budgetMs;
  while (samples.length < runs && (samples.length < 3 || performance.now() < until)) {
    const registry = new FunctionRegistry({ functions: { cold: { handler, initTimeoutSeconds: 30 } } });
    const started = performance.now();
    const outcome = await registry.invoke('cold', { describe: true });
    samples.push(performance.now() - started);
    await registry.close();
    if (!outcome.ok) throw new Error(`cold start of ${handler} failed: ${outcome.error?.message}`);
  }
  return { runs: samples.length, ...summarize(samples) };
}

/** The peer of a cold start: a bare `node -e ""` process started and ended. */
function bareNodeStarts(runs: number): { runs: number } & Latency {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
    samples.push(performance.now() - started);
  }
  return { runs, ...summarize(samples) };
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

/**
 * Runs the driver benchmark and prints its figures.
 *
 * @example
 * const { inProcess } = await runDriverBench(); inProcess.overhead.median; // milliseconds
 */
export async function runDriverBench(): Promise<DriverBenchResult> {
  let own = 0;
  const inProcessRegistry = new FunctionRegistry({
    functions: {
      trivial: {
        handler: async () => {
          const started = performance.now();
          const html = '<p>ok</p>';
          own = performance.now() - started;
          return html;
        },
      },
    },
  });
  const inProcess = await timeReads(inProcessRegistry, () => own, 5_000, 500);
  await inProcessRegistry.close();

  const moduleRegistry = new FunctionRegistry({ functions: { trivial: { handler: `${WIDGETS}hello.handler` } } });
  const recorded = recording(moduleRegistry);
  const moduleTarget = await timeReads(recorded.invoker, recorded.last, 1_000, 100);
  await moduleRegistry.close();

  const coldStart = {
    js: await coldStarts(`${WIDGETS}hello.handler`, 10, 4_000),
    ts: await coldStarts(`${WIDGETS}context.handler`, 5, 4_000),
    bareNode: bareNodeStarts(10),
  };

  console.log('\nDashboard driver: a warm trivial widget read that invokes its function (dashboard.widget(0) on a fresh dashboard)');
  console.log(
    `  in-process function   ${inProcess.reads} reads  read median ${ms(inProcess.read.median)}  function ${ms(inProcess.fn.median)}  overhead median ${ms(inProcess.overhead.median)}  p99 ${ms(inProcess.overhead.p99)}  (goal ≤ 1 ms)`,
  );
  console.log(
    `  Node.js module target ${moduleTarget.reads} reads  read median ${ms(moduleTarget.read.median)}  p99 ${ms(moduleTarget.read.p99)}  target durationMs ${ms(moduleTarget.fn.median)}  driver overhead median ${ms(moduleTarget.overhead.median)}  p99 ${ms(moduleTarget.overhead.p99)}`,
  );
  console.log('Node.js module target cold start (fresh registry: spawn, runtime start, import, first invoke)');
  console.log(`  JavaScript (hello.mjs)   ${coldStart.js.runs} runs  median ${ms(coldStart.js.median)}  max ${ms(coldStart.js.p99)}`);
  console.log(`  TypeScript (context.ts)  ${coldStart.ts.runs} runs  median ${ms(coldStart.ts.median)}  max ${ms(coldStart.ts.p99)}`);
  console.log(
    `  peer: bare node -e ""     ${coldStart.bareNode.runs} runs  median ${ms(coldStart.bareNode.median)}  max ${ms(coldStart.bareNode.p99)}`,
  );
  return { inProcess, moduleTarget, coldStart };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await runDriverBench();
