// Where the HTTP benchmarks run: on a machine with two CPUs or more, every server process on one CPU and the
// load generator (the benchmark's own process, where autocannon runs) on another, with `taskset`, so neither
// takes the other's CPU time and CPU per request is the server's own. Without taskset, or on one CPU, nothing
// is pinned and the benchmark says so.
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const LOAD_CPU = 0;
const SERVER_CPU = 1;

const pinnable = availableParallelism() >= 2 && spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;

/** The command that runs `node script …args` on the server's CPU (or unpinned). */
export function serverCommand(script: string, args: readonly string[]): [string, string[]] {
  return pinnable ? ['taskset', ['-c', String(SERVER_CPU), process.execPath, script, ...args]] : [process.execPath, [script, ...args]];
}

/** Pins this process (every thread of it) to the load generator's CPU; returns the line that says where things run. */
export function pinLoadGenerator(): string {
  if (!pinnable) return 'not pinned: taskset or a second CPU is missing, so the load generator and the servers share the CPUs';
  const pinned = spawnSync('taskset', ['-a', '-cp', String(LOAD_CPU), String(process.pid)], { stdio: 'ignore' });
  if (pinned.status !== 0) return 'not pinned: taskset could not set this process’s CPU';
  return `pinned with taskset: the servers on CPU ${SERVER_CPU}, the load generator on CPU ${LOAD_CPU}`;
}
