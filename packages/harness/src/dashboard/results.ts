import type { Finding } from './ports.js';
import type { WidgetError } from './render.js';
import type { DashboardState } from './state.js';
import type { WidgetSummary } from './model.js';

/** What produced a widget's content. */
export type WidgetEventKind = 'load' | 'refresh' | 'timeRange' | 'resize' | 'state' | 'click' | 'dblclick' | 'mouseenter';

/**
 * A widget as the console would show it: returned by reading a widget and by running an action.
 *
 * @example
 * const r = await dashboard.readWidget(0);
 * r.html; r.findings; r.invocations; // '<h1>Hello</h1>', [], 1
 */
export interface WidgetReading {
  widgetId: string;
  /** What the console would show, before stripping; empty when `error` is set. */
  html: string;
  display: 'widget' | 'popup';
  event: WidgetEventKind;
  /** Exactly what the function returned (`null` for an error or for `undefined`). */
  raw: unknown;
  /** Linter findings for `html`; always present. */
  findings: Finding[];
  error: WidgetError | null;
  /** How many times a function has run for this widget on this dashboard (loads, refreshes, state changes, call actions). */
  invocations: number;
  /**
   * The function call that produced this content (load, refresh, state change or call action); `null` when no
   * function produced it (an `html` action, a text widget). Beyond the seed's fields.
   */
  invocation: WidgetCall | null;
}

/**
 * One function call behind a widget result: exactly the event the function received, its request id, how long
 * it ran and what it printed. Deeply frozen: every read of the widget shares it.
 *
 * @example
 * const { invocation } = await dashboard.readWidget(0);
 * invocation?.event; // { widgetContext: { … }, …params }
 * invocation?.durationMs; // 3.2
 */
export interface WidgetCall {
  /** The event as the function received it (after the JSON round trip of the invoke payload). */
  event: unknown;
  /** The Lambda request id of the call (empty when the call never reached a function). */
  awsRequestId: string;
  /** How long the function ran, in milliseconds. */
  durationMs: number;
  /** What the function printed during the call, in Lambda's log format (may be empty). */
  logs: string;
}

/** One `<cwdb-action>` of a widget's current content. */
export interface ActionEntry {
  index: number;
  /** The text of the element the action is bound to, whitespace collapsed. */
  text: string;
  action: 'call' | 'html';
  display: 'popup' | 'widget';
  confirmation: string | null;
  event: 'click' | 'dblclick' | 'mouseenter';
  endpoint?: string;
  params?: unknown;
  html?: string;
}

/** Running an action with a confirmation and `confirm: false`: nothing was called. */
export interface CancelledAction {
  cancelled: true;
  confirmation: string;
}

/** A function's own documentation, from calling it with `describe: true`. */
export interface DescribeResult {
  markdown: string | null;
  html: string;
  error: WidgetError | null;
}

/** Which widgets a refresh re-invoked (`widget-<n>` ids); every widget is in exactly one list. */
export interface RefreshResult {
  refreshed: string[];
  skipped: string[];
}

/** The new effective state and the widgets re-invoked because of the change. */
export interface StateUpdate {
  state: DashboardState;
  updated: string[];
}

/** A dashboard's id, name, state and widget list. */
export interface DashboardInfo {
  id: string;
  name: string;
  state: DashboardState;
  widgets: WidgetSummary[];
}
