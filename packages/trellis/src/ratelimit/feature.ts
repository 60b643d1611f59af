import type { Feature, Filter, ServiceCollection } from '../index.js';
import { Logger } from '../index.js';
import { guardedLogger } from '../pipeline/index.js';
import { RateLimitLog, RateLimitLogToken } from './rate-limit-log.js';
import type { RateLimitKinds } from './policies.js';
import { RateLimitConfiguration } from './configuration.js';
import { rateLimitFilters } from './filters.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { RateLimitStore } from './types.js';

/**
 * Installed once per app when any handler carries `@RateLimit`: the two filters, and the configuration, the
 * in-process store and the default partitioner as framework defaults (registered with `Try`). The annotation
 * hands over its kinds, so the filters find their values on a route without importing them.
 */
export function rateLimitFeature(kinds: () => RateLimitKinds): Feature {
  let filters: readonly Filter[] | undefined;
  return {
    name: 'rate-limit',
    filters: () => (filters ??= rateLimitFilters(kinds())),
    configure,
  };
}

function configure(services: ServiceCollection): void {
  services.addDefault(RateLimitConfiguration, () => new RateLimitConfiguration());
  services.addDefault(
    RateLimitStore,
    (s) => new InProcessRateLimitStore({ maxTrackedPartitions: s.get(RateLimitConfiguration).maxTrackedPartitions }),
  );
  services.addDefault(RateLimitPartitioner, (s) => new DefaultRateLimitPartitioner(s.get(RateLimitConfiguration)));
  services.addDefault(RateLimitLogToken, (s) => {
    const { logIntervalSeconds, clock } = s.get(RateLimitConfiguration);
    const logger = s.tryGet(Logger);
    return new RateLimitLog(logger === undefined ? undefined : guardedLogger(logger), logIntervalSeconds * 1000, clock);
  });
}
