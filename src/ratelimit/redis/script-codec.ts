// The script's decision travels as one integer: a table reply costs Redis more than the rest of a refusal.
import type { RateLimitDecision } from '../index.js';

/** The split of the integer reply: the low 26 bits hold one number, the bits above another. */
const SPLIT = 2 ** 26;

/**
 * Reads the script's reply as a decision for a counter of `limit` permits. An admission is
 * `remaining * 2^26 + reset` (retryAfter 0); a refusal is `-1 - (reset * 2^26 + retryAfter)` (remaining 0).
 * When a number does not fit, the script answers the table { allowed, remaining, reset, retryAfter } instead.
 * Anything else gives undefined.
 */
export function decodeReply(reply: unknown, limit: number): RateLimitDecision | undefined {
  if (typeof reply === 'number') {
    if (!Number.isSafeInteger(reply)) return undefined;
    if (reply >= 0) return { allowed: true, limit, remaining: Math.floor(reply / SPLIT), reset: reply % SPLIT, retryAfter: 0 };
    const packed = -1 - reply;
    return { allowed: false, limit, remaining: 0, reset: Math.floor(packed / SPLIT), retryAfter: packed % SPLIT };
  }
  if (!Array.isArray(reply) || reply.length !== 4) return undefined;
  const [allowed, remaining, reset, retryAfter] = reply as unknown[];
  if (typeof allowed !== 'number' || typeof remaining !== 'number' || typeof reset !== 'number' || typeof retryAfter !== 'number') {
    return undefined;
  }
  return { allowed: allowed === 1, limit, remaining, reset, retryAfter };
}
