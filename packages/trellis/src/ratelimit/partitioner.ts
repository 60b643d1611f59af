import type { ExecutionContext } from '../index.js';
import { createToken } from '../index.js';
import { failedMarker, type USER_CODE_FAILED, type UserHook } from '../pipeline/index.js';
import { RateLimitConfiguration } from './configuration.js';
import { BROKEN } from './user-hooks.js';

/**
 * Decides which callers share an allowance. Register a custom one with `RegistrationType.Replace`. `partition`
 * may answer with a promise; one that throws, rejects or answers anything but a string is logged, and the
 * request is answered 500 naming the limit (`TRELLIS_RATE_LIMIT_BROKEN`).
 */
export interface RateLimitPartitioner {
  partition(ctx: ExecutionContext): string | Promise<string>;
}
export const RateLimitPartitioner = createToken<RateLimitPartitioner>('RateLimitPartitioner');

/**
 * The default partitioner: the authenticated subject; otherwise the configured partition header; otherwise
 * the one shared anonymous bucket. Never the remote address. Keys are namespaced (`subject:…`, `header:…`),
 * so a subject, a header value and the anonymous bucket can never collide.
 */
export class DefaultRateLimitPartitioner implements RateLimitPartitioner {
  /** The key of the one bucket that all unattributable requests share. */
  static readonly Anonymous = 'anonymous';

  constructor(private readonly configuration: RateLimitConfiguration = new RateLimitConfiguration()) {}

  partition(ctx: ExecutionContext): string {
    if (ctx.principal) return `subject:${ctx.principal.subject}`;
    const header = this.configuration.partitionHeader;
    if (header !== undefined) {
      const value = ctx.request.headers.get(header);
      if (value !== undefined && value !== '') return `header:${value}`;
    }
    return DefaultRateLimitPartitioner.Anonymous;
  }
}

/** How the rate-limit filters call the partitioner: a failure makes the limit inapplicable, 500 naming it. */
export const PARTITION: UserHook<string, typeof USER_CODE_FAILED> = {
  where: 'RateLimitPartitioner.partition',
  instead: BROKEN,
  accept: (answer) => {
    if (typeof answer !== 'string') throw new TypeError('it must answer a string partition key');
    return answer;
  },
  fallback: failedMarker,
};
