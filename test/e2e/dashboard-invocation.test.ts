import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createInterpreter } from '../../packages/harness/src/dashboard/index.js';
import { arn, fakeClock, inProcessFunctions, type Handler } from '../fixtures/dashboards/in-process-functions.js';

function setup(handlers: Record<string, Handler>) {
  const functions = inProcessFunctions(handlers);
  const harness = createInterpreter({ functions, clock: fakeClock().now });
  return { harness, functions };
}

const ACTIONS = `<p>base</p>
<a>Call</a><cwdb-action action="call" endpoint="${arn('act')}" display="widget">{"step":2}</cwdb-action>
<a>Pop</a><cwdb-action action="call" endpoint="${arn('act')}" display="popup"></cwdb-action>
<a>Html</a><cwdb-action action="html" display="popup"><p>more</p></cwdb-action>`;

test('invocation: the exact event the function received, its request id, duration and printed logs', async () => {
  const { harness, functions } = setup({
    own: (e) => {
      console.log('loading for', e.region);
      return ACTIONS;
    },
    act: (e) => {
      console.warn('acting step', e.step);
      return `<p>acted ${e.step}</p>`;
    },
  });
  const dash = await harness.load({ widgets: [{ type: 'custom', properties: { endpoint: arn('own'), params: { region: 'eu-west-1' } } }] });
  const w = await dash.readWidget(0);
  assert.ok(w.invocation);
  assert.deepEqual(w.invocation.event, functions.calls[0]!.event);
  assert.match(w.invocation.logs, /INFO\tloading for eu-west-1/);
  assert.ok(w.invocation.logs.includes(w.invocation.awsRequestId), 'the logs name the request id');
  assert.match(w.invocation.awsRequestId, /^[0-9a-f-]{36}$/);
  assert.ok(w.invocation.durationMs >= 0 && Number.isFinite(w.invocation.durationMs));
  assert.equal(w.logs, w.invocation.logs);
  assert.deepEqual(w.toJSON().invocation, w.invocation);

  const cached = await dash.readWidget(0);
  assert.deepEqual(cached.invocation, w.invocation, 'a cached read returns the invocation of the content it shows');
  assert.ok(Object.isFrozen(cached.invocation) && Object.isFrozen(cached.invocation?.event), 'reads share a frozen invocation');
  assert.throws(() => {
    (cached.invocation!.event as Record<string, unknown>).widgetContext = null;
  }, TypeError);

  const popup = await w.action('Pop').click();
  assert.deepEqual(popup.invocation?.event, functions.calls.at(-1)!.event);
  assert.notEqual(popup.invocation?.awsRequestId, w.invocation.awsRequestId);
  assert.deepEqual((await dash.readWidget(0)).invocation, w.invocation, 'a popup leaves the widget content and its invocation');

  const called = await w.action('Call').click();
  assert.equal(functions.calls.at(-1)!.name, 'act');
  assert.deepEqual(called.invocation?.event, functions.calls.at(-1)!.event);
  assert.equal(called.invocation?.event && (called.invocation.event as { step: number }).step, 2);
  assert.match(called.invocation?.logs ?? '', /WARN\tacting step 2/);
  assert.deepEqual((await dash.readWidget(0)).invocation, called.invocation, 'replaced content keeps the call that produced it');

  await dash.refresh({ mode: 'manual' });
  const refreshed = await dash.readWidget(0);
  assert.equal(refreshed.event, 'refresh');
  assert.deepEqual(refreshed.invocation?.event, functions.calls.at(-1)!.event);
  assert.equal(functions.calls.at(-1)!.name, 'own');

  await dash.putState({ theme: 'dark' });
  const restated = await dash.readWidget(0);
  assert.equal(restated.event, 'state');
  assert.equal((restated.invocation?.event as { widgetContext: { theme: string } }).widgetContext.theme, 'dark');
  assert.deepEqual(restated.invocation?.event, functions.calls.at(-1)!.event);
});

test('invocation is null for html actions and text widgets; a failing function still has one', async () => {
  const { harness } = setup({
    own: () => ACTIONS,
    boom: () => {
      console.error('about to fail');
      throw new TypeError('bad');
    },
  });
  const dash = await harness.load({
    widgets: [
      { type: 'custom', properties: { endpoint: arn('own') } },
      { type: 'text', properties: { markdown: '# Hi' } },
      { type: 'custom', properties: { endpoint: arn('boom') } },
      { type: 'custom', properties: { endpoint: arn('missing') } },
    ],
  });
  const w = await dash.readWidget(0);
  const html = await w.action('Html').click();
  assert.equal(html.html, '<p>more</p>');
  assert.equal(html.invocation, null);
  assert.equal(html.logs, '');
  assert.equal((await dash.readWidget(1)).invocation, null);
  const failed = await dash.readWidget(2);
  assert.equal(failed.error?.type, 'TypeError');
  assert.match(failed.invocation?.logs ?? '', /about to fail/);
  assert.ok((failed.invocation?.durationMs ?? -1) >= 0);
  const missing = await dash.readWidget(3);
  assert.equal(missing.error?.type, 'FunctionNotFound');
  assert.ok(missing.invocation, 'the attempted call is described even when no function answered');
  assert.equal((missing.invocation.event as { widgetContext: { widgetId: string } }).widgetContext.widgetId, 'widget-3');
});

test('property: for any params, invocation.event deep-equals what the function received', async () => {
  const json = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
  await fc.assert(
    fc.asyncProperty(fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 5 }), async (params) => {
      const { harness, functions } = setup({ own: () => '<p>x</p>' });
      const dash = await harness.load({ widgets: [{ type: 'custom', properties: { endpoint: arn('own'), params } }] });
      const w = await dash.readWidget(0);
      assert.deepEqual(w.invocation?.event, functions.calls[0]!.event);
    }),
    { numRuns: 60 },
  );
});
