import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decimal } from './headers.js';

test('decimal writes every whole number exactly as String does', () => {
  for (const n of [0, 1, 9, 10, 99, 100, 101, 999, 1000, 1_000_000_000, 999_999_999, 0x7fffffff, 0x80000000, 2 ** 53, -1, 1.5, NaN]) {
    assert.equal(decimal(n), String(n));
  }
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0x7fffffff }), (n) => decimal(n) === String(n)),
    { numRuns: 5000 },
  );
});
