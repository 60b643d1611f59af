// parse5's fragment parsing set up as the console's sanitizer parses: widget HTML as the content of a <body>
// in a quirks-mode document (it parses a string without a doctype).
import { defaultTreeAdapter, html, parseFragment } from 'parse5';
import type { DefaultTreeAdapterMap, DefaultTreeAdapterTypes as T, TreeAdapter } from 'parse5';
import { HTML_NS } from './tree.js';

const BODY = defaultTreeAdapter.createElement('body', HTML_NS as T.Element['namespaceURI'], []);

/**
 * The default tree, in a quirks-mode document. parse5 asks for the mode only at a `<table>` start tag: only
 * outside quirks mode does a `<table>` close an open `<p>`, so `<p><table>` nests here as in the console.
 */
const QUIRKS_TREE: TreeAdapter<DefaultTreeAdapterMap> = {
  ...defaultTreeAdapter,
  getDocumentMode: () => html.DOCUMENT_MODE.QUIRKS,
};

/** `source` parsed by parse5 as body content of a quirks-mode document, with source locations. */
export function parseBodyFragment(source: string): T.DocumentFragment {
  return parseFragment(BODY, source, { sourceCodeLocationInfo: true, scriptingEnabled: false, treeAdapter: QUIRKS_TREE });
}
