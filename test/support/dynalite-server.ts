/**
 * Starts `dynalite` (a DynamoDB implementation, an npm package of the repository) in a process of its own on a
 * free loopback port, in memory, for tests and benchmarks. It imports nothing of Trellis, so a benchmark can
 * use it beside the built package (the rate-limit table is made by dynamodb-table.ts).
 *
 * @example
 * const server = await startDynalite();
 * try { const client = dynamoClient(server.endpoint); … } finally { await server.close(); }
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { canConnect, freePort, stopServerProcess } from './loopback-port.js';
import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';

const CLI = createRequire(import.meta.url).resolve('dynalite/cli.js');

export interface DynaliteHandle {
  readonly port: number;
  /** `http://127.0.0.1:<port>`, the client's `endpoint`. */
  readonly endpoint: string;
  /** The server's process id (for SIGSTOP/SIGCONT in failure tests); -1 while stopped. */
  readonly pid: number;
  /** Stops the server; `start()` brings it back on the same port, empty (it keeps its tables in memory). */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Starts dynalite on a free 127.0.0.1 port; resolves once it accepts connections. */
export async function startDynalite(): Promise<DynaliteHandle> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (): Promise<void> => {
    const proc = spawn(
      process.execPath,
      [CLI, '--port', String(port), '--host', '127.0.0.1', '--createTableMs', '0', '--deleteTableMs', '0', '--updateTableMs', '0'],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    child = proc;
    exited = new Promise((resolve) => proc.once('exit', () => resolve()));
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const deadline = Date.now() + 15_000;
    while (!(await canConnect(port))) {
      if (proc.exitCode !== null) throw new Error(`dynalite exited early: ${stderr.trim()}`);
      if (Date.now() > deadline) throw new Error(`dynalite did not accept connections on port ${port} within 15 s`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  const stopProcess = (): Promise<void> => stopServerProcess(child, exited);

  await launch();
  return {
    port,
    endpoint: `http://127.0.0.1:${port}`,
    get pid() {
      return child !== undefined && child.exitCode === null && child.signalCode === null ? (child.pid ?? -1) : -1;
    },
    stop: stopProcess,
    async start() {
      await stopProcess();
      await launch();
    },
    close: stopProcess,
  };
}

/** A client for a local endpoint: any region, made-up credentials (dynalite checks neither). */
export function dynamoClient(endpoint: string, config: DynamoDBClientConfig = {}): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, ...config });
}
