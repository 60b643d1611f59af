/**
 * Starts a real `redis-server` on a free loopback port in a temporary directory, for tests and benchmarks.
 * No persistence; `close()` ends the process and removes the directory.
 *
 * @example
 * const server = await startRedisServer();
 * try { ... server.url ... } finally { await server.close(); }
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { canConnect, freePort, stopServerProcess } from './loopback-port.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerHandle {
  readonly port: number;
  readonly url: string;
  /** The server's process id (for SIGSTOP/SIGCONT in failure tests). */
  readonly pid: number;
  /** Stops the server process; `start()` brings it back on the same port (with an empty data set). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the server and removes its directory. */
  close(): Promise<void>;
}

/** True when a `redis-server` binary is on the PATH. */
export function redisServerAvailable(): boolean {
  const probe = spawnSync('redis-server', ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
}

/**
 * What a Redis-backed test file does when `redis-server` is missing: in CI that is a failure, elsewhere
 * the tests are skipped with one line explaining how to run them.
 * Returns the `skip` option for `node:test` (false when the server is available).
 */
export function redisSkipReason(): string | false {
  if (redisServerAvailable()) return false;
  const message = 'redis-server not found: install it (apt-get install -y redis-server) to run the Redis tests';
  if (process.env.CI === 'true') throw new Error(message);
  return message;
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`redis-server: timed out after ${timeoutMs} ms waiting until ${what}`);
}

/** Starts `redis-server` on a free 127.0.0.1 port; resolves once it accepts connections. */
export async function startRedisServer(): Promise<RedisServerHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (): Promise<void> => {
    const proc = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const died = exited.then(() => {
      throw new Error(`redis-server exited early: ${stderr.trim()}`);
    });
    await Promise.race([waitUntil(() => canConnect(port), 10_000, `port ${port} accepts connections`), died]);
    died.catch(() => undefined);
  };

  const stopProcess = (): Promise<void> => stopServerProcess(child, exited);

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get pid() {
      return child?.pid ?? -1;
    },
    stop: stopProcess,
    async start() {
      await stopProcess();
      await launch();
    },
    async close() {
      await stopProcess();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisClusterHandle {
  /** The masters' ports (each serves a third of the slots). */
  readonly ports: readonly number[];
  close(): Promise<void>;
}

async function portAndBusFree(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    // The cluster bus listens on port + 10000; both must be free.
    if (port + 10_000 < 65_536 && !(await canConnect(port + 10_000))) return port;
  }
  throw new Error('redis cluster: no free port pair found');
}

/** Starts a three-master Redis Cluster on loopback (no replicas) and waits until it serves all slots. */
export async function startRedisCluster(): Promise<RedisClusterHandle> {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-redis-cluster-'));
  const procs: ChildProcess[] = [];
  const ports: number[] = [];
  const close = async (): Promise<void> => {
    await Promise.all(
      procs.map(
        (proc) =>
          new Promise<void>((resolve) => {
            if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
            proc.once('exit', () => resolve());
            proc.kill('SIGTERM');
          }),
      ),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 3; i++) {
      const port = await portAndBusFree();
      ports.push(port);
      const proc = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--dir',
          dir,
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          `nodes-${port}.conf`,
          '--save',
          '',
          '--appendonly',
          'no',
          '--loglevel',
          'warning',
        ],
        { stdio: 'ignore' },
      );
      procs.push(proc);
      await waitUntil(() => canConnect(port), 10_000, `cluster node ${port} accepts connections`);
    }
    const create = spawnSync(
      'redis-cli',
      ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'],
      {
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    const clusterOk = async (port: number): Promise<boolean> => {
      const info = spawnSync('redis-cli', ['-p', String(port), 'cluster', 'info'], { encoding: 'utf8' });
      return /cluster_state:ok/.test(info.stdout);
    };
    for (const port of ports) await waitUntil(() => clusterOk(port), 15_000, `cluster node ${port} reports cluster_state:ok`);
    return { ports, close };
  } catch (error) {
    await close();
    throw error;
  }
}
