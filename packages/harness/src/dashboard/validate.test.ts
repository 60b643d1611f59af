import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DashboardValidationError } from './errors.js';
import { parseDashboard } from './validate.js';

function messages(text: string): { dataPath: string; message: string }[] {
  try {
    parseDashboard(text);
  } catch (e) {
    assert.ok(e instanceof DashboardValidationError);
    return e.validationMessages;
  }
  assert.fail('expected a validation error');
}

const custom = (extra: object = {}, props: object = {}): object => ({
  type: 'custom',
  properties: { endpoint: 'arn:aws:lambda:us-east-1:123456789012:function:hello', ...props },
  ...extra,
});

test('widgets get defaults and ids', () => {
  const m = parseDashboard(JSON.stringify({ widgets: [custom(), { type: 'text', width: 12, properties: { markdown: '# Hi' } }] }));
  assert.equal(m.widgets[0]!.widgetId, 'widget-0');
  assert.equal(m.widgets[0]!.width, 6);
  assert.equal(m.widgets[0]!.height, 6);
  assert.deepEqual(m.widgets[0]!.updateOn, { refresh: true, resize: true, timeRange: true });
  assert.equal(m.widgets[1]!.width, 12);
  assert.equal(m.widgets[1]!.updateOn, null);
});

test('inside a present updateOn a missing key means false', () => {
  const m = parseDashboard(JSON.stringify({ widgets: [custom({}, { updateOn: { refresh: true } })] }));
  assert.deepEqual(m.widgets[0]!.updateOn, { refresh: true, resize: false, timeRange: false });
});

test('JSON syntax errors carry line and column', () => {
  const [m] = messages('{\n  "widgets": [\n    { "type": "custom", }\n  ]\n}');
  assert.equal(m!.dataPath, '');
  assert.match(m!.message, /line 3, column 25/);
});

test('every bad field is reported with a JSON pointer', () => {
  const got = messages(
    JSON.stringify({
      start: 'yesterday',
      periodOverride: 'sometimes',
      widgets: [
        custom({ x: 24, y: -1, width: 0, height: 1001 }),
        { type: 'custom', properties: {} },
        { properties: {} },
        { type: 'bar', properties: {} },
        { type: 'text', properties: { markdown: 3 } },
        custom({}, { updateOn: { refresh: 'yes', often: true } }),
        7,
      ],
    }),
  );
  const paths = got.map((m) => m.dataPath).sort();
  assert.deepEqual(
    paths,
    [
      '/periodOverride',
      '/start',
      '/widgets/0/height',
      '/widgets/0/width',
      '/widgets/0/x',
      '/widgets/0/y',
      '/widgets/1/properties',
      '/widgets/2',
      '/widgets/3/type',
      '/widgets/4/properties/markdown',
      '/widgets/5/properties/updateOn/often',
      '/widgets/5/properties/updateOn/refresh',
      '/widgets/6',
    ].sort(),
  );
  assert.ok(got.find((m) => m.dataPath === '/widgets/1/properties')!.message.includes("'endpoint'"));
  assert.ok(got.find((m) => m.dataPath === '/widgets/0/width')!.message.includes('greater than or equal to 1'));
});

test('widgets is required, an array, at most 500', () => {
  assert.deepEqual(messages('{}'), [{ dataPath: '', message: "Should have required property 'widgets'" }]);
  assert.equal(messages('{"widgets":{}}')[0]!.dataPath, '/widgets');
  assert.equal(messages('[]')[0]!.dataPath, '');
  const many = JSON.stringify({ widgets: Array.from({ length: 501 }, () => custom()) });
  assert.equal(messages(many)[0]!.dataPath, '/widgets');
  assert.equal(parseDashboard(JSON.stringify({ widgets: Array.from({ length: 500 }, () => custom()) })).widgets.length, 500);
  assert.equal(parseDashboard('{"widgets":[]}').widgets.length, 0);
});

test('start is relative or ISO 8601; end is ISO 8601 and needs start', () => {
  for (const start of ['-PT3H', '-P7D', '-P3M', '2024-05-01T12:00:00Z']) {
    assert.equal(parseDashboard(JSON.stringify({ start, widgets: [] })).start, start);
  }
  assert.equal(
    parseDashboard(JSON.stringify({ start: '2024-05-01T12:00:00Z', end: '2024-05-02T12:00:00Z', widgets: [] })).end,
    '2024-05-02T12:00:00Z',
  );
  assert.deepEqual(
    messages(JSON.stringify({ end: '2024-05-02T12:00:00Z', widgets: [] })).map((m) => m.dataPath),
    ['/end'],
  );
  assert.deepEqual(
    messages(JSON.stringify({ start: '-PT3H', end: '-PT1H', widgets: [] })).map((m) => m.dataPath),
    ['/end'],
  );
  assert.match(
    messages(JSON.stringify({ start: '2024-05-02T12:00:00Z', end: '2024-05-01T12:00:00Z', widgets: [] }))[0]!.message,
    /after "start"/,
  );
});

test('property: validation never throws anything but a validation error, on any JSON or any text', () => {
  const check = (text: string): void => {
    try {
      const m = parseDashboard(text);
      assert.ok(Array.isArray(m.widgets));
    } catch (e) {
      assert.ok(e instanceof DashboardValidationError, String(e));
      assert.ok(e.validationMessages.length > 0);
      for (const v of e.validationMessages) assert.ok(v.dataPath === '' || v.dataPath.startsWith('/'));
    }
  };
  fc.assert(fc.property(fc.json(), check), { numRuns: 300 });
  fc.assert(fc.property(fc.string(), check), { numRuns: 300 });
  const widgetish = fc.record(
    {
      type: fc.oneof(fc.constantFrom('custom', 'text', 'metric'), fc.jsonValue()),
      properties: fc.oneof(
        fc.record({ endpoint: fc.jsonValue(), updateOn: fc.jsonValue(), markdown: fc.jsonValue() }, { requiredKeys: [] }),
        fc.jsonValue(),
      ),
      x: fc.jsonValue(),
      width: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(fc.record({ widgets: fc.array(widgetish), start: fc.jsonValue() }, { requiredKeys: [] }), (d) => check(JSON.stringify(d))),
    { numRuns: 300 },
  );
});
