// Markdown that used to take time growing with the square of its length (or overflow the stack) renders in
// linear time through the HTTP API, Markdown beyond the render cap is refused with the limit named, and HTML
// that rendering would multiply past the widget HTML cap stops there as the widget's error.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { MAX_MARKDOWN_LENGTH, htmlOfValue } from '../../packages/harness/src/dashboard/index.js';
import { HtmlTooLargeError, MAX_HTML_LENGTH } from '../../packages/harness/src/dashboard/html-limit.js';
import { createHarnessApp } from '../../packages/harness/src/harness/index.js';

const JSON_TYPE = { 'content-type': 'application/json' };
// Bounded: the quadratic renderer took minutes on these inputs; the linear one takes well under a second.
const BOUNDED = { timeout: 30_000 };

function harnessReturning(value: unknown) {
  return createHarnessApp({ functions: { functions: { md: { handler: () => value } } }, web: false });
}

async function load(app: ReturnType<typeof harnessReturning>['app'], widget: object) {
  const res = await app.inject({
    method: 'POST',
    url: '/api/dashboards',
    headers: JSON_TYPE,
    body: JSON.stringify(JSON.stringify({ widgets: [widget] })),
  });
  return res;
}

async function readText(markdown: string) {
  const { app, harness } = harnessReturning(null);
  try {
    const created = await load(app, { type: 'text', properties: { markdown } });
    assert.equal(created.statusCode, 201, created.body.slice(0, 300));
    return await app.inject({ url: `/api/dashboards/${created.json().id}/widgets/0` });
  } finally {
    await harness.close();
  }
}

async function readCustom(value: unknown, path = '') {
  const { app, harness } = harnessReturning(value);
  try {
    const created = await load(app, { type: 'custom', properties: { endpoint: 'md' } });
    return await app.inject({ url: `/api/dashboards/${created.json().id}/widgets/0${path}` });
  } finally {
    await harness.close();
  }
}

describe('markdown rendering cannot stall the harness', () => {
  it('renders a text widget of "_a" repeated 100,000 times', BOUNDED, async () => {
    const res = await readText('_a'.repeat(100_000));
    assert.equal(res.statusCode, 200);
    const widget = res.json();
    assert.equal(widget.error, null);
    assert.ok(widget.html.startsWith('<p>_a_a'));
  });

  it('renders { markdown } of 100,000 stars, "a", 100,000 stars (once 40 s and a 500)', BOUNDED, async () => {
    const res = await readCustom({ markdown: `${'*'.repeat(100_000)}a${'*'.repeat(100_000)}` });
    assert.equal(res.statusCode, 200);
    const widget = res.json();
    assert.equal(widget.error, null);
    assert.ok(widget.html.length > 200_000);
  });

  it('renders a text widget of "> " repeated 5,000 times (once a 500: the stack overflowed)', BOUNDED, async () => {
    const res = await readText('> '.repeat(5000));
    assert.equal(res.statusCode, 200);
    assert.match(res.json().html, /^<blockquote>/);
  });

  it('refuses a text widget longer than the cap at load, naming the limit', async () => {
    const { app, harness } = harnessReturning(null);
    try {
      const res = await load(app, { type: 'text', properties: { markdown: '_a'.repeat(200_000) } });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.json().validationMessages, [
        {
          dataPath: '/widgets/0/properties/markdown',
          message: `The Markdown is 400000 characters long; at most ${MAX_MARKDOWN_LENGTH} are rendered.`,
        },
      ]);
      assert.deepEqual((await app.inject({ url: '/api/dashboards' })).json(), []);
    } finally {
      await harness.close();
    }
  });

  it('shows { markdown } longer than the cap as the widget error, and so does describe', async () => {
    const long = { markdown: 'x'.repeat(MAX_MARKDOWN_LENGTH + 1) };
    const widget = (await readCustom(long)).json();
    assert.equal(widget.html, '');
    assert.deepEqual(widget.error, {
      type: 'MarkdownTooLarge',
      message: `The Markdown is ${MAX_MARKDOWN_LENGTH + 1} characters long; at most ${MAX_MARKDOWN_LENGTH} are rendered.`,
    });
    const described = await readCustom(long, '/describe');
    assert.equal(described.statusCode, 200);
    assert.equal(described.json().error.type, 'MarkdownTooLarge');
  });

  it('still renders what the console shows: tables, strikethrough, links, raw HTML', async () => {
    const res = await readText(
      '| Metric | Value |\n|:--|--:|\n| p99 | **12** ms |\n| errors | ~~3~~ 0 |\n\nSee https://aws.amazon.com <b>now</b>',
    );
    const html: string = res.json().html;
    assert.match(html, /<table>\n<thead>\n<tr>\n<th style="text-align:left">Metric<\/th>\n<th style="text-align:right">Value<\/th>/);
    assert.match(html, /<td style="text-align:right"><strong>12<\/strong> ms<\/td>/);
    assert.match(html, /<s>3<\/s> 0/);
    assert.match(html, /<a href="https:\/\/aws\.amazon\.com">https:\/\/aws\.amazon\.com<\/a> <b>now<\/b>/);
  });
});

