// Hostile input: the linter and the HTML model never throw, never hang, and keep working on huge inputs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { collectFormFields, extractActions, lint, parseWidgetHtml } from '../../packages/harness/src/lint/index.js';

function everything(html: string) {
  const parsed = parseWidgetHtml(html);
  return { findings: lint(parsed), actions: extractActions(parsed), fields: collectFormFields(parsed) };
}

test('100,000 nested elements are walked without overflowing the stack', () => {
  const depth = 100_000;
  const { findings } = everything('<div>'.repeat(depth) + '<p onclick=x>deep</p>' + '<x-y>'.repeat(depth));
  assert.equal(findings.filter((f) => f.rule === 'disallowed-element').length, depth);
  assert.equal(findings.filter((f) => f.rule === 'event-handler').length, 1);
});

test('100,000 nested actions, forms and templates', () => {
  const n = 100_000;
  const r = everything('<a>x</a><cwdb-action>'.repeat(n) + '<select name=s>'.repeat(10) + '<template>'.repeat(n) + '<p onclick=1>');
  assert.equal(r.actions.length, 1, 'nested actions belong to their outer action');
  assert.ok(r.findings.some((f) => f.rule === 'event-handler'));
});

test('a 10 MB document is linted completely', () => {
  const row = '<tr><td class="c">cell</td><td><a href="javascript:x" onclick="y">go</a></td></tr>\n';
  const rows = Math.ceil((10 * 1024 * 1024) / row.length);
  const html = `<table>${row.repeat(rows)}</table>`;
  assert.ok(html.length >= 10 * 1024 * 1024);
  const findings = lint(html);
  assert.equal(findings.length, rows * 2);
  assert.equal(findings.at(-1)!.line, rows);
});

test('100,000 sibling actions are extracted in linear time (no quadratic sibling search)', () => {
  const n = 100_000;
  const actions = extractActions('<b>x</b><cwdb-action>y</cwdb-action>'.repeat(n));
  assert.equal(actions.length, n);
  assert.equal(actions.at(-1)!.index, n - 1);
  assert.equal(actions.at(-1)!.text, 'x');
});

test('actions bound to nested elements read each node once (no quadratic text)', () => {
  const n = 50_000;
  const actions = extractActions('<div>x'.repeat(n) + '</div><cwdb-action>a</cwdb-action>'.repeat(n));
  assert.equal(actions.length, n);
  assert.equal(actions[0]!.text, 'x');
  assert.equal(actions.at(-1)!.text.length, 10_000, 'text content is read up to 10,000 characters');
});

test('unclosed tags, stray end tags and invalid characters never throw', () => {
  const nasty = [
    '<div><span><table><tr><td><select><option>',
    '</div></p></table></html></body>',
    '<a href="javascript:x',
    '<p title="unterminated',
    '<!-- never closed',
    '<![CDATA[ x',
    '<svg><math><svg><math>',
    '\u0000\u0001\uFFFE\uFFFF\uD800\uDC00\uDFFF',
    '<\u0000p on\u0000click=1>',
    '<frameset><frame src=x></frameset>',
    '<body><body onload=x><html onclick=y>',
    '<cwdb-action action="call" endpoint="f">{"a":',
    '<textarea name="t">unclosed',
    '<plaintext><script>',
  ];
  for (const html of nasty) assert.doesNotThrow(() => everything(html), html);
});

test('any string at all: parse, lint, actions and forms never throw and positions stay inside the input', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (html) => {
      const { findings } = everything(html);
      const lines = html.split(/\r\n|\r|\n/).length;
      for (const f of findings) {
        assert.ok(f.line >= 1 && f.line <= lines, `line ${f.line} of ${lines}`);
        assert.ok(f.column >= 1);
      }
    }),
    { numRuns: 500 },
  );
});
