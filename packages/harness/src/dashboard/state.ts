import { UnprocessableError } from './errors.js';
import type { DashboardModel, WidgetModel } from './model.js';
import { DEFAULT_DASHBOARD_WIDTH, type WidgetSizeOverride } from './geometry.js';
import { widgetSizesOf } from './state-size.js';
import { isRecord, schemaCheck, schemaProblemMessage, showValue, withoutUndefined, type JsonSchema } from './functions/index.js';
import { INSTANT, stateInputSchema, timeRangeSchema } from './state-schema.js';
import { parseIsoDateTime, parseRelative, resolveRelative } from './time-range.js';
import { timezoneOffset } from './timezone.js';

/** A zoomed part of the time range, epoch milliseconds. */
export interface Zoom {
  start: number;
  end: number;
}

/** The time range of a state: relative to now, or absolute (epoch ms; `end: null` means "now"). */
export type StateTimeRange = { relative: string; zoom?: Zoom } | { start: number; end: number | null; zoom?: Zoom };

/**
 * The effective dashboard state. Every field is set; it is also a valid input to `putState`, so a state
 * read can be written back unchanged.
 */
export interface DashboardState {
  timeRange: StateTimeRange;
  period: number | 'auto';
  theme: 'light' | 'dark';
  timezone: string;
  locale: string;
  accountId: string;
  dashboardName: string;
  linkCharts: boolean;
  /**
   * The width, in pixels, that the 24 grid columns span: every widget's pixel size follows from its cell at
   * this width (see `cellPixelSize`). The web page sends the width of its dashboard area.
   */
  dashboardWidth: number;
  /** Sizes set for single widgets, by widget id: they replace the cell's size on the sides they give. */
  widgetSizes: Record<string, WidgetSizeOverride>;
}

/** What `putState` accepts: any subset of the state (omitted fields take the dashboard's defaults). */
export interface StateInput {
  timeRange?: { relative?: string; start?: string | number; end?: string | number | null; zoom?: ZoomInput | null };
  zoom?: ZoomInput | null;
  period?: number | 'auto';
  theme?: 'light' | 'dark';
  timezone?: string;
  locale?: string;
  accountId?: string;
  dashboardName?: string;
  linkCharts?: boolean;
  dashboardWidth?: number;
  /** Keyed by widget index (`"3"`) or id (`"widget-3"`); the effective state keys them by id. */
  widgetSizes?: Record<string, WidgetSizeOverride>;
}

/** A zoom as given: ISO 8601 strings or epoch ms. */
export interface ZoomInput {
  start: string | number;
  end: string | number;
}

export const AUTO_PERIOD_SECONDS = 300;
/** Every field of a dashboard's state, in the order the API documents them: the state schema's properties. */
export const STATE_FIELDS: readonly string[] = Object.keys(stateInputSchema.properties as object);
/** Fields a state once had, and what took their place. */
const RETIRED_FIELDS: Record<string, string> = {
  width: '"width" and "height" are no longer state fields: set "dashboardWidth" for every widget, or "widgetSizes" for one',
  height: '"width" and "height" are no longer state fields: set "dashboardWidth" for every widget, or "widgetSizes" for one',
};

/**
 * The state a dashboard starts with: its own `start`/`end` or the last 3 hours, period auto, light theme, UTC,
 * `en`, account `123456789012`.
 *
 * @example
 * defaultState(model, 'ops').timeRange; // { relative: '-PT3H' }
 */
export function defaultState(model: DashboardModel, dashboardName: string): DashboardState {
  let timeRange: StateTimeRange = { relative: '-PT3H' };
  if (model.start !== null) {
    if (parseRelative(model.start)) timeRange = { relative: model.start };
    else {
      const start = parseIsoDateTime(model.start) ?? 0;
      timeRange = { start, end: model.end === null ? null : parseIsoDateTime(model.end) };
    }
  }
  return {
    timeRange,
    period: 'auto',
    theme: 'light',
    timezone: 'UTC',
    locale: 'en',
    accountId: '123456789012',
    dashboardName,
    linkCharts: true,
    dashboardWidth: DEFAULT_DASHBOARD_WIDTH,
    widgetSizes: {},
  };
}

/**
 * Validates a state object and fills what it omits from `defaults`. Throws {@link UnprocessableError} naming
 * the first bad field (`timeRange.start`, `theme`, `widgetSizes.3.width`, …); nothing is changed then.
 * `widgets` are the dashboard's: `widgetSizes` may name only its custom widgets (without them, any widget id).
 *
 * @example
 * normalizeState({ theme: 'dark' }, defaults).theme; // 'dark'
 * normalizeState({ widgetSizes: { 3: { width: 400 } } }, defaults, model.widgets).widgetSizes; // { 'widget-3': { width: 400 } }
 */
