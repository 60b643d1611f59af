import { randomUUID } from 'node:crypto';
import { Dashboard, type DashboardContext } from './dashboard.js';
import { NotFoundError, UnprocessableError } from './errors.js';
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
  /** At most this many dashboards are kept; beyond it the least recently used goes. Default 1,000. */
  maxDashboards?: number;
  /**
   * At most this much is kept, counted in characters of dashboard sources and of the widget content (HTML,
   * raw values, logs) they remember; beyond it the least recently used dashboards go. Default 64 Mi.
   */
  maxBytes?: number;
  /** Makes dashboard ids; default random UUIDs. */
  newId?: () => string;
}

const DEFAULT_NAME = 'dashboard';
/** Default of {@link DashboardStoreOptions.maxBytes}: 64 Mi characters. */
export const DEFAULT_MAX_DASHBOARD_BYTES = 64 * 1024 * 1024;

/**
 * The dashboards of one harness, each isolated from the others, with a cap and least-recently-used eviction.
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
  readonly #bytes = new Map<string, number>();
  #totalBytes = 0;
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
      throw new UnprocessableError('dashboard', `The dashboard should be JSON text (a string); got ${text === null ? 'null' : typeof text}`);
    }
    const name = options.name ?? DEFAULT_NAME;
    if (typeof name !== 'string' || name.length === 0 || name.length > 255) {
      throw new UnprocessableError('name', `"name" should be a string of 1 to 255 characters; got ${JSON.stringify(name)}`);
    }
    if (text.length > this.#maxBytes) {
      throw new UnprocessableError('dashboard', `The dashboard is ${text.length} characters long; this harness keeps at most ${this.#maxBytes} characters of dashboards`);
    }
    const model = parseDashboard(text);
    let id = this.#newId();
    while (this.#dashboards.has(id)) id = this.#newId();
    const dashboard = new Dashboard(id, name, text, model, this.#ctx);
    this.#dashboards.set(id, dashboard);
    this.#bytes.set(id, text.length);
    this.#totalBytes += text.length;
    this.#evict();
    return dashboard;
  }

  /** Characters kept now: sources plus the widget content the dashboards remember. */
  get bytes(): number {
    return this.#totalBytes;
  }

  #resize(dashboard: Dashboard, delta: number): void {
    const held = this.#bytes.get(dashboard.id);
    if (held === undefined || this.#dashboards.get(dashboard.id) !== dashboard) return;
    this.#bytes.set(dashboard.id, held + delta);
    this.#totalBytes += delta;
    this.#evict();
  }

  // Least recently used first; a dashboard that alone outgrows the cap goes too, so memory stays bounded.
  #evict(): void {
    while (this.#dashboards.size > this.#max || (this.#totalBytes > this.#maxBytes && this.#dashboards.size > 0)) {
      this.#forget(this.#dashboards.keys().next().value as string);
    }
  }

  #forget(id: string): boolean {
    if (!this.#dashboards.delete(id)) return false;
    this.#totalBytes -= this.#bytes.get(id) ?? 0;
    this.#bytes.delete(id);
    return true;
  }

  /**
   * The dashboard with this id (now the most recently used), or NotFoundError.
   *
   * @example
   * store.get(id).getState();
   */
  get(id: unknown): Dashboard {
    const key = typeof id === 'string' ? id : '';
    const dashboard = this.#dashboards.get(key);
    if (!dashboard) throw new NotFoundError('dashboard', `No dashboard ${JSON.stringify(id)}; it may never have existed, been deleted, or been evicted`);
    this.#dashboards.delete(key);
    this.#dashboards.set(key, dashboard);
    return dashboard;
  }

  /** Whether a dashboard with this id is stored (not counted as a use). */
  has(id: string): boolean {
    return this.#dashboards.has(id);
  }

  /**
   * Every stored dashboard's id and name, oldest use first.
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
   * Every stored dashboard, oldest use first (not counted as a use).
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
