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
  /** At most this many dashboards are kept; past it a new one is refused (OverBudgetError). Default 1,000. */
  maxDashboards?: number;
  /**
   * The dashboard budget in bytes (UTF-8). Dashboard sources together may take at most this much: past it a
   * new dashboard is refused (OverBudgetError) and nothing stored is dropped. The widget content the
   * dashboards remember (HTML, raw values, logs) may take as much again: past it, the content of the least
   * recently used dashboards is forgotten (those widgets run again when next read). Default 32 MiB.
   */
  maxBytes?: number;
  /** Makes dashboard ids; default random UUIDs. */
  newId?: () => string;
}

const DEFAULT_NAME = 'dashboard';
/** Default of {@link DashboardStoreOptions.maxBytes}: 32 MiB of sources (and as much of remembered content). */
export const DEFAULT_MAX_DASHBOARD_BYTES = 32 * 1024 * 1024;

const mib = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${bytes} bytes`);

/**
 * The dashboards of one harness, each isolated from the others, within a budget: a dashboard past it is refused
 * and nothing stored is dropped; remembered widget content past it is forgotten, least recently used first.
 * Every lookup counts as a use.
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
  /** When each dashboard was last used (a count of uses): the order content is forgotten in. */
  readonly #lastUse = new Map<string, number>();
  #uses = 0;
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
    this.#ctx = {
      functions: options.functions,
      analyzer: options.analyzer,
      clock: options.clock ?? Date.now,
      onResize: (dashboard, delta) => this.#resize(dashboard, delta),
    };
    this.#newId = options.newId ?? randomUUID;
  }

  /**
   * Validates dashboard JSON text and stores it (the exact text is kept). Throws DashboardValidationError.
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
    if (this.#dashboards.size >= this.#max) {
      throw new OverBudgetError(
        'maxDashboards',
        this.#max,
        `This harness keeps at most ${this.#max} dashboards and holds ${this.#dashboards.size}; delete one to add another (nothing stored was dropped)`,
      );
    }
    const bytes = Buffer.byteLength(text);
    if (this.#sourceBytes + bytes > this.#maxBytes) {
      throw new OverBudgetError(
        'maxDashboardBytes',
        this.#maxBytes,
        `The dashboard is ${mib(bytes)}; with the ${this.#dashboards.size} stored (${mib(this.#sourceBytes)}) it passes this harness's dashboard budget of ${mib(this.#maxBytes)} (maxDashboardBytes); delete dashboards to make room (nothing stored was dropped)`,
      );
    }
    const model = parseDashboard(text);
    let id = this.#newId();
    while (this.#dashboards.has(id)) id = this.#newId();
    const dashboard = new Dashboard(id, name, text, model, this.#ctx);
    this.#dashboards.set(id, dashboard);
    this.#sources.set(id, bytes);
    this.#sourceBytes += bytes;
    this.#lastUse.set(id, ++this.#uses);
    return dashboard;
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
    if (!dashboard) throw new NotFoundError('dashboard', `No dashboard ${JSON.stringify(id)}; it may never have existed or been deleted`);
    this.#lastUse.set(key, ++this.#uses);
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
    if (!this.#forget(key)) throw new NotFoundError('dashboard', `No dashboard ${JSON.stringify(id)}`);
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
