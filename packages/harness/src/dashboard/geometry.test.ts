import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DEFAULT_DASHBOARD_WIDTH, GRID_COLUMNS, cellPixelSize, gridColumns, widgetPixelSize } from './geometry.js';

const widget = (x: number | null, y: number | null, width: number, height: number) => ({ widgetId: 'widget-0', x, y, width, height });

test("a 6 × 6 widget is 588 × 369 at the default width, as in AWS's example event", () => {
  assert.deepEqual(cellPixelSize(6, 6, DEFAULT_DASHBOARD_WIDTH), { width: 588, height: 369 });
  assert.deepEqual(widgetPixelSize(widget(null, null, 6, 6), { dashboardWidth: DEFAULT_DASHBOARD_WIDTH, widgetSizes: {} }), {
    width: 588,
    height: 369,
  });
});

test('a placed widget is cut at the grid edge; one without a place keeps its width', () => {
  assert.equal(gridColumns(widget(20, 3, 6, 6)), 4);
  assert.equal(gridColumns(widget(20, null, 6, 6)), 6);
  assert.equal(gridColumns(widget(0, 0, 24, 6)), 24);
});

test('a size of its own replaces the sides it gives', () => {
  const state = { dashboardWidth: 1280, widgetSizes: { 'widget-0': { height: 100 } } };
  assert.deepEqual(widgetPixelSize(widget(0, 0, 6, 6), state), { width: 310, height: 100 });
  assert.deepEqual(widgetPixelSize({ ...widget(0, 0, 6, 6), widgetId: 'widget-1' }, state), { width: 310, height: 369 });
});

test('property: cells side by side add up to the cell that spans them, less one gutter each', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: GRID_COLUMNS - 1 }), fc.integer({ min: 240, max: 100_000 }), (left, width) => {
      const a = cellPixelSize(left, 1, width).width + 10;
      const b = cellPixelSize(GRID_COLUMNS - left, 1, width).width + 10;
      // Each side is rounded on its own: together they are the whole width, give or take a pixel.
      assert.ok(Math.abs(a + b - width) <= 1, `${a} + ${b} against ${width}`);
    }),
  );
});
