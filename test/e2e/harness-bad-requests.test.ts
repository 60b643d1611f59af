// Bad input: well over 100 listed and generated bad requests, each answered with its documented 4xx as a
// problem document (never a 5xx), and the server keeps serving. Also the body limit and the dashboard cap.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { RunningHarness } from '../../packages/harness/src/harness/index.js';
import { assertDocumented, call, createTestDashboard, startTestHarness } from './harness-support.js';

let running: RunningHarness;
let base: string;
let id: string;

before(async () => {
  running = await startTestHarness();
  base = running.url;
  id = await createTestDashboard(base);
  await call(base, 'GET', `/api/dashboards/${id}/widgets/0`);
});
after(() => running.close());

interface Bad {
  method: string;
  path: string;
  body?: unknown;
  type?: string;
  status: number;
}

const D = () => `/api/dashboards/${id}`;
let answered = 0;

async function expectRefused(bad: Bad): Promise<void> {
  const res = await call(base, bad.method, bad.path, bad.body, bad.type);
  const what = `${bad.method} ${bad.path} ${typeof bad.body === 'string' ? bad.body.slice(0, 80) : JSON.stringify(bad.body)}`;
  assert.equal(res.status, bad.status, `${what}: ${res.text}`);
  assert.equal(res.headers.get('content-type'), 'application/problem+json; charset=utf-8', what);
  const problem = res.json();
  assert.equal(problem.status, bad.status);
  assert.equal(typeof problem.title, 'string');
  assert.ok(typeof problem.detail === 'string' && problem.detail.length > 0, what);
  answered++;
}

const str = (text: string) => JSON.stringify(text);

