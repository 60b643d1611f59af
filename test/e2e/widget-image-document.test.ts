// A widget image draws the document the harness page puts in the widget's frame: the image's builder (parse5, in
// Node.js, so the browser that draws it runs no script) gives the same document as the page's sanitize.js (the
// browser's DOMParser, here jsdom's) for the example's widgets and for HTML full of what the console strips; the
// image adds only its stillness (no animations, transitions or caret).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { createInterpreter, loadFunctionsFile, type Interpreter } from '../../packages/harness/src/dashboard/index.js';
import { STILL_CSS, consoleWidgetCss, widgetDocument } from '../../packages/harness/src/snapshot/widget-document.js';

const ASSETS = fileURLToPath(new URL('../../packages/harness/src/harness/web/assets/', import.meta.url));
const EXAMPLES = fileURLToPath(new URL('../../packages/harness/examples/', import.meta.url));

type PageWidgetDocument = (html: string, options: { theme: 'light' | 'dark'; defaultCss: string; fill?: boolean }) => string;

const HOSTILE = [
  '<p onclick="go()">Click</p><a href="javascript:void(0)">x</a><a href=" java\tscript:alert(1)">y</a><iframe src="https://x"></iframe>',
  '<script>fetch("/x")</script><noscript><p>no</p></noscript><img src=x onerror=alert(1)><svg><use href="#a"/><a xlink:href="vbscript:x">v</a></svg>',
  '<template><script>x()</script><b onmouseover="y()">t</b></template><object data="x.swf"></object><embed src="y"><base href="https://evil/">',
  '<meta http-equiv="refresh" content="0;url=https://evil/"><link rel="stylesheet" href="https://evil/s.css"><form action="javascript:x()"><button formaction="javascript:y()">b</button></form>',
  '<div class="cwdb-no-default-styles"><table><tr><td>raw</td></tr></table></div>',
  '<html class="mine"><head><style>p{color:red}</style></head><body><p>own head</p></body></html>',
  '<iframe srcdoc="<script>x()</script>"></iframe><div srcdoc="x" data-x="1">kept</div><frameset><frame src="a"></frameset>',
];

describe("a widget image's document is the page's", () => {
  let pageWidgetDocument: PageWidgetDocument;
  let interpreter: Interpreter;
  let dom: JSDOM;

  before(async () => {
    dom = new JSDOM('<!doctype html><html><body></body></html>');
    (globalThis as { DOMParser?: unknown }).DOMParser = dom.window.DOMParser;
    ({ widgetDocument: pageWidgetDocument } = (await import(pathToFileURL(join(ASSETS, 'sanitize.js')).href)) as {
      widgetDocument: PageWidgetDocument;
    });
    interpreter = createInterpreter({
      functions: await loadFunctionsFile(join(EXAMPLES, 'functions.json')),
      clock: () => Date.UTC(2025, 0, 1),
    });
  });

  after(async () => {
    delete (globalThis as { DOMParser?: unknown }).DOMParser;
    dom.window.close();
    await interpreter.close();
  });

  it('reads the default styles from the page', () => {
    assert.equal(consoleWidgetCss(), readFileSync(join(ASSETS, 'widget.css'), 'utf8'));
  });

  it("for every custom widget of the bundled example and for hostile HTML, in both themes, as the page's sanitize.js makes it", async () => {
    const dashboard = await interpreter.load(readFileSync(join(EXAMPLES, 'dashboard.json'), 'utf8'));
    const examples: string[] = [];
    for (const w of dashboard.widgets().filter((s) => s.type === 'custom')) examples.push((await dashboard.readWidget(w.widgetId)).html);
    assert.equal(examples.length, 11);
    const defaultCss = consoleWidgetCss();
    for (const html of [...examples, ...HOSTILE]) {
      for (const theme of ['light', 'dark'] as const) {
        const page = pageWidgetDocument(html, { theme, defaultCss });
        assert.equal(widgetDocument(html, { theme, still: false }), page, html.slice(0, 80));
      }
    }
  });

  it('adds only its stillness: no animations, transitions or caret, and no SVG animation elements', () => {
    const html =
      '<svg><circle r="4"><animate attributeName="r" from="4" to="9" dur="1s" repeatCount="indefinite"/></circle><set attributeName="x" to="2"/></svg><p style="animation: spin 1s infinite">x</p>';
    const still = widgetDocument(html, { theme: 'light' });
    assert.ok(still.endsWith(`<style>${STILL_CSS}</style></body></html>`));
    assert.doesNotMatch(still, /<animate|<set/);
    assert.equal(
      still.replace(`<style>${STILL_CSS}</style>`, ''),
      widgetDocument(html.replace(/<animate[^>]*\/>|<set[^>]*\/>/g, ''), { theme: 'light', still: false }),
    );
  });
});
