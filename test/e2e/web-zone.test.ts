// The page's wall-clock arithmetic (zone.js) and geometry (geometry.js, layout.js), checked in Node against the
// interpreter: a custom range typed in a zone is the instant the harness reads back in that zone, and a widget
// drawn on the page has the pixel size the harness tells its function for the same dashboard width.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { widgetTimezone } from '../../packages/harness/src/dashboard/timezone.js';
import * as geometry from '../../packages/harness/src/dashboard/geometry.js';
import { parseDashboard } from '../../packages/harness/src/dashboard/index.js';

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

describe('page geometry', () => {
  it('has the constants of the harness', async () => {
    const page = await pageModule('geometry.js');
    for (const name of ['GRID_COLUMNS', 'ROW_HEIGHT', 'WIDGET_CHROME', 'WIDGET_GUTTER', 'DEFAULT_DASHBOARD_WIDTH'] as const) {
      assert.deepEqual(page[name], geometry[name], name);
    }
    const { COLUMNS } = await pageModule('layout.js');
    assert.equal(COLUMNS, geometry.GRID_COLUMNS);
    // AWS's example event: a 6 × 6 widget is 588 × 369 at the default width.
    assert.deepEqual(page.cellPixelSize(6, 6, page.DEFAULT_DASHBOARD_WIDTH), { width: 588, height: 369 });
  });

  it('sizes every cell as the harness does, at any dashboard width', async () => {
    const page = await pageModule('geometry.js');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 240, max: 100_000 }),
        (columns, rows, width) => {
          assert.deepEqual(page.cellPixelSize(columns, rows, width), geometry.cellPixelSize(columns, rows, width));
        },
      ),
    );
  });

  it('places widgets on the columns the harness sizes them by, and each card holds exactly its cell', async () => {
    const page = await pageModule('geometry.js');
    const { placeWidgets } = await pageModule('layout.js');
    const widget = fc.record(
      {
        x: fc.integer({ min: 0, max: 23 }),
        y: fc.integer({ min: 0, max: 40 }),
        width: fc.integer({ min: 1, max: 24 }),
        height: fc.integer({ min: 1, max: 20 }),
      },
      { requiredKeys: [] },
    );
    const sizes = fc.dictionary(
      fc.nat(7).map(String),
      fc.record({ width: fc.integer({ min: 1, max: 5000 }), height: fc.integer({ min: 1, max: 5000 }) }, { requiredKeys: ['width'] }),
    );
    fc.assert(
      fc.property(
        fc.array(widget, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 480, max: 4000 }),
        sizes,
        (written, width, widgetSizes) => {
          const model = parseDashboard(
            JSON.stringify({ widgets: written.map((w) => ({ type: 'custom', properties: { endpoint: 'f' }, ...w })) }),
          );
          const places = placeWidgets(written);
          const state = {
            dashboardWidth: width,
            widgetSizes: Object.fromEntries(
              Object.entries(widgetSizes)
                .filter(([i]) => Number(i) < written.length)
                .map(([i, s]) => [`widget-${i}`, s]),
            ),
          };
          model.widgets.forEach((m, i) => {
            assert.equal(places[i].width, geometry.gridColumns(m));
            assert.equal(places[i].height, m.height);
            const w = { widgetId: m.widgetId, place: places[i] };
            assert.deepEqual(page.widgetSize(w, state, width), geometry.widgetPixelSize(m, state));
            // The card less its border and title bar is the cell's content size.
            const box = page.cardBox(places[i], width);
            const cell = geometry.cellPixelSize(places[i].width, places[i].height, width);
            assert.equal(box.width - 2 * geometry.WIDGET_CHROME.border, cell.width);
            assert.equal(box.height - 2 * geometry.WIDGET_CHROME.border - geometry.WIDGET_CHROME.titleBar, cell.height);
          });
        },
      ),
    );
  });
});
