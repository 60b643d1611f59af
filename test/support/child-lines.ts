/**
 * The first lines a child process prints on stdout: resolves once `until` accepts the lines read so far,
 * rejects with what it printed if the process exits first.
 *
 * @example
 * const [first] = await linesOf(child, (lines) => lines.length === 1);
 */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export function linesOf(child: ChildProcess, until: (lines: readonly string[]) => boolean): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout! });
    const exited = (code: number | null) => reject(new Error(`the process exited (${code}) after printing:\n${lines.join('\n')}`));
    child.once('exit', exited);
    reader.on('line', (line) => {
      lines.push(line);
      if (until(lines)) {
        child.off('exit', exited);
        reader.removeAllListeners('line');
        resolve(lines);
      }
    });
  });
}
