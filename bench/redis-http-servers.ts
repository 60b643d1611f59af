/**
 * The HTTP servers of the Redis HTTP benchmark, one per process:
 * `node scripts/build-bench.mjs && node .bench/redis-http-servers.mjs <kind> <redis-url>`. Prints the port on stdout once
 * listening. Every server answers GET /hello with {"hello":"world"} under a limit that is never reached, kept
 * in the Redis at <redis-url> (one counter: the anonymous caller for Trellis, the loopback address for
 * Fastify, so each server updates one hot key per request).
 */
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { packageModule as from } from './package-module.js';
// A process loads only its own framework (a dependency shared by two frameworks in one process, such as
// find-my-way, would slow both).

const payload = { hello: 'world' };
const NEVER_REACHED = { permitLimit: 1_000_000_000, windowSeconds: 60 };

async function trellis(url: string): Promise<number> {
  const { createApp, RegistrationType, route } = (await import(
    from('index.js')
  )) as typeof import('../packages/trellis/src/public/index.js');
  const { RateLimit, RateLimitStore } = (await import(
    from('ratelimit/index.js')
  )) as typeof import('../packages/trellis/src/public/ratelimit.js');
  const { RedisRateLimitStore } = (await import(
    from('ratelimit/redis/index.js')
  )) as typeof import('../packages/trellis/src/public/ratelimit-redis.js');
  const store = new RedisRateLimitStore({ url, keyPrefix: 'bench:trellis:' });
  const app = createApp();
  app.services.add(RateLimitStore, () => store, { type: RegistrationType.Replace });
  app.route(route('GET', '/hello', [RateLimit(NEVER_REACHED)], () => payload));
  const { port } = await app.listen({ port: 0 });
  return port;
}

async function fastify(url: string): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const { default: fastifyRateLimit } = await import('@fastify/rate-limit');
  const app = Fastify({ logger: false });
  // The plugin's recommended client settings for rate limiting (its README): short connect timeout, one try.
  const redis = new Redis(url, { connectTimeout: 500, maxRetriesPerRequest: 1 });
  await app.register(fastifyRateLimit, {
    max: NEVER_REACHED.permitLimit,
    timeWindow: NEVER_REACHED.windowSeconds * 1000,
    redis,
    nameSpace: 'bench:fastify:',
  });
  app.get('/hello', async () => payload);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** Each server: starts it on a free loopback port with its limits in the Redis at the URL; resolves to the port. */
export const redisHttpServers: Record<string, (url: string) => Promise<number>> = { 'trellis-redis': trellis, 'fastify-redis': fastify };

// Run as a program (not when another benchmark's process imports the servers): start one, print its port.
if (/redis-http-servers\.m?[jt]s$/.test(process.argv[1] ?? '')) {
  const [kind = '', url = ''] = process.argv.slice(2);
  const start = redisHttpServers[kind];
  if (!start || !/^redis:\/\//.test(url)) {
    console.error(`usage: redis-http-servers.ts <${Object.keys(redisHttpServers).join('|')}> <redis://host:port>`);
    process.exit(2);
  }
  const port = await start(url);
  process.stdout.write(`${port}\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
}
