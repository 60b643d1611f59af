import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { boundaries, chooseInterval, pointLabeller, tickLabeller } from './time-axis.js';
import { resolveZone, wall } from './time-zone.js';

const H = 3_600_000;
const utc = (iso: string) => Date.parse(iso);

describe('time zones', () => {
  test('the console timezone, UTC, offsets and IANA names resolve, named as tables show them', () => {
    assert.equal(resolveZone('f', undefined).name, 'UTC');
    assert.equal(resolveZone('f', { label: 'UTC', offsetISO: '+00:00', offsetInMinutes: 0 }).name, 'UTC');
    const local = resolveZone('f', { label: 'Local', offsetISO: '+05:30', offsetInMinutes: -330 });
    assert.equal(local.name, 'UTC+05:30');
    assert.equal(local.offset(0), 330);
    assert.equal(resolveZone('f', '-03:00').offset(0), -180);
    const berlin = resolveZone('f', 'Europe/Berlin');
    assert.equal(berlin.name, 'Europe/Berlin');
    assert.equal(berlin.offset(utc('2024-01-15T12:00:00Z')), 60);
    assert.equal(berlin.offset(utc('2024-07-15T12:00:00Z')), 120);
  });

  test('anything else is refused, naming the option', () => {
    assert.throws(
      () => resolveZone('lineChart', 'Mars/Olympus'),
      (e: unknown) => e instanceof TypeError && /^lineChart: timezone must be .*IANA name.*; got "Mars\/Olympus"$/.test(e.message),
    );
    assert.throws(() => resolveZone('lineChart', '+25:00'), /lineChart: timezone must be/);
    assert.throws(
      () => resolveZone('lineChart', { label: 'x', offsetISO: 'x', offsetInMinutes: NaN }),
      /timezone\.offsetInMinutes must be minutes west of UTC/,
    );
    assert.throws(() => resolveZone('lineChart', 42), /timezone must be/);
  });
});

describe('time axis intervals', () => {
  test('the shortest interval that cuts the span into at most so many parts', () => {
    const words = (span: number, count: number) => {
      const i = chooseInterval(span, count);
      return `${i.count} ${i.unit}`;
    };
    assert.equal(words(H, 8), '10 minute');
    assert.equal(words(3 * H, 8), '30 minute');
    assert.equal(words(24 * H, 8), '3 hour');
    assert.equal(words(24 * H, 59), '30 minute');
    assert.equal(words(7 * 24 * H, 8), '1 day');
    assert.equal(words(90 * 24 * H, 8), '1 month');
    assert.equal(words(5 * 60_000, 6), '1 minute');
    assert.equal(words(30_000, 6), '5 second');
    assert.equal(words(8.64e15 * 2, 1), '1000000 year');
  });

  test("boundaries fall on the zone's clock", () => {
    const start = utc('2024-05-01T00:00:00Z');
    const plus530 = resolveZone('f', '+05:30');
    const hours = boundaries(plus530, start, start + 3 * H, chooseInterval(3 * H, 3));
    assert.deepEqual(
      hours.map((t) => new Date(t).toISOString()),
      ['2024-05-01T00:30:00.000Z', '2024-05-01T01:30:00.000Z', '2024-05-01T02:30:00.000Z'],
    );
    const months = boundaries(
      resolveZone('f', 'UTC'),
      utc('2024-01-15T00:00:00Z'),
      utc('2024-05-15T00:00:00Z'),
      chooseInterval(120 * 24 * H, 6),
    );
    assert.deepEqual(
      months.map((t) => new Date(t).toISOString().slice(0, 10)),
      ['2024-02-01', '2024-03-01', '2024-04-01', '2024-05-01'],
    );
  });

  test("across a change to summer time, hours are the wall clock's: 02:00 does not happen", () => {
    const berlin = resolveZone('f', 'Europe/Berlin');
    const start = utc('2024-03-31T00:00:00Z');
    const interval = chooseInterval(6 * H, 6);
    const label = tickLabeller(berlin, 'en', interval);
    assert.deepEqual(boundaries(berlin, start, start + 6 * H, interval).map(label), [
      '01:00',
      '03:00',
      '04:00',
      '05:00',
      '06:00',
      '07:00',
      '08:00',
    ]);
  });

  test('any range in any of these zones gives boundaries in order, inside the range, on whole intervals of the wall clock', () => {
    const zones = ['UTC', '+05:45', '-09:30', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'].map((z) => resolveZone('f', z));
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: 0, max: 4e12 }),
        fc.integer({ min: 1000, max: 4e10 }),
        fc.integer({ min: 2, max: 12 }),
        (zone, start, span, count) => {
          const interval = chooseInterval(span, count);
          const list = boundaries(zone, start, start + span, interval);
          assert.ok(list.length <= count + 2, `${list.length} boundaries for at most ${count} parts`);
          for (let i = 0; i < list.length; i++) {
            assert.ok(list[i]! >= start && list[i]! <= start + span);
            if (i > 0) assert.ok(list[i]! > list[i - 1]!);
            if (interval.ms <= 24 * H)
              assert.ok(
                wall(zone, list[i]!) % Math.min(interval.ms, 24 * H) === 0,
                `${list[i]} is on a whole ${interval.count} ${interval.unit}`,
              );
          }
        },
      ),
    );
  });
});

describe('time labels', () => {
  test('ticks read as times of day, with the date at midnight; months with the year in January', () => {
    const zone = resolveZone('f', 'UTC');
    const hours = tickLabeller(zone, 'en', chooseInterval(24 * H, 8));
    assert.equal(hours(utc('2024-05-01T21:00:00Z')), '21:00');
    assert.equal(hours(utc('2024-05-02T00:00:00Z')), 'May 2');
    const months = tickLabeller(zone, 'en', chooseInterval(300 * 24 * H, 8));
    assert.equal(months(utc('2024-03-01T00:00:00Z')), 'Mar');
    assert.equal(months(utc('2025-01-01T00:00:00Z')), '2025');
    assert.equal(tickLabeller(zone, 'de', chooseInterval(10 * 24 * H, 8))(utc('2024-05-03T00:00:00Z')), '3. Mai');
  });

  test('readouts say the time of day within a day, the date too across days, seconds for close points', () => {
    const zone = resolveZone('f', '+02:00');
    const t = utc('2024-05-01T10:00:05Z');
    assert.equal(pointLabeller(zone, 'en', t, t + H, 60_000)(t), '12:00');
    assert.equal(pointLabeller(zone, 'en', t, t + H, 5_000)(t), '12:00:05');
    assert.equal(pointLabeller(zone, 'en', t, t + 48 * H, 60_000)(t), 'May 1, 12:00');
  });
});
