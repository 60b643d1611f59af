import type { ResponseHeaders } from './headers.js';

/**
 * Adds header names to a response's `Vary`, after the ones already there: each name once (compared without
 * case), in one comma-separated value; a `Vary: *` is left as it is (it already covers every header).
 *
 * @example
 * addVary(headers, 'origin'); // no Vary → "origin"; "Accept-Language" → "Accept-Language, origin"
 */
export function addVary(headers: ResponseHeaders, ...names: string[]): void {
  const current = headers.get('vary');
  const before = current === undefined ? [] : splitList(current);
  if (before.includes('*')) return;
  const listed = new Map<string, string>();
  for (const name of [...before, ...names]) if (!listed.has(name.toLowerCase())) listed.set(name.toLowerCase(), name);
  if (listed.size > 0) headers.set('vary', [...listed.values()].join(', '));
}

function splitList(value: string | string[]): string[] {
  return (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}