function listed(): Bad[] {
  const notJson = ['{', '"unterminated', "{'widgets':[]}", 'widgets', '[1,2', '{"widgets":[]}}', 'nul', '\u0000', '"\\x"', '01'];
  const notString = [{ widgets: [] }, [], 42, true, null, { text: '{"widgets":[]}' }, ['{"widgets":[]}'], 0, false, {}];
  const invalidDashboards = [
    '{}',
    '[]',
    '"x"',
    '{"widgets":{}}',
    '{"widgets":[{}]}',
    '{"widgets":[{"type":"custom"}]}',
    '{"widgets":[{"type":"pie","properties":{}}]}',
    '{"widgets":[{"type":"custom","properties":{}}]}',
    '{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"width":0}]}',
    '{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"width":25}]}',
    '{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"x":24}]}',
    '{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"y":-1}]}',
    '{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"height":1001}]}',
    '{"widgets":[],"start":"yesterday"}',
    '{"widgets":[],"end":"2024-01-01T00:00:00Z"}',
    '{"widgets":[],"periodOverride":"always"}',
    '{"widgets":[{"type":"text","properties":{}}]}',
    `{"widgets":[${Array(501).fill('{"type":"text","properties":{"markdown":"x"}}').join(',')}]}`,
    '{"widgets":[],"start":"2024-02-01T00:00:00Z","end":"2024-01-01T00:00:00Z"}',
    '{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"width":1.5}]}',
  ];
  const badStates: Array<[unknown, number]> = [
    [{ theme: 'blue' }, 422],
    [{ theme: 1 }, 422],
    [{ period: 0 }, 422],
    [{ period: -60 }, 422],
    [{ period: 'often' }, 422],
    [{ period: 1.5 }, 422],
    [{ timezone: 'Mars/Olympus' }, 422],
    [{ timezone: 5 }, 422],
    [{ locale: '' }, 422],
    [{ locale: 7 }, 422],
    [{ accountId: 'abc' }, 422],
    [{ accountId: 123456789012 }, 422],
    [{ dashboardName: '' }, 422],
    [{ linkCharts: 'yes' }, 422],
    [{ width: 0 }, 422],
    [{ width: -1 }, 422],
    [{ height: 1.5 }, 422],
    [{ height: '100' }, 422],
    [{ colour: 'red' }, 422],
    [{ timeRange: 'last hour' }, 422],
    [{ timeRange: { relative: 'PT3H' } }, 422],
    [{ timeRange: { relative: '-PT3X' } }, 422],
    [{ timeRange: { start: 'yesterday' } }, 422],
    [{ timeRange: { start: '2024-02-01T00:00:00Z', end: '2024-01-01T00:00:00Z' } }, 422],
    [{ timeRange: { relative: '-PT3H', start: 1 } }, 422],
    [{ timeRange: { relative: '-PT3H', zoom: { start: 'a', end: 'b' } } }, 422],
    [{ timeRange: {} }, 422],
    [null, 400],
    [[], 400],
    ['dark', 400],
    [42, 400],
  ];
  const unknownIds = ['nope', '00000000-0000-0000-0000-000000000000', 'x'.repeat(200), '%20', 'DROP%20TABLE'];
  const list: Bad[] = [
    ...notJson.map((body) => ({ method: 'POST', path: '/api/dashboards', body, status: 400 })),
    ...notString.map((body) => ({ method: 'POST', path: '/api/dashboards', body: JSON.stringify(body), status: 400 })),
    ...invalidDashboards.map((text) => ({ method: 'POST', path: '/api/dashboards', body: str(text), status: 400 })),
    ...[
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/html',
      'image/png',
    ].flatMap((type) => [
      { method: 'POST', path: '/api/dashboards', body: str('{"widgets":[]}'), type, status: 415 },
      { method: 'PUT', path: `${D()}/state`, body: '{}', type, status: 415 },
      { method: 'POST', path: `${D()}/widgets/0/actions/0`, body: '{}', type, status: 415 },
      { method: 'POST', path: `${D()}/refresh`, body: '{}', type, status: 415 },
    ]),
    ...['text/plain', 'application/xml', 'application/x-www-form-urlencoded'].map((type) => ({
      method: 'POST',
      path: '/api/lint',
      body: '<p>',
      type,
      status: 415,
    })),
    ...[{ html: '<p>' }, ['<p>'], 1, null].map((body) => ({ method: 'POST', path: '/api/lint', body: JSON.stringify(body), status: 400 })),
    ...badStates.map(([body, status]) => ({ method: 'PUT', path: `${D()}/state`, body: JSON.stringify(body), status })),
    ...unknownIds.flatMap((u) => [
      { method: 'GET', path: `/api/dashboards/${u}`, status: 404 },
      { method: 'DELETE', path: `/api/dashboards/${u}`, status: 404 },
      { method: 'GET', path: `/api/dashboards/${u}/source`, status: 404 },
      { method: 'GET', path: `/api/dashboards/${u}/state`, status: 404 },
      { method: 'PUT', path: `/api/dashboards/${u}/state`, body: {}, status: 404 },
      { method: 'GET', path: `/api/dashboards/${u}/widgets/0`, status: 404 },
      { method: 'GET', path: `/api/dashboards/${u}/widgets/0/actions`, status: 404 },
      { method: 'POST', path: `/api/dashboards/${u}/widgets/0/actions/0`, body: {}, status: 404 },
      { method: 'POST', path: `/api/dashboards/${u}/refresh`, status: 404 },
    ]),
    ...['7', '-1', 'abc', 'widget-', 'widget-99', '1e1', '0x1', '%20', 'widget-0-'].flatMap((wid) => [
      { method: 'GET', path: `${D()}/widgets/${wid}`, status: 404 },
      { method: 'GET', path: `${D()}/widgets/${wid}/describe`, status: 404 },
    ]),
    ...['abc', '-1', '4', '1.0', '+1', '00', '1e0', '%20', '99999999999'].map((index) => ({
      method: 'POST',
      path: `${D()}/widgets/0/actions/${index}`,
      body: {},
      status: 404,
    })),
    ...[
      { nickname: 'x' },
      { 'who ': 'x' },
      { WHO: 'x' },
      { color: 'green' },
      { color: ['red', 'blue'] },
      { who: 5 },
      { who: null },
      { who: ['a', 'b'] },
    ].map((forms) => ({
      method: 'POST',
      path: `${D()}/widgets/0/actions/0`,
      body: { forms },
      status: 422,
    })),
    ...[{ forms: 'who=x' }, { forms: [] }, { confirm: 'yes' }, { click: true }].map((body) => ({
      method: 'POST',
      path: `${D()}/widgets/0/actions/0`,
      body,
      status: 422,
    })),
    ...['"auto"', '[]', '1', 'null', '{'].map((body) => ({ method: 'POST', path: `${D()}/refresh`, body, status: 400 })),
    ...[{ mode: 'sometimes' }, { mode: 1 }, { now: true }].map((body) => ({ method: 'POST', path: `${D()}/refresh`, body, status: 422 })),
    { method: 'GET', path: `${D()}/widgets/3`, status: 422 },
    { method: 'GET', path: `${D()}/widgets/3/actions`, status: 422 },
    { method: 'GET', path: `${D()}/widgets/1/describe`, status: 422 },
    { method: 'POST', path: `${D()}/widgets/3/actions/0`, body: {}, status: 422 },
  ];
  return list;
}

