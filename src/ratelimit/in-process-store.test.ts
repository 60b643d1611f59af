import { InProcessRateLimitStore } from './in-process-store.js';
import { rateLimitStoreContract } from './store-contract.test-suite.js';
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
