// Parsing a widget's HTML once, as body content, with source locations that point into the input.
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { parseBodyFragment } from './body-fragment.js';
import { parseWellFormed } from './well-formed.js';

/**
 * A widget's HTML parsed once: a parse5 document fragment whose children are the widget's nodes, with
 * `sourceCodeLocation` on every node (lines and columns 1-based, offsets 0-based into `source`).
 * Pass it to `lint`, `extractActions` and `collectFormFields` so the input is parsed only once.
 */
export interface ParsedWidgetHtml {
  readonly source: string;
  /** The widget's nodes, parsed as the content of a `<body>` element (template content under `content`). */
  readonly root: T.DocumentFragment;
}

/**
 * Parses widget HTML as body content, the way DOMPurify's FORCE_BODY does: a leading `<style>` or
 * `<script>` stays in the content rather than moving to a `<head>`, and the parser's repairs are those of the
 * console's doctype-less document (`<p><table>` nests; a comment after `</body>` is not content). Never
 * throws: any string is some HTML.
 *
 * @example
 * const parsed = parseWidgetHtml('<button>Go</button><cwdb-action>…</cwdb-action>');
 * lint(parsed); extractActions(parsed); collectFormFields(parsed);
 */
export function parseWidgetHtml(html: string): ParsedWidgetHtml {
  const source = typeof html === 'string' ? html : String(html ?? '');
  // Most widget HTML is well formed and takes the fast path; the tree is the same either way.
  const root = parseWellFormed(source) ?? parseBodyFragment(source);
  return { source, root };
}

/** A parsed widget as is; anything else is read as HTML text (so a stray `undefined` does not throw). */
export function asParsed(input: string | ParsedWidgetHtml): ParsedWidgetHtml {
  if (typeof input === 'object' && input !== null && typeof input.source === 'string' && input.root?.childNodes) return input;
  return parseWidgetHtml(typeof input === 'string' ? input : String(input ?? ''));
}