describe('harness API: bad requests', () => {
  it('each listed bad request gets its documented 4xx as problem details, and the state is unchanged', async () => {
    const before = (await call(base, 'GET', `${D()}/state`)).text;
    const bads = listed();
    assert.ok(bads.length >= 100, `only ${bads.length} listed`);
    for (const bad of bads) await expectRefused(bad);
    assert.equal((await call(base, 'GET', `${D()}/state`)).text, before, 'refused requests changed nothing');
    assert.equal((await call(base, 'GET', `${D()}/widgets/0`)).json().invocations, 1, 'refused actions called nothing');
  });

  it('generated bodies that are JSON but not a string are a 400; generated non-object state bodies too', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue().filter((v) => typeof v !== 'string'),
        async (value) => {
          await expectRefused({ method: 'POST', path: '/api/dashboards', body: JSON.stringify(value), status: 400 });
        },
      ),
      { numRuns: 60 },
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.array(fc.jsonValue()), fc.string(), fc.integer(), fc.constant(null)), async (value) => {
        await expectRefused({ method: 'PUT', path: `${D()}/state`, body: JSON.stringify(value), status: 400 });
      }),
      { numRuns: 40 },
    );
  });

  it('generated state objects with an unknown field are a 422 naming it', async () => {
    const known = new Set([
      'timeRange',
      'zoom',
      'period',
      'theme',
      'timezone',
      'locale',
      'accountId',
      'dashboardName',
      'linkCharts',
      'dashboardWidth',
      'widgetSizes',
    ]);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !known.has(k) && k !== '__proto__'),
        fc.jsonValue(),
        async (key, value) => {
          const res = await call(base, 'PUT', `${D()}/state`, JSON.stringify({ [key]: value }));
          assert.equal(res.status, 422);
          assert.equal(res.json().field, key);
          answered++;
        },
      ),
      { numRuns: 40 },
    );
  });

  it('generated unknown dashboard ids and action indices are a 404', async () => {
    await fc.assert(
      fc.asyncProperty(fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/), async (unknown) => {
        await expectRefused({ method: 'GET', path: `/api/dashboards/${unknown}/state`, status: 404 });
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.integer({ min: 4 }),
          fc.integer({ max: -1 }),
          fc.stringMatching(/^[a-z.+-]{1,8}$/).filter((s) => s !== '.' && s !== '..'),
        ),
        async (index) => {
          await expectRefused({
            method: 'POST',
            path: `${D()}/widgets/0/actions/${encodeURIComponent(String(index))}`,
            body: {},
            status: 404,
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('the server still serves after all of that', async () => {
    assert.ok(answered >= 300, `only ${answered} bad requests answered`);
    assert.equal((await call(base, 'GET', '/api/dashboards')).status, 200);
    const fresh = await createTestDashboard(base);
    assert.match((await call(base, 'GET', `/api/dashboards/${fresh}/widgets/0`)).json().html, /Greet/);
  });
});

/** Sends a body in pieces over a raw socket (chunked unless a length is given) and reads the answer. */
function rawPost(
  url: string,
  chunks: number,
  chunkSize: number,
  declareLength: boolean,
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (declareLength) headers['content-length'] = String(chunks * chunkSize);
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject);
    const piece = Buffer.alloc(chunkSize, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < chunks) {
        sent++;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.on('socket', () => pump());
  });
}

describe('harness API: limits', () => {
  it('413 for bodies over 5 MiB, announced or chunked, on every body-taking endpoint; 5 MiB itself is read', async () => {
    for (const path of ['/api/dashboards', `${D()}/widgets/0/actions/0`, '/api/lint']) {
      for (const declareLength of [true, false]) {
        const res = await rawPost(`${base}${path}`, 81, 64 * 1024 + 1, declareLength);
        assert.equal(res.status, 413, `${path} ${declareLength ? 'content-length' : 'chunked'}`);
        assert.equal(res.type, 'application/problem+json; charset=utf-8');
        assertDocumented('POST', path, res.status, res.type, res.body);
      }
    }
    const atLimit = await rawPost(`${base}/api/dashboards`, 80, 64 * 1024, false);
    assert.equal(atLimit.status, 400, 'exactly 5 MiB is read (and is not a JSON string)');
    assertDocumented('POST', '/api/dashboards', atLimit.status, atLimit.type, atLimit.body);
    assert.equal((await call(base, 'GET', '/api/dashboards')).status, 200);
  });

  it('keeps at most maxDashboards: past it a new dashboard gets 413 naming the budget, and none is dropped', async () => {
    const small = await startTestHarness({ maxDashboards: 3 });
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await createTestDashboard(small.url, `d${i}`));
      await call(small.url, 'GET', `/api/dashboards/${ids[0]}`);
      const refused = await call(small.url, 'POST', '/api/dashboards', JSON.stringify('{"widgets":[]}'));
      assert.equal(refused.status, 413);
      assert.equal(refused.json().budget, 'maxDashboards');
      const listed = (await call(small.url, 'GET', '/api/dashboards')).json().map((d: { id: string }) => d.id);
      assert.deepEqual(listed, ids, 'every dashboard is still there, in the order they were made');
    } finally {
      await small.close();
    }
  });
});
