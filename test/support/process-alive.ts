// Whether a process still runs, for tests that check what a crash, timeout or exit leaves behind.
import { readFileSync } from 'node:fs';

/** True while `pid` runs; a zombie waiting to be reaped no longer does. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
