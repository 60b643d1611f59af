// A redis-server of one test file's own and an ioredis client on it: `before` starts both, `after` ends both.
import { Redis } from 'ioredis';
import { startRedisServer, type RedisServerHandle } from './redis-server.js';

export async function connectRedis(): Promise<{ server: RedisServerHandle; client: Redis }> {
  const server = await startRedisServer();
  return { server, client: new Redis(server.url) };
}

export async function disconnectRedis(server: RedisServerHandle | undefined, client: Redis | undefined): Promise<void> {
  await client?.quit();
  await server?.close();
}

/** Resolves when `client` is connected and ready (at once if it is); ioredis reconnects in the background. */
export function redisReady(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => client.once('ready', () => resolve()));
}
