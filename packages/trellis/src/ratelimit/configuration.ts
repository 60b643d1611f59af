import type { ExecutionContext } from '../index.js';
import { monotonicClock } from './clock.js';
import type { RateLimitClock, RateLimitPolicy } from './types.js';

/** Decides per request and counter whether a request is left out of a limit: it spends nothing and gets no headers. */
export type RateLimitSkip = (ctx: ExecutionContext, policy: RateLimitPolicy) => boolean;

/**
 * Settings of rate limiting. A framework default is registered with `RegistrationType.Try`, so an application
 * registration of its own always wins.
 *
 * @example
 * app.services.addValue(RateLimitConfiguration, new RateLimitConfiguration({ partitionHeader: 'x-tenant-id' }));
 */
export class RateLimitConfiguration {
  /**
   * A request header whose value partitions anonymous callers (e.g. a tenant id). It must be set — and
   * stripped from inbound requests — by a trusted proxy: a caller-set header lets the caller pick its bucket.
   */
  readonly partitionHeader: string | undefined;
  /** Most partitions the in-process store tracks at once; new ones pass unlimited beyond it. */
  readonly maxTrackedPartitions: number;
  /** Also send the structured `RateLimit` / `RateLimit-Policy` fields of the IETF httpapi draft. */
  readonly structuredHeaders: boolean;
  /**
   * Leaves requests out of a limit (health checks, an internal caller): asked before the partition is
   * computed, once per request and counter; a skipped request spends nothing on that counter and carries no
   * `RateLimit-*` headers for it.
   *
   * @example
   * new RateLimitConfiguration({ skip: (ctx) => ctx.request.headers.get('x-internal-token') === process.env.INTERNAL_TOKEN });
   */
  readonly skip: RateLimitSkip | undefined;
  /**
   * Most one log line per kind (refusal at debug; fail-open, store failure at warn) and counter in this many
   * seconds; the next line says how many were held back. Default 60.
   */
  readonly logIntervalSeconds: number;
  /** Where that interval reads time, in monotonic milliseconds (a `ManualClock` in tests). */
  readonly clock: RateLimitClock;

  constructor(
    init: {
      partitionHeader?: string;
      maxTrackedPartitions?: number;
      structuredHeaders?: boolean;
      skip?: RateLimitSkip;
      logIntervalSeconds?: number;
      clock?: RateLimitClock;
    } = {},
  ) {
    const { partitionHeader, maxTrackedPartitions = 10_000, structuredHeaders = false, skip, logIntervalSeconds = 60, clock = monotonicClock } = init;
    if (typeof logIntervalSeconds !== 'number' || !(logIntervalSeconds >= 0) || !Number.isFinite(logIntervalSeconds)) {
      throw new TypeError(`RateLimitConfiguration: logIntervalSeconds must be a finite number of seconds >= 0, got ${String(logIntervalSeconds)}.`);
    }
    if (typeof clock?.now !== 'function') {
      throw new TypeError('RateLimitConfiguration: clock must have a now() method returning milliseconds.');
    }
    if (skip !== undefined && typeof skip !== 'function') {
      throw new TypeError(`RateLimitConfiguration: skip must be a function (ctx, policy) => boolean, got ${typeof skip}.`);
    }
    if (partitionHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(partitionHeader)) {
      throw new TypeError(`RateLimitConfiguration: partitionHeader must be a header name, got ${JSON.stringify(partitionHeader)}.`);
    }
    if (!Number.isSafeInteger(maxTrackedPartitions) || maxTrackedPartitions < 1) {
      throw new TypeError(`RateLimitConfiguration: maxTrackedPartitions must be a positive integer, got ${String(maxTrackedPartitions)}.`);
    }
    this.partitionHeader = partitionHeader?.toLowerCase();
    this.maxTrackedPartitions = maxTrackedPartitions;
    this.structuredHeaders = structuredHeaders;
    this.skip = skip;
    this.logIntervalSeconds = logIntervalSeconds;
    this.clock = clock;
  }
}
