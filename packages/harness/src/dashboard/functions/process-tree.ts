// Every process a widget starts dies with its execution environment, as in Lambda's sandbox. Each widget
// process leads its own process group and carries a marker in its environment that its children inherit,
// so even a child that detached itself (a new session, a double fork) is found and killed. Linux's /proc
// is read where present; elsewhere only the process group is killed.
import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable that marks every process of one execution environment. */
export const ENVIRONMENT_MARKER = 'TRELLIS_WIDGET_ENVIRONMENT';

function environOf(pid: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1');
  } catch {
    return null;
  }
}

/** The ids of the processes whose environment carries `marker`. */
export function markedProcesses(marker: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const needle = `\0${ENVIRONMENT_MARKER}=${marker}\0`;
  const found: number[] = [];
  for (const name of entries) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const environ = environOf(name);
    if (environ !== null && `\0${environ}`.includes(needle)) found.push(Number(name));
  }
  return found;
}

/**
 * Kills (SIGKILL) the process group led by `leader` and every process marked with `marker`. Synchronous, so
 * it also works in an exit hook.
 */
export function killEnvironment(leader: number | undefined, marker: string): void {
  const attempt = (fn: () => void) => {
    try {
      fn();
    } catch {
      // already gone
    }
  };
  if (leader !== undefined) attempt(() => process.kill(-leader, 'SIGKILL'));
  for (const pid of markedProcesses(marker)) attempt(() => process.kill(pid, 'SIGKILL'));
}

/**
 * The memory a process holds that the kernel cannot reclaim, in MiB: its anonymous and shared resident pages
 * (`RssAnon` + `RssShmem`), or null when it cannot be read. Resident pages mapped from files (`RssFile`: the
 * program's own code, about 50 MiB of Node.js 22) are left out: under Lambda's memory limit the kernel drops
 * them, to read them again when needed, before it ends a process, so they never make a function run out of
 * memory there. Where the kernel does not tell them apart (before Linux 4.5), the whole resident memory.
 */
export function unreclaimableMiB(pid: number): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'latin1');
  } catch {
    return null;
  }
  const kib = (field: string): number | null => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : null;
  };
  const anon = kib('RssAnon');
  const total = anon === null ? kib('VmRSS') : anon + (kib('RssShmem') ?? 0);
  return total === null ? null : total / 1024;
}
