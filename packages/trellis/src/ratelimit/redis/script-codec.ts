/**
 * What travels between the store and its script: the counter's key, the acquires and the answers. A batch's acquires go as one argument and its answers come
 * back as one string: a client library spends more on each argument it writes and each reply element it
 * parses (ioredis 6: about 0.3 µs per argument, about 2 µs per reply element) than on the few characters of
 * an answer, and Redis writes one string faster than an array.
 */
import { usageError } from '../../errors/index.js';
import type { RateLimitDecision } from '../index.js';

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
 * Reads one answer as a decision for a counter of `limit` permits, or its acquire's error: `remaining,reset`
 * for an admission (retryAfter 0), `-reset,retryAfter,remaining` for a refusal (`remaining` the permits left,
 * fewer than the request's cost), `!` and the message for an error. Anything else is an error too.
 */
export function decodeAnswer(answer: string, limit: number): RateLimitDecision | ScriptErrorReply {
  const first = answer.charCodeAt(0);
  if (first === 33 /* ! */) return new ScriptErrorReply(answer.slice(1));
  const refused = first === 45; /* - */
  const comma = answer.indexOf(',');
  const from = refused ? 1 : 0;
  if (comma <= from || comma === answer.length - 1) return unexpected(answer);
  if (!refused) {
    const a = Number(answer.slice(from, comma));
    const b = Number(answer.slice(comma + 1));
    if (!Number.isSafeInteger(a) || !Number.isSafeInteger(b) || a < 0 || b < 0) return unexpected(answer);
    return { allowed: true, limit, remaining: a, reset: b, retryAfter: 0 };
  }
  const second = answer.indexOf(',', comma + 1);
  if (second === -1 || second === answer.length - 1) return unexpected(answer);
  const reset = Number(answer.slice(from, comma));
  const retryAfter = Number(answer.slice(comma + 1, second));
  const remaining = Number(answer.slice(second + 1));
  if (![reset, retryAfter, remaining].every((n) => Number.isSafeInteger(n) && n >= 0)) return unexpected(answer);
  return { allowed: false, limit, remaining, reset, retryAfter };
}

function unexpected(answer: string): ScriptErrorReply {
  return new ScriptErrorReply(`unexpected script answer ${JSON.stringify(answer)}`);
}

/**
 * Key layout: `<prefix>{<policy key>|<partition>}:sw3`. Everything between the braces is the cluster
 * hash tag, so every key of one counter lands in one slot. Braces, `|` and `%` inside the two names are
 * percent-encoded, which keeps the hash tag intact and makes the mapping one-to-one (no two counters share a
 * key, whatever their names contain).
 */
const SPECIAL = /[%{}|]/;

export function escapeName(name: string): string {
  if (!SPECIAL.test(name)) return name;
  return name.replace(/[%{}|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Checks a key prefix: a string without braces (they would move the hash tag). */
export function checkRedisKeyPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || /[{}]/.test(prefix)) {
    throw usageError(
      'TRELLIS_INVALID_STORE_OPTIONS',
      `keyPrefix must be a string without "{" or "}" (got ${JSON.stringify(prefix)}), e.g. "myapp:rl:"`,
    );
  }
  return prefix;
}

/** The part of a policy's counter keys before the partition. */
export function counterKeyHead(prefix: string, policyKey: string): string {
  return `${prefix}{${escapeName(policyKey)}|`;
}

/**
 * A counter's key. Its suffix names the value's layout (`:sw3`, the sliding window's compact layout), so a
 * store that keeps another layout one day never reads a value it would misunderstand.
 */
export function counterKey(head: string, partition: string): string {
  return head + escapeName(partition) + '}:sw3';
}
