// The element names the well-formed parser (well-formed.ts) treats specially, one set per tree-construction rule.

/** HTML elements that never have content or an end tag. */
export const VOID = new Set([
  'area',
  'base',
  'basefont',
  'bgsound',
  'br',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

/** Elements whose content is raw text up to their end tag (script data without escapes is the same). */
export const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed']);

/** Elements whose content is text with character references up to their end tag. */
export const ESCAPABLE_RAW_TEXT = new Set(['textarea', 'title']);

/** A newline straight after these start tags is dropped. */
export const SKIPS_FIRST_NEWLINE = new Set(['pre', 'listing', 'textarea']);

/**
 * Start tags whose tree-construction rules repair, move, merge or drop something. The well-formed parser never
 * takes them; parse5 does.
 */
export const NOT_SIMPLE = new Set([
  'html',
  'head',
  'body',
  'frameset',
  'frame',
  'template',
  'plaintext',
  'image',
  'math',
  'noframes',
  'rb',
  'rp',
  'rt',
  'rtc',
  'keygen',
  'menuitem',
  'isindex',
  'col',
  'colgroup',
  'caption',
  'tbody',
  'thead',
  'tfoot',
  'tr',
  'td',
  'th',
]);

/**
 * Start tags known not to close an open `<p>` (custom elements, whose names hold a hyphen, don't either). Any
 * other start tag while a `<p>` is open leaves the simple subset. `<table>` is one: widget HTML is parsed in a
 * quirks-mode document, where a table nests in a paragraph.
 */
export const KEEPS_P_OPEN = new Set([
  'a',
  'abbr',
  'acronym',
  'b',
  'bdi',
  'bdo',
  'big',
  'br',
  'button',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'embed',
  'font',
  'i',
  'iframe',
  'img',
  'input',
  'kbd',
  'label',
  'mark',
  'nobr',
  'noscript',
  'object',
  'output',
  'q',
  's',
  'samp',
  'script',
  'select',
  'small',
  'span',
  'strike',
  'strong',
  'style',
  'sub',
  'sup',
  'svg',
  'table',
  'textarea',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);

/** Start tags that close an open `<p>` (when it is in button scope; the parser only closes the current one). */
export const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'header',
  'hgroup',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'search',
  'section',
  'summary',
  'ul',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'pre',
  'listing',
  'form',
  'li',
  'dd',
  'dt',
  'hr',
  'xmp',
]);

export const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

export const TABLE_SECTIONS = new Set(['tbody', 'thead', 'tfoot']);
