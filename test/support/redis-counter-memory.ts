/**
 * What one counter costs Redis, by `MEMORY USAGE`, in steady use: admissions spread evenly so that older
 * ones keep leaving the window, for three windows, on a manual clock. Used by the memory test and the
 * benchmark, so the documented figures and the asserted ones come from the same code.
 */
import type { Redis } from 'ioredis';
import { RedisRateLimitStore } from '../../packages/trellis/src/ratelimit/redis/index.js';
import type { RateLimitPolicy } from '../../packages/trellis/src/ratelimit/types.js';

/** Keys of 42 bytes with an 8-character partition, as in the benchmark: `trellis:rl:{GET /bench:limit|p0000100}:sw3`. */
export const MEMORY_KEY_PREFIX = 'trellis:rl:';
export const MEMORY_POLICY_KEY = 'GET /bench:limit';

export interface CounterMemory {
  readonly permitLimit: number;
  readonly windowSeconds: number;
  /** Largest `MEMORY USAGE` and largest value length seen after any admission. */
  readonly maxBytes: number;
  readonly maxValueBytes: number;
  /** `MEMORY USAGE` after a burst of `permitLimit` admissions at one instant. */
  readonly burstBytes: number;
  readonly keyBytes: number;
}

function policy(permitLimit: number, windowSeconds: number): RateLimitPolicy {
  return { key: MEMORY_POLICY_KEY, handler: 'GET /bench', name: 'limit', permitLimit, windowSeconds, scope: 'transport' };
}

/**
 * Measures one counter in steady use, sampling after every admission over three windows. Admissions come
 * just slower than `permitLimit` per window, or, for a limit above 128, just slower than one per segment
 * (1/128 of the window): every admission then opens a segment of its own, which is what fills the ring.
 */
export async function measureCounterMemory(
  client: Redis,
  permitLimit: number,
  windowSeconds: number,
  partition: string,
): Promise<CounterMemory> {
  const clock = {
    ms: 1_700_000_000_000,
    now(): number {
      return this.ms;
    },
  };
  const store = new RedisRateLimitStore({ client, keyPrefix: MEMORY_KEY_PREFIX, clock, timeoutMs: 5_000 });
  const p = policy(permitLimit, windowSeconds);
  const key = `${MEMORY_KEY_PREFIX}{${MEMORY_POLICY_KEY}|${partition}}:sw3`;
  const perWindow = Math.min(permitLimit, 128);
  const stepMs = (windowSeconds * 1000) / perWindow + 1;
  let maxBytes = 0;
  let maxValueBytes = 0;
  for (let i = 0; i < 3 * perWindow; i++) {
    clock.ms += stepMs;
    const decision = await store.acquire(partition, p);
    if (!decision.allowed) throw new Error(`steady use was refused at admission ${i}`);
    maxBytes = Math.max(maxBytes, Number(await client.memory('USAGE', key)));
    maxValueBytes = Math.max(maxValueBytes, await client.strlen(key));
  }
  const burstPartition = `${partition}b`;
  const burstKey = `${MEMORY_KEY_PREFIX}{${MEMORY_POLICY_KEY}|${burstPartition}}:sw3`;
  for (let i = 0; i < Math.min(permitLimit, 1_000); i++) await store.acquire(burstPartition, p);
  const burstBytes = Number(await client.memory('USAGE', burstKey));
  return { permitLimit, windowSeconds, maxBytes, maxValueBytes, burstBytes, keyBytes: Buffer.byteLength(key) };
}
