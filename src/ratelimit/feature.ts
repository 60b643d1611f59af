import type { Feature } from '../index.js';
import { RateLimitConfiguration } from './configuration.js';
import { principalRateLimitFilter, transportRateLimitFilter } from './filters.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { RateLimitStore } from './types.js';

/**
 * Installed once per app when any handler carries `@RateLimit`: the two filters, and the configuration, the
 * in-process store and the default partitioner as framework defaults (registered with `Try`).
 */
export const rateLimitFeature: Feature = {
  name: 'rate-limit',
  filters: () => [transportRateLimitFilter, principalRateLimitFilter],
  configure(services) {
    services.addDefault(RateLimitConfiguration, () => new RateLimitConfiguration());
    services.addDefault(RateLimitStore, (s) => new InProcessRateLimitStore({ maxTrackedPartitions: s.get(RateLimitConfiguration).maxTrackedPartitions }));
    services.addDefault(RateLimitPartitioner, (s) => new DefaultRateLimitPartitioner(s.get(RateLimitConfiguration)));
  },
};
