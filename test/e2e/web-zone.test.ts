// The page's wall-clock arithmetic (zone.js) and frame fitting (geometry.js), checked in Node against the
// interpreter: a custom range typed in a zone is the instant the harness reads back in that zone.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { widgetTimezone } from '../../packages/harness/src/dashboard/timezone.js';

const ASSETS = fileURLToPath(new URL('../../packages/harness/src/harness/web/assets/', import.meta.url));
const pageModule = (name: string): Promise<any> => import(pathToFileURL(`${ASSETS}${name}`).href);

const ZONES = ['UTC', '+05:30', '-08:00', '+00:00', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Australia/Lord_Howe'];

describe('page timezones', () => {
  it('agrees with the interpreter on every offset: offsetEast is -offsetInMinutes', async () => {
    const { offsetEast } = await pageModule('zone.js');
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: 0, max: 4.1e12 }), (zone, at) => {
        assert.equal(offsetEast(zone, at), -widgetTimezone(zone, at).offsetInMinutes || 0);
      }),
    );
  });

  it('reads a typed wall-clock time back to the same text, in any zone, away from daylight-saving changes', async () => {
    const { instantOf, offsetEast, wallTime } = await pageModule('zone.js');
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: 0, max: 4.1e12 }), (zone, at) => {
        const minute = at - (at % 60_000);
        // Skip the hours around a change of offset, where a wall-clock time is missing or repeated.
        fc.pre(offsetEast(zone, minute - 3 * 3600_000) === offsetEast(zone, minute + 3 * 3600_000));
        const wall = wallTime(zone, minute);
        assert.match(wall, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);
        assert.equal(instantOf(zone, wall), minute);
      }),
    );
  });

  it('names the instant of midnight in New York as 05:00 UTC in winter and 04:00 in summer', async () => {
    const { instantOf, wallTime } = await pageModule('zone.js');
    assert.equal(instantOf('America/New_York', '2024-01-15T00:00'), Date.UTC(2024, 0, 15, 5));
    assert.equal(instantOf('America/New_York', '2024-07-15T00:00'), Date.UTC(2024, 6, 15, 4));
    assert.equal(wallTime('UTC', Date.UTC(2024, 0, 15, 5)), '2024-01-15T05:00');
    assert.equal(instantOf('UTC', 'not a time'), null);
  });
});

describe('frame fitting', () => {
  it('scales a frame into its room without distorting it, never above 1', async () => {
    const { fitScale } = await pageModule('geometry.js');
    const box = fc.record({ width: fc.integer({ min: 1, max: 5000 }), height: fc.integer({ min: 1, max: 5000 }) });
    fc.assert(
      fc.property(box, box, (size, room) => {
        const k = fitScale(size, room);
        assert.ok(k > 0 && k <= 1);
        assert.ok(size.width * k <= room.width + 1e-9 && size.height * k <= room.height + 1e-9);
        // As large as it can be: one side touches, or it is at full size.
        assert.ok(k === 1 || Math.abs(size.width * k - room.width) < 1e-6 || Math.abs(size.height * k - room.height) < 1e-6);
      }),
    );
  });
});
