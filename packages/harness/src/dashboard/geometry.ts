// The dashboard's geometry: how many pixels a widget's function is told it has. The 24 grid columns span the
// dashboard's width; a row is a fixed height. A widget's cell, less its margins, border and title bar, is the
// area its content has, and that is what `widgetContext.width` × `height` say. The web page lays every card
// out with the same numbers (web/assets/geometry.js, held to these by a test), so a widget is told the size
// it is drawn at.
import type { WidgetModel } from './model.js';

/** Columns of the dashboard grid. */
export const GRID_COLUMNS = 24;

/** Height of one grid row, in pixels. */
export const ROW_HEIGHT = 68;

/**
 * What a card takes from its cell that its content does not get: a 4 px margin on every side, a 1 px border,
 * and a 29 px title bar (its 1 px bottom line included).
 */
export const WIDGET_CHROME = { margin: 4, border: 1, titleBar: 29 } as const;

/** Pixels of a cell that are not the widget's content: 10 across, 39 down. */
export const WIDGET_GUTTER = {
  width: 2 * WIDGET_CHROME.margin + 2 * WIDGET_CHROME.border,
  height: 2 * WIDGET_CHROME.margin + 2 * WIDGET_CHROME.border + WIDGET_CHROME.titleBar,
} as const;

/**
 * The dashboard width of a state that does not say otherwise: the width at which a 6 × 6 widget is told
 * 588 × 369, the size in AWS's example event.
 */
export const DEFAULT_DASHBOARD_WIDTH = 2392;

/** Pixel size, as `widgetContext` carries it. */
export interface PixelSize {
  width: number;
  height: number;
}

/** A size set for one widget: either side, or both; a side left out follows the widget's cell. */
export interface WidgetSizeOverride {
  width?: number;
  height?: number;
}

/**
 * The columns a widget spans on the grid: its `width`, cut at the grid's right edge when it is placed (has
 * both `x` and `y`) too far right, as the console draws it. Widgets without a place go where they fit whole.
 *
 * @example
 * gridColumns({ x: 20, y: 0, width: 6 }); // 4
 */
export function gridColumns(widget: Pick<WidgetModel, 'x' | 'y' | 'width'>): number {
  const placed = widget.x !== null && widget.y !== null;
  return placed ? Math.min(widget.width, GRID_COLUMNS - widget.x!) : widget.width;
}

/**
 * The content size of a cell of `columns` × `rows` on a dashboard `dashboardWidth` pixels wide:
 * `round(columns × dashboardWidth / 24) − 10` across and `rows × 68 − 39` down, never below 1.
 *
 * @example
 * cellPixelSize(6, 6, 2392); // { width: 588, height: 369 }
 * cellPixelSize(6, 6, 1200); // { width: 290, height: 369 }
 */
export function cellPixelSize(columns: number, rows: number, dashboardWidth: number): PixelSize {
  return {
    width: Math.max(1, Math.round((columns * dashboardWidth) / GRID_COLUMNS) - WIDGET_GUTTER.width),
    height: Math.max(1, rows * ROW_HEIGHT - WIDGET_GUTTER.height),
  };
}

/**
 * The pixel size a widget is told: its own override's sides, else its cell's at the dashboard width.
 *
 * @example
 * widgetPixelSize(widget, { dashboardWidth: 2392, widgetSizes: {} }); // { width: 588, height: 369 } for 6 × 6
 * widgetPixelSize(widget, { dashboardWidth: 2392, widgetSizes: { [widget.widgetId]: { width: 300 } } }); // { width: 300, height: 369 }
 */
export function widgetPixelSize(
  widget: Pick<WidgetModel, 'widgetId' | 'x' | 'y' | 'width' | 'height'>,
  state: { dashboardWidth: number; widgetSizes: Readonly<Record<string, WidgetSizeOverride>> },
): PixelSize {
  const cell = cellPixelSize(gridColumns(widget), widget.height, state.dashboardWidth);
  const own = Object.hasOwn(state.widgetSizes, widget.widgetId) ? state.widgetSizes[widget.widgetId] : undefined;
  return { width: own?.width ?? cell.width, height: own?.height ?? cell.height };
}
