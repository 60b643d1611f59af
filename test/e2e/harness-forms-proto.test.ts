// A posted form value named __proto__ would vanish as a key of forms.all: it is refused with a 422 instead.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { createHarnessApp } from '../../packages/harness/src/harness/index.js';

it('refuses a posted "__proto__" form value with 422 (once dropped without a word) and calls nothing', async () => {
  const seen: string[] = [];
  const html = '<input type="checkbox" name="__proto__" value="on"><a>Go</a><cwdb-action action="call" endpoint="f"></cwdb-action>';
  const { app, harness } = createHarnessApp({
    web: false,
    functions: { functions: { f: { handler: (e: any) => (seen.push(JSON.stringify(e.widgetContext.forms.all)), html) } } },
  });
  try {
    const headers = { 'content-type': 'application/json' };
    const created = await app.inject({
      method: 'POST',
      url: '/api/dashboards',
      headers,
      body: JSON.stringify('{"widgets":[{"type":"custom","properties":{"endpoint":"f"}}]}'),
    });
    const url = `/api/dashboards/${created.json().id}/widgets/0`;
    await app.inject({ url });
    const res = await app.inject({ method: 'POST', url: `${url}/actions/0`, headers, body: '{"forms":{"__proto__":"on"}}' });
    assert.equal(res.statusCode, 422);
    assert.equal(res.json().field, 'forms.__proto__');
    assert.match(res.json().detail, /A form field named "__proto__" cannot be sent/);
    assert.deepEqual(seen, ['{}'], 'only the first load ran');
  } finally {
    await harness.close();
  }
});
