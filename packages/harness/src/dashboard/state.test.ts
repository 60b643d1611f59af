import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { UnprocessableError } from './errors.js';
import { parseJsonText, schemaCheck, schemaProblemMessage } from './functions/index.js';
import { stateInputSchema } from './state-schema.js';
import { defaultState, normalizeState } from './state.js';
import { parseDashboard } from './validate.js';

const model = parseDashboard('{"widgets":[{"type":"custom","properties":{"endpoint":"f"}},{"type":"text","properties":{"markdown":""}}]}');
const defaults = defaultState(model, 'd');

test('property: normalizing any JSON state either succeeds or names a field, and a result normalizes to itself', () => {
  const stateish = fc.record(
    {
      timeRange: fc.oneof(
        fc.jsonValue(),
        fc.record({ relative: fc.oneof(fc.constantFrom('-PT1H', '-P7D'), fc.string()) }),
        fc.record(
          { start: fc.oneof(fc.integer(), fc.string()), end: fc.oneof(fc.integer(), fc.constant(null)) },
          { requiredKeys: ['start'] },
        ),
      ),
      period: fc.oneof(fc.constant('auto'), fc.integer(), fc.jsonValue()),
      theme: fc.oneof(fc.constantFrom('light', 'dark'), fc.jsonValue()),
      timezone: fc.oneof(fc.constantFrom('UTC', '+05:30', 'Europe/Berlin'), fc.string()),
      dashboardWidth: fc.oneof(fc.integer(), fc.constant(null), fc.jsonValue()),
      widgetSizes: fc.oneof(
        fc.dictionary(
          fc.constantFrom('0', 'widget-0', '1', '2', 'x'),
          fc.record({ width: fc.oneof(fc.integer(), fc.jsonValue()), height: fc.integer() }, { requiredKeys: [] }),
        ),
        fc.jsonValue(),
      ),
      zoom: fc.jsonValue(),
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(fc.oneof(stateish, fc.jsonValue()), (input) => {
      try {
        const state = normalizeState(input, defaults, model.widgets);
        assert.deepEqual(normalizeState(JSON.parse(JSON.stringify(state)), defaults, model.widgets), state);
      } catch (e) {
        assert.ok(e instanceof UnprocessableError, String(e));
        assert.equal(typeof e.field, 'string');
        assert.ok(e.message.length > 0);
      }
    }),
    { numRuns: 500 },
  );
});

test('property: a JSON syntax problem points inside the text', () => {
  fc.assert(
    fc.property(fc.json(), fc.nat(), fc.constantFrom('}', ']', ',', ':', '"', 'x', ''), (json, at, junk) => {
      const i = at % (json.length + 1);
      const text = json.slice(0, i) + junk + json.slice(i + (junk === '' ? 1 : 0));
      const r = parseJsonText(text);
      if (r.ok) return;
      const lines = text.split('\n');
      assert.ok(r.problem.line >= 1 && r.problem.line <= lines.length);
      assert.ok(r.problem.column >= 1 && r.problem.column <= lines[r.problem.line - 1]!.length + 1);
    }),
    { numRuns: 500 },
  );
});

test('property: every refusal of a state names a field of the input and says what it should be', () => {
  const check = schemaCheck(stateInputSchema);
  const fields = Object.keys(stateInputSchema.properties as object);
  fc.assert(
    fc.property(
      fc.dictionary(fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 4 })), fc.jsonValue({ maxDepth: 3 })),
      (input) => {
        const problem = check(input);
        if (!problem) return;
        assert.ok(Object.hasOwn(input, problem.path[0]!), problem.path.join('.'));
        assert.match(schemaProblemMessage(problem), /^(Unknown field "[^]*"; known fields are |"[^]+" should be (?!valid)[^]+; got )/);
      },
    ),
    { numRuns: 300 },
  );
});
