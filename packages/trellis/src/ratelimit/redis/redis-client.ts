import type { Redis } from 'ioredis';
import { usageError } from '../../errors/index.js';

/**
 * ioredis, loaded only when the store creates its own client from a URL (node-redis users need not install it).
 * Node's module loader is not imported, so a bundle that packs this module unused never loads it
 * (CONTRIBUTING.md, "Cold starts").
 */
function loadIoredis(): typeof Redis {
  try {
    return (process.getBuiltinModule('node:module').createRequire(import.meta.url)('ioredis') as { Redis: typeof Redis }).Redis;
  } catch (error) {
    throw usageError(
      'TRELLIS_MISSING_DEPENDENCY',
      'RedisRateLimitStore: the `url` option needs the ioredis package (npm install ioredis), or pass a connected node-redis client as `client`',
      Error,
      error,
    );
  }
}

/**
 * The part of an ioredis client the store uses; both `Redis` and `Cluster` fit. `status` lets the store
 * fail at once while the client knows it is disconnected instead of waiting out the timeout.
 *
 * @example
 * const client: IoredisScriptClient = new Redis(process.env.REDIS_URL);
 */
export interface IoredisScriptClient {
  evalsha(sha1: string, numkeys: number, ...args: string[]): Promise<unknown>;
  eval(script: string, numkeys: number, ...args: string[]): Promise<unknown>;
  readonly status?: string;
  /** True on an ioredis `Cluster`. */
  readonly isCluster?: boolean;
  quit?(): Promise<unknown>;
}

/** The keys and arguments of a node-redis `evalSha` / `eval` call. */
export interface NodeRedisEvalOptions {
  keys?: string[];
  arguments?: string[];
}

/**
 * The part of a node-redis v5 client the store uses; what `createClient()` and `createCluster()` return fits.
 * `isReady` lets the store fail at once while the client is reconnecting.
 *
 * @example
 * const client: NodeRedisScriptClient = await createClient({ url: process.env.REDIS_URL }).connect();
 */
export interface NodeRedisScriptClient {
  evalSha(sha1: string, options?: NodeRedisEvalOptions): Promise<unknown>;
  eval(script: string, options?: NodeRedisEvalOptions): Promise<unknown>;
  readonly isReady?: boolean;
}

/** A connected ioredis `Redis` or `Cluster`, or a connected node-redis v5 client or cluster. */
export type RedisScriptClient = IoredisScriptClient | NodeRedisScriptClient;

// Not an import, so a bundle that packs this module unused never loads crypto (CONTRIBUTING.md, "Cold starts").
const { createHash } = process.getBuiltinModule('node:crypto');

/** A Lua script and the SHA-1 that names it for EVALSHA. */
export type LuaScript = ReturnType<typeof luaScript>;
export function luaScript(source: string) {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/** Sends scripts through either kind of client. */
export interface ScriptRunner {
  /** Which client library the store talks through. */
  readonly kind: 'ioredis' | 'node-redis';
  /** True for a cluster client: every key of one script call must then hash to one slot. */
  readonly cluster: boolean;
  /** Why the client cannot send now (it knows it is disconnected), or undefined. */
  unavailable(): string | undefined;
  evalsha(sha: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  eval(source: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
}

/**
 * Runs `script` by its SHA, sending it whole once when the server has not cached it (first call, or after
 * SCRIPT FLUSH); the reply goes to `answer`, a failure to `fail`.
 */
export function runScript(
  runner: ScriptRunner,
  script: LuaScript,
  keys: readonly string[],
  args: readonly string[],
  answer: (reply: unknown) => void,
  fail: (error: unknown) => void,
): void {
  let call: Promise<unknown>;
  try {
    call = runner.evalsha(script.sha, keys, args);
  } catch (error) {
    call = Promise.reject(error);
  }
  call.then(answer, (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if (message.startsWith('NOSCRIPT')) runner.eval(script.source, keys, args).then(answer, fail);
    else fail(error);
  });
}

/**
 * Tells the client kind from its methods: ioredis names commands in lower case (`evalsha`), node-redis in
 * camel case (`evalSha`). Anything else is a TypeError that says what is accepted.
 */
export function scriptRunner(client: unknown): ScriptRunner {
  const c = client as Partial<IoredisScriptClient & NodeRedisScriptClient> | null;
  if (c !== null && typeof c === 'object' && typeof c.evalsha === 'function' && typeof c.eval === 'function') {
    const io = c as IoredisScriptClient;
    return {
      kind: 'ioredis',
      cluster: io.isCluster === true,
      unavailable() {
        const status = io.status;
        return status === 'reconnecting' || status === 'close' || status === 'end' ? `the Redis connection is ${status}` : undefined;
      },
      evalsha: (sha, keys, args) => io.evalsha(sha, keys.length, ...keys, ...args),
      eval: (source, keys, args) => io.eval(source, keys.length, ...keys, ...args),
    };
  }
  if (c !== null && typeof c === 'object' && typeof c.evalSha === 'function' && typeof c.eval === 'function') {
    const nr = c as NodeRedisScriptClient;
    return {
      kind: 'node-redis',
      cluster: typeof (c as { getSlotMaster?: unknown }).getSlotMaster === 'function',
      unavailable() {
        return nr.isReady === false ? 'the Redis connection is not ready' : undefined;
      },
      evalsha: (sha, keys, args) => nr.evalSha(sha, { keys: keys as string[], arguments: args as string[] }),
      eval: (source, keys, args) => nr.eval(source, { keys: keys as string[], arguments: args as string[] }),
    };
  }
  throw usageError(
    'TRELLIS_INVALID_STORE_OPTIONS',
    'RedisRateLimitStore: `client` must be an ioredis Redis or Cluster (it has evalsha and eval) or a node-redis v5 client or cluster (evalSha and eval)',
  );
}

/**
 * A client for a URL, tuned so a request never hangs on Redis: a command is never retried or replayed
 * after a reconnect (a late replay would spend a permit nobody waits for), and while disconnected the
 * client reconnects quickly in the background. There is no per-command timeout in the client: the store
 * judges a delay by whether Redis answers at all (see the store's `timeoutMs`), and a command in flight is
 * dropped with its connection.
 */
export function createRedisClient(url: string, timeoutMs: number): Redis {
  if (typeof url !== 'string' || !/^rediss?:\/\//.test(url)) {
    throw usageError('TRELLIS_INVALID_STORE_OPTIONS', `url must be a redis:// or rediss:// URL (got ${JSON.stringify(url)})`);
  }
  const IoRedis = loadIoredis();
  const client = new IoRedis(url, {
    connectTimeout: Math.max(1_000, timeoutMs),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    enableOfflineQueue: true,
    retryStrategy: (attempt: number) => Math.min(50 * attempt, 1_000),
  });
  // Failures surface through acquire (failure mode); an unhandled 'error' event would crash the process.
  client.on('error', () => undefined);
  return client;
}
