// Markdown for text widgets and `{ markdown }` results. markdown-it parses in time linear in the input (no
// backtracking over delimiter runs) and caps nesting at 100 levels, so no input can stall the process or
// overflow the stack; the length cap bounds what one render may cost.
import MarkdownIt from 'markdown-it';
import { buttonLinks } from './markdown-buttons.js';

/**
 * Longest Markdown rendered, in UTF-16 code units (256 Ki). The costliest shapes measured (long tables,
 * reference links) take about 1–2 s at this length on a small machine; ordinary text far less.
 */
export const MAX_MARKDOWN_LENGTH = 256 * 1024;

// GitHub-flavoured like the console: tables, strikethrough, bare URLs as links, raw HTML passed through (the
// linter then reports what the console would strip), and the console's button links.
const renderer = new MarkdownIt({ html: true, linkify: true }).use(buttonLinks);

/** The Markdown is longer than {@link MAX_MARKDOWN_LENGTH}. */
export class MarkdownTooLargeError extends RangeError {
  override readonly name = 'MarkdownTooLarge';
  constructor(readonly length: number) {
    super(`The Markdown is ${length} characters long; at most ${MAX_MARKDOWN_LENGTH} are rendered.`);
  }
}

/** The message when `text` is too long to render, else null. */
export function markdownLengthProblem(text: string): string | null {
  return text.length > MAX_MARKDOWN_LENGTH ? new MarkdownTooLargeError(text.length).message : null;
}

/**
 * Renders Markdown to HTML; throws {@link MarkdownTooLargeError} beyond {@link MAX_MARKDOWN_LENGTH}.
 *
 * @example
 * renderMarkdown('# Hi'); // '<h1>Hi</h1>\n'
 */
export function renderMarkdown(text: string): string {
  if (text.length > MAX_MARKDOWN_LENGTH) throw new MarkdownTooLargeError(text.length);
  return renderer.render(text);
}
