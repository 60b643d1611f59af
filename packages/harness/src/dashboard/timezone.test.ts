// The timezone the console sends: offsetInMinutes has getTimezoneOffset()'s sign (positive west of UTC).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { widgetTimezone } from './timezone.js';

describe('widgetTimezone', () => {
  it('gives UTC+01:00 as -60 and UTC-05:00 as 300, as Date.prototype.getTimezoneOffset() does', () => {
    assert.deepEqual(widgetTimezone('+01:00', 0), { label: 'Local', offsetISO: '+01:00', offsetInMinutes: -60 });
    assert.deepEqual(widgetTimezone('-05:00', 0), { label: 'Local', offsetISO: '-05:00', offsetInMinutes: 300 });
    assert.deepEqual(widgetTimezone('UTC', 0), { label: 'UTC', offsetISO: '+00:00', offsetInMinutes: 0 });
    assert.equal(Object.is(widgetTimezone('+00:00', 0).offsetInMinutes, -0), false);
  });

  it('follows daylight saving time in IANA zones', () => {
    const january = Date.UTC(2024, 0, 15);
    const july = Date.UTC(2024, 6, 15);
    assert.equal(widgetTimezone('America/New_York', january).offsetInMinutes, 300);
    assert.equal(widgetTimezone('America/New_York', july).offsetInMinutes, 240);
    assert.equal(widgetTimezone('Europe/Berlin', july).offsetInMinutes, -120);
  });

  it('turns any instant into local time with utc - offsetInMinutes * 60000, matching offsetISO', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('-', '+'),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 4e12 }),
        (sign, h, m, at) => {
          const zone = `${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`;
          const tz = widgetTimezone(zone, at);
          const east = (sign === '-' ? -1 : 1) * (h * 60 + m);
          assert.equal(tz.offsetInMinutes, east === 0 ? 0 : -east);
          // The local wall-clock time, read back with offsetISO, is the same instant.
          const local = new Date(at - tz.offsetInMinutes * 60_000).toISOString();
          assert.equal(Date.parse(local.replace('Z', tz.offsetISO)), at);
        },
      ),
    );
  });
});
