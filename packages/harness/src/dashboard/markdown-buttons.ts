// The console's Markdown button links: `[button:Label](url)` renders as a button and
// `[button:primary:Label](url)` as a primary button (links with the classes `btn` / `btn btn-primary`).
import type { MarkdownIt, StateCore } from 'markdown-it';

const PREFIX = /^button:(?:(primary):)?/;

/**
 * A markdown-it plugin for button links: a link whose text starts with `button:` loses that prefix and gets
 * the console's button classes.
 *
 * @example
 * new MarkdownIt().use(buttonLinks).render('[button:primary:Open](https://example.com)');
 * // '<p><a class="btn btn-primary" href="https://example.com">Open</a></p>\n'
 */
export function buttonLinks(md: MarkdownIt): void {
  md.core.ruler.push('button_links', (state: StateCore) => {
    for (const block of state.tokens) {
      const children = block.type === 'inline' ? block.children : null;
      if (!children) continue;
      for (let i = 0; i + 1 < children.length; i++) {
        const open = children[i]!;
        const first = children[i + 1]!;
        if (open.type !== 'link_open' || first.type !== 'text') continue;
        const m = PREFIX.exec(first.content);
        if (!m) continue;
        first.content = first.content.slice(m[0].length);
        open.attrs = [['class', m[1] ? 'btn btn-primary' : 'btn'], ...(open.attrs ?? [])];
      }
    }
  });
}
