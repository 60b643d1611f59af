// The options every chart shares, how a widget's event or context fills them in, and the input checks.
import type { WidgetContext, WidgetTimeRange } from '../types.js';
import { usageError } from '../../errors/index.js';

/**
 * `auto` (the default) follows the console: dark colours under an ancestor of class `cwdb-theme-dark`, so
 * a theme switch needs no new render. `light` and `dark` fix the colours.
 *
 * @example
 * lineChart({ series, theme: event.widgetContext.theme }); // fixed to the theme of this render
 */
export type ChartTheme = 'auto' | 'light' | 'dark';

/**
 * The parts of `widgetContext` a chart reads.
 *
 * @example
 * const fields: ChartContextFields = { width: 600, height: 300, locale: 'de', timezone: event.widgetContext.timezone };
 */
export type ChartContextFields = Partial<Pick<WidgetContext<unknown>, 'width' | 'height' | 'timezone' | 'locale' | 'timeRange' | 'title'>>;

/**
 * The widget's event as the function received it, its `widgetContext`, or just `{ width, height }`.
 *
 * @example
 * lineChart({ context: event, series });                   // the event
 * lineChart({ context: event.widgetContext, series });     // its context
 * lineChart({ context: { width: 480, height: 200 }, series });
 */
export type ChartContext = ChartContextFields | { readonly widgetContext: ChartContextFields };

/**
 * A value to plot: `null`, `undefined`, `NaN` and ±Infinity are gaps (no data).
 *
 * @example
 * const values: ChartValue[] = [12, null, 14]; // a gap in the middle
 */
export type ChartValue = number | null | undefined;

/**
 * A colour for one series, bar or slice: `#rgb` or `#rrggbb`, or one per theme.
 *
 * @example
 * const brand: ChartColor = { light: '#0972d3', dark: '#539fe5' };
 */
export type ChartColor = string | { readonly light: string; readonly dark: string };

/**
 * Options every chart takes.
 *
 * @example
 * const common: ChartOptions = { context: event, title: 'Latency', unit: 'ms', formatValue: (v) => v.toFixed(0) };
 */
export interface ChartOptions {
  /**
   * The widget's event (or its `widgetContext`): the chart takes its size, locale and (time series) time zone
   * and time range from it, unless the options below say otherwise.
   */
  context?: ChartContext;
  /** Width in pixels (the SVG still shrinks to fit narrower room). Default: the context's, else 600. */
  width?: number;
  /** Height in pixels, data table summary included. Default: the context's, else 300. */
  height?: number;
  /** The chart's accessible name (its SVG `<title>`). Default: the context's widget title, else the kind of chart. */
  title?: string;
  /** The chart's accessible description (its SVG `<desc>`). Default: a summary of the data. */
  description?: string;
  /** Default `auto`. */
  theme?: ChartTheme;
  /** For numbers and dates (`Intl`). Default: the context's, else `en`. */
  locale?: string;
  /**
   * The id of the chart's element (letters, digits, `-`, `_`; starts with a letter), which scopes its style. Default:
   * one made from the content, the same on every render of the same chart (two identical charts share it, harmlessly).
   */
  id?: string;
  /** Whether a `<details>` data table follows the chart. Default `true`. */
  table?: boolean;
  /** The text of the data table's `<summary>`. Default `Data`. */
  tableSummary?: string;
  /** Shown when there is no data. Default `No data`. */
  emptyText?: string;
  /** Formats values in readouts, the data table and the value axis. Default: `Intl.NumberFormat` for `locale`. */
  formatValue?: (value: number) => string;
  /** Appended to values in readouts and the data table: `%`, `ms`, `Count`. */
  unit?: string;
}

/** The common options resolved: every value checked and defaulted. */
export interface Resolved {
  readonly fn: string;
  readonly width: number;
  readonly height: number;
  readonly title: string;
  readonly description: string | undefined;
  readonly theme: ChartTheme;
  readonly locale: string;
  readonly id: string | undefined;
  readonly table: boolean;
  readonly tableSummary: string;
  readonly emptyText: string;
  readonly unit: string;
  readonly formatValue: ((value: number) => string) | undefined;
  readonly context: ChartContextFields;
}

/** How a value was given, for error messages. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (value instanceof Date) return `Date(${String(value.getTime())})`;
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** Refuses input: `fn: option must be …; got …`. */
export function refuse(fn: string, option: string, expected: string, got: unknown): never {
  throw usageError('TRELLIS_INVALID_ARGUMENT', `${fn}: ${option} must be ${expected}; got ${shown(got)}`);
}

