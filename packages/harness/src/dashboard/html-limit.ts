// The longest HTML a widget shows. A function's own HTML is already held to Lambda's response limit, but
// rendering multiplies: one Markdown reference definition can be used thousands of times, and pretty-printing
// indents every value of a deeply nested result. Renderers count what they write and stop at this cap, so a
// small input never makes a huge string.
import { MAX_RESPONSE_BYTES } from './functions/index.js';

/**
 * Longest HTML of one widget, in UTF-16 code units: 6,291,556, Lambda's response limit in bytes. A function
 * that returns HTML as a string never reaches it (a string's JSON has at least as many bytes as the string has
 * code units); rendered Markdown and pretty-printed JSON stop here.
 */
export const MAX_HTML_LENGTH = MAX_RESPONSE_BYTES;

/**
 * A widget's HTML would be longer than {@link MAX_HTML_LENGTH}; rendering stopped there. `what` leads the
 * message ("The Markdown renders to"), `hint` follows it.
 */
export class HtmlTooLargeError extends RangeError {
  override readonly name = 'HtmlTooLarge';
  constructor(what: string, hint = '') {
    super(
      `${what} more than ${MAX_HTML_LENGTH} characters of HTML, the most a widget shows; rendering stopped there.${hint && ` ${hint}`}`,
    );
  }
}

/**
 * Whether `error` is JavaScript's own refusal to make a string longer than it can hold, which a renderer that
 * does not count may still meet.
 */
export const isStringLengthError = (error: unknown): boolean => error instanceof RangeError && /invalid string length/i.test(error.message);
