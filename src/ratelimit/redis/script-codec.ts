/**
 * What travels between the store and its script. A batch's acquires go as one argument and its answers come
 * back as one string: a client library spends more on each argument it writes and each reply element it
 * parses (microseconds apiece) than on the few characters of an answer, and Redis writes one string faster
 * than an array. A decision travels as one integer where it fits, because a table costs the script more than
 * the rest of a refusal.
 */
import type { RateLimitDecision } from '../index.js';

/** The split of an integer answer: the low 26 bits hold one number, the bits above another. */
const SPLIT = 2 ** 26;

/** One acquire as the script's argument: its policy's number in the batch (from 1), then `cost,now` (see `acquireTail`). */
export function acquireToken(policyNumber: number, tail: string): string {
  return `${policyNumber},${tail}`;
}

/** The part of an acquire's token that does not depend on its batch: cost, and a test clock's microseconds or ''. */
export function acquireTail(cost: number, nowMicros: string): string {
  return cost === 1 && nowMicros === '' ? '1,;' : `${cost},${nowMicros};`;
}

/**
 * An acquire's own error inside a batch (a key holding another type, say), or an answer that makes no sense:
 * Redis answered, for this acquire alone.
 */
export class ScriptErrorReply extends Error {
  override readonly name = 'ScriptErrorReply';
}

/** The answers of a batch of `count` acquires, in order; undefined when the reply is not such a string. */
export function splitReply(reply: unknown, count: number): string[] | undefined {
  if (typeof reply !== 'string') return undefined;
  const answers = reply.split(';');
  return answers.length === count ? answers : undefined;
}

/**
 * Reads one answer as a decision for a counter of `limit` permits, or its acquire's error. An admission is
 * `remaining * 2^26 + reset` (retryAfter 0); a refusal is `-1 - (reset * 2^26 + retryAfter)` (remaining 0).
 * When a number does not fit, the script answers `allowed,remaining,reset,retryAfter` instead, and `!` with
 * the message for an error. Anything else is an error too.
 */
export function decodeAnswer(answer: string, limit: number): RateLimitDecision | ScriptErrorReply {
  if (answer.charCodeAt(0) === 33 /* ! */) return new ScriptErrorReply(answer.slice(1));
  if (answer.indexOf(',') < 0) {
    const packed = answer === '' ? Number.NaN : Number(answer);
    if (!Number.isSafeInteger(packed)) return unexpected(answer);
    if (packed >= 0) return { allowed: true, limit, remaining: Math.floor(packed / SPLIT), reset: packed % SPLIT, retryAfter: 0 };
    const refused = -1 - packed;
    return { allowed: false, limit, remaining: 0, reset: Math.floor(refused / SPLIT), retryAfter: refused % SPLIT };
  }
  const parts = answer.split(',');
  if (parts.length !== 4 || !parts.every((part) => /^-?\d+$/.test(part))) return unexpected(answer);
  const [allowed, remaining, reset, retryAfter] = parts.map(Number) as [number, number, number, number];
  return { allowed: allowed === 1, limit, remaining, reset, retryAfter };
}

function unexpected(answer: string): ScriptErrorReply {
  return new ScriptErrorReply(`unexpected script answer ${JSON.stringify(answer)}`);
}
