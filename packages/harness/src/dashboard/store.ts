import { randomUUID } from 'node:crypto';
import { Dashboard, type DashboardContext } from './dashboard.js';
import { NotFoundError, OverBudgetError, UnprocessableError } from './errors.js';
import type { FunctionInvoker, HtmlAnalyzer } from './ports.js';
import { parseDashboard } from './validate.js';

/** Options of a {@link DashboardStore}. */
export interface DashboardStoreOptions {
  /** Runs the endpoints the dashboards name. */
  functions: FunctionInvoker;
  /** Parses, lints and extracts actions and forms from widget HTML. */
  analyzer: HtmlAnalyzer<any>;
  /** Epoch milliseconds; default `Date.now`. */
  clock?: () => number;
  /**
   * At most this many dashboards are kept. Past it the least recently used dashboard that has been idle for
   * {@link DASHBOARD_IDLE_MS} goes to make room; when every one was used more recently, a new one is refused
   * (OverBudgetError). Default 1,000.
   */
  maxDashboards?: number;
  /**
   * The dashboard budget in bytes (UTF-8). Dashboard sources together may take at most this much: past it the
   * least recently used idle dashboards go as for `maxDashboards`, and when that cannot make room a new
   * dashboard is refused (OverBudgetError). The widget content the dashboards remember (HTML, raw values, logs)
   * may take as much again: past it, the content of the least recently used dashboards is forgotten (those
   * widgets run again when next read). Default 32 MiB.
   */
  maxBytes?: number;
  /** Makes dashboard ids; default random UUIDs. */
  newId?: () => string;
}

const DEFAULT_NAME = 'dashboard';
/** Default of {@link DashboardStoreOptions.maxBytes}: 32 MiB of sources (and as much of remembered content). */
export const DEFAULT_MAX_DASHBOARD_BYTES = 32 * 1024 * 1024;
/**
 * How long a dashboard goes unused before it may be dropped to make room for a new one: 60 s. A use is any
 * lookup, read, action or state change; a dashboard is in use while an operation on it runs or waits.
 */
export const DASHBOARD_IDLE_MS = 60_000;

/** One stored dashboard, what it takes of the budget, and when it was last used (a count of uses, and epoch ms). */
interface Entry {
  dashboard: Dashboard;
  sourceBytes: number;
  /** Bytes of widget content the dashboard remembers. */
  contentBytes: number;
  lastUse: number;
  usedAt: number;
}

