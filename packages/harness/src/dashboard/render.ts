import { MarkdownTooLargeError, renderMarkdown } from './markdown.js';
import type { Finding, FormField, HtmlAnalyzer, InvokeOutcome, WidgetAction } from './ports.js';

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

export { renderMarkdown };

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * What the console shows for a function's return value: a string is HTML, `{ markdown }` is rendered
 * Markdown, anything else is pretty-printed JSON in a `<pre>`.
 *
 * @example
 * htmlOfValue({ markdown: '**hi**' }); // '<p><strong>hi</strong></p>\n'
 * htmlOfValue([1, 2]); // '<pre>[\n  1,\n  2\n]</pre>'
 */
export function htmlOfValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const md = (value as Record<string, unknown>).markdown;
    if (typeof md === 'string') return renderMarkdown(md);
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(value === undefined ? null : value, null, 2);
  } catch (e) {
    json = `Cannot show the returned value: ${(e as Error).message}`;
  }
  return `<pre>${escapeHtml(json ?? 'null')}</pre>`;
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
  let html: string;
  try {
    html = htmlOfValue(raw);
  } catch (error) {
    if (!(error instanceof MarkdownTooLargeError)) throw error;
    return renderHtml(analyzer, '', raw, { type: error.name, message: error.message });
  }
  return renderHtml(analyzer, html, raw, null);
}
