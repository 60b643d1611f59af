import { Redis } from 'ioredis';

/**
 * The part of an ioredis client the store uses; both `Redis` and `Cluster` fit. `status` lets the store
 * fail at once while the client knows it is disconnected instead of waiting out the timeout.
 *
 * @example
 * const client: RedisScriptClient = new Redis(process.env.REDIS_URL);
 */
export interface RedisScriptClient {
  evalsha(sha1: string, numkeys: number, ...args: string[]): Promise<unknown>;
  eval(script: string, numkeys: number, ...args: string[]): Promise<unknown>;
  readonly status?: string;
  quit?(): Promise<unknown>;
}

/**
 * A client for a URL, tuned so a request never hangs on Redis: each command times out, a command is never
 * retried or replayed after a reconnect (a late replay would spend a permit nobody waits for), and while
 * disconnected the client reconnects quickly in the background.
 */
export function createRedisClient(url: string, timeoutMs: number): Redis {
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) {
    throw new TypeError(`url must be a redis:// or rediss:// URL (got ${JSON.stringify(url)})`);
  }
  const client = new Redis(url, {
    commandTimeout: timeoutMs,
    connectTimeout: Math.max(1_000, timeoutMs),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: true,
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1_000),
  });
  // Failures surface through acquire (failure mode + warning); an unhandled 'error' event would crash the process.
  client.on('error', () => undefined);
  return client;
}