const mib = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`);

/**
 * The dashboards of one harness, each isolated from the others, within a budget: a new dashboard past it takes
 * the place of the least recently used ones idle for {@link DASHBOARD_IDLE_MS}, and is refused when none is idle;
 * remembered widget content past it is forgotten, least recently used first. Every lookup, read, action and
 * state change counts as a use.
 *
 * @example
 * const store = new DashboardStore({ functions: registry, analyzer });
 * const d = store.create(jsonText, { name: 'ops' });
 * store.get(d.id).readWidget(0);
 */
export class DashboardStore {
  readonly #entries = new Map<string, Entry>();
  readonly #ctx: DashboardContext;
  readonly #max: number;
  readonly #maxBytes: number;
  #sourceBytes = 0;
  #contentBytes = 0;
  #uses = 0;
  readonly #clock: () => number;
  /** Content being forgotten now (counted until its dashboard's operations in progress end). */
  readonly #forgetting = new Set<string>();
  readonly #newId: () => string;

  constructor(options: DashboardStoreOptions) {
    const max = options.maxDashboards ?? 1_000;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxDashboards should be a positive integer; got ${max}`);
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_DASHBOARD_BYTES;
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1) throw new RangeError(`maxBytes should be a positive integer; got ${maxBytes}`);
    this.#max = max;
    this.#maxBytes = maxBytes;
    this.#clock = options.clock ?? Date.now;
    this.#ctx = {
      functions: options.functions,
      analyzer: options.analyzer,
      clock: this.#clock,
      onResize: (dashboard, delta) => this.#resize(dashboard, delta),
      onUse: (dashboard) => {
        const entry = this.#entries.get(dashboard.id);
        if (entry?.dashboard === dashboard) this.#touch(entry);
      },
    };
    this.#newId = options.newId ?? randomUUID;
  }

  /**
   * Validates dashboard JSON text and stores it (the exact text is kept), dropping the least recently used
   * idle dashboards when it needs their room. Throws DashboardValidationError, or OverBudgetError when the
   * dashboards that would have to go are in use.
   *
   * @example
   * store.create('{"widgets":[]}', { name: 'empty' }).id;
   */
  create(text: unknown, options: { name?: unknown } = {}): Dashboard {
    if (typeof text !== 'string') {
      throw new UnprocessableError(
        'dashboard',
        `The dashboard should be JSON text (a string); got ${text === null ? 'null' : typeof text}`,
      );
    }
    const name = options.name ?? DEFAULT_NAME;
    if (typeof name !== 'string' || name.length === 0 || name.length > 255) {
      throw new UnprocessableError('name', `"name" should be a string of 1 to 255 characters; got ${JSON.stringify(name)}`);
    }
    const bytes = Buffer.byteLength(text);
    const room = this.#room(bytes);
    const model = parseDashboard(text);
    for (const old of room) {
      old.dashboard.retire(
        `Dashboard ${JSON.stringify(old.dashboard.id)} was dropped to make room for a new one: it had not been used for ${DASHBOARD_IDLE_MS / 1000} s and was the least recently used of the harness's dashboards`,
      );
      this.#forget(old);
    }
    let id = this.#newId();
    while (this.#entries.has(id)) id = this.#newId();
    const dashboard = new Dashboard(id, name, text, model, this.#ctx);
    const entry: Entry = { dashboard, sourceBytes: bytes, contentBytes: 0, lastUse: 0, usedAt: 0 };
    this.#entries.set(id, entry);
    this.#sourceBytes += bytes;
    this.#touch(entry);
    return dashboard;
  }

  /**
   * The dashboards to drop so that one of `bytes` more fits, least recently used first, all idle;
   * or OverBudgetError, saying when room comes back, when the ones that would have to go are in use.
   */
  #room(bytes: number): Entry[] {
    let count = this.#entries.size;
    let sourceBytes = this.#sourceBytes;
    const fits = (): boolean => count < this.#max && sourceBytes + bytes <= this.#maxBytes;
    if (fits()) return [];
    const budget = count >= this.#max ? 'maxDashboards' : 'maxDashboardBytes';
    const limit = budget === 'maxDashboards' ? this.#max : this.#maxBytes;
    if (bytes > this.#maxBytes) {
      throw new OverBudgetError(
        'maxDashboardBytes',
        this.#maxBytes,
        `The dashboard is ${mib(bytes)}, more than this harness's whole dashboard budget of ${mib(this.#maxBytes)} (maxDashboardBytes) (nothing stored was dropped)`,
        null,
      );
    }
    const now = this.#clock();
    // Least recently used first; those with an operation running or waiting stay.
    const order = [...this.#entries.values()].filter((e) => !e.dashboard.busy).sort((a, b) => a.lastUse - b.lastUse);
    const drop: Entry[] = [];
    let idleAt = now;
    for (const e of order) {
      if (fits()) break;
      idleAt = Math.max(idleAt, e.usedAt + DASHBOARD_IDLE_MS);
      drop.push(e);
      count--;
      sourceBytes -= e.sourceBytes;
    }
    if (fits() && idleAt <= now) return drop;
    // Not now: say when the same dashboards will have been idle long enough, if nothing uses them before.
    const seconds = fits() ? Math.ceil((idleAt - now) / 1000) : null;
    const idle = `${DASHBOARD_IDLE_MS / 1000} s`;
    const those = drop.length === 1 ? 'the least recently used is' : `the ${drop.length} least recently used are`;
    const when =
      seconds === null
        ? `room comes back ${idle} after the operations in progress on ${this.#entries.size - order.length} of them end, if nothing uses them again, or when dashboards are deleted`
        : `room comes back in ${seconds} s if ${those} not used before then, or when dashboards are deleted`;
    const rule = `a dashboard unused for ${idle} is dropped to make room, least recently used first`;
    const message =
      budget === 'maxDashboards'
        ? `This harness keeps at most ${this.#max} dashboards, and each of the ${this.#entries.size} it holds is in use or was used in the last ${idle} (${rule}); ${when} (nothing stored was dropped)`
        : `The dashboard is ${mib(bytes)}; with the ${this.#entries.size} stored (${mib(this.#sourceBytes)}) it passes this harness's dashboard budget of ${mib(this.#maxBytes)} (maxDashboardBytes), and the dashboards that would have to go are in use or were used in the last ${idle} (${rule}); ${when} (nothing stored was dropped)`;
    throw new OverBudgetError(budget, limit, message, seconds);
  }

  #touch(entry: Entry): void {
    entry.lastUse = ++this.#uses;
    entry.usedAt = this.#clock();
  }

  /** Bytes kept now: dashboard sources plus the widget content they remember. */
  get bytes(): number {
    return this.#sourceBytes + this.#contentBytes;
  }

  #resize(dashboard: Dashboard, delta: number): void {
    const entry = this.#entries.get(dashboard.id);
    if (entry?.dashboard !== dashboard) return;
    entry.contentBytes += delta;
    this.#contentBytes += delta;
    if (this.#contentBytes > this.#maxBytes) this.#forgetContent(dashboard.id);
  }

  // Forgets the content of the least recently used dashboards (the one just read last of all) until what stays
  // fits the budget. Each forgets after the operations in progress on it, so a read never loses its result.
  #forgetContent(current: string): void {
    let projected = this.#contentBytes;
    for (const f of this.#forgetting) projected -= this.#entries.get(f)?.contentBytes ?? 0;
    const use = (e: Entry): number => (e.dashboard.id === current ? Infinity : e.lastUse);
    const order = [...this.#entries.values()].sort((a, b) => use(a) - use(b));
    for (const { dashboard, contentBytes } of order) {
      if (projected <= this.#maxBytes) return;
      if (contentBytes <= 0 || this.#forgetting.has(dashboard.id)) continue;
      this.#forgetting.add(dashboard.id);
      projected -= contentBytes;
      void dashboard.forgetContent().finally(() => this.#forgetting.delete(dashboard.id));
    }
  }

  #forget(entry: Entry): void {
    this.#entries.delete(entry.dashboard.id);
    this.#sourceBytes -= entry.sourceBytes;
    this.#contentBytes -= entry.contentBytes;
  }

  /**
   * The dashboard with this id (now the most recently used, whose content is forgotten last), or NotFoundError.
   *
   * @example
   * store.get(id).getState();
   */
  get(id: unknown): Dashboard {
    const entry = this.#entries.get(typeof id === 'string' ? id : '');
    if (!entry) {
      throw new NotFoundError(
        'dashboard',
        `No dashboard ${JSON.stringify(id)}; it may never have existed, been deleted, or been dropped to make room after ${DASHBOARD_IDLE_MS / 1000} s unused`,
      );
    }
    this.#touch(entry);
    return entry.dashboard;
  }

  /** Whether a dashboard with this id is stored (not counted as a use). */
  has(id: string): boolean {
    return this.#entries.has(id);
  }

  /**
   * Every stored dashboard's id and name, in the order they were created (a stable order: reading one does
   * not move it).
   *
   * @example
   * store.list(); // [{ id: '…', name: 'ops' }]
   */
  list(): { id: string; name: string }[] {
    return this.dashboards().map((d) => ({ id: d.id, name: d.name }));
  }

  /**
   * Removes a dashboard, or throws NotFoundError.
   *
   * @example
   * store.delete(id);
   */
  delete(id: unknown): void {
    const key = typeof id === 'string' ? id : '';
    const entry = this.#entries.get(key);
    if (!entry) throw new NotFoundError('dashboard', `No dashboard ${JSON.stringify(id)}`);
    entry.dashboard.retire(`Dashboard ${JSON.stringify(key)} was deleted`);
    this.#forget(entry);
  }

  /**
   * Every stored dashboard, in the order they were created (not counted as a use).
   *
   * @example
   * for (const d of store.dashboards()) await d.forget(() => true);
   */
  dashboards(): Dashboard[] {
    return [...this.#entries.values()].map((e) => e.dashboard);
  }

  get size(): number {
    return this.#entries.size;
  }
}
