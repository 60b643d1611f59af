import { usageError } from '../../errors/index.js';
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

/**
 * The parts of a counter's key around the partition: `head + escapeName(partition) + tail`. The suffix
 * names the value's layout (`:sw3`, the sliding window's compact layout), so a store that keeps another
 * layout one day never reads a value it would misunderstand.
 */
export function counterKeyParts(prefix: string, policyKey: string): { head: string; tail: string } {
  return { head: `${prefix}{${escapeName(policyKey)}|`, tail: '}:sw3' };
}