export function normalizeState(written: unknown, defaults: DashboardState, widgets?: readonly WidgetModel[]): DashboardState {
  const input = withoutUndefined(written);
  if (!isRecord(input)) throw new UnprocessableError('state', `The state should be an object, not ${showValue(input)}`);
  const retired = Object.keys(input).find((key) => Object.hasOwn(RETIRED_FIELDS, key));
  if (retired) {
    throw new UnprocessableError(
      retired,
      `Unknown field "${retired}" (${RETIRED_FIELDS[retired]}); known fields are ${STATE_FIELDS.join(', ')}`,
    );
  }
  const problem = checkStateInput(input);
  if (problem) throw new UnprocessableError(problem.path.join('.'), schemaProblemMessage(problem));
  const given = input as StateInput;
  const state: DashboardState = { ...defaults };
  if (given.timeRange !== undefined) state.timeRange = timeRangeOf(given.timeRange);
  if (given.zoom != null) {
    if (given.timeRange?.zoom != null) {
      throw new UnprocessableError('zoom', 'Give the zoom once: either "zoom" or "timeRange.zoom", not both');
    }
    state.timeRange = { ...state.timeRange, zoom: zoomOf(given.zoom, 'zoom') };
  }
  if (given.timezone !== undefined && timezoneOffset(given.timezone, 0) === null) {
    refuse('timezone', described('timezone'), given.timezone);
  }
  if (given.locale !== undefined && !isLocale(given.locale)) {
    refuse('locale', described('locale'), given.locale);
  }
  const { timeRange: _t, zoom: _z, widgetSizes, ...plain } = given;
  Object.assign(state, plain);
  if (widgetSizes !== undefined) state.widgetSizes = widgetSizesOf(widgetSizes, widgets);
  return state;
}

const checkStateInput = schemaCheck(stateInputSchema);
/** What the schema says a field should be. */
const described = (field: string, schema: JsonSchema = stateInputSchema): string =>
  (schema.properties as Record<string, { description: string }>)[field]!.description;

/** Refuses `value` at `field` (a dotted path) in the words the schema's own refusals use. */
function refuse(field: string, expected: string, value: unknown): never {
  throw new UnprocessableError(field, schemaProblemMessage({ kind: 'invalid', path: field.split('.'), expected, value }));
}

function instantOf(v: string | number, field: string): number {
  const ms = typeof v === 'number' ? v : parseIsoDateTime(v);
  if (ms === null) refuse(field, INSTANT, v);
  return ms;
}

function zoomOf(v: ZoomInput, field: string): Zoom {
  const start = instantOf(v.start, `${field}.start`);
  const end = instantOf(v.end, `${field}.end`);
  if (start >= end) throw new UnprocessableError(field, `"${field}.start" should be before "${field}.end"`);
  return { start, end };
}

function timeRangeOf(v: NonNullable<StateInput['timeRange']>): StateTimeRange {
  const zoom = v.zoom == null ? undefined : zoomOf(v.zoom, 'timeRange.zoom');
  const withZoom = <T extends object>(t: T): T & { zoom?: Zoom } => (zoom ? { ...t, zoom } : t);
  if (v.relative !== undefined) {
    if (v.start !== undefined || v.end !== undefined) {
      throw new UnprocessableError('timeRange', '"timeRange" takes either "relative" or "start"/"end", not both');
    }
    if (parseRelative(v.relative) === null) {
      refuse('timeRange.relative', described('relative', timeRangeSchema), v.relative);
    }
    return withZoom({ relative: v.relative });
  }
  if (v.start === undefined)
    throw new UnprocessableError('timeRange.start', '"timeRange" needs "relative" or "start" (with an optional "end")');
  const start = instantOf(v.start, 'timeRange.start');
  const end = v.end == null ? null : instantOf(v.end, 'timeRange.end');
  if (end !== null && start >= end) throw new UnprocessableError('timeRange.end', '"timeRange.start" should be before "timeRange.end"');
  return withZoom({ start, end });
}

function isLocale(v: string): boolean {
  try {
    return Intl.getCanonicalLocales(v).length === 1;
  } catch {
    return false;
  }
}

/** The resolved time window sent to functions (epoch ms). */
export interface ResolvedTimeRange {
  mode: 'relative' | 'absolute';
  start: number;
  end: number;
  relativeStart?: number;
  zoom?: Zoom;
}

/**
 * Resolves the state's time range against `now`.
 *
 * @example
 * resolveTimeRange({ relative: '-PT3H' }, now); // { mode: 'relative', start: now - 10800000, end: now, relativeStart: 10800000 }
 */
export function resolveTimeRange(t: StateTimeRange, now: number): ResolvedTimeRange {
  const zoom = t.zoom ? { zoom: { ...t.zoom } } : {};
  if ('relative' in t) {
    const parts = parseRelative(t.relative);
    const start = (parts && resolveRelative(parts, now)) ?? now - 3 * 3600_000;
    return { mode: 'relative', start, end: now, relativeStart: now - start, ...zoom };
  }
  return { mode: 'absolute', start: t.start, end: t.end ?? now, ...zoom };
}

/** Which kind of state change happened between two states, for the `event` of re-invoked widgets. */
export interface StateChange {
  /** theme, locale, timezone, account, name or linkCharts changed: every widget runs again. */
  state: boolean;
  /** time range or period changed. */
  timeRange: boolean;
  /** the dashboard width or a widget's own size changed (which widgets it resizes: see `widgetPixelSize`). */
  resize: boolean;
}

/**
 * Compares two states field by field (the written values, not what "now" resolves them to).
 *
 * @example
 * diffState(a, { ...a, theme: 'dark' }); // { state: true, timeRange: false, resize: false }
 */
export function diffState(a: DashboardState, b: DashboardState): StateChange {
  const same = (k: keyof DashboardState): boolean => JSON.stringify(a[k]) === JSON.stringify(b[k]);
  return {
    state: !(['theme', 'locale', 'timezone', 'accountId', 'dashboardName', 'linkCharts'] as const).every(same),
    timeRange: !same('timeRange') || !same('period'),
    resize: !same('dashboardWidth') || !same('widgetSizes'),
  };
}
