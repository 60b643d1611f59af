/**
 * Key layout: `<prefix>{<policy key>|<partition>}:<layout>`. Everything between the braces is the cluster
 * hash tag, so every key of one counter lands in one slot. Braces, `|` and `%` inside the two names are
 * percent-encoded, which keeps the hash tag intact and makes the mapping one-to-one (no two counters share a
 * key, whatever their names contain).
 */
function escapeName(name: string): string {
  return name.replace(/[%{}|]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Checks a key prefix: a string without braces (they would move the hash tag). */
export function checkKeyPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || /[{}]/.test(prefix)) {
    throw new TypeError(`keyPrefix must be a string without "{" or "}" (got ${JSON.stringify(prefix)}), e.g. "myapp:rl:"`);
  }
  return prefix;
}

/** The Redis key of one counter; `layout` is `e` (exact list) or `s<segment micros>` (segmented hash). */
export function counterKey(prefix: string, policyKey: string, partition: string, layout: string): string {
  return `${prefix}{${escapeName(policyKey)}|${escapeName(partition)}}:${layout}`;
}
