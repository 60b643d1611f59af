// The console's Markdown button links: `[button:Label](url)` renders as a button and
// `[button:primary:Label](url)` as a primary button (links with the classes `btn` / `btn btn-primary`).
import type { MarkedExtension, Tokens } from 'marked';

const PREFIX = /^button:(?:(primary):)?/;

const escapeAttribute = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

type ButtonLink = Tokens.Link & { buttonClass?: string };

/**
 * A marked extension for button links.
 *
 * @example
 * new Marked(buttonLinks).parse('[button:primary:Open](https://example.com)');
 * // '<p><a class="btn btn-primary" href="https://example.com">Open</a></p>\n'
 */
export const buttonLinks: MarkedExtension = {
  walkTokens(token) {
    if (token.type !== 'link') return;
    const link = token as ButtonLink;
    const first = link.tokens[0];
    const m = first?.type === 'text' ? PREFIX.exec((first as Tokens.Text).text) : null;
    if (!m || !first) return;
    link.buttonClass = m[1] ? 'btn btn-primary' : 'btn';
    const text = first as Tokens.Text;
    text.text = text.text.slice(m[0].length);
    text.raw = text.raw.slice(m[0].length);
    link.text = link.text.slice(m[0].length);
  },
  renderer: {
    link(token) {
      const cls = (token as ButtonLink).buttonClass;
      if (!cls) return false;
      const title = token.title ? ` title="${escapeAttribute(token.title)}"` : '';
      return `<a class="${cls}" href="${escapeAttribute(token.href)}"${title}>${this.parser.parseInline(token.tokens)}</a>`;
    },
  },
};
