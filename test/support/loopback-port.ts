/** Loopback ports for servers the tests start themselves: a free one, and waiting until one accepts connections. */
import { connect, createServer } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something on 127.0.0.1:`port` accepts a connection now. */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Ends a server process the tests started (waking it first if it was frozen with SIGSTOP), SIGKILL after 3 s. */
export async function stopServerProcess(proc: import('node:child_process').ChildProcess | undefined, exited: Promise<void>): Promise<void> {
  if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  proc.kill('SIGCONT');
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), 3_000);
  await exited;
  clearTimeout(timer);
}