/** The context's fields, whether the event or the context itself was given. */
export function contextFields(fn: string, context: unknown): ChartContextFields {
  if (context === undefined || context === null) return {};
  if (typeof context !== 'object') refuse(fn, 'context', "the widget's event or its widgetContext", context);
  const inner = (context as { widgetContext?: unknown }).widgetContext;
  return inner && typeof inner === 'object' ? inner : context;
}

function size(fn: string, option: string, given: unknown, fromContext: unknown, inset: number, fallback: number): number {
  if (given !== undefined) {
    if (typeof given !== 'number' || !Number.isFinite(given) || given < 1) refuse(fn, option, 'a number of pixels, at least 1', given);
    return Math.round(given);
  }
  // The console's widget content has padding; a chart sized from the context leaves room for it.
  if (typeof fromContext === 'number' && Number.isFinite(fromContext) && fromContext > 0)
    return Math.max(Math.round(fromContext - inset), 40);
  return fallback;
}

const ID = /^[A-Za-z][\w-]*$/;
const THEMES: readonly ChartTheme[] = ['auto', 'light', 'dark'];

function optionalString(fn: string, option: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') refuse(fn, option, 'a string', value);
  return value;
}

/** Checks and defaults the common options; `kind` names the chart in the default title. */
export function resolveCommon(
  fn: string,
  options: ChartOptions,
  defaults: { kind: string; width: number; height: number; table: boolean },
): Resolved {
  if (options === null || typeof options !== 'object') refuse(fn, 'options', 'an object', options);
  const context = contextFields(fn, options.context);
  const table = options.table ?? defaults.table;
  if (typeof table !== 'boolean') refuse(fn, 'table', 'true or false', table);
  const theme = options.theme ?? 'auto';
  if (!THEMES.includes(theme)) refuse(fn, 'theme', 'one of "auto", "light", "dark"', theme);
  const id = optionalString(fn, 'id', options.id);
  if (id !== undefined && !ID.test(id)) refuse(fn, 'id', 'letters, digits, "-" and "_", starting with a letter', id);
  if (options.formatValue !== undefined && typeof options.formatValue !== 'function')
    refuse(fn, 'formatValue', 'a function', options.formatValue);
  const contextTitle = typeof context.title === 'string' && context.title.trim() !== '' ? context.title : undefined;
  return {
    fn,
    width: size(fn, 'width', options.width, context.width, 24, defaults.width),
    // Room for the console's padding and, with a table, the line of its summary.
    height: size(fn, 'height', options.height, context.height, table ? 44 : 16, defaults.height),
    title: optionalString(fn, 'title', options.title) ?? contextTitle ?? defaults.kind,
    description: optionalString(fn, 'description', options.description),
    theme,
    locale: resolveLocale(optionalString(fn, 'locale', options.locale) ?? context.locale),
    id,
    table,
    tableSummary: optionalString(fn, 'tableSummary', options.tableSummary) ?? 'Data',
    emptyText: optionalString(fn, 'emptyText', options.emptyText) ?? 'No data',
    unit: optionalString(fn, 'unit', options.unit) ?? '',
    formatValue: options.formatValue,
    context,
  };
}

const locales = new Map<string, string>();

/** A locale `Intl` knows, else `en`: the console's locale is a hint, not something to fail on. */
function resolveLocale(locale: unknown): string {
  if (typeof locale !== 'string' || locale === '') return 'en';
  let known = locales.get(locale);
  if (known === undefined) {
    try {
      known = Intl.getCanonicalLocales(locale)[0] ?? 'en';
    } catch {
      known = 'en';
    }
    if (locales.size > 100) locales.clear();
    locales.set(locale, known);
  }
  return known;
}

/** The time range a chart shows when the options give none: the context's zoom, else its range. */
export function contextRange(range: WidgetTimeRange | undefined): { start: number; end: number } | undefined {
  const r = range?.zoom ?? range;
  if (!r || !Number.isFinite(r.start) || !Number.isFinite(r.end) || r.end <= r.start) return undefined;
  return { start: r.start, end: r.end };
}

/** A time given as epoch milliseconds or a Date; `undefined` for anything else. */
export function toTime(value: unknown): number | undefined {
  const t = value instanceof Date ? value.getTime() : value;
  return typeof t === 'number' && Number.isFinite(t) ? t : undefined;
}

/** A value as a number to plot, or NaN for a gap. */
export function toValue(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : NaN;
}

/** A value that must be a number or a gap; anything else (a string, an object) is refused. */
export function checkedValue(fn: string, option: string, value: unknown): number {
  if (value === null || value === undefined || typeof value === 'number') return toValue(value);
  return refuse(fn, option, 'a number, or null for no data', value);
}
