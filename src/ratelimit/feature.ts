import type { AnnotationKind, Feature, Filter, ServiceCollection } from '../index.js';
import { RateLimitConfiguration } from './configuration.js';
import { rateLimitFilters } from './filters.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import { DefaultRateLimitPartitioner, RateLimitPartitioner } from './partitioner.js';
import { RateLimitStore } from './types.js';
import type { RateLimitSettings } from './types.js';

/**
 * Installed once per app when any handler carries `@RateLimit`: the two filters, and the configuration, the
 * in-process store and the default partitioner as framework defaults (registered with `Try`). The annotation
 * hands over its kind, so the filters find its values on a route without importing it.
 */
export function rateLimitFeature(kind: () => AnnotationKind<RateLimitSettings>): Feature {
  let filters: readonly Filter[] | undefined;
  return {
    name: 'rate-limit',
    filters: () => (filters ??= rateLimitFilters(kind())),
    configure,
  };
}

function configure(services: ServiceCollection): void {
  services.addDefault(RateLimitConfiguration, () => new RateLimitConfiguration());
  services.addDefault(RateLimitStore, (s) => new InProcessRateLimitStore({ maxTrackedPartitions: s.get(RateLimitConfiguration).maxTrackedPartitions }));
  services.addDefault(RateLimitPartitioner, (s) => new DefaultRateLimitPartitioner(s.get(RateLimitConfiguration)));
}
