// Data tables: the charts' accessible fallback (in a <details> under each chart), and `dataTable` on its own.
import { SafeHtml, escapeHtml } from '../html.js';
import { refuse } from './options.js';
import { valueFormatter, withUnit } from './format.js';
import { usageError } from '../../errors/index.js';

/**
 * A table cell: text (escaped), a number (formatted), `SafeHtml` (inserted as is) or nothing (`null`,
 * `undefined`, `NaN`: "–").
 *
 * @example
 * const row: TableCell[] = ['checkout', 3, sparkline({ values: [0, 1, 3] }), null];
 */
export type TableCell = string | number | SafeHtml | null | undefined;

/**
 * A column: its heading, and whether its cells line up at the end (numbers do by default).
 *
 * @example
 * const column: DataTableColumn = { label: 'Instance', align: 'start' };
 */
export interface DataTableColumn {
  label: string;
  align?: 'start' | 'end';
}

/**
 * What `dataTable` takes.
 *
 * @example
 * const options: DataTableOptions = { columns: ['Region', 'Errors'], rows: [['eu-west-1', 4]], summary: 'Errors by region' };
 */
export interface DataTableOptions {
  /** Headings, one per column. */
  columns: readonly (string | DataTableColumn)[];
  /** Rows of cells, each as long as `columns`. */
  rows: readonly (readonly TableCell[])[];
  /** A `<caption>`. */
  caption?: string;
  /** When given, the table is folded in a `<details>` with this `<summary>`. */
  summary?: string;
  /** With `summary`: whether the details start open. */
  open?: boolean;
  /** Shown as the only row when there are no rows. Default `No data`. */
  emptyText?: string;
  /** For numbers (`Intl`). Default `en`. */
  locale?: string;
  /** Formats number cells. Default: `Intl.NumberFormat`, two decimals at most. */
  formatValue?: (value: number) => string;
  /** Appended to number cells. */
  unit?: string;
}

/** The dash written for no data. */
export const NO_DATA = '–';

/** One table, its cells already text or SafeHtml; `end` says which columns line up at the end. */
export function tableHtml(parts: {
  head: readonly string[];
  rows: readonly (readonly (string | SafeHtml)[])[];
  end: readonly boolean[];
  caption?: string | undefined;
  summary?: string | undefined;
  open?: boolean;
  emptyText: string;
  /** Alignment by CSS (the charts' style sheet) instead of a style attribute per cell. */
  styled?: boolean;
}): string {
  const align = (i: number) => (parts.end[i] && !parts.styled ? ' style="text-align:right"' : '');
  const cell = (c: string | SafeHtml) => (c instanceof SafeHtml ? c.toString() : escapeHtml(c));
  let out = parts.summary === undefined ? '' : `<details${parts.open ? ' open' : ''}><summary>${escapeHtml(parts.summary)}</summary>`;
  out += '<table>';
  if (parts.caption) out += `<caption>${escapeHtml(parts.caption)}</caption>`;
  out += '<thead><tr>';
  for (let i = 0; i < parts.head.length; i++) out += `<th scope="col"${align(i)}>${escapeHtml(parts.head[i]!)}</th>`;
  out += '</tr></thead><tbody>';
  if (parts.rows.length === 0) out += `<tr><td colspan="${Math.max(1, parts.head.length)}">${escapeHtml(parts.emptyText)}</td></tr>`;
  for (const row of parts.rows) {
    // The first cell heads its row.
    out += `<tr><th scope="row"${align(0)}>${cell(row[0] ?? '')}</th>`;
    for (let i = 1; i < row.length; i++) out += `<td${align(i)}>${cell(row[i]!)}</td>`;
    out += '</tr>';
  }
  out += '</tbody></table>';
  return parts.summary === undefined ? out : `${out}</details>`;
}

/**
 * A data table: numbers formatted for the locale and lined up at the end, text escaped, `SafeHtml` cells (a
 * `sparkline`, a link made with `html`) inserted as they are. The first cell of each row heads the row. With
 * `summary`, the table is folded in a `<details>`. The table fallback of the charts, and a table in its own right.
 *
 * @example
 * dataTable({
 *   columns: ['Function', 'Errors', 'Trend'],
 *   rows: [['checkout', 3, sparkline({ values: [0, 1, 0, 2] })], ['search', null, null]],
 *   unit: 'errors',
 * });
 */
export function dataTable(options: DataTableOptions): SafeHtml {
  const fn = 'dataTable';
  if (options === null || typeof options !== 'object') refuse(fn, 'options', 'an object', options);
  const { columns, rows } = options;
  if (!Array.isArray(columns) || columns.length === 0) refuse(fn, 'columns', 'a non-empty array of headings', columns);
  if (!Array.isArray(rows)) refuse(fn, 'rows', 'an array of rows (arrays of cells)', rows);
  const heads = (columns as readonly (string | DataTableColumn)[]).map((c, i) => {
    const col = typeof c === 'string' ? { label: c } : c;
    if (!col || typeof col.label !== 'string') refuse(fn, `columns[${i}]`, 'a heading or { label, align? }', c);
    if (col.align !== undefined && col.align !== 'start' && col.align !== 'end')
      refuse(fn, `columns[${i}].align`, '"start" or "end"', col.align);
    return col;
  });
  const format = valueFormatter(options.locale ?? 'en', options.formatValue);
  const unit = options.unit ?? '';
  const numeric = heads.map(() => true);
  const text = rows.map((row, r) => {
    if (!Array.isArray(row)) refuse(fn, `rows[${r}]`, 'an array of cells', row);
    if (row.length !== heads.length) {
      throw usageError('TRELLIS_INVALID_ARGUMENT', `${fn}: rows[${r}] must have one cell per column (${heads.length}); got ${row.length}`);
    }
    return row.map((c: unknown, i: number): string | SafeHtml => {
      if (c instanceof SafeHtml) {
        numeric[i] = false;
        return c;
      }
      if (c === null || c === undefined || (typeof c === 'number' && !Number.isFinite(c))) return NO_DATA;
      if (typeof c === 'number') return withUnit(format(c), unit);
      if (typeof c !== 'string') refuse(fn, `rows[${r}][${i}]`, 'text, a number, SafeHtml or null', c);
      numeric[i] = false;
      return c;
    });
  });
  return new SafeHtml(
    tableHtml({
      head: heads.map((h) => h.label),
      rows: text,
      end: heads.map((h, i) => (h.align ? h.align === 'end' : numeric[i]! && i > 0)),
      caption: options.caption,
      summary: options.summary,
      open: options.open === true,
      emptyText: options.emptyText ?? 'No data',
    }),
  );
}
