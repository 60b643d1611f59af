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
  /** Makes dashboard ids; default random UUIDs. */
  newId?: () => string;
}

const DEFAULT_NAME = 'dashboard';

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
  readonly #newId: () => string;

  constructor(options: DashboardStoreOptions) {
    const max = options.maxDashboards ?? 1_000;
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`maxDashboards should be a positive integer; got ${max}`);
    this.#max = max;
    this.#ctx = { functions: options.functions, analyzer: options.analyzer, clock: options.clock ?? Date.now };
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
    const model = parseDashboard(text);
    let id = this.#newId();
    while (this.#dashboards.has(id)) id = this.#newId();
    const dashboard = new Dashboard(id, name, text, model, this.#ctx);
    this.#dashboards.set(id, dashboard);
    while (this.#dashboards.size > this.#max) {
      const oldest = this.#dashboards.keys().next().value as string;
      this.#dashboards.delete(oldest);
    }
    return dashboard;
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
    if (!this.#dashboards.delete(key)) throw new NotFoundError('dashboard', `No dashboard ${JSON.stringify(id)}`);
  }

  get size(): number {
    return this.#dashboards.size;
  }
}
