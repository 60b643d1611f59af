import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractActions, lint, parseWidgetHtml } from './index.js';

test('an action gets its defaults, index, position and the bound element text', () => {
  const [a] = extractActions('<p>intro</p>\n<button>  Show\n  details </button><cwdb-action><b>More</b></cwdb-action>');
  assert.deepEqual(a, {
    index: 0,
    text: 'Show details',
    action: 'html',
    display: 'widget',
    event: 'click',
    confirmation: null,
    html: '<b>More</b>',
    bound: true,
    target: { element: 'button', line: 2, column: 1 },
    problems: [],
    line: 3,
    column: 20,
  });
});

test('call actions carry endpoint and JSON params, decoded from escaped content; empty content is {}', () => {
  const [a, b] = extractActions(
    '<a>One</a><cwdb-action action="call" endpoint="fn" display="popup" confirmation="Sure?">{"q":"&lt;b&gt; &amp; \\"x\\""}</cwdb-action>' +
      '<a>Two</a><cwdb-action action="call" endpoint="arn:aws:lambda:eu-west-1:111122223333:function:f">  </cwdb-action>',
  );
  assert.equal(a!.endpoint, 'fn');
  assert.deepEqual(a!.params, { q: '<b> & "x"' });
  assert.equal(a!.display, 'popup');
  assert.equal(a!.confirmation, 'Sure?');
  assert.deepEqual(b!.params, {});
  assert.equal(b!.index, 1);
});

test('actions bind to the previous element sibling, skipping text and comments', () => {
  const [a] = extractActions('<span>Go</span> text <!-- c --> <cwdb-action>x</cwdb-action>');
  assert.equal(a!.text, 'Go');
  assert.equal(a!.bound, true);
});

test('an action with no previous element is unbound and reported', () => {
  const [a] = extractActions('text only <cwdb-action>x</cwdb-action>');
  assert.equal(a!.bound, false);
  assert.equal(a!.text, '');
  assert.equal(a!.problems.length, 1);
  assert.deepEqual(
    lint('text <cwdb-action>x</cwdb-action>').map((f) => [f.rule, f.severity, f.column]),
    [['action-unbound', 'error', 6]],
  );
});

test('malformed actions: missing endpoint, bad JSON, mouseenter with call, unknown values', () => {
  const html =
    '<a>1</a><cwdb-action action="call">{"a":1}</cwdb-action>' +
    '<a>2</a><cwdb-action action="call" endpoint="f">{not json}</cwdb-action>' +
    '<a>3</a><cwdb-action action="call" endpoint="f" event="mouseenter"></cwdb-action>' +
    '<a>4</a><cwdb-action action="CALL" display="modal" event="hover"></cwdb-action>';
  const rules = lint(html).map((f) => `${f.rule}${f.attribute ? ` ${f.attribute}` : ''}`);
  assert.deepEqual(rules, [
    'action-missing-endpoint',
    'action-invalid-params',
    'action-mouseenter-call',
    'action-invalid-value action',
    'action-invalid-value display',
    'action-invalid-value event',
  ]);
  const actions = extractActions(html);
  assert.equal(actions[1]!.params, undefined);
  assert.deepEqual([actions[3]!.action, actions[3]!.display, actions[3]!.event], ['html', 'widget', 'click']);
  assert.equal(actions[3]!.problems.length, 3);
});

test('text ignores script, style and nested action content; input buttons use their value; then aria-label, then title', () => {
  const texts = extractActions(
    '<div>Save<script>x</script><style>p{}</style><cwdb-action>inner</cwdb-action></div><cwdb-action>a</cwdb-action>' +
      '<input type="submit" value=" Send  now "><cwdb-action>b</cwdb-action>' +
      '<button aria-label="Close dialog"><svg></svg></button><cwdb-action>c</cwdb-action>' +
      '<span title="Hint"></span><cwdb-action>d</cwdb-action>',
  ).map((a) => a.text);
  // The action inside the div is an action too; it binds to the <style> before it, which shows no text.
  assert.deepEqual(texts, ['', 'Save', 'Send now', 'Close dialog', 'Hint']);
});

test('actions inside another action or inside a template are not listed', () => {
  const actions = extractActions(
    '<a>x</a><cwdb-action><b>y</b><cwdb-action>z</cwdb-action></cwdb-action><template><a>t</a><cwdb-action>t</cwdb-action></template>',
  );
  assert.equal(actions.length, 1);
  assert.equal(actions[0]!.html, '<b>y</b><cwdb-action>z</cwdb-action>');
});

test('extractActions accepts a parsed document', () => {
  const parsed = parseWidgetHtml('<a>x</a><cwdb-action>y</cwdb-action>');
  assert.deepEqual(extractActions(parsed), extractActions(parsed.source));
});

test('any JSON value written as escaped content comes back as params', () => {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  fc.assert(
    fc.property(fc.jsonValue(), (value) => {
      const json = JSON.stringify(value);
      const [a] = extractActions(`<a>x</a><cwdb-action action="call" endpoint="f">${escape(json)}</cwdb-action>`);
      assert.deepEqual(a!.params, JSON.parse(json));
    }),
  );
});
