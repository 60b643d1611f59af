import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ResponseHeaders } from './index.js';

test('names are case-insensitive and kept in lower case; numbers become strings; set keeps the position', () => {
  const h = new ResponseHeaders({ 'Content-Type': 'text/plain', 'X-Count': 3 });
  h.set('x-other', 'a');
  h.set('CONTENT-TYPE', 'application/json');
  assert.deepEqual(
    [...h.entries()],
    [
      ['content-type', 'application/json'],
      ['x-count', '3'],
      ['x-other', 'a'],
    ],
  );
  assert.equal(h.get('X-COUNT'), '3');
  assert.equal(h.has('x-other'), true);
  assert.equal(h.size, 3);
});

test('append collects repeated values; delete removes a header; toFlat is a copy', () => {
  const h = new ResponseHeaders();
  h.append('Set-Cookie', 'a=1').append('set-cookie', 'b=2').append('set-cookie', 'c=3');
  h.set('vary', ['accept', 'origin']);
  assert.deepEqual(h.get('set-cookie'), ['a=1', 'b=2', 'c=3']);
  const flat = h.toFlat();
  assert.deepEqual(flat, ['set-cookie', ['a=1', 'b=2', 'c=3'], 'vary', ['accept', 'origin']]);
  flat.push('x', 'y');
  assert.equal(h.size, 2);
  assert.equal(h.delete('SET-COOKIE'), true);
  assert.equal(h.delete('set-cookie'), false);
  assert.deepEqual(h.toObject(), { vary: ['accept', 'origin'] });
});

test('fillFrom adds only missing headers; merge overwrites; a copy does not share arrays', () => {
  const response = new ResponseHeaders({ 'content-type': 'application/json', 'ratelimit-limit': '1' });
  const filters = new ResponseHeaders({ 'RateLimit-Limit': 100, 'RateLimit-Remaining': 99 });
  response.fillFrom(filters);
  assert.deepEqual(response.toObject(), { 'content-type': 'application/json', 'ratelimit-limit': '1', 'ratelimit-remaining': '99' });
  response.merge(filters);
  assert.equal(response.get('ratelimit-limit'), '100');
  const original = new ResponseHeaders({ vary: ['a'] });
  const copy = new ResponseHeaders(original);
  copy.append('vary', 'b');
  assert.deepEqual(original.get('vary'), ['a']);
  assert.deepEqual(copy.get('vary'), ['a', 'b']);
});

test('behaves like a map of lower-case names over any sequence of operations', () => {
  const name = fc.constantFrom('a', 'A', 'b', 'B', 'content-type', 'Content-Type', 'x-y');
  const op = fc.oneof(
    fc.record({ kind: fc.constant('set' as const), name, value: fc.oneof(fc.string(), fc.integer()) }),
    fc.record({ kind: fc.constant('append' as const), name, value: fc.string() }),
    fc.record({ kind: fc.constant('delete' as const), name }),
  );
  fc.assert(
    fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
      const h = new ResponseHeaders();
      const model = new Map<string, string | string[]>();
      for (const o of ops) {
        const key = o.name.toLowerCase();
        if (o.kind === 'set') {
          h.set(o.name, o.value);
          model.set(key, String(o.value));
        } else if (o.kind === 'append') {
          h.append(o.name, o.value);
          const current = model.get(key);
          model.set(key, current === undefined ? o.value : Array.isArray(current) ? [...current, o.value] : [current, o.value]);
        } else {
          assert.equal(h.delete(o.name), model.delete(key));
        }
      }
      assert.deepEqual([...h.entries()], [...model.entries()]);
      assert.deepEqual(h.toFlat(), [...model.entries()].flat(1));
      assert.equal(h.size, model.size);
    }),
    { numRuns: 500 },
  );
});
