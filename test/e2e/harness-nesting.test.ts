// Deeply nested JSON is refused where it enters, with a 4xx naming the limit; whatever is accepted can be
// read, listed and clicked without a 5xx.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_JSON_DEPTH } from '../../packages/harness/src/dashboard/index.js';
import { createHarnessApp } from '../../packages/harness/src/harness/index.js';

const JSON_TYPE = { 'content-type': 'application/json' };
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const WIDGET = '<p>hi</p><a>Again</a><cwdb-action action="call" endpoint="echo">{}</cwdb-action>';

describe('nesting depth', () => {
  const { app, harness } = createHarnessApp({ web: false, functions: { functions: { echo: { handler: () => WIDGET } } } });
  const create = (paramsJson: string) =>
    app.inject({
      method: 'POST',
      url: '/api/dashboards',
      headers: JSON_TYPE,
      body: JSON.stringify(`{"widgets":[{"type":"custom","properties":{"endpoint":"echo","params":${paramsJson}}}]}`),
    });
  let id: string;

  before(async () => {
    id = (await create('{}')).json().id;
  });
  after(() => harness.close());

  it('refuses widget params nested 2,230 levels deep (once loaded, then every read answered 500)', async () => {
    const res = await create(nested(2230));
    assert.equal(res.statusCode, 400);
    const [message, ...more] = res.json().validationMessages;
    assert.equal(more.length, 0);
    assert.match(message.dataPath, /^\/widgets\/0\/properties\/params(\/0)+$/);
    assert.equal(message.message, `Nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (the dashboard itself is level 1)`);
    assert.equal((await app.inject({ url: '/api/dashboards' })).json().length, 1, 'nothing was stored');
  });

  it('serves a dashboard at the depth limit: read, actions and a click all answer 200', async () => {
    // The dashboard, widgets, the widget and properties take four levels.
    const created = await create(nested(MAX_JSON_DEPTH - 4));
    assert.equal(created.statusCode, 201);
    const deepId = created.json().id;
    assert.equal((await create(nested(MAX_JSON_DEPTH - 3))).statusCode, 400);
    for (const [method, path] of [
      ['GET', 'widgets/0'],
      ['GET', 'widgets/0/actions'],
      ['POST', 'widgets/0/actions/0'],
      ['POST', 'refresh'],
    ] as const) {
      const res = await app.inject({
        method,
        url: `/api/dashboards/${deepId}/${path}`,
        headers: JSON_TYPE,
        body: method === 'POST' ? '{}' : undefined,
      });
      assert.equal(res.statusCode, 200, `${method} ${path}: ${res.body.slice(0, 200)}`);
    }
  });

  it('refuses request bodies nested beyond the limit with 400, not 500', async () => {
    await app.inject({ url: `/api/dashboards/${id}/widgets/0` });
    const bodies: Array<[string, string, string]> = [
      ['PUT', 'state', `{"theme":${nested(100_000)}}`],
      ['POST', 'refresh', `{"mode":${nested(100_000)}}`],
      ['POST', 'widgets/0/actions/0', `{"forms":{"a":${nested(100_000)}}}`],
    ];
    for (const [method, path, body] of bodies) {
      const res = await app.inject({ method, url: `/api/dashboards/${id}/${path}`, headers: JSON_TYPE, body });
      assert.equal(res.statusCode, 400, `${method} ${path}: ${res.body.slice(0, 200)}`);
      assert.match(res.json().detail, new RegExp(`nests deeper than ${MAX_JSON_DEPTH} levels`));
    }
    assert.equal((await app.inject({ url: `/api/dashboards/${id}/widgets/0` })).json().invocations, 1, 'nothing ran');
  });
});
