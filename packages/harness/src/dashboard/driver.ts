import type { Dashboard, RefreshOptions, RunActionOptions } from './dashboard.js';
import { findAction, type ActionQuery } from './find-action.js';
import type { WidgetSummary } from './model.js';
import type { ActionEntry, CancelledAction, DescribeResult, RefreshResult, StateUpdate, WidgetReading } from './results.js';
import type { DashboardState, StateInput } from './state.js';
import { logsOf } from './widget-session.js';

/**
 * A loaded dashboard, driven from TypeScript: set state, read widgets, find and click actions, refresh.
 *
 * @example
 * const dash = await interpreter.load(json, { name: 'ops' });
 * await dash.putState({ timeRange: { relative: '-P7D' } });
 * const w = await dash.readWidget(0);
 * const after = await w.action('Refresh').click({ forms: { size: 'large' } });
 */
export class DashboardDriver {
  constructor(readonly dashboard: Dashboard) {}

  get id(): string {
    return this.dashboard.id;
  }

  get name(): string {
    return this.dashboard.name;
  }

  /** The exact JSON text the dashboard was loaded from. */
  get source(): string {
    return this.dashboard.source;
  }

  /** The effective state. */
  getState(): DashboardState {
    return this.dashboard.getState();
  }

  /** Each widget's id, index, type, title, endpoint and updateOn. */
  widgets(): WidgetSummary[] {
    return this.dashboard.info().widgets;
  }

  /**
   * Replaces the state; re-invokes, now, the read widgets the change concerns.
   *
   * @example
   * const { updated } = await dash.putState({ theme: 'dark' });
   */
  putState(state: StateInput): Promise<StateUpdate> {
    return this.dashboard.putState(state);
  }

  /**
   * Reads a widget (`0`, `'0'` or `'widget-0'`); the first read runs its function.
   *
   * @example
   * const w = await dash.readWidget('widget-0'); w.html; w.findings;
   */
  async readWidget(wid: number | string): Promise<WidgetView> {
    const result = await this.dashboard.readWidget(wid);
    return new WidgetView(this, result, await this.dashboard.listActions(wid));
  }

  /**
   * Refreshes: `auto` (default) per `updateOn.refresh`, `manual` for every custom widget.
   *
   * @example
   * await dash.refresh({ mode: 'manual' });
   */
  refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
    return this.dashboard.refresh(options);
  }

  /**
   * The widget function's own documentation (`describe: true`).
   *
   * @example
   * (await dash.describeWidget(0)).markdown;
   */
  describeWidget(wid: number | string): Promise<DescribeResult> {
    return this.dashboard.describeWidget(wid);
  }
}

/**
 * A widget result plus the actions of the widget's current content, which can be found by text and clicked.
 *
 * @example
 * const w = await dash.readWidget(0);
 * await w.action(/details/i).click();
 */
export class WidgetView implements WidgetReading {
  readonly widgetId!: string;
  readonly html!: string;
  readonly display!: 'widget' | 'popup';
  readonly event!: WidgetReading['event'];
  readonly raw: unknown;
  readonly findings!: WidgetReading['findings'];
  readonly error!: WidgetReading['error'];
  readonly invocations!: number;
  readonly invocation!: WidgetReading['invocation'];
  /** The actions of the widget's current content (for a popup: of the widget behind it). */
  readonly actions: ActionEntry[];
  /** What the function printed while producing this content (`invocation.logs`; empty when no function ran). */
  readonly logs: string;

  constructor(
    readonly driver: DashboardDriver,
    result: WidgetReading,
    actions: ActionEntry[],
  ) {
    Object.assign(this, result);
    this.actions = actions;
    this.logs = logsOf(result);
  }

  /**
   * Finds exactly one action by its text: exact after whitespace normalisation (`'Save'`), a RegExp,
   * `{ text, exact: false }` for a substring, or `{ index }`. None or several matches throw an error listing
   * the candidates.
   *
   * @example
   * w.action('Save'); w.action(/sav/i); w.action({ text: 'Sav', exact: false }); w.action({ index: 0 });
   */
  action(query: ActionQuery): ActionHandle {
    return new ActionHandle(this.driver, this.widgetId, findAction(this.actions, query, this.widgetId));
  }

  /**
   * The result as plain data (what the HTTP API returns).
   *
   * @example
   * assert.deepEqual(w.toJSON().findings, []);
   */
  toJSON(): WidgetReading {
    const { widgetId, html, display, event, raw, findings, error, invocations, invocation } = this;
    return { widgetId, html, display, event, raw, findings, error, invocations, invocation };
  }
}

/**
 * One action of a widget, ready to be clicked.
 *
 * @example
 * const next = await w.action('Apply').click({ forms: { region: 'eu-west-1' } });
 * const cancelled = await w.action('Delete').cancel(); // { cancelled: true, confirmation: 'Sure?' }
 */
export class ActionHandle implements ActionEntry {
  readonly index!: number;
  readonly text!: string;
  readonly action!: 'call' | 'html';
  readonly display!: 'popup' | 'widget';
  readonly confirmation!: string | null;
  readonly event!: ActionEntry['event'];
  readonly endpoint?: string;
  readonly params?: unknown;
  readonly html?: string;

  constructor(
    readonly driver: DashboardDriver,
    readonly widgetId: string,
    entry: ActionEntry,
  ) {
    Object.assign(this, entry);
  }

  /**
   * Runs the action with optional form values; a confirmation is accepted unless `confirm: false`.
   *
   * @example
   * const popup = await action.click({ forms: { q: 'errors' } }); popup.display; // 'popup'
   */
  click(options?: { forms?: Record<string, string | string[]>; confirm?: true }): Promise<WidgetView>;
  click(options: RunActionOptions): Promise<WidgetView | CancelledAction>;
  async click(options: RunActionOptions = {}): Promise<WidgetView | CancelledAction> {
    const d = this.driver.dashboard;
    const result = await d.runAction(this.widgetId, this.index, options);
    if ('cancelled' in result) return result;
    return new WidgetView(this.driver, result, await d.listActions(this.widgetId));
  }

  /**
   * Declines the action's confirmation: nothing runs.
   *
   * @example
   * await w.action('Delete').cancel(); // { cancelled: true, confirmation: 'Delete it?' }
   */
  async cancel(): Promise<CancelledAction> {
    if (this.confirmation === null) {
      throw new TypeError(`Action ${JSON.stringify(this.text)} has no confirmation to cancel; use click()`);
    }
    const result = await this.driver.dashboard.runAction(this.widgetId, this.index, { confirm: false });
    if ('cancelled' in result) return result;
    throw new TypeError(`Action ${JSON.stringify(this.text)} ran instead of being cancelled`);
  }
}
