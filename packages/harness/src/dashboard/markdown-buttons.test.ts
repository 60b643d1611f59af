// Markdown as the console renders it in text widgets: button links become buttons.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { renderMarkdown } from './markdown.js';

describe('Markdown button links', () => {
  it('renders [button:primary:…] as a primary button and [button:…] as a button', () => {
    assert.equal(
      renderMarkdown('[button:primary:Go](https://example.com/a?b=1&c=2)'),
      '<p><a class="btn btn-primary" href="https://example.com/a?b=1&amp;c=2">Go</a></p>\n',
    );
    assert.equal(
      renderMarkdown('[button:Runbook *now*](https://example.com "The runbook")'),
      '<p><a class="btn" href="https://example.com" title="The runbook">Runbook <em>now</em></a></p>\n',
    );
  });

  it('leaves other links as links', () => {
    assert.equal(
      renderMarkdown('[buttons](https://example.com) [x:button:y](z)'),
      '<p><a href="https://example.com">buttons</a> <a href="z">x:button:y</a></p>\n',
    );
  });

  it('never lets a label or a URL out of its attribute or element', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme-ascii' }).filter((s) => !/[[\]()\\`<>*_~&!]/.test(s) && s.trim() !== ''),
        fc.webUrl().filter((u) => !/[()<>\s]/.test(u)),
        (label, url) => {
          const html = renderMarkdown(`[button:primary:${label}](${url})`);
          assert.match(html, /^<p><a class="btn btn-primary" href="[^"<>]*">[^<]*<\/a><\/p>\n$/);
        },
      ),
    );
  });
});
