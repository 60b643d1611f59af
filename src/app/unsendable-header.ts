// A handler can set a header that HTTP cannot carry (a newline in a value, a space in a name). node:http
// refuses it only while writing, after the status line is chosen; finding it first lets the host answer a
// clear 500 problem instead of an empty response with the handler's reason phrase.
import { validateHeaderName, validateHeaderValue } from 'node:http';
import { problemResponse } from '../filters/index.js';
import { problem, type OutgoingResponse } from '../pipeline/index.js';

/** The name of the first header in flat `[name, value, …]` form that HTTP cannot carry, or null. */
export function unsendableHeader(flat: readonly (string | string[])[]): string | null {
  for (let i = 0; i < flat.length; i += 2) {
    const name = flat[i] as string;
    try {
      validateHeaderName(name);
      const value = flat[i + 1]!;
      for (const one of Array.isArray(value) ? value : [value]) validateHeaderValue(name, one);
    } catch {
      return name;
    }
  }
  return null;
}

/**
 * The 500 problem sent in place of a response whose header `name` HTTP cannot carry.
 *
 * @example
 * unsendableHeaderResponse('x-note'); // 500, detail names "x-note"
 */
export function unsendableHeaderResponse(name: string): OutgoingResponse {
  const shown = JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name);
  return problemResponse(problem(500, `The handler set the response header ${shown} to something HTTP cannot carry (a control character such as a line break, or a name that is not a token).`, { header: name.slice(0, 100) }));
}
