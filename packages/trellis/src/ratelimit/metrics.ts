import type { ServiceResolver } from '../index.js';
import { callUserCode, type UserHook } from '../pipeline/index.js';
import type { RateLimitObserver } from './observer.js';
import type { RateLimitPolicy } from './types.js';
import { usageError } from '../errors/index.js';

type Attributes = Readonly<Record<string, string>>;
interface Counter {
  add(value: number, attributes?: Attributes): void;
}
interface Histogram {
  record(value: number, attributes?: Attributes): void;
}

/**
 * What `rateLimitMetrics` uses of an OpenTelemetry `Meter`: a `Meter` of `@opentelemetry/api` 1.x fits, and
 * the package is never loaded here, so declaring the parts keeps it optional for type checks too.
 */
export interface RateLimitMeter {
  createCounter(name: string, options?: { description?: string; unit?: string }): Counter;
  createHistogram(
    name: string,
    options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } },
  ): Histogram;
}

/** Options of {@link rateLimitMetrics}. */
export interface RateLimitMetricsOptions {
  /** The OpenTelemetry meter to record with, e.g. `metrics.getMeter('my-api')` from `@opentelemetry/api`. */
  readonly meter: RateLimitMeter;
}

// The meter's instruments are the application's (an OpenTelemetry SDK, or a stand-in): each measurement goes
// through the guard, so one that throws loses that measurement only, with a line saying so.
const ADD: UserHook<unknown, undefined> = {
  where: 'RateLimitMeter.createCounter().add',
  instead: 'the measurement was dropped',
  fallback: () => undefined,
};
const RECORD: UserHook<unknown, undefined> = {
  where: 'RateLimitMeter.createHistogram().record',
  instead: 'the measurement was dropped',
  fallback: () => undefined,
};

/** Store latency buckets in seconds: an in-process answer takes microseconds, a remote store milliseconds. */
const LATENCY_BUCKETS_S = [0.000_01, 0.000_05, 0.000_1, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/**
 * An observer that records rate limiting as OpenTelemetry metrics, through the meter you pass: nothing of
 * OpenTelemetry is loaded unless you do (`@opentelemetry/api` 1.x is an optional peer dependency).
 *
 * - `trellis.ratelimit.allowed`, `trellis.ratelimit.refused`, `trellis.ratelimit.failed_open` — requests, per
 *   counter: admitted and counted, refused with 429, admitted uncounted because the store failed open;
 * - `trellis.ratelimit.store_errors` — store calls that threw or rejected (answered 503);
 * - `trellis.ratelimit.store.duration` — histogram of how long the store took, in seconds.
 *
 * Each carries `trellis.ratelimit.limit` (the annotation's name), `trellis.ratelimit.handler` (method and path)
 * and `trellis.ratelimit.scope`; never the partition, which would make a series per caller.
 *
 * @example
 * import { metrics } from '@opentelemetry/api';
 * app.services.add(RateLimitObserver, () => rateLimitMetrics({ meter: metrics.getMeter('my-api') }));
 */
export function rateLimitMetrics(options: RateLimitMetricsOptions): RateLimitObserver {
  const meter = options?.meter;
  if (typeof meter?.createCounter !== 'function' || typeof meter.createHistogram !== 'function') {
    throw usageError(
      'TRELLIS_INVALID_RATE_LIMIT_CONFIGURATION',
      'rateLimitMetrics: options.meter must be an OpenTelemetry Meter (from metrics.getMeter(name)).',
    );
  }
  const requests = (name: string, description: string): Counter =>
    meter.createCounter(`trellis.ratelimit.${name}`, { description, unit: '{request}' });
  const allowed = requests('allowed', 'Requests a rate limit admitted and counted');
  const refused = requests('refused', 'Requests a rate limit refused with 429');
  const failedOpen = requests('failed_open', 'Requests admitted without being counted because the store failed open');
  const storeErrors = meter.createCounter('trellis.ratelimit.store_errors', {
    description: 'Rate-limit store calls that failed (answered 503)',
    unit: '{call}',
  });
  const duration: Histogram = meter.createHistogram('trellis.ratelimit.store.duration', {
    description: 'Time the rate-limit store took to answer',
    unit: 's',
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS_S },
  });
  const add = (services: ServiceResolver, counter: Counter, a: Attributes) =>
    void callUserCode(services, ADD, () => counter.add(1, a), a['trellis.ratelimit.handler']);
  const record = (services: ServiceResolver, durationMs: number, a: Attributes) =>
    void callUserCode(services, RECORD, () => duration.record(durationMs / 1000, a), a['trellis.ratelimit.handler']);
  const attributesOf = new WeakMap<RateLimitPolicy, Attributes>();
  const attributes = (policy: RateLimitPolicy): Attributes => {
    let a = attributesOf.get(policy);
    if (a === undefined) {
      a = { 'trellis.ratelimit.limit': policy.name, 'trellis.ratelimit.handler': policy.handler, 'trellis.ratelimit.scope': policy.scope };
      attributesOf.set(policy, a);
    }
    return a;
  };
  return {
    decided({ ctx, policy, decision, durationMs }) {
      const a = attributes(policy);
      record(ctx.services, durationMs, a);
      add(ctx.services, decision.failedOpen !== undefined ? failedOpen : decision.allowed ? allowed : refused, a);
    },
    storeFailed({ ctx, policy, durationMs }) {
      const a = attributes(policy);
      record(ctx.services, durationMs, a);
      add(ctx.services, storeErrors, a);
    },
  };
}
