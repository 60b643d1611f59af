import { DashboardDriver } from './driver.js';
import { FunctionRegistry, type FunctionsConfig } from './functions/index.js';
import { lintAnalyzer } from './html-analyzer.js';
import type { FunctionInvoker, HtmlAnalyzer } from './ports.js';
import { DashboardStore } from './store.js';

/** Options of {@link createInterpreter}. */
export interface InterpreterOptions {
  /**
   * What runs the endpoints: a functions configuration (a registry is made from it and closed by
   * `close()`), a `FunctionRegistry`, or any `{ invoke(endpoint, event) }`.
   */
  functions: FunctionsConfig | FunctionInvoker;
  /** Epoch milliseconds; a fake clock makes relative time ranges deterministic. Default `Date.now`. */
  clock?: () => number;
  /** At most this many dashboards; past it a new one is refused (OverBudgetError). Default 1,000. */
  maxDashboards?: number;
  /** The dashboard budget in bytes of sources (and as much of remembered widget content); see DashboardStoreOptions.maxBytes. Default 32 MiB. */
  maxDashboardBytes?: number;
  /** Replaces the linter's analysis of widget HTML (rarely needed). */
  analyzer?: HtmlAnalyzer<any>;
}

/**
 * The interpreter driven in-process: load dashboards and get drivers for them.
 *
 * @example
 * const interpreter = createInterpreter({ functions: { functions: { hello: { handler: (e) => `<p>${e.name}</p>` } } }, clock: () => Date.UTC(2024, 0, 1) });
 * const dash = await interpreter.load(json, { name: 'ops' });
 * const w = await dash.widget(0);
 */
export class Interpreter {
  readonly store: DashboardStore;
  /** What runs the endpoints. */
  readonly functions: FunctionInvoker;
  readonly #owned: FunctionRegistry | null;

  constructor(options: InterpreterOptions) {
    const given = options.functions;
    this.#owned = isInvoker(given) ? null : new FunctionRegistry(given);
    this.functions = this.#owned ?? (given as FunctionInvoker);
    this.store = new DashboardStore({
      functions: this.functions,
      analyzer: options.analyzer ?? lintAnalyzer,
      clock: options.clock ?? Date.now,
      maxDashboards: options.maxDashboards ?? 1_000,
      maxBytes: options.maxDashboardBytes,
    });
  }

  /**
   * Loads a dashboard from its JSON text (kept exactly) or from an object (serialised with two-space indent).
   * Throws DashboardValidationError listing every problem.
   *
   * @example
   * const dash = await interpreter.load({ widgets: [{ type: 'custom', properties: { endpoint: 'hello' } }] });
   */
  async load(dashboard: string | object, options: { name?: string } = {}): Promise<DashboardDriver> {
    const text = typeof dashboard === 'string' ? dashboard : JSON.stringify(dashboard, null, 2);
    return new DashboardDriver(this.store.create(text, options));
  }

  /**
   * A driver for a dashboard loaded earlier, by id.
   *
   * @example
   * interpreter.dashboard(dash.id).widget(0);
   */
  dashboard(id: string): DashboardDriver {
    return new DashboardDriver(this.store.get(id));
  }

  /**
   * Stops the functions this interpreter started from a configuration (child processes of module targets).
   * A registry passed in is left to its owner.
   *
   * @example
   * after(() => interpreter.close());
   */
  async close(): Promise<void> {
    await this.#owned?.close();
  }
}

function isInvoker(v: FunctionsConfig | FunctionInvoker): v is FunctionInvoker {
  return typeof (v as { invoke?: unknown }).invoke === 'function';
}

/**
 * Creates an in-process harness.
 *
 * @example
 * const interpreter = createInterpreter({ functions: { functions: { hello: { handler: () => '<p>hi</p>' } } } });
 */
export function createInterpreter(options: InterpreterOptions): Interpreter {
  return new Interpreter(options);
}
