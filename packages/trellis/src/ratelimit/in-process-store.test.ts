import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InProcessRateLimitStore } from './in-process-store.js';
import { rateLimitStoreContract } from './store-contract.js';
import type { AcquireOptions, RateLimitDecision, RateLimitPolicy } from './types.js';

rateLimitStoreContract('InProcessRateLimitStore', (clock) => new InProcessRateLimitStore({ clock }));

// A custom store written the ordinary way, `async acquire()`, keeps the same contract (a promise of the decision).
rateLimitStoreContract('an async acquire() over InProcessRateLimitStore', (clock) => {
  const inner = new InProcessRateLimitStore({ clock });
  return {
    async acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): Promise<RateLimitDecision> {
      if (options?.signal?.aborted) throw new DOMException('aborted', 'AbortError');
      return inner.acquire(partition, policy, options);
    },
  };
});

test('a decision handed to several callers cannot be changed by one of them', () => {
  const store = new InProcessRateLimitStore({ clock: { now: () => 1_000 } });
  const policy: RateLimitPolicy = {
    key: 'GET /a:default',
    handler: 'GET /a',
    name: 'default',
    permitLimit: 5,
    windowSeconds: 60,
    scope: 'transport',
  };
  // Shared or not, one caller writing to its answer (frozen ones throw) must not change another's.
  const scribble = (d: RateLimitDecision, field: 'remaining' | 'retryAfter', value: number): void => {
    try {
      (d as unknown as Record<string, unknown>)[field] = value;
    } catch {
      // frozen: fine
    }
  };
  const mine = store.acquire('alice', policy);
  const theirs = store.acquire('bob', policy);
  scribble(mine, 'remaining', 99);
  assert.deepEqual({ ...theirs }, { allowed: true, limit: 5, remaining: 4, reset: 60, retryAfter: 0 });
  for (let i = 0; i < 4; i++) store.acquire('alice', policy);
  const refused = store.acquire('alice', policy);
  assert.equal(refused.allowed, false);
  scribble(refused, 'retryAfter', 0);
  assert.deepEqual({ ...store.acquire('alice', policy) }, { allowed: false, limit: 5, remaining: 0, reset: 60, retryAfter: 60 });
});
