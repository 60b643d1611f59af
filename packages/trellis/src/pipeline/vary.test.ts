import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ResponseHeaders, addVary } from './index.js';

const varyOf = (headers: ResponseHeaders) => headers.get('vary');

test('adds names after those already there, once each whatever their case, in one value; leaves Vary: * alone', () => {
  const none = new ResponseHeaders();
  addVary(none);
  assert.equal(varyOf(none), undefined, 'nothing to add, no header');
  addVary(none, 'origin');
  assert.equal(varyOf(none), 'origin');
  const set = new ResponseHeaders({ vary: 'Accept-Language,  accept-encoding ' });
  addVary(set, 'origin', 'Accept-Encoding', 'ORIGIN');
  assert.equal(varyOf(set), 'Accept-Language, accept-encoding, origin');
  const appended = new ResponseHeaders().append('vary', 'a').append('vary', 'b, a');
  addVary(appended, 'c');
  assert.equal(varyOf(appended), 'a, b, c', 'several Vary lines become one list');
  const star = new ResponseHeaders({ vary: '*' });
  addVary(star, 'origin');
  assert.equal(varyOf(star), '*');
});

test('property: every name before and added is listed exactly once (without case), the ones before first and in order', () => {
  const name = fc.constantFrom('origin', 'Origin', 'accept', 'Accept-Language', 'accept-language', 'x-tenant', 'cookie');
  fc.assert(
    fc.property(fc.array(name, { maxLength: 5 }), fc.array(name, { maxLength: 5 }), (before, added) => {
      const headers = new ResponseHeaders(before.length ? { vary: before.join(', ') } : {});
      addVary(headers, ...added);
      const all = [...before, ...added];
      if (all.length === 0) return assert.equal(varyOf(headers), undefined);
      const listed = String(varyOf(headers)).split(', ');
      const lower = listed.map((n) => n.toLowerCase());
      assert.equal(new Set(lower).size, listed.length, 'no name twice');
      assert.deepEqual(new Set(lower), new Set(all.map((n) => n.toLowerCase())), 'no name lost, none made up');
      const firstBefore = [...new Map(before.map((n) => [n.toLowerCase(), n])).keys()];
      assert.deepEqual(lower.slice(0, firstBefore.length), firstBefore, 'the names already there keep their place');
    }),
    { numRuns: 500 },
  );
});
