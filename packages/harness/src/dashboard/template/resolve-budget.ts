/**
 * Bounds on what resolving one template may make. A YAML alias is resolved each time it is used, so a template
 * of a few MiB can name gigabytes (140 aliases of a 4 MiB string in one `!Join`): each string an intrinsic
 * function makes, all of them together and the values visited are counted, and resolving stops with a
 * TemplateError past a bound, before the engine's own limits (string length, heap) are reached.
 */
import { isRecord } from '../functions/index.js';

/** The longest string an intrinsic function may make (as the largest template file the harness reads). */
export const MAX_STRING_LENGTH = 10 * 1024 * 1024;
/** All the characters the intrinsic functions of one template may make together. */
export const MAX_CHARACTERS_MADE = 64 * 1024 * 1024;
/** The values one template's resolution may visit (list items that Fn::Split makes count too). */
export const MAX_VALUES_VISITED = 1_000_000;
/** How much of a value an error message quotes. */
const MAX_SHOWN = 200;

const AGAIN = '(each use of a YAML alias is resolved again); the harness resolves no more';

/**
 * What one template's resolution has visited and made; each count returns the problem once past a bound.
 *
 * @example
 * const budget = new ResolveBudget();
 * budget.make(20 * 1024 * 1024, 'Fn::Join'); // 'Fn::Join makes a string of 20,971,520 characters; …'
 */
export class ResolveBudget {
  #visited = 0;
  #made = 0;

  /** Counts `count` values visited (or made); the problem past MAX_VALUES_VISITED, else undefined. */
  visit(count: number): string | undefined {
    this.#visited += count;
    if (this.#visited <= MAX_VALUES_VISITED) return undefined;
    return `resolving the template visits more than ${MAX_VALUES_VISITED.toLocaleString('en')} values ${AGAIN}`;
  }

  /** Counts a string of `length` characters (or more, when `atLeast`) that `fn` is about to make. */
  make(length: number, fn: string, atLeast = false): string | undefined {
    if (length > MAX_STRING_LENGTH) {
      const size = atLeast ? `more than ${MAX_STRING_LENGTH.toLocaleString('en')}` : length.toLocaleString('en');
      return `${fn} makes a string of ${size} characters; the harness resolves strings of at most ${MAX_STRING_LENGTH / 1024 / 1024} Mi characters`;
    }
    this.#made += length;
    if (this.#made <= MAX_CHARACTERS_MADE) return undefined;
    return `the template's intrinsic functions make more than ${MAX_CHARACTERS_MADE / 1024 / 1024} Mi characters in all ${AGAIN}`;
  }
}

/**
 * At least how many characters the JSON text of a resolved value has (its strings and numbers, unescaped, and
 * one per punctuation mark), counting no further than past `limit`.
 *
 * @example
 * jsonLengthAtLeast({ a: ['xy'] }, 100); // 10
 */
export function jsonLengthAtLeast(value: unknown, limit: number): number {
  let length = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && length <= limit) {
    const v = pending.pop();
    if (typeof v === 'string') length += v.length + 2;
    else if (Array.isArray(v)) {
      length += v.length + 1;
      for (const item of v) pending.push(item);
    } else if (isRecord(v)) {
      for (const [key, item] of Object.entries(v)) {
        length += key.length + 4;
        pending.push(item);
      }
    } else length += String(v).length;
  }
  return length;
}

/**
 * A template value as a message quotes it: its JSON, cut to 200 characters; a value too large to walk for that
 * is only named.
 *
 * @example
 * show(['a', 1]); // '["a",1]'
 */
export function show(v: unknown): string {
  if (typeof v === 'symbol') return 'AWS::NoValue';
  let budget = MAX_SHOWN;
  let text: string;
  try {
    text =
      JSON.stringify(v, (_key, value: unknown) => {
        if (--budget < 0) throw new RangeError('too large to show');
        return typeof value === 'string' && value.length > MAX_SHOWN ? value.slice(0, MAX_SHOWN) : value;
      }) ?? String(v);
  } catch {
    return Array.isArray(v) ? 'a list too large to show' : 'a mapping too large to show';
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}
