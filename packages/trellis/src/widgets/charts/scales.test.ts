import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extent, linearScale, valueTicks } from './scales.js';

test('value ticks are nice steps that cover the data', () => {
  assert.deepEqual(valueTicks(3.2, 97.1, 5).ticks, [0, 20, 40, 60, 80, 100]);
  assert.deepEqual(valueTicks(0, 1, 4).ticks, [0, 0.5, 1]);
  assert.deepEqual(valueTicks(0, 1, 5).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
  assert.equal(valueTicks(0, 1, 5).decimals, 1);
  assert.equal(valueTicks(0, 0.01, 5).decimals, 3);
  assert.deepEqual(valueTicks(-12, 7, 4).ticks, [-15, -10, -5, 0, 5, 10]);
  assert.deepEqual(valueTicks(0.1, 0.3, 2).ticks, [0.1, 0.2, 0.3]);
});

test('a single value is widened around it; fixed ends stay where given', () => {
  assert.deepEqual(valueTicks(5, 5, 4).ticks, [4.5, 5, 5.5]);
  assert.deepEqual(valueTicks(0, 0, 2).ticks, [-1, 0, 1]);
  const fixed = valueTicks(3, 97, 5, { min: 0, max: 100 });
  assert.equal(fixed.min, 0);
  assert.equal(fixed.max, 100);
});

test('any finite range gives at least two ticks, in order, within the domain, and a domain that holds the data', () => {
  fc.assert(
    fc.property(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: 2, max: 8 }),
      (a, b, count) => {
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        const t = valueTicks(lo, hi, count);
        assert.ok(t.ticks.length >= 2 && t.ticks.length <= 51, `${t.ticks.length} ticks`);
        // Within a millionth of a step: ends that close to a tick are on it.
        assert.ok(t.min <= lo + t.step * 1e-6 && t.max >= hi - t.step * 1e-6, `${t.min}..${t.max} holds ${lo}..${hi}`);
        for (let i = 1; i < t.ticks.length; i++) assert.ok(t.ticks[i]! > t.ticks[i - 1]!);
        for (const tick of t.ticks) assert.ok(Number.isFinite(tick) && tick >= t.min && tick <= t.max);
        const y = linearScale(t.min, t.max, 100, 0);
        assert.ok(Math.abs(y(lo)) <= 100.000001 && y(lo) >= -0.000001 && y(hi) >= -0.000001);
      },
    ),
  );
});

test('a linear scale maps the ends of its domain to the ends of its range, and a point domain to the middle', () => {
  const x = linearScale(10, 20, 0, 200);
  assert.equal(x(10), 0);
  assert.equal(x(15), 100);
  assert.equal(x(20), 200);
  assert.equal(linearScale(-Number.MAX_VALUE, Number.MAX_VALUE, 0, 100)(0), 50);
  assert.equal(linearScale(5, 5, 0, 100)(5), 50);
});

test('extent skips gaps and is undefined without numbers', () => {
  assert.deepEqual(extent([3, NaN, -1, 7]), { min: -1, max: 7 });
  assert.equal(extent([NaN]), undefined);
  assert.equal(extent([]), undefined);
});

test('a domain whose ends are too close to tell apart maps to the middle, never to NaN', () => {
  const scale = linearScale(7.4e-323, 8e-323, 27.5, 2.5);
  assert.equal(scale(7.4e-323), 15);
  assert.equal(scale(8e-323), 15);
});
