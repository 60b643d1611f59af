import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { html, trusted, escapeHtml, SafeHtml } from '../../packages/trellis/src/widgets/index.js';
import { lint, parseWidgetHtml } from '../../packages/harness/src/lint/index.js';

type El = { tagName?: string; attrs?: Array<{ name: string; value: string }>; childNodes?: El[]; value?: string; nodeName?: string };
const elementsOf = (h: SafeHtml | string): El[] => {
  const out: El[] = [];
  const stack = [...(parseWidgetHtml(String(h)).root.childNodes as El[])].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.tagName) out.push(n);
    stack.push(...[...(n.childNodes ?? [])].reverse());
  }
  return out;
};
const textOf = (h: SafeHtml | string): string => {
  const parts: string[] = [];
  const stack = [...(parseWidgetHtml(String(h)).root.childNodes as El[])].reverse();
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeName === '#text') parts.push(n.value!);
    stack.push(...[...(n.childNodes ?? [])].reverse());
  }
  return parts.join('');
};

test('text interpolations are escaped: data never becomes markup', () => {
  const evil = '<img src=x onerror=alert(1)><script>x</script>';
  const out = html`<p>${evil}</p>`;
  assert.equal(out.toString(), '<p>&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;x&lt;/script&gt;</p>');
  assert.deepEqual(
    elementsOf(out).map((e) => e.tagName),
    ['p'],
  );
});

test('quoted and unquoted attribute values are escaped; an unquoted value is quoted', () => {
  const v = '" onclick="alert(1)';
  assert.equal(html`<p title="${v}">x</p>`.toString(), '<p title="&quot; onclick=&quot;alert(1)">x</p>');
  assert.equal(html`<p title='${"' onclick='x"}'>x</p>`.toString(), "<p title='&#39; onclick=&#39;x'>x</p>");
  const unquoted = html`<p title=${'a b onclick=x'} class=c>x</p>`;
  assert.equal(unquoted.toString(), '<p title="a b onclick=x" class=c>x</p>');
  const [p] = elementsOf(unquoted);
  assert.deepEqual(
    p!.attrs!.map((a) => [a.name, a.value]),
    [
      ['title', 'a b onclick=x'],
      ['class', 'c'],
    ],
  );
  assert.equal(html`<p title=x${' onclick=1'}>x</p>`.toString(), '<p title=x&#32;onclick&#61;1>x</p>');
});

test('script URLs in URL attributes are blocked, however they are written', () => {
  for (const url of ['javascript:alert(1)', ' JavaScript:x', 'java\tscript:x', 'vbscript:x']) {
    const out = html`<a href="${url}">a</a>`;
    assert.equal(out.toString(), '<a href="#blocked">a</a>', url);
    assert.deepEqual(lint(String(out)), []);
  }
  assert.equal(html`<a href=${'https://x.example/?a=1&b=2'}>a</a>`.toString(), '<a href="https://x.example/?a=1&amp;b=2">a</a>');
  assert.equal(html`<p title="${'javascript:x'}">t</p>`.toString(), '<p title="javascript:x">t</p>');
});

test('values in attribute-name position are refused with a clear error', () => {
  assert.throws(() => html`<p ${'onclick=alert(1)'}>x</p>`, /inside a tag must be an attribute value/);
  assert.equal(html`<p ${trusted('hidden')}>x</p>`.toString(), '<p hidden>x</p>');
});

test('trusted HTML and nested templates are inserted as is; arrays are joined; null, undefined and false insert nothing', () => {
  const rows = ['a', '<b>'].map((x) => html`<li>${x}</li>`);
  assert.equal(html`<ul>${rows}</ul>`.toString(), '<ul><li>a</li><li>&lt;b&gt;</li></ul>');
  assert.equal(html`<div>${trusted('<b>ok</b>')}</div>`.toString(), '<div><b>ok</b></div>');
  assert.equal(html`<p>${null}${undefined}${false}${0}</p>`.toString(), '<p>0</p>');
  assert.equal(html`<p title="${html`<b>`}">x</p>`.toString(), '<p title="&lt;b&gt;">x</p>');
});

test('comments cannot be closed early by data', () => {
  const out = html`<!-- ${'--><script>x</script>'} --><p>after</p>`;
  assert.deepEqual(
    elementsOf(out).map((e) => e.tagName),
    ['p'],
  );
});

test('SafeHtml serializes to its string, so a handler can return it through Lambda', () => {
  const out = html`<p>${'x'}</p>`;
  assert.equal(JSON.stringify(out), '"<p>x</p>"');
  assert.equal(`${out}`, '<p>x</p>');
  assert.equal(escapeHtml(`<&>"'\``), '&lt;&amp;&gt;&quot;&#39;&#96;');
});

test('any string interpolated as text or attribute reads back exactly and adds no element or attribute', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme-composite' }), fc.string(), (text, attr) => {
      const out = html`<p title="${attr}" class=${attr}>${text}</p>`;
      const els = elementsOf(out);
      assert.equal(els.length, 1);
      const clean = (s: string) => s.replace(/\r\n?/g, '\n').replaceAll('\u0000', '\uFFFD');
      assert.deepEqual(
        els[0]!.attrs!.map((a) => a.name),
        ['title', 'class'],
      );
      assert.equal(els[0]!.attrs![0]!.value, clean(attr));
      assert.equal(els[0]!.attrs![1]!.value, clean(attr));
      assert.equal(textOf(out), text.replace(/\r\n?/g, '\n').replaceAll('\u0000', ''));
    }),
  );
});
