// Every endpoint and status code of the harness API over a real socket; every response is checked against
// the OpenAPI document, which is itself validated as OpenAPI 3.1.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { DashboardDriver } from '../../packages/harness/src/dashboard/index.js';
import { HarnessApiError, HarnessClient, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { call, chattyEvents, checked, checkingFetch, createTestDashboard, startTestHarness, testDashboard } from './harness-support.js';

let running: RunningHarness;
let base: string;

before(async () => {
  running = await startTestHarness();
  base = running.url;
});
after(() => running.close());

describe('harness API: dashboards', () => {
  it('POST /api/dashboards takes a JSON string: 201 with id, name, widgets and a Location', async () => {
    const res = await call(base, 'POST', '/api/dashboards?name=ops', JSON.stringify(testDashboard));
    assert.equal(res.status, 201);
    const body = res.json();
    assert.equal(body.name, 'ops');
    assert.equal(res.headers.get('location'), `/api/dashboards/${body.id}`);
    assert.deepEqual(body.widgets[0], {
      widgetId: 'widget-0',
      index: 0,
      type: 'custom',
      title: 'Hello',
      endpoint: 'hello',
      updateOn: { refresh: true, resize: true, timeRange: true },
    });
    assert.deepEqual(body.widgets[2].updateOn, { refresh: false, resize: false, timeRange: false });
    const followed = await call(base, 'GET', res.headers.get('location')!);
    assert.equal(followed.json().id, body.id);
  });

  it('the default name is "dashboard"; a bad name is a 400', async () => {
    const res = await call(base, 'POST', '/api/dashboards', JSON.stringify('{"widgets":[]}'));
    assert.equal(res.json().name, 'dashboard');
    assert.equal((await call(base, 'POST', '/api/dashboards?name=', JSON.stringify('{"widgets":[]}'))).status, 400);
    assert.equal((await call(base, 'POST', `/api/dashboards?name=${'n'.repeat(256)}`, JSON.stringify('{"widgets":[]}'))).status, 400);
  });

  it('400 for a body that is not JSON, not a string, or a dashboard that fails validation (validationMessages)', async () => {
    const notJson = await call(base, 'POST', '/api/dashboards', '{"widgets":');
    assert.equal(notJson.status, 400);
    assert.equal(notJson.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    const object = await call(base, 'POST', '/api/dashboards', { widgets: [] });
    assert.equal(object.status, 400);
    assert.match(object.json().detail, /JSON string/);
    const invalid = await call(
      base,
      'POST',
      '/api/dashboards',
      JSON.stringify('{"widgets":[{"type":"custom","properties":{"endpoint":"x"},"width":30}]}'),
    );
    assert.equal(invalid.status, 400);
    assert.deepEqual(
      invalid.json().validationMessages.map((m: { dataPath: string }) => m.dataPath),
      ['/widgets/0/width'],
    );
    const syntax = await call(base, 'POST', '/api/dashboards', JSON.stringify('{"widgets": ['));
    assert.equal(syntax.status, 400);
    assert.equal(syntax.json().validationMessages[0].dataPath, '');
  });

  it('415 for a body that is not JSON by its content type', async () => {
    const res = await call(base, 'POST', '/api/dashboards', '"{}"', 'text/plain');
    assert.equal(res.status, 415);
    assert.deepEqual(res.json().supported, ['application/json']);
  });

  it('GET list, GET one, GET source (the exact bytes), DELETE 204 then 404', async () => {
    const text = '{ "widgets" : [ {"type":"text","properties":{"markdown":"é ✓"}} ] ,"x":1 }\n';
    const created = (await call(base, 'POST', '/api/dashboards?name=exact', JSON.stringify(text))).json();
    const list = (await call(base, 'GET', '/api/dashboards')).json();
    assert.ok(list.some((d: { id: string; name: string }) => d.id === created.id && d.name === 'exact'));
    const one = await call(base, 'GET', `/api/dashboards/${created.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.json().state.theme, 'light');
    assert.equal(one.json().widgets[0].widgetId, 'widget-0');
    const source = await fetch(`${base}/api/dashboards/${created.id}/source`);
    assert.equal(source.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.deepEqual(Buffer.from(await source.arrayBuffer()), Buffer.from(text, 'utf8'));
    assert.equal((await call(base, 'DELETE', `/api/dashboards/${created.id}`)).status, 204);
    for (const path of ['', '/source', '/state', '/widgets/0']) {
      const gone = await call(base, 'GET', `/api/dashboards/${created.id}${path}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.json().target, 'dashboard');
    }
    assert.equal((await call(base, 'DELETE', `/api/dashboards/${created.id}`)).status, 404);
  });
});

describe('harness API: state', () => {
  it('GET the defaults; PUT replaces the state and names the re-invoked widgets; 422 names the field', async () => {
    const id = await createTestDashboard(base);
    const state = (await call(base, 'GET', `/api/dashboards/${id}/state`)).json();
    assert.deepEqual(
      {
        timeRange: state.timeRange,
        period: state.period,
        theme: state.theme,
        timezone: state.timezone,
        locale: state.locale,
        accountId: state.accountId,
      },
      { timeRange: { relative: '-PT3H' }, period: 'auto', theme: 'light', timezone: 'UTC', locale: 'en', accountId: '123456789012' },
    );
    await call(base, 'GET', `/api/dashboards/${id}/widgets/0`);
    const put = await call(base, 'PUT', `/api/dashboards/${id}/state`, { theme: 'dark', timeRange: { relative: '-P7D' } });
    assert.equal(put.status, 200);
    assert.equal(put.json().state.theme, 'dark');
    assert.deepEqual(put.json().updated, ['widget-0']);
    assert.match((await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().html, /<h2>dark<\/h2>/);
    const reset = await call(base, 'PUT', `/api/dashboards/${id}/state`, {});
    assert.equal(reset.json().state.theme, 'light');
    for (const [body, field] of [
      [{ theme: 'blue' }, 'theme'],
      [{ colour: 1 }, 'colour'],
      [{ period: -5 }, 'period'],
      [{ timeRange: { start: 'yesterday' } }, 'timeRange.start'],
    ] as const) {
      const res = await call(base, 'PUT', `/api/dashboards/${id}/state`, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json().field, field);
    }
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/state`)).json().theme, 'light', 'a refused PUT changes nothing');
    assert.equal((await call(base, 'PUT', `/api/dashboards/${id}/state`, '[1]')).status, 400);
    assert.equal((await call(base, 'PUT', `/api/dashboards/${id}/state`, '{"theme":')).status, 400);
  });

  it('sizes widgets from the dashboard width and per-widget sizes; bad sizes are a 422 naming the field and change nothing', async () => {
    const id = await createTestDashboard(base);
    const D = `/api/dashboards/${id}`;
    const told = async (n: number) => {
      const ctx = (await call(base, 'GET', `${D}/widgets/${n}`)).json().invocation.event.widgetContext;
      return [ctx.width, ctx.height];
    };
    const state = (await call(base, 'GET', `${D}/state`)).json();
    assert.deepEqual([state.dashboardWidth, state.widgetSizes], [2392, {}]);
    // The widgets are 6 × 6: 588 × 369 at the default width, as in AWS's example event.
    assert.deepEqual(await told(0), [588, 369]);
    assert.deepEqual(await told(4), [588, 369]);
    const narrow = await call(base, 'PUT', `${D}/state`, { dashboardWidth: 1280 });
    assert.equal(narrow.status, 200, narrow.text);
    assert.deepEqual(narrow.json().updated, ['widget-0', 'widget-4'], 'widgets with updateOn.resize run again');
    assert.deepEqual(await told(0), [310, 369]);
    assert.equal((await call(base, 'GET', `${D}/widgets/0`)).json().event, 'resize');
    const own = await call(base, 'PUT', `${D}/state`, { dashboardWidth: 1280, widgetSizes: { 4: { width: 400, height: 250 } } });
    assert.deepEqual(own.json().updated, ['widget-4'], 'only the widget whose size changed runs again');
    assert.deepEqual(own.json().state.widgetSizes, { 'widget-4': { width: 400, height: 250 } });
    assert.deepEqual(await told(4), [400, 250]);
    assert.deepEqual(await told(0), [310, 369]);
    const before = (await call(base, 'GET', `${D}/state`)).text;
    for (const [body, field] of [
      [{ dashboardWidth: 100 }, 'dashboardWidth'],
      [{ dashboardWidth: 'wide' }, 'dashboardWidth'],
      [{ widgetSizes: { 1: { width: 300 } } }, 'widgetSizes.1'],
      [{ widgetSizes: { 9: { width: 300 } } }, 'widgetSizes.9'],
      [{ widgetSizes: { 0: { width: -1 } } }, 'widgetSizes.0.width'],
      [{ widgetSizes: { 0: { width: 300, depth: 1 } } }, 'widgetSizes.0.depth'],
      [{ width: 300 }, 'width'],
    ] as const) {
      const res = await call(base, 'PUT', `${D}/state`, body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json().field, field, JSON.stringify(body));
      assert.match(res.json().detail, new RegExp(field === 'width' ? 'dashboardWidth' : field.split('.').at(-1)!), res.text);
    }
    assert.equal((await call(base, 'GET', `${D}/state`)).text, before, 'a refused PUT changes nothing');
  });
});

describe('harness API: widgets and actions', () => {
  it('reads widgets: custom, text, JSON, errors; 404 for unknown widgets, 422 for unreadable types', async () => {
    const id = await createTestDashboard(base);
    const first = (await call(base, 'GET', `/api/dashboards/${id}/widgets/widget-0`)).json();
    assert.equal(first.event, 'load');
    assert.equal(first.invocations, 1);
    assert.deepEqual(first.findings, []);
    assert.equal(
      (await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().invocations,
      1,
      'a second read does not run the function',
    );
    assert.match((await call(base, 'GET', `/api/dashboards/${id}/widgets/1`)).json().html, /<h1>Title<\/h1>/);
    assert.deepEqual((await call(base, 'GET', `/api/dashboards/${id}/widgets/2`)).json().raw, { a: 1 });
    assert.deepEqual((await call(base, 'GET', `/api/dashboards/${id}/widgets/4`)).json().error, {
      type: 'TypeError',
      message: 'broken widget',
    });
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/widgets/5`)).json().error.type, 'FunctionNotFound');
    const metric = await call(base, 'GET', `/api/dashboards/${id}/widgets/3`);
    assert.equal(metric.status, 422);
    assert.equal(metric.json().field, 'type');
    for (const wid of ['6', 'abc', '-1', 'widget-x', '01']) {
      const res = await call(base, 'GET', `/api/dashboards/${id}/widgets/${wid}`);
      assert.equal(res.status, 404, wid);
      assert.equal(res.json().target, 'widget');
    }
  });

  it('widget results carry the invocation: the event the function received, its duration and logs; null without a call', async () => {
    const created = await call(
      base,
      'POST',
      '/api/dashboards',
      JSON.stringify(JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'chatty', params: { n: 1 } } }] })),
    );
    const id = created.json().id;
    const read = (await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json();
    assert.deepEqual(read.invocation.event, chattyEvents.at(-1));
    assert.equal(read.invocation.event.n, 1);
    assert.match(read.invocation.logs, /INFO\tchatty saw widget-0/);
    assert.ok(read.invocation.logs.includes(read.invocation.awsRequestId));
    assert.ok(read.invocation.durationMs >= 0);
    assert.deepEqual(
      (await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().invocation,
      read.invocation,
      'a cached read keeps it',
    );
    const tid = await createTestDashboard(base);
    assert.equal((await call(base, 'GET', `/api/dashboards/${tid}/widgets/1`)).json().invocation, null, 'a text widget');
    const peek = (await call(base, 'POST', `/api/dashboards/${tid}/widgets/0/actions/2`, { forms: { who: 'Bob' } })).json();
    assert.equal(peek.invocation.event.greet, true);
    assert.equal(peek.invocation.event.widgetContext.forms.all.who, 'Bob');
    assert.equal((await call(base, 'POST', `/api/dashboards/${tid}/widgets/0/actions/3`)).json().invocation, null, 'an html action');
  });

  it('lists actions and describes a function', async () => {
    const id = await createTestDashboard(base);
    const actions = (await call(base, 'GET', `/api/dashboards/${id}/widgets/0/actions`)).json();
    assert.deepEqual(
      actions.map((a: { text: string }) => a.text),
      ['Greet', 'Reset', 'Peek', 'Help'],
    );
    assert.deepEqual(actions[1], {
      index: 1,
      text: 'Reset',
      action: 'call',
      display: 'widget',
      confirmation: 'Really reset?',
      event: 'click',
      endpoint: 'hello',
      params: {},
    });
    assert.deepEqual(actions[3], {
      index: 3,
      text: 'Help',
      action: 'html',
      display: 'popup',
      confirmation: null,
      event: 'click',
      html: '<p>Help text</p>',
    });
    const described = (await call(base, 'GET', `/api/dashboards/${id}/widgets/0/describe`)).json();
    assert.equal(described.markdown, '## Hello\nGreets whoever is named in the form.');
    assert.match(described.html, /<h2>Hello<\/h2>/);
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/widgets/1/describe`)).status, 422);
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/widgets/9/actions`)).status, 404);
  });

  it('runs actions: forms reach the function, widget display replaces, popup leaves, confirm: false cancels', async () => {
    const id = await createTestDashboard(base);
    const greet = await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/0`, { forms: { who: '<Ada>', color: 'blue' } });
    assert.equal(greet.status, 200);
    assert.match(greet.json().html, /Hello, &#60;Ada&#62;/);
    assert.equal(greet.json().event, 'click');
    assert.equal(greet.json().display, 'widget');
    assert.match(
      (await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().html,
      /Hello, &#60;Ada&#62;/,
      'widget display replaces the content',
    );
    const popup = (await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/2`, { forms: { who: 'Bob' } })).json();
    assert.equal(popup.display, 'popup');
    assert.match(popup.html, /Hello, Bob/);
    assert.match(
      (await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().html,
      /Hello, &#60;Ada&#62;/,
      'a popup leaves the widget',
    );
    const html = (await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/3`)).json();
    assert.equal(html.html, '<p>Help text</p>');
    const before = (await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().invocations;
    const cancelled = await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/1`, { confirm: false });
    assert.deepEqual(cancelled.json(), { cancelled: true, confirmation: 'Really reset?' });
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().invocations, before, 'nothing was called');
    const confirmed = (await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/1`, { confirm: true })).json();
    assert.match(confirmed.html, /Nobody yet/);
    assert.equal(
      (await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/0`, { confirm: false })).json().display,
      'widget',
      'confirm is ignored without a confirmation',
    );
  });

  it('refuses bad actions: 404 for unknown, abc and -1 indices, 422 for unknown form names listing the known ones', async () => {
    const id = await createTestDashboard(base);
    for (const index of ['4', 'abc', '-1', '1.5', '99999999999']) {
      const res = await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/${index}`, {});
      assert.equal(res.status, 404, index);
      assert.equal(res.json().target, 'action');
    }
    const unknown = await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/0`, { forms: { nickname: 'x' } });
    assert.equal(unknown.status, 422);
    assert.equal(unknown.json().field, 'forms.nickname');
    assert.match(unknown.json().detail, /"who"/);
    assert.match(unknown.json().detail, /"color"/);
    const option = await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/0`, { forms: { color: 'green' } });
    assert.equal(option.status, 422);
    assert.equal((await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/0`, { click: true })).status, 422);
    assert.equal((await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/0`, '"go"')).status, 400);
    assert.equal(
      (await call(base, 'POST', `/api/dashboards/${id}/widgets/0/actions/0`, 'forms=1', 'application/x-www-form-urlencoded')).status,
      415,
    );
  });

  it('refresh: auto re-invokes widgets with updateOn.refresh that were read, manual every custom widget', async () => {
    const id = await createTestDashboard(base);
    await call(base, 'GET', `/api/dashboards/${id}/widgets/0`);
    await call(base, 'GET', `/api/dashboards/${id}/widgets/2`);
    const auto = (await call(base, 'POST', `/api/dashboards/${id}/refresh`)).json();
    assert.deepEqual(auto.refreshed, ['widget-0']);
    assert.ok(auto.skipped.includes('widget-2'));
    const manual = (await call(base, 'POST', `/api/dashboards/${id}/refresh`, { mode: 'manual' })).json();
    assert.deepEqual(manual.refreshed, ['widget-0', 'widget-2']);
    assert.equal((await call(base, 'GET', `/api/dashboards/${id}/widgets/0`)).json().event, 'refresh');
    assert.equal((await call(base, 'POST', `/api/dashboards/${id}/refresh`, { mode: 'sometimes' })).status, 422);
    assert.equal((await call(base, 'POST', `/api/dashboards/${id}/refresh`, '[]')).status, 400);
    assert.equal((await call(base, 'POST', `/api/dashboards/nope/refresh`)).status, 404);
  });
});

describe('harness API: lint and OpenAPI', () => {
  it('POST /api/lint takes text/html or a JSON string; 415 otherwise; 400 for JSON that is not a string', async () => {
    const html = '<p onclick="go()">x</p><script>alert(1)</script>';
    const asHtml = (await call(base, 'POST', '/api/lint', html, 'text/html; charset=utf-8')).json();
    assert.deepEqual(asHtml.findings.map((f: { rule: string }) => f.rule).sort(), ['event-handler', 'script']);
    const asJson = (await call(base, 'POST', '/api/lint', JSON.stringify(html))).json();
    assert.deepEqual(asJson, asHtml);
    assert.deepEqual((await call(base, 'POST', '/api/lint', '<p>fine</p>', 'text/html')).json(), { findings: [] });
    assert.equal((await call(base, 'POST', '/api/lint', html, 'text/plain')).status, 415);
    assert.equal((await call(base, 'POST', '/api/lint', { html })).status, 400);
  });

  it('serves a valid OpenAPI 3.1 document that covers every route of the app', async () => {
    const doc = (await call(base, 'GET', '/api/openapi.json')).json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.1');
    const documented = new Set(
      Object.entries(doc.paths).flatMap(([p, item]) =>
        Object.keys(item as object)
          .filter((k) => k !== 'parameters')
          .map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const served = running.app.routes.filter((r) => r.method !== 'HEAD' && r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`);
    assert.deepEqual([...documented].sort(), served.sort());
  });

  it('makes the document from the routes with trellis/openapi, keeping the operation ids clients are generated with', async () => {
    const doc = (await call(base, 'GET', '/api/openapi.json')).json();
    const ids = Object.values<Record<string, { operationId: string }>>(doc.paths).flatMap((item) =>
      Object.values(item).map((op) => op.operationId),
    );
    assert.deepEqual(ids.sort(), [
      'changes',
      'createDashboard',
      'deleteDashboard',
      'describeWidget',
      'getDashboard',
      'getDashboardSource',
      'getState',
      'lint',
      'listActions',
      'listDashboards',
      'listFunctions',
      'openapi',
      'putState',
      'readWidget',
      'refresh',
      'runAction',
      'widgetImage',
    ]);
    const methods = (cls: { prototype: object }): string[] =>
      Object.entries(Object.getOwnPropertyDescriptors(cls.prototype))
        .filter(([name, d]) => name !== 'constructor' && typeof d.value === 'function')
        .map(([name]) => name);
    assert.deepEqual(
      methods(HarnessClient).filter((name) => !ids.includes(name)),
      ['findAction'],
      "the client's methods are the operations (and a finder)",
    );
    assert.deepEqual(
      ids.filter((id) => !methods(HarnessClient).includes(id)),
      [],
      'every operation has its client method',
    );
    assert.deepEqual(
      methods(DashboardDriver).filter((name) => !ids.includes(name)),
      ['widgets'],
      "the in-process driver's methods have the operations' names",
    );
    assert.deepEqual(
      doc.components.schemas.Problem.properties.code.enum.includes('TRELLIS_VALIDATION_FAILED'),
      true,
      'the shared Problem schema',
    );
    assert.deepEqual(doc.security, [{}, { token: [] }]);
    assert.deepEqual(Object.keys(doc.paths['/api/dashboards/{id}/state'].put.responses), [
      '200',
      '400',
      '401',
      '403',
      '404',
      '413',
      '415',
      '422',
      'default',
    ]);
  });

  it('HarnessClient drives the same API with typed results and throws HarnessApiError for problems', async () => {
    const client = new HarnessClient(`${base}/`, { fetch: checkingFetch });
    const created = await client.createDashboard(testDashboard, { name: 'client' });
    assert.equal(created.name, 'client');
    assert.equal(await client.getDashboardSource(created.id), testDashboard);
    assert.ok((await client.listDashboards()).some((d) => d.id === created.id));
    assert.equal((await client.getDashboard(created.id)).widgets.length, 6);
    assert.deepEqual((await client.putState(created.id, { theme: 'dark' })).updated, []);
    assert.equal((await client.getState(created.id)).theme, 'dark');
    assert.match((await client.readWidget(created.id, 0)).html, /<h2>dark<\/h2>/);
    const greet = await client.findAction(created.id, 'widget-0', ' Greet ');
    const after = await client.runAction(created.id, 0, greet.index, { forms: { who: 'Grace' } });
    assert.ok('html' in after && after.html.includes('Hello, Grace'));
    await assert.rejects(client.findAction(created.id, 0, /e/), /More than one action matches.*#0 "Greet"/);
    assert.equal((await client.describeWidget(created.id, 0)).error, null);
    assert.deepEqual(await client.refresh(created.id, 'manual'), {
      refreshed: ['widget-0'],
      skipped: ['widget-1', 'widget-2', 'widget-3', 'widget-4', 'widget-5'],
    });
    assert.deepEqual(await client.lint('<iframe></iframe>').then((f) => f.map((x) => x.rule)), ['iframe']);
    assert.equal((await client.openapi()).openapi, '3.1.0');
    await client.deleteDashboard(created.id);
    const error = await client.getDashboard(created.id).catch((e: unknown) => e);
    assert.ok(error instanceof HarnessApiError);
    assert.equal(error.status, 404);
    assert.equal(error.problem.target, 'dashboard');
  });

  it('checked every response of this file against the document', () => {
    assert.ok(checked.count > 80, `only ${checked.count} responses checked`);
  });
});
