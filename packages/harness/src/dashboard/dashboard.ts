import { NotFoundError, UnprocessableError } from './errors.js';
import { isRecord, type InvokeOutcome } from './functions/index.js';
import { buildEvent, buildWidgetContext } from './event.js';
import { mergeForms, type FormValues } from './forms.js';
import { widgetPixelSize, type PixelSize } from './geometry.js';
import { summarizeWidget, type DashboardModel } from './model.js';
import type { FunctionInvoker, HtmlAnalyzer, WidgetAction } from './ports.js';
import { renderMarkdown } from './markdown.js';
import { contentOf, htmlOfValue, renderHtml, renderOutcome, renderText } from './render.js';
import type {
  ActionEntry,
  CancelledAction,
  DashboardInfo,
  DescribeResult,
  RefreshResult,
  StateUpdate,
  WidgetEventKind,
  WidgetCall,
  WidgetReading,
} from './results.js';
import { defaultState, diffState, normalizeState, type DashboardState, type StateInput } from './state.js';
import { actionIndex, widgetIndex } from './widget-id.js';
import { WidgetSession, type View } from './widget-session.js';

/** What a dashboard needs to run: its functions, a clock, and the HTML analyzer. */
export interface DashboardContext {
  functions: FunctionInvoker;
  analyzer: HtmlAnalyzer<any>;
  /** Epoch milliseconds; inject a fake in tests. */
  clock: () => number;
  /** Hears when what a dashboard remembers grows or shrinks (in characters), so a store can bound memory. */
  onResize?: (dashboard: Dashboard, delta: number) => void;
  /** Hears every use of a dashboard (a read, an action, a state change: as each starts and as it ends), so a store knows which are idle. */
  onUse?: (dashboard: Dashboard) => void;
}

/** Options for running an action. */
export interface RunActionOptions {
  /** Form values that override the widget's own (strings, or arrays of strings for multi-valued fields). */
  forms?: Record<string, string | string[]>;
  /** `false` cancels an action that asks for confirmation; ignored for actions without one. */
  confirm?: boolean;
}

/** Options for a refresh: `auto` (default) re-invokes widgets with `updateOn.refresh`, `manual` every custom widget. */
export interface RefreshOptions {
  mode?: 'auto' | 'manual';
}

/** A widget: its index (`3`, `"3"`) or id (`"widget-3"`). */
export type WidgetRef = number | string;

/**
 * One loaded dashboard and everything the console would remember about it: the state, each widget's content
 * and how often its function ran. Operations on one dashboard run one at a time; dashboards never share state.
 *
 * @example
 * const result = await dashboard.readWidget('widget-0');
 * const actions = await dashboard.listActions(0);
 * await dashboard.runAction(0, actions[0].index, { forms: { color: 'blue' } });
 */
export class Dashboard {
  readonly #ctx: DashboardContext;
  readonly #defaults: DashboardState;
  readonly #widgets: WidgetSession[];
  #state: DashboardState;
  #tail: Promise<unknown> = Promise.resolve();
  /** Operations asked for and not yet ended. */
  #pending = 0;
  /** Why the dashboard is no longer stored, once it is not. */
  #gone: string | null = null;

  constructor(
    readonly id: string,
    readonly name: string,
    /** The exact text the dashboard was created from. */
    readonly source: string,
    readonly model: DashboardModel,
    ctx: DashboardContext,
  ) {
    this.#ctx = ctx;
    this.#defaults = defaultState(model, name);
    this.#state = this.#defaults;
    this.#widgets = model.widgets.map((w) => new WidgetSession(w, (delta) => ctx.onResize?.(this, delta)));
  }

