// Markdown that used to take time growing with the square of its length (or overflow the stack) renders in
// linear time through the HTTP API, and Markdown beyond the render cap is refused with the limit named.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_MARKDOWN_LENGTH } from '../../packages/harness/src/dashboard/index.js';
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
