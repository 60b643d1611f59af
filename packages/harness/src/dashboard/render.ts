import { isRecord, type InvokeOutcome } from './functions/index.js';
import { HtmlTooLargeError, MAX_HTML_LENGTH, isStringLengthError } from './html-limit.js';
import { MarkdownTooLargeError, renderMarkdown } from './markdown.js';
import type { Finding, FormField, HtmlAnalyzer, WidgetAction } from './ports.js';

/** An error shown in place of a widget's content. */
export interface WidgetError {
  type: string;
  message: string;
}

/**
 * One rendering of a widget's content: the HTML, what produced it, and one parse of it from which the
 * findings, actions and form fields all come.
 */
export interface Rendered {
  readonly html: string;
  readonly raw: unknown;
  readonly error: WidgetError | null;
  readonly findings: Finding[];
  actions(): WidgetAction[];
  formFields(): FormField[];
  formValues(): Record<string, string | string[]>;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What the console shows for a function's return value: a string is HTML, `{ markdown }` is rendered
 * Markdown, anything else is pretty-printed JSON in a `<pre>`. Throws {@link HtmlTooLargeError} when that would
 * be longer than {@link MAX_HTML_LENGTH}, and {@link MarkdownTooLargeError} for too long a Markdown.
 *
 * @example
 * htmlOfValue({ markdown: '**hi**' }); // '<p><strong>hi</strong></p>\n'
 * htmlOfValue([1, 2]); // '<pre>[\n  1,\n  2\n]</pre>'
 */
export function htmlOfValue(value: unknown): string {
  if (typeof value === 'string') {
    if (value.length > MAX_HTML_LENGTH) throw new HtmlTooLargeError('The returned HTML is');
    return value;
  }
  return isRecord(value) && typeof value.markdown === 'string' ? renderMarkdown(value.markdown) : jsonHtml(value);
}

const jsonTooLarge = (): HtmlTooLargeError =>
  new HtmlTooLargeError(
    'The returned value, pretty-printed as JSON, makes',
    'Every nested value is written on a line of its own, indented two spaces a level.',
  );

/** A value as pretty-printed JSON in a `<pre>`, stopped as soon as it is sure to pass the cap. */
function jsonHtml(value: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value === undefined ? null : value, countingReplacer(MAX_HTML_LENGTH - '<pre></pre>'.length), 2);
  } catch (e) {
    if (e instanceof HtmlTooLargeError) throw e;
    if (isStringLengthError(e)) throw jsonTooLarge();
    json = `Cannot show the returned value: ${(e as Error).message}`;
  }
  // The count can fall short for values that did not come from JSON, so the finished HTML is checked too.
  const html = `<pre>${escapeHtml(json ?? 'null')}</pre>`;
  if (html.length > MAX_HTML_LENGTH) throw jsonTooLarge();
  return html;
}

/**
 * A `JSON.stringify` replacer that changes nothing but counts the HTML being written (each value's line,
 * indentation, key, comma, closing bracket and HTML-escaped text) and throws once it passes `limit`:
 * pretty-printing a 4 MB result nested 60 levels deep would write 250 MB of indentation. The count is exact for
 * values parsed from JSON, which function results are; for others it can only fall short (a lone surrogate is
 * written as six characters, counted as one).
 */
function countingReplacer(limit: number): (this: unknown, key: string, value: unknown) => unknown {
  const depths = new WeakMap<object, number>();
  const opened = new WeakSet<object>();
  let written = 0;
  return function (key, value) {
    const holder = this as object;
    const holderDepth = depths.get(holder);
    let depth = 0;
    if (holderDepth !== undefined) {
      // In an object, JSON leaves out undefined, functions and symbols; in an array they are null.
      const inArray = Array.isArray(holder);
      const omitted = value === undefined || typeof value === 'function' || typeof value === 'symbol';
      if (omitted && !inArray) return value;
      depth = holderDepth + 1;
      // The first entry puts the closing bracket on a line of its own; each later one adds a comma.
      if (opened.has(holder)) written += 1;
      else {
        opened.add(holder);
        written += 1 + 2 * holderDepth;
      }
      written += 1 + 2 * depth + (inArray ? 0 : escapedJsonLength(key) + 2);
    }
    written += valueLength(value);
    if (written > limit) throw jsonTooLarge();
    if (typeof value === 'object' && value !== null) {
      depths.set(value, depth);
      opened.delete(value);
    }
    return value;
  };
}

