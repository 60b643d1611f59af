import type { ResponseHeaders } from '../index.js';
import { decimal } from './decimal.js';
import type { RateLimitDecision, RateLimitPolicy } from './types.js';

export interface Outcome {
  readonly policy: RateLimitPolicy;
  readonly decision: RateLimitDecision;
}

const whole = (n: number) => Math.max(0, Math.ceil(Number.isFinite(n) ? n : 0));

/** The counter to report: fewest remaining, ties broken by the longest reset. */
export function reported(outcomes: readonly Outcome[]): Outcome | undefined {
  let best: Outcome | undefined;
  for (const o of outcomes) {
    if (
      !best ||
      o.decision.remaining < best.decision.remaining ||
      (o.decision.remaining === best.decision.remaining && o.decision.reset > best.decision.reset)
    ) {
      best = o;
    }
  }
  return best;
}

const sfString = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?')}"`;

/**
 * Writes `RateLimit-Limit`, `-Remaining`, `-Reset` (and optionally the draft's structured fields) for the
 * counters that counted the request: a decision that failed open counted nothing, so it claims no numbers.
 */
export function writeHeaders(headers: ResponseHeaders, outcomes: readonly Outcome[], structured: boolean): void {
  const counted = outcomes.some((o) => o.decision.failedOpen !== undefined) ? outcomes.filter((o) => o.decision.failedOpen === undefined) : outcomes;
  const top = reported(counted);
  if (!top) return;
  writeCounts(headers, top.decision);
  if (structured) writeStructured(headers, top, counted);
}

/** The headers of a request that met one counter: nothing to compare, nothing to collect; none if it failed open. */
export function writeSingle(headers: ResponseHeaders, policy: RateLimitPolicy, decision: RateLimitDecision, structured: boolean): void {
  if (decision.failedOpen !== undefined) return;
  writeCounts(headers, decision);
  if (structured) {
    const outcome = { policy, decision };
    writeStructured(headers, outcome, [outcome]);
  }
}

/**
 * The decimal text of a whole number, remembering the last one: a counter's limit never changes and its
 * reset seldom does, so most responses reuse the text instead of converting the number again.
 */
class DecimalText {
  #n = 0;
  #text = '0';

  /** The text of `whole(n)`. */
  of(n: number): string {
    if (n !== this.#n) {
      this.#text = String(whole(n));
      this.#n = n;
    }
    return this.#text;
  }
}

const limitText = new DecimalText();
const resetText = new DecimalText();

function writeCounts(headers: ResponseHeaders, decision: RateLimitDecision): void {
  headers.set('ratelimit-limit', limitText.of(decision.limit));
  headers.set('ratelimit-remaining', decision.allowed ? decimal(whole(decision.remaining)) : '0');
  headers.set('ratelimit-reset', resetText.of(decision.reset));
}

function writeStructured(headers: ResponseHeaders, top: Outcome, outcomes: readonly Outcome[]): void {
  const { decision } = top;
  headers.set('ratelimit-policy', outcomes.map((o) => `${sfString(o.policy.name)};q=${o.policy.permitLimit};w=${Math.ceil(o.policy.windowSeconds)}`).join(', '));
  headers.set('ratelimit', `${sfString(top.policy.name)};r=${decision.allowed ? whole(decision.remaining) : 0};t=${whole(decision.reset)}`);
}

/** Integer delta-seconds, rounded up, at least 1. */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(Number.isFinite(decision.retryAfter) ? decision.retryAfter : 1));
}
