// Markdown for text widgets and `{ markdown }` results. markdown-it parses in time linear in the input (no
// backtracking over delimiter runs) and caps nesting at 100 levels, so no input can stall the process or
// overflow the stack; the length cap bounds what one render may cost, and the HTML cap what it may write: a
// reference definition is copied into every link that uses it, so 54 KB of Markdown once made 180 MB of HTML.
import MarkdownIt, { type Env, type MarkdownItOptions, type Renderer, type Token } from 'markdown-it';
import { HtmlTooLargeError, MAX_HTML_LENGTH, isStringLengthError } from './html-limit.js';
import { buttonLinks } from './markdown-buttons.js';

/**
 * Longest Markdown rendered, in UTF-16 code units (256 Ki). The costliest shapes measured (long tables,
 * reference links) take about 1–2 s at this length on a small machine; ordinary text far less.
 */
export const MAX_MARKDOWN_LENGTH = 256 * 1024;

// GitHub-flavoured like the console: tables, strikethrough, bare URLs as links, raw HTML passed through (the
// linter then reports what the console would strip), and the console's button links.
const renderer = new MarkdownIt({ html: true, linkify: true }).use(buttonLinks);
countWrites(renderer.renderer);

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
 * Renders Markdown to HTML; throws {@link MarkdownTooLargeError} beyond {@link MAX_MARKDOWN_LENGTH}, and
 * {@link HtmlTooLargeError} as soon as the HTML written passes {@link MAX_HTML_LENGTH}.
 *
 * @example
 * renderMarkdown('# Hi'); // '<h1>Hi</h1>\n'
 */
export function renderMarkdown(text: string): string {
  if (text.length > MAX_MARKDOWN_LENGTH) throw new MarkdownTooLargeError(text.length);
  try {
    return renderer.render(text, { [WRITTEN]: 0 });
  } catch (error) {
    if (isStringLengthError(error)) throw tooLarge();
    throw error;
  }
}

const tooLarge = (): HtmlTooLargeError =>
  new HtmlTooLargeError('The Markdown renders to', "A reference link repeats its definition's destination and title each time it is used.");

/** Where one render keeps the number of HTML characters written so far. */
const WRITTEN = Symbol('html characters written');

/**
 * Makes `r` render as markdown-it's own renderer does while counting every piece it writes, and stop with
 * {@link HtmlTooLargeError} once the count passes the cap: each piece is counted before it joins the output, so
 * the output never passes the cap, and no more than one token's HTML is made beyond it.
 */
function countWrites(r: Renderer): void {
  type Options = Required<MarkdownItOptions>;
  const piece = (tokens: Token[], i: number, options: Options, env: Env | undefined): string => {
    const rule = r.rules[tokens[i]!.type];
    const html = rule ? rule(tokens, i, options, env, r) : r.renderToken(tokens, i, options);
    const written = ((env?.[WRITTEN] as number | undefined) ?? 0) + html.length;
    if (written > MAX_HTML_LENGTH) throw tooLarge();
    if (env) env[WRITTEN] = written;
    return html;
  };
  r.renderInline = (tokens, options, env) => {
    let html = '';
    for (let i = 0; i < tokens.length; i++) html += piece(tokens, i, options, env);
    return html;
  };
  r.render = (tokens, options, env) => {
    let html = '';
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i]!;
      html += token.type === 'inline' ? r.renderInline(token.children ?? [], options, env) : piece(tokens, i, options, env);
    }
    return html;
  };
}
