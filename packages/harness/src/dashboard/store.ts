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
  readonly #dashboards = new Map<string, Dashboard>();
  readonly #ctx: DashboardContext;
  readonly #max: number;
  readonly #maxBytes: number;
  /** Source bytes of each dashboard. */
  readonly #sources = new Map<string, number>();
  #sourceBytes = 0;
  /** Bytes of widget content each dashboard remembers. */
  readonly #content = new Map<string, number>();
  #contentBytes = 0;
  /** When each dashboard was last used (a count of uses): the order content is forgotten and dashboards dropped in. */
  readonly #lastUse = new Map<string, number>();
  #uses = 0;
  /** When each dashboard was last used, in epoch milliseconds. */
  readonly #usedAt = new Map<string, number>();
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
        if (this.#dashboards.get(dashboard.id) === dashboard) this.#touch(dashboard.id);
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
      this.#dashboards
        .get(old)
        ?.retire(
          `Dashboard ${JSON.stringify(old)} was dropped to make room for a new one: it had not been used for ${DASHBOARD_IDLE_MS / 1000} s and was the least recently used of the harness's dashboards`,
        );
      this.#forget(old);
    }
    let id = this.#newId();
    while (this.#dashboards.has(id)) id = this.#newId();
    const dashboard = new Dashboard(id, name, text, model, this.#ctx);
    this.#dashboards.set(id, dashboard);
    this.#sources.set(id, bytes);
    this.#sourceBytes += bytes;
    this.#touch(id);
    return dashboard;
  }

  /**
   * The ids of the dashboards to drop so that one of `bytes` more fits, least recently used first, all idle;
   * or OverBudgetError, saying when room comes back, when the ones that would have to go are in use.
   */
  #room(bytes: number): string[] {
    let count = this.#dashboards.size;
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
    const order = [...this.#dashboards.values()]
      .filter((d) => !d.busy)
      .sort((a, b) => (this.#lastUse.get(a.id) ?? 0) - (this.#lastUse.get(b.id) ?? 0));
    const drop: string[] = [];
    let idleAt = now;
    for (const d of order) {
      if (fits()) break;
      idleAt = Math.max(idleAt, (this.#usedAt.get(d.id) ?? 0) + DASHBOARD_IDLE_MS);
      drop.push(d.id);
      count--;
      sourceBytes -= this.#sources.get(d.id) ?? 0;
    }
    if (fits() && idleAt <= now) return drop;
    // Not now: say when the same dashboards will have been idle long enough, if nothing uses them before.
    const seconds = fits() ? Math.ceil((idleAt - now) / 1000) : null;
    const idle = `${DASHBOARD_IDLE_MS / 1000} s`;
    const those = drop.length === 1 ? 'the least recently used is' : `the ${drop.length} least recently used are`;
    const when =
      seconds === null
        ? `room comes back ${idle} after the operations in progress on ${this.#dashboards.size - order.length} of them end, if nothing uses them again, or when dashboards are deleted`
        : `room comes back in ${seconds} s if ${those} not used before then, or when dashboards are deleted`;
    const rule = `a dashboard unused for ${idle} is dropped to make room, least recently used first`;
    const message =
      budget === 'maxDashboards'
        ? `This harness keeps at most ${this.#max} dashboards, and each of the ${this.#dashboards.size} it holds is in use or was used in the last ${idle} (${rule}); ${when} (nothing stored was dropped)`
        : `The dashboard is ${mib(bytes)}; with the ${this.#dashboards.size} stored (${mib(this.#sourceBytes)}) it passes this harness's dashboard budget of ${mib(this.#maxBytes)} (maxDashboardBytes), and the dashboards that would have to go are in use or were used in the last ${idle} (${rule}); ${when} (nothing stored was dropped)`;
    throw new OverBudgetError(budget, limit, message, seconds);
  }

  #touch(id: string): void {
    this.#lastUse.set(id, ++this.#uses);
    this.#usedAt.set(id, this.#clock());
  }

  /** Bytes kept now: dashboard sources plus the widget content they remember. */
  get bytes(): number {
    return this.#sourceBytes + this.#contentBytes;
  }

  #resize(dashboard: Dashboard, delta: number): void {
    const held = this.#content.get(dashboard.id) ?? 0;
    if (this.#dashboards.get(dashboard.id) !== dashboard) return;
    this.#content.set(dashboard.id, held + delta);
    this.#contentBytes += delta;
    if (this.#contentBytes > this.#maxBytes) this.#forgetContent(dashboard.id);
  }

  // Forgets the content of the least recently used dashboards (the one just read last of all) until what stays
  // fits the budget. Each forgets after the operations in progress on it, so a read never loses its result.
  #forgetContent(current: string): void {
    let projected = this.#contentBytes;
    for (const f of this.#forgetting) projected -= this.#content.get(f) ?? 0;
    const use = (id: string): number => (id === current ? Infinity : (this.#lastUse.get(id) ?? 0));
    const order = [...this.#dashboards.keys()].sort((a, b) => use(a) - use(b));
    for (const id of order) {
      if (projected <= this.#maxBytes) return;
      const held = this.#content.get(id) ?? 0;
      if (held <= 0 || this.#forgetting.has(id)) continue;
      this.#forgetting.add(id);
      projected -= held;
      void this.#dashboards
        .get(id)!
        .forgetContent()
        .finally(() => this.#forgetting.delete(id));
    }
  }

  #forget(id: string): boolean {
    if (!this.#dashboards.delete(id)) return false;
    this.#sourceBytes -= this.#sources.get(id) ?? 0;
    this.#sources.delete(id);
    this.#contentBytes -= this.#content.get(id) ?? 0;
    this.#content.delete(id);
    this.#lastUse.delete(id);
    this.#usedAt.delete(id);
    return true;
  }

  /**
   * The dashboard with this id (now the most recently used, whose content is forgotten last), or NotFoundError.
   *
   * @example
   * store.get(id).getState();
   */
  get(id: unknown): Dashboard {
    const key = typeof id === 'string' ? id : '';
    const dashboard = this.#dashboards.get(key);
    if (!dashboard) {
      throw new NotFoundError(
        'dashboard',
        `No dashboard ${JSON.stringify(id)}; it may never have existed, been deleted, or been dropped to make room after ${DASHBOARD_IDLE_MS / 1000} s unused`,
      );
    }
    this.#touch(key);
    return dashboard;
  }

  /** Whether a dashboard with this id is stored (not counted as a use). */
  has(id: string): boolean {
    return this.#dashboards.has(id);
  }

  /**
   * Every stored dashboard's id and name, in the order they were created (a stable order: reading one does
   * not move it).
   *
   * @example
   * store.list(); // [{ id: '…', name: 'ops' }]
   */
  list(): { id: string; name: string }[] {
    return [...this.#dashboards.values()].map((d) => ({ id: d.id, name: d.name }));
  }

  /**
   * Removes a dashboard, or throws NotFoundError.
   *
   * @example
   * store.delete(id);
   */
  delete(id: unknown): void {
    const key = typeof id === 'string' ? id : '';
    const dashboard = this.#dashboards.get(key);
    if (!dashboard) throw new NotFoundError('dashboard', `No dashboard ${JSON.stringify(id)}`);
    dashboard.retire(`Dashboard ${JSON.stringify(key)} was deleted`);
    this.#forget(key);
  }

  /**
   * Every stored dashboard, in the order they were created (not counted as a use).
   *
   * @example
   * for (const d of store.dashboards()) await d.forget(() => true);
   */
  dashboards(): Dashboard[] {
    return [...this.#dashboards.values()];
  }

  get size(): number {
    return this.#dashboards.size;
  }
}