// A collection before measuring, so that the heap measured is what the read adds.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/** One 30,000-character reference definition, then `uses` uses of it: 5 characters of Markdown per 30 KB of HTML. */
const referenceFlood = (uses: number): string => `[a]: http://x/${'y'.repeat(30_000)}\n\n${'[a] '.repeat(uses)}`;

function assertHtmlTooLarge(widget: { html: string; error: { type: string; message: string } | null }, lead: string) {
  assert.equal(widget.html, '');
  assert.equal(widget.error?.type, 'HtmlTooLarge');
  assert.equal(
    widget.error?.message.startsWith(`${lead} more than ${MAX_HTML_LENGTH} characters of HTML, the most a widget shows`),
    true,
    widget.error?.message,
  );
}

describe('rendered HTML stops at the widget HTML cap', () => {
  it(
    'a 54 KB dashboard whose Markdown once rendered to 180 MB reads as a small widget error, the heap growing by under 64 MiB',
    BOUNDED,
    async () => {
      const { app, harness } = harnessReturning(null);
      try {
        const created = await load(app, { type: 'text', properties: { markdown: referenceFlood(6000) } });
        assert.equal(created.statusCode, 201);
        collect();
        const before = process.memoryUsage().heapUsed;
        const res = await app.inject({ url: `/api/dashboards/${created.json().id}/widgets/0` });
        const grown = process.memoryUsage().heapUsed - before;
        assert.equal(res.statusCode, 200);
        assert.ok(res.body.length < 100_000, `the answer is ${res.body.length} characters`);
        assert.ok(grown < 64 * 2 ** 20, `the heap grew by ${grown} bytes`);
        assertHtmlTooLarge(res.json(), 'The Markdown renders to');
      } finally {
        await harness.close();
      }
    },
  );

  it('a 108 KB dashboard whose Markdown once made markdown-it throw (a 500) reads as the widget error', BOUNDED, async () => {
    const res = await readText(referenceFlood(18_000));
    assert.equal(res.statusCode, 200);
    assertHtmlTooLarge(res.json(), 'The Markdown renders to');
  });

  it('a { markdown } result and a function description stop at the cap too', BOUNDED, async () => {
    const value = { markdown: referenceFlood(18_000) };
    const read = await readCustom(value);
    assert.equal(read.statusCode, 200);
    assertHtmlTooLarge(read.json(), 'The Markdown renders to');
    const described = await readCustom(value, '/describe');
    assert.equal(described.statusCode, 200);
    assertHtmlTooLarge(described.json(), 'The Markdown renders to');
  });

  it('a JSON result that pretty-printing would indent past the cap is the widget error', BOUNDED, async () => {
    // 4 MB of JSON, within Lambda's response limit; nested 60 deep, each zero gets a line of 120 spaces.
    let value: unknown = new Array(2_000_000).fill(0);
    for (let i = 0; i < 60; i++) value = [value];
    const res = await readCustom(value);
    assert.equal(res.statusCode, 200);
    assertHtmlTooLarge(res.json(), 'The returned value, pretty-printed as JSON, makes');
  });

  it('HTML under the cap renders whole: a reference used 150 times, a JSON result of 25,000 rows', BOUNDED, async () => {
    const links: string = (await readText(referenceFlood(150))).json().html;
    assert.equal(links.match(/<a href="http:\/\/x\/y{30000}">a<\/a>/g)?.length, 150);
    assert.ok(links.length > 4_500_000 && links.length < MAX_HTML_LENGTH);
    const rows = { rows: Array.from({ length: 25_000 }, (_, i) => ({ i, name: `row <${i}> & "more"` })) };
    const pre = (await readCustom(rows)).json();
    assert.equal(pre.error, null);
    const escaped = JSON.stringify(rows, null, 2)
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;');
    assert.equal(pre.html, `<pre>${escaped}</pre>`);
  });

  it('the cap is exact: HTML of MAX_HTML_LENGTH characters is shown, one more is not', () => {
    const around = htmlOfValue({ text: '' }).length; // '<pre>{\n  &quot;text&quot;: &quot;&quot;\n}</pre>'
    assert.equal(htmlOfValue({ text: 'x'.repeat(MAX_HTML_LENGTH - around) }).length, MAX_HTML_LENGTH);
    assert.throws(() => htmlOfValue({ text: 'x'.repeat(MAX_HTML_LENGTH - around + 1) }), HtmlTooLargeError);
    assert.equal(htmlOfValue('h'.repeat(MAX_HTML_LENGTH)).length, MAX_HTML_LENGTH);
    assert.throws(() => htmlOfValue('h'.repeat(MAX_HTML_LENGTH + 1)), HtmlTooLargeError);
  });
});
