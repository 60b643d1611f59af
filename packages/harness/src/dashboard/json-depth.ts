// How deeply a parsed JSON value nests, found without recursion so that no depth can overflow the stack.

/** Deepest nesting of objects and arrays accepted in a dashboard (the dashboard itself is level 1). */
export const MAX_JSON_DEPTH = 64;

export const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The JSON pointer of the first object or array nested deeper than `limit` levels, or null when none is.
 *
 * @example
 * tooDeep({ a: [[1]] }, 2); // '/a/0'
 * tooDeep({ a: [1] }, 2); // null
 */
export function tooDeep(value: unknown, limit: number = MAX_JSON_DEPTH): string | null {
  const stack: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 1, path: '' }];
  while (stack.length > 0) {
    const { value: v, depth, path } = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > limit) return path;
    const entries: ReadonlyArray<readonly [string, unknown]> = Array.isArray(v)
      ? v.map((item: unknown, i) => [String(i), item] as const)
      : Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      if (typeof item === 'object' && item !== null) stack.push({ value: item, depth: depth + 1, path: `${path}/${escapePointer(key)}` });
    }
  }
  return null;
}
