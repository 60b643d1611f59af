// Starts a benchmark server in a process of its own and reads the port it prints as its first line.
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { serverCommand } from './cpu-pinning.js';

/**
 * Runs the compiled `script` in plain node with `args`, on the servers' CPU where the machine has two
 * (cpu-pinning.ts); resolves when it has printed its port. `ipc` opens a channel for messages.
 */
export async function startServerProcess(
  script: string,
  args: readonly string[],
  options: { ipc?: boolean } = {},
): Promise<{ port: number; child: ChildProcess }> {
  const stdio: StdioOptions = options.ipc ? ['ignore', 'pipe', 'inherit', 'ipc'] : ['ignore', 'pipe', 'inherit'];
  const [command, commandArgs] = serverCommand(script, args);
  const child = spawn(command, commandArgs, { stdio });
  let out = '';
  child.stdout!.setEncoding('utf8');
  for await (const chunk of child.stdout!) {
    out += chunk;
    if (out.includes('\n')) break;
  }
  const port = Number(out.trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error(`server ${args[0] ?? script} did not start: ${out}`);
  return { port, child };
}
