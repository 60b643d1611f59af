import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseIsoDateTime, parseRelative, resolveRelative, type DurationParts } from './time-range.js';

const NOW = Date.UTC(2024, 4, 31, 12, 0, 0);

/** Parts as relative text (`-P1DT3H`): the canonical form parseRelative reads back. */
function formatRelative(p: DurationParts): string {
  const date = `${p.years ? `${p.years}Y` : ''}${p.months ? `${p.months}M` : ''}${p.weeks ? `${p.weeks}W` : ''}${p.days ? `${p.days}D` : ''}`;
  const time = `${p.hours ? `${p.hours}H` : ''}${p.minutes ? `${p.minutes}M` : ''}${p.seconds ? `${p.seconds}S` : ''}`;
  return `-P${date}${time ? `T${time}` : ''}`;
}

test('relative starts resolve against the given clock', () => {
  const at = (text: string): number => resolveRelative(parseRelative(text)!, NOW)!;
  assert.equal(at('-PT5M'), NOW - 5 * 60_000);
  assert.equal(at('-PT3H'), NOW - 3 * 3600_000);
  assert.equal(at('-P7D'), NOW - 7 * 86_400_000);
  assert.equal(at('-P1W'), NOW - 7 * 86_400_000);
  assert.equal(at('-P1DT12H'), NOW - 36 * 3600_000);
  // 31 May minus three months is 29 February in a leap year (clamped, not 2 March).
  assert.equal(at('-P3M'), Date.UTC(2024, 1, 29, 12));
  assert.equal(at('-P1Y'), Date.UTC(2023, 4, 31, 12));
});

test('text that is not a negative, non-zero duration is refused', () => {
  for (const bad of ['PT3H', '-P', '-PT', '-PT0S', '-P1DT', '-PT3h', '3h', '', '-P1.5D', '-P99999999Y', '+PT3H']) {
    assert.equal(parseRelative(bad), null, bad);
  }
});

const partsArb: fc.Arbitrary<DurationParts> = fc
  .record({
    years: fc.integer({ min: 0, max: 50 }),
    months: fc.integer({ min: 0, max: 24 }),
    weeks: fc.integer({ min: 0, max: 60 }),
    days: fc.integer({ min: 0, max: 400 }),
    hours: fc.integer({ min: 0, max: 100 }),
    minutes: fc.integer({ min: 0, max: 1000 }),
    seconds: fc.integer({ min: 0, max: 100_000 }),
  })
  .filter((p) => Object.values(p).some((v) => v > 0));

test('property: format then parse gives the same duration, and it always lies in the past', () => {
  fc.assert(
    fc.property(partsArb, fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) }), (parts, now) => {
      const text = formatRelative(parts);
      assert.deepEqual(parseRelative(text), { ...parts });
      const start = resolveRelative(parts, now);
      assert.ok(start !== null && start < now, text);
    }),
  );
});

test('property: the relative parser never throws on any string', () => {
  fc.assert(
    fc.property(fc.string(), (s) => {
      parseRelative(s);
    }),
  );
  fc.assert(
    fc.property(fc.string(), (s) => {
      parseIsoDateTime(s);
    }),
  );
});

test('property: ISO 8601 instants round-trip through toISOString', () => {
  fc.assert(
    fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), (ms) => {
      assert.equal(parseIsoDateTime(new Date(ms).toISOString()), ms);
    }),
  );
});

test('ISO 8601: zones, date only, and impossible dates', () => {
  assert.equal(parseIsoDateTime('2024-05-01T12:00:00Z'), Date.UTC(2024, 4, 1, 12));
  assert.equal(parseIsoDateTime('2024-05-01T14:00:00+02:00'), Date.UTC(2024, 4, 1, 12));
  assert.equal(parseIsoDateTime('2024-05-01T07:30-0430'), Date.UTC(2024, 4, 1, 12));
  assert.equal(parseIsoDateTime('2024-05-01'), Date.UTC(2024, 4, 1));
  for (const bad of ['2023-02-29', '2024-13-01', '2024-05-01T24:00:00Z', '2024-05-01T12:00:00+25:00', 'yesterday', '1714564800000']) {
    assert.equal(parseIsoDateTime(bad), null, bad);
  }
});