/** How many characters `value` writes as JSON, HTML-escaped (an object or array: its brackets). */
function valueLength(value: unknown): number {
  if (typeof value === 'string') return escapedJsonLength(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (typeof value === 'object' && value !== null) return 2;
  return 4; // null, and what an array shows as null
}

/** How long `s` is as a JSON string, HTML-escaped: `"` becomes `&quot;`, `\"` becomes `\&quot;`, and so on. */
function escapedJsonLength(s: string): number {
  let n = 12; // the two quotes, each &quot;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 34) n += 7;
    else if (c === 38) n += 5;
    else if (c === 60 || c === 62) n += 4;
    else if (c === 92) n += 2;
    else if (c < 32) n += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else n += 1;
  }
  return n;
}

/**
 * Renders HTML once: parses it, lints it, and keeps the parse for actions and forms (computed on first use).
 *
 * @example
 * renderHtml(analyzer, '<p>hi</p>', '<p>hi</p>', null).findings; // []
 */
export function renderHtml<P>(analyzer: HtmlAnalyzer<P>, html: string, raw: unknown, error: WidgetError | null): Rendered {
  const parsed = analyzer.parse(html);
  const findings = analyzer.lint(parsed);
  let actions: WidgetAction[] | undefined;
  let fields: FormField[] | undefined;
  return {
    html,
    raw,
    error,
    findings,
    actions: () => (actions ??= analyzer.extractActions(parsed)),
    formFields: () => (fields ??= analyzer.collectFormFields(parsed)),
    formValues() {
      return analyzer.formValues(this.formFields());
    },
  };
}

/**
 * A widget's HTML as `make` renders it, or the error shown in its place (with empty HTML) when the Markdown or
 * the HTML is past its cap.
 *
 * @example
 * contentOf(() => renderMarkdown('# Hi')); // { html: '<h1>Hi</h1>\n', error: null }
 */
export function contentOf(make: () => string): { html: string; error: WidgetError | null } {
  try {
    return { html: make(), error: null };
  } catch (error) {
    if (!(error instanceof MarkdownTooLargeError || error instanceof HtmlTooLargeError)) throw error;
    return { html: '', error: { type: error.name, message: error.message } };
  }
}

/**
 * Renders a text widget's Markdown: its HTML, or an error with empty HTML when past a cap.
 *
 * @example
 * renderText(analyzer, '# Hi').html; // '<h1>Hi</h1>\n'
 */
export function renderText<P>(analyzer: HtmlAnalyzer<P>, markdown: string): Rendered {
  const { html, error } = contentOf(() => renderMarkdown(markdown));
  return renderHtml(analyzer, html, markdown, error);
}

/**
 * Renders an invocation's outcome: the value's HTML, or an error with empty HTML.
 *
 * @example
 * renderOutcome(analyzer, { ok: false, error: { type: 'Error', message: 'boom' }, logs: '', durationMs: 1, awsRequestId: 'x' }).html; // ''
 */
export function renderOutcome<P>(analyzer: HtmlAnalyzer<P>, outcome: InvokeOutcome): Rendered {
  if (!outcome.ok) {
    const error = outcome.error ?? { type: 'Error', message: 'The function failed without an error document' };
    return renderHtml(analyzer, '', null, { type: error.type, message: error.message });
  }
  const raw = outcome.value === undefined ? null : outcome.value;
  const { html, error } = contentOf(() => htmlOfValue(raw));
  return renderHtml(analyzer, html, raw, error);
}