  /** Id, name, effective state and the widget list. */
  info(): DashboardInfo {
    this.#use();
    return { id: this.id, name: this.name, state: structuredClone(this.#state), widgets: this.model.widgets.map(summarizeWidget) };
  }

  /** The effective state (a copy). */
  getState(): DashboardState {
    this.#use();
    return structuredClone(this.#state);
  }

  /** Whether an operation on this dashboard is running or waiting for its turn. */
  get busy(): boolean {
    return this.#pending > 0;
  }

  /**
   * Marks the dashboard as no longer stored: every later read, action or state change is refused with
   * NotFoundError saying `why`. Operations already asked for still end.
   */
  retire(why: string): void {
    this.#gone ??= why;
  }

  /**
   * Replaces the state (omitted fields take the dashboard's defaults) and re-invokes, now, the widgets the
   * change concerns that have been read at least once.
   *
   * @example
   * await dashboard.putState({ timeRange: { relative: '-P7D' }, theme: 'dark' }); // { state, updated: ['widget-0'] }
   */
  putState(input: StateInput): Promise<StateUpdate> {
    return this.#operation(async () => {
      const next = normalizeState(input, this.#defaults, this.model.widgets);
      const change = diffState(this.#state, next);
      const before = this.#state;
      this.#state = next;
      const due = this.#widgets.flatMap((w) => {
        const on = w.model.updateOn;
        if (!on || !w.read) return [];
        // A widget resizes when its own size changed, not when another widget's did.
        const resized = change.resize && !samePixels(widgetPixelSize(w.model, before), widgetPixelSize(w.model, next));
        const kind: WidgetEventKind | null = change.state
          ? 'state'
          : change.timeRange && on.timeRange
            ? 'timeRange'
            : resized && on.resize
              ? 'resize'
              : null;
        return kind ? [{ w, kind }] : [];
      });
      await Promise.all(due.map(({ w, kind }) => this.#runOwn(w, kind)));
      return { state: structuredClone(this.#state), updated: due.map(({ w }) => w.model.widgetId) };
    });
  }

  /**
   * The widget as the console shows it. The first read runs the widget's function; later reads do not.
   * Throws NotFoundError for an unknown id and UnprocessableError for a widget type that cannot be read.
   *
   * @example
   * (await dashboard.readWidget('widget-0')).html;
   */
  readWidget(wid: WidgetRef): Promise<WidgetReading> {
    return this.#operation(async () => {
      const w = this.#session(wid);
      return w.result(await this.#ensureRead(w));
    });
  }

  /**
   * The `<cwdb-action>` entries of the widget's current content (reading it first if never read).
   *
   * @example
   * (await dashboard.listActions(0)).map((a) => a.text); // ['Refresh', 'Details']
   */
  listActions(wid: WidgetRef): Promise<ActionEntry[]> {
    return this.#operation(async () => {
      const w = this.#session(wid);
      return (await this.#ensureRead(w)).rendered.actions().map(entryOf);
    });
  }

  /**
   * Runs an action of the widget's current content as a click (or its event) would.
   *
   * @example
   * await dashboard.runAction('widget-0', 1, { forms: { size: 'large' } });
   * await dashboard.runAction(0, 2, { confirm: false }); // { cancelled: true, confirmation: 'Really?' }
   */
  runAction(wid: WidgetRef, index: number | string, options: RunActionOptions = {}): Promise<WidgetReading | CancelledAction> {
    return this.#operation(async () => {
      const w = this.#session(wid);
      const view = await this.#ensureRead(w);
      const actions = view.rendered.actions();
      const action = actions[actionIndex(index, actions.length, w.model.widgetId)]!;
      if (action.problems.length > 0) {
        throw new UnprocessableError('action', `Action ${action.index} of ${w.model.widgetId} cannot run: ${action.problems.join('; ')}`);
      }
      const forms = mergeForms(view.rendered.formFields(), options.forms, view.rendered.formValues());
      if (action.confirmation !== null && options.confirm === false) {
        return { cancelled: true, confirmation: action.confirmation };
      }
      const html = action.html ?? '';
      const content =
        action.action === 'html'
          ? { rendered: renderHtml(this.#ctx.analyzer, html, html, null), invocation: null }
          : await this.#run(w, action.endpoint ?? '', action.params ?? {}, forms);
      const next: View = { ...content, display: action.display, event: action.event };
      if (action.display === 'widget') w.replace(next);
      return w.result(next);
    });
  }

  /**
   * Calls the widget's function with `describe: true` and returns its documentation. Does not count as an invocation.
   *
   * @example
   * (await dashboard.describeWidget(0)).markdown; // '## Hello widget …'
   */
  describeWidget(wid: WidgetRef): Promise<DescribeResult> {
    return this.#operation(async () => {
      const w = this.#session(wid);
      const endpoint = this.#customEndpoint(w);
      const context = buildWidgetContext(w.model, this.#state, this.#ctx.clock(), {});
      const outcome = await this.#invoke(endpoint, { describe: true, widgetContext: context });
      if (!outcome.ok) {
        return { markdown: null, html: '', error: { type: outcome.error?.type ?? 'Error', message: outcome.error?.message ?? '' } };
      }
      const v = outcome.value;
      const md = typeof v === 'string' ? v : isRecord(v) && typeof v.markdown === 'string' ? v.markdown : null;
      return { markdown: md, ...contentOf(() => (md === null ? htmlOfValue(v) : renderMarkdown(md))) };
    });
  }

  /**
   * Refreshes like the console: `auto` (default) re-invokes custom widgets whose `updateOn.refresh` is true,
   * `manual` re-invokes every custom widget. Only widgets read at least once run; refreshing restores content
   * an action replaced.
   *
   * @example
   * await dashboard.refresh({ mode: 'manual' }); // { refreshed: ['widget-0', 'widget-1'], skipped: [] }
   */
  refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
    // Checked here too: a driver called from JavaScript could name a mode that does not exist.
    return this.#operation(async () => {
      const mode = options.mode ?? 'auto';
      if (mode !== 'auto' && mode !== 'manual') {
        throw new UnprocessableError('mode', `"mode" should be "auto" or "manual"; got ${JSON.stringify(mode)}`);
      }
      const due = this.#widgets.filter((w) => w.model.updateOn && w.read && (mode === 'manual' || w.model.updateOn.refresh));
      await Promise.all(due.map((w) => this.#runOwn(w, 'refresh')));
      return {
        refreshed: due.map((w) => w.model.widgetId),
        skipped: this.#widgets.filter((w) => !due.includes(w)).map((w) => w.model.widgetId),
      };
    });
  }

  /**
   * Forgets what the custom widgets whose endpoint `affected` accepts show, after the operations in progress
   * on this dashboard: their next read runs their function again, as a first read (`event: "load"`). Returns
   * the ids of the widgets that had content. Used when a function's code changed.
   *
   * @example
   * await dashboard.forget((endpoint) => endpoint === 'greeter'); // ['widget-2']
   */
  forget(affected: (endpoint: string) => boolean): Promise<string[]> {
    return this.#exclusive(async () => {
      const due = this.#widgets.filter(
        (w) => w.read && w.model.type === 'custom' && w.model.endpoint !== null && affected(w.model.endpoint),
      );
      for (const w of due) w.forget();
      return due.map((w) => w.model.widgetId);
    });
  }

  /**
   * Forgets what every widget shows, after the operations in progress on this dashboard: each runs again when
   * next read, as a first read. The store uses it to keep remembered content within its budget.
   *
   * @example
   * await dashboard.forgetContent();
   */
  forgetContent(): Promise<void> {
    return this.#exclusive(async () => {
      for (const w of this.#widgets) if (w.read) w.forget();
    });
  }

  #exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#tail.then(fn, fn);
    this.#tail = run.catch(() => undefined);
    return run;
  }

  /** A use of the dashboard (a read, an action, a state change): in turn, and busy from asked for until ended. */
  #operation<T>(fn: () => Promise<T>): Promise<T> {
    try {
      this.#use();
    } catch (error) {
      return Promise.reject(error);
    }
    this.#pending++;
    const run = this.#exclusive(fn);
    const ended = (): void => {
      this.#pending--;
      this.#ctx.onUse?.(this);
    };
    run.then(ended, ended);
    return run;
  }

  #use(): void {
    if (this.#gone !== null) throw new NotFoundError('dashboard', this.#gone);
    this.#ctx.onUse?.(this);
  }

  #session(wid: WidgetRef): WidgetSession {
    return this.#widgets[widgetIndex(wid, this.#widgets.length)]!;
  }

  #customEndpoint(w: WidgetSession): string {
    if (w.model.type !== 'custom' || w.model.endpoint === null) {
      throw new UnprocessableError('type', `${w.model.widgetId} is a "${w.model.type}" widget; only custom widgets have a function`);
    }
    return w.model.endpoint;
  }

  async #ensureRead(w: WidgetSession): Promise<View> {
    const current = w.current;
    if (current) return current;
    if (w.model.type === 'text') {
      const md = String(w.model.properties.markdown ?? '');
      w.show({ rendered: renderText(this.#ctx.analyzer, md), display: 'widget', event: 'load', invocation: null });
      return w.current!;
    }
    if (w.model.type !== 'custom') {
      throw new UnprocessableError('type', `${w.model.widgetId} is a "${w.model.type}" widget; only custom and text widgets can be read`);
    }
    await this.#runOwn(w, 'load');
    return w.current!;
  }

  /** Runs the widget's own function; its result becomes the widget's content. */
  async #runOwn(w: WidgetSession, kind: WidgetEventKind): Promise<void> {
    const endpoint = this.#customEndpoint(w);
    // Re-invocations send the form values of what the widget shows, as the console does.
    const forms = w.current ? w.current.rendered.formValues() : {};
    w.show({ ...(await this.#run(w, endpoint, w.model.params, forms)), display: 'widget', event: kind });
  }

  /**
   * Runs a function for the widget (counted as one of its invocations) and renders what it returned, keeping what
   * the call was: the event as the function receives it, id, duration, logs.
   */
  async #run(w: WidgetSession, endpoint: string, params: unknown, forms: FormValues): Promise<Omit<View, 'display' | 'event'>> {
    const event = buildEvent(params, buildWidgetContext(w.model, this.#state, this.#ctx.clock(), forms));
    w.invocations++;
    const outcome = await this.#invoke(endpoint, event);
    // Frozen once here rather than copied on every read: results share it and nobody can change it.
    const invocation: WidgetCall = deepFreeze({
      event: asReceived(event),
      awsRequestId: outcome.awsRequestId,
      durationMs: Math.max(0, outcome.durationMs),
      logs: outcome.logs,
    });
    return { rendered: renderOutcome(this.#ctx.analyzer, outcome), invocation };
  }

  async #invoke(endpoint: string, event: unknown): Promise<InvokeOutcome> {
    try {
      return await this.#ctx.functions.invoke(endpoint, event);
    } catch (e) {
      const err = e instanceof Error ? e : new Error(String(e));
      return { ok: false, error: { type: err.name || 'Error', message: err.message }, logs: '', durationMs: 0, awsRequestId: '' };
    }
  }
}

/** The event as a function receives it: the invoke payload is JSON, so this is its JSON round trip. */
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null || Object.isFrozen(v)) continue;
    Object.freeze(v);
    for (const k of Object.keys(v)) stack.push((v as Record<string, unknown>)[k]);
  }
  return value;
}

const samePixels = (a: PixelSize, b: PixelSize): boolean => a.width === b.width && a.height === b.height;

function asReceived(event: unknown): unknown {
  const text = JSON.stringify(event);
  return text === undefined ? null : JSON.parse(text);
}

function entryOf(a: WidgetAction): ActionEntry {
  const { index, text, action, display, confirmation, event } = a;
  const entry: ActionEntry = { index, text, action, display, confirmation, event };
  if (a.action === 'call') {
    if (a.endpoint !== undefined) entry.endpoint = a.endpoint;
    entry.params = a.params ?? {};
  } else entry.html = a.html ?? '';
  return entry;
}
