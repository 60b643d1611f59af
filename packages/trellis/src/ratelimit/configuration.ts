import type { ExecutionContext, ProblemDetails } from '../index.js';
import type { HeaderFormats, RateLimitHeaderFormat } from './headers.js';
import type { RateLimitClock, RateLimitDecision, RateLimitPolicy } from './types.js';
import { isWholeCount, monotonicClock } from './store-kit.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_RATE_LIMIT_CONFIGURATION', message);

/**
 * Decides per request and counter whether a request is left out of a limit: it spends nothing and gets no
 * headers. It must answer at once with true or false; one that throws or answers anything else (a promise
 * included) is logged, and the request is counted.
 */
export type RateLimitSkip = (ctx: ExecutionContext, policy: RateLimitPolicy) => boolean;

/** What a refusal hook is told about a request refused with 429. */
export interface RateLimitRefusalEvent {
  readonly ctx: ExecutionContext;
  /** The counter that refused. */
  readonly policy: RateLimitPolicy;
  readonly decision: RateLimitDecision;
  /** Permits the request needed. */
  readonly cost: number;
  /** Whole seconds until a retry can succeed: the `Retry-After` header's value. */
  readonly retryAfter: number;
  /** The problem details Trellis answers with unless the hook says otherwise. */
  readonly problem: ProblemDetails;
}

/**
 * How a refused request is answered instead of the default 429 problem: another status (4xx or 5xx), another
 * problem body (`title` and `status` are filled in when left out), more headers. `Retry-After` and the
 * configured rate-limit headers are always written (a header given here replaces them).
 */
export interface RateLimitRefusal {
  readonly status?: number;
  readonly problem?: Partial<ProblemDetails>;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Answers a refused request: a `RateLimitRefusal`, or undefined for the default 429 — or a promise of either,
 * which is waited for. One that throws, rejects or answers something else is logged and the default 429 is sent.
 */
export type RateLimitRefusalHook = (
  event: RateLimitRefusalEvent,
) => RateLimitRefusal | undefined | PromiseLike<RateLimitRefusal | undefined>;

const FORMATS: readonly RateLimitHeaderFormat[] = ['standard', 'structured', 'legacy'];

/** What `new RateLimitConfiguration(…)` takes; each is described on the property of the same name. */
export interface RateLimitConfigurationOptions {
  readonly partitionHeader?: string;
  readonly maxTrackedPartitions?: number;
  readonly headers?: readonly RateLimitHeaderFormat[];
  readonly refusal?: RateLimitRefusalHook;
  readonly skip?: RateLimitSkip;
  readonly logIntervalSeconds?: number;
  readonly clock?: RateLimitClock;
}

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
  /**
   * The rate-limit header fields responses carry (default `['standard']`): `standard` — `RateLimit-Limit`,
   * `RateLimit-Remaining`, `RateLimit-Reset`; `structured` — the IETF httpapi draft's `RateLimit` and
   * `RateLimit-Policy`; `legacy` — `X-RateLimit-Limit`, `-Remaining`, `-Reset` (seconds from now). `[]` sends
   * none; `Retry-After` on a 429 is always sent.
   */
  readonly headers: readonly RateLimitHeaderFormat[];
  /** `headers`, as the filters read it on every response. */
  readonly headerFormats: HeaderFormats;
  /**
   * Answers refused requests in place of the default 429 problem (status, body, headers); it may be async. A
   * hook that throws, rejects, or answers something unusable, is logged and the default answer is sent.
   *
   * @example
   * new RateLimitConfiguration({ refusal: ({ retryAfter }) => ({ problem: { detail: `Slow down: try again in ${retryAfter} s.` } }) });
   */
  readonly refusal: RateLimitRefusalHook | undefined;
  /**
   * Leaves requests out of a limit (health checks, an internal caller): asked before the partition is
   * computed, once per request and counter; a skipped request spends nothing on that counter and carries no
   * `RateLimit-*` headers for it. It must answer at once (not with a promise): one that throws or answers
   * anything but true or false is logged, and the request is counted.
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

  constructor(init: RateLimitConfigurationOptions = {}) {
    const {
      partitionHeader,
      maxTrackedPartitions = 10_000,
      headers = ['standard'],
      refusal,
      skip,
      logIntervalSeconds = 60,
      clock = monotonicClock,
    } = init;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- Array.isArray narrows a readonly array to any[] (TypeScript #17002); the checks run for JavaScript callers
    if (!Array.isArray(headers) || headers.some((f) => !FORMATS.includes(f))) {
      throw invalid(
        `RateLimitConfiguration: headers must be a list of ${FORMATS.map((f) => `"${f}"`).join(', ')} (or [] for none), got ${JSON.stringify(headers)}.`,
      );
    }
    if (refusal !== undefined && typeof refusal !== 'function') {
      throw invalid(
        `RateLimitConfiguration: refusal must be a function (event) => ({ status?, problem?, headers? }) | undefined, got ${typeof refusal}.`,
      );
    }
    if (typeof logIntervalSeconds !== 'number' || !(logIntervalSeconds >= 0) || !Number.isFinite(logIntervalSeconds)) {
      throw invalid(
        `RateLimitConfiguration: logIntervalSeconds must be a finite number of seconds >= 0, got ${String(logIntervalSeconds)}.`,
      );
    }
    if (typeof clock?.now !== 'function') {
      throw invalid('RateLimitConfiguration: clock must have a now() method returning milliseconds.');
    }
    if (skip !== undefined && typeof skip !== 'function') {
      throw invalid(`RateLimitConfiguration: skip must be a function (ctx, policy) => boolean, got ${typeof skip}.`);
    }
    if (partitionHeader !== undefined && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(partitionHeader)) {
      throw invalid(`RateLimitConfiguration: partitionHeader must be a header name, got ${JSON.stringify(partitionHeader)}.`);
    }
    if (!isWholeCount(maxTrackedPartitions)) {
      throw invalid(`RateLimitConfiguration: maxTrackedPartitions must be a positive integer, got ${String(maxTrackedPartitions)}.`);
    }
    this.partitionHeader = partitionHeader?.toLowerCase();
    this.maxTrackedPartitions = maxTrackedPartitions;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- Array.isArray narrows a readonly array to any[] (TypeScript #17002); the checks run for JavaScript callers
    this.headers = Object.freeze([...new Set(headers)]);
    const has = (f: RateLimitHeaderFormat) => this.headers.includes(f);
    this.headerFormats = Object.freeze({
      standard: has('standard'),
      structured: has('structured'),
      legacy: has('legacy'),
      any: this.headers.length > 0,
    });
    this.refusal = refusal;
    this.skip = skip;
    this.logIntervalSeconds = logIntervalSeconds;
    this.clock = clock;
  }
}
