// The application's code the rate-limit filters call, each through the guard: what a failure does instead.
import { USER_CODE_FAILED, aBoolean, failedMarker, type UserHook } from '../pipeline/index.js';
import type { RateLimitObserver } from './observer.js';
import { policyNumbers, type RateLimitPolicyNumbers } from './policy-resolver.js';
import { isWholeCount } from './store-kit.js';

/** A hook whose failure makes the limit inapplicable to the request: 500 naming the limit. */
export const BROKEN = 'the request was answered 500 naming the limit (TRELLIS_RATE_LIMIT_BROKEN)';

export const COST: UserHook<number, typeof USER_CODE_FAILED> = {
  where: 'RateLimitSettings.cost',
  instead: BROKEN,
  accept: (answer) => {
    if (!isWholeCount(answer)) throw new TypeError('it must answer a whole number of permits >= 1');
    return answer;
  },
  fallback: failedMarker,
};

export const RESOLVE: UserHook<RateLimitPolicyNumbers | undefined, typeof USER_CODE_FAILED> = {
  where: 'RateLimitPolicyResolver.resolve',
  instead: BROKEN,
  accept: policyNumbers,
  fallback: failedMarker,
};

export const SKIP: UserHook<boolean> = {
  where: 'RateLimitConfiguration.skip',
  instead: 'the request was counted',
  accept: aBoolean,
  fallback: () => false,
};

/** An observer's methods: each may be async, none is waited for, and a failure leaves the request as it was. */
const observed = (method: keyof RateLimitObserver): UserHook<unknown, undefined> => ({
  where: `RateLimitObserver.${method}`,
  instead: 'the request went on',
  fallback: () => undefined,
});
export const OBSERVED = {
  decided: observed('decided'),
  refused: observed('refused'),
  failedOpen: observed('failedOpen'),
  storeFailed: observed('storeFailed'),
} as const;
