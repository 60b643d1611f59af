import type { ResponseHeaders } from '../index.js';
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
 * Which rate-limit header fields a response carries: `standard` — `RateLimit-Limit`, `-Remaining`, `-Reset`;
 * `structured` — the IETF httpapi draft's `RateLimit` and `RateLimit-Policy` fields; `legacy` —
 * `X-RateLimit-Limit`, `-Remaining`, `-Reset` (the reset in seconds from now, like the others).
 */
export type RateLimitHeaderFormat = 'standard' | 'structured' | 'legacy';

/** The formats one configuration writes, read on every response. */
export interface HeaderFormats {
  readonly standard: boolean;
  readonly structured: boolean;
  readonly legacy: boolean;
  /** Whether any header is written at all. */
  readonly any: boolean;
}

/**
 * Writes the configured header fields for the counters that counted the request: a decision that failed
 * open counted nothing, so it claims no numbers.
 */
export function writeHeaders(headers: ResponseHeaders, outcomes: readonly Outcome[], formats: HeaderFormats): void {
  if (!formats.any) return;
  let counted = outcomes;
  for (const o of outcomes) {
    if (o.decision.failedOpen === undefined) continue;
    counted = outcomes.filter((c) => c.decision.failedOpen === undefined);
    break;
  }
  const top = reported(counted);
  if (!top) return;
  writeCounts(headers, top.decision, formats);
  if (formats.structured) writeStructured(headers, top, counted);
}

const ONE_DIGIT = Array.from({ length: 10 }, (_, i) => String(i));
const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => (i < 10 ? `0${i}` : String(i)));

/**
 * The decimal text of a whole number, as `String(n)` gives it, without the engine's number-to-string cache:
 * that cache keeps each converted string alive until its slot is reused, so a value that changes on every
 * response (`RateLimit-Remaining`) fills it with strings that outlive young-generation collections and make
 * each of them copy and promote. Built here from two-digit pieces, the text is short-lived garbage only.
 */
export function decimal(n: number): string {
  if (!(n >= 0 && n <= 0x7fffffff && Number.isInteger(n))) return String(n);
  if (n < 10) return ONE_DIGIT[n]!;
  let rest = n;
  let out = '';
  while (rest >= 100) {
    const q = (rest / 100) | 0;
    out = TWO_DIGITS[rest - q * 100]! + out;
    rest = q;
  }
  return (rest < 10 ? ONE_DIGIT[rest]! : TWO_DIGITS[rest]!) + out;
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

function writeCounts(headers: ResponseHeaders, decision: RateLimitDecision, formats: HeaderFormats): void {
  const limit = limitText.of(decision.limit);
  const remaining = decimal(whole(decision.remaining));
  const reset = resetText.of(decision.reset);
  if (formats.standard) {
    headers.set('ratelimit-limit', limit);
    headers.set('ratelimit-remaining', remaining);
    headers.set('ratelimit-reset', reset);
  }
  if (formats.legacy) {
    headers.set('x-ratelimit-limit', limit);
    headers.set('x-ratelimit-remaining', remaining);
    headers.set('x-ratelimit-reset', reset);
  }
}

function writeStructured(headers: ResponseHeaders, top: Outcome, outcomes: readonly Outcome[]): void {
  const { decision } = top;
  headers.set(
    'ratelimit-policy',
    outcomes.map((o) => `${sfString(o.policy.name)};q=${o.policy.permitLimit};w=${Math.ceil(o.policy.windowSeconds)}`).join(', '),
  );
  headers.set('ratelimit', `${sfString(top.policy.name)};r=${whole(decision.remaining)};t=${whole(decision.reset)}`);
}

/** Integer delta-seconds, rounded up, at least 1. */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(Number.isFinite(decision.retryAfter) ? decision.retryAfter : 1));
}
