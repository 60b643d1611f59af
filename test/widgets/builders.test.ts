import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  callAction,
  checkbox,
  documented,
  html,
  htmlAction,
  markdown,
  radioGroup,
  select,
  textarea,
  textInput,
  type WidgetHandler,
  type LambdaContext,
  type WidgetEvent,
} from '../../packages/trellis/src/widgets/index.js';
import { collectFormFields, extractActions, formValues, lint } from '../../packages/harness/src/lint/index.js';

test('callAction writes a call action whose JSON params the console model reads back exactly', () => {
  const out = html`<button>Stop</button>${callAction({ endpoint: 'stop', params: { id: 'i-1', note: '</cwdb-action><script>x</script> & "q"' }, display: 'popup', confirmation: 'Stop "it"?' })}`;
  const [a] = extractActions(String(out));
  assert.equal(a!.action, 'call');
  assert.equal(a!.endpoint, 'stop');
  assert.equal(a!.display, 'popup');
  assert.equal(a!.confirmation, 'Stop "it"?');
  assert.equal(a!.text, 'Stop');
  assert.deepEqual(a!.params, { id: 'i-1', note: '</cwdb-action><script>x</script> & "q"' });
  assert.deepEqual(lint(String(out)), []);
});

test('any JSON params survive the HTML parser unchanged', () => {
  fc.assert(
    fc.property(fc.jsonValue(), (params) => {
      const [a] = extractActions(String(html`<a>x</a>${callAction({ endpoint: 'f', params })}`));
      assert.deepEqual(a!.params, JSON.parse(JSON.stringify(params)));
    }),
  );
});

test('a call without params has empty content, which the console reads as {}', () => {
  const out = callAction({ endpoint: 'arn:aws:lambda:eu-west-1:111122223333:function:f' });
  assert.equal(out.toString(), '<cwdb-action action="call" endpoint="arn:aws:lambda:eu-west-1:111122223333:function:f"></cwdb-action>');
  assert.deepEqual(extractActions(`<b>x</b>${out}`)[0]!.params, {});
});

test('bad builder input is refused with a clear error', () => {
  assert.throws(() => callAction({ endpoint: '' }), /needs an endpoint/);
  assert.throws(() => callAction({ endpoint: 'f', event: 'mouseenter' as 'click' }), /event must be one of "click", "dblclick"/);
  assert.throws(() => callAction({ endpoint: 'f', params: { n: 1n } }), /JSON-serializable/);
  assert.throws(() => htmlAction({ content: 'x', display: 'modal' as 'popup' }), /display must be one of/);
});

test('htmlAction carries trusted content as is and escapes a plain string', () => {
  const a = htmlAction({ content: html`<p>${'<i>'}</p>`, event: 'mouseenter', display: 'popup' });
  const [x] = extractActions(`<a>Hover</a>${a}`);
  assert.equal(x!.html, '<p>&lt;i&gt;</p>');
  assert.equal(x!.event, 'mouseenter');
  assert.equal(extractActions(`<a>x</a>${htmlAction({ content: '<b>' })}`)[0]!.html, '&lt;b&gt;');
});

test('form builders produce fields the console collects with the intended values', () => {
  const out = html`<form>
    ${textInput('q', { value: 'a "b" <c>', label: 'Query' })}
    ${textarea('note', { value: '\nstarts with a newline' })}
    ${checkbox('live', { checked: true })}${checkbox('tags', { value: 'a', checked: true })}${checkbox('tags', { value: 'b', checked: true })}
    ${radioGroup('period', ['60', { value: '300', label: '5 min' }], { checked: '300' })}
    ${select('region', ['eu-west-1', 'us-east-1'], { selected: 'us-east-1' })}
    ${select('stats', ['avg', 'max', 'min'], { selected: ['avg', 'min'], multiple: true })}
  </form>`;
  assert.deepEqual(formValues(collectFormFields(String(out))), {
    q: 'a "b" <c>',
    note: '\nstarts with a newline',
    live: 'on',
    tags: ['a', 'b'],
    period: '300',
    region: 'us-east-1',
    stats: ['avg', 'min'],
  });
  assert.deepEqual(lint(String(out)), []);
});

test('markdown() and documented() follow the console conventions', async () => {
  assert.deepEqual(markdown('# Hi'), { markdown: '# Hi' });
  const handler = documented('Shows **CPU**.', async (event: WidgetEvent<{ name?: string }>) => html`<p>${event.name}</p>`);
  const context = {} as LambdaContext;
  const noop = () => {};
  const widgetContext = {} as WidgetEvent['widgetContext'];
  const described = handler({ describe: true, widgetContext }, context, noop);
  assert.equal(
    typeof (described as Promise<unknown>)?.then,
    'function',
    'the documentation comes back as a promise, as the Lambda runtime needs',
  );
  assert.equal(await described, 'Shows **CPU**.');
  assert.equal(JSON.stringify(await handler({ name: '<x>', widgetContext }, context, noop)), '"<p>&lt;x&gt;</p>"');
});

test('a widget written with the toolkit is a plain Lambda handler (callback style too)', async () => {
  const handler: WidgetHandler<{ who?: string }> = (event, context, callback) => {
    callback(null, html`<h1>Hello ${event.who ?? context.functionName}</h1>`);
  };
  const result = await new Promise((resolve, reject) => {
    void handler({ widgetContext: {} as WidgetEvent['widgetContext'] }, { functionName: 'greeter' } as LambdaContext, (e, r) => {
      if (e) reject(e instanceof Error ? e : new Error(String(e)));
      else resolve(r);
    });
  });
  // Lambda serializes the result as JSON, which gives the console a string of HTML.
  assert.equal(JSON.parse(JSON.stringify(result)), '<h1>Hello greeter</h1>');
});
