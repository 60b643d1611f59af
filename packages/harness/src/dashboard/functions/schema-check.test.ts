import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemaCheck, schemaProblemMessage } from './schema-check.js';

const size = {
  type: 'object',
  description: 'a size { width }',
  additionalProperties: false,
  required: ['width'],
  properties: { width: { type: 'integer', description: 'a whole number' } },
};
const check = schemaCheck({
  type: 'object',
  additionalProperties: false,
  properties: {
    size: { description: 'a size or null', oneOf: [size, { type: 'null' }] },
    tags: { type: 'array', items: { type: 'string' }, description: 'an array of strings' },
  },
});
const said = (value: unknown): string | undefined => {
  const problem = check(value);
  return problem && schemaProblemMessage(problem);
};

test('says what the field should be, at the deepest place the value went wrong', () => {
  assert.equal(said({ size: null, tags: ['a'] }), undefined);
  assert.equal(said({ size: 3 }), '"size" should be a size or null; got 3');
  assert.equal(said({ size: { width: 1.5 } }), '"size.width" should be a whole number; got 1.5');
  assert.equal(said({ size: {} }), '"size.width" should be a whole number; got nothing');
  assert.equal(said({ size: { width: 1, depth: 2 } }), 'Unknown field "size.depth"; known fields are width');
  assert.equal(said({ colour: 'red' }), 'Unknown field "colour"; known fields are size, tags');
});

test('an item without a description of its own is said of the field that holds it', () => {
  assert.deepEqual(check({ tags: ['a', 2] }), { kind: 'invalid', path: ['tags'], expected: 'an array of strings', value: ['a', 2] });
});
