import { DashboardDriver } from './driver.js';
import { lintAnalyzer } from './html-analyzer.js';
import type { FunctionInvoker, HtmlAnalyzer } from './ports.js';
import { DashboardStore } from './store.js';

/** Options of {@link createHarness}. */
export interface HarnessOptions {
  /** What runs the endpoints: a function registry (or any `{ invoke(endpoint, event) }`). */
  functions: FunctionInvoker;
  /** Epoch milliseconds; a fake clock makes relative time ranges deterministic. Default `Date.now`. */
  clock?: () => number;
  /** Cap on stored dashboards (least recently used goes first). Default 1,000. */
  maxDashboards?: number;
  /** Replaces the linter's analysis of widget HTML (rarely needed). */
  analyzer?: HtmlAnalyzer<any>;
}

/**
 * The interpreter driven in-process: load dashboards and get drivers for them.
 *
 * @example
 * const harness = createHarness({ functions: registry, clock: () => Date.UTC(2024, 0, 1) });
 * const dash = await harness.load(json, { name: 'ops' });
 * const w = await dash.widget(0);
 */
export class Harness {
  readonly store: DashboardStore;

  constructor(options: HarnessOptions) {
    this.store = new DashboardStore({
      functions: options.functions,
      analyzer: options.analyzer ?? lintAnalyzer,
      clock: options.clock ?? Date.now,
      maxDashboards: options.maxDashboards ?? 1_000,
    });
  }

  /**
   * Loads a dashboard from its JSON text (kept exactly) or from an object (serialised with two-space indent).
   * Throws DashboardValidationError listing every problem.
   *
   * @example
   * const dash = await harness.load({ widgets: [{ type: 'custom', properties: { endpoint: 'hello' } }] });
   */
  async load(dashboard: string | object, options: { name?: string } = {}): Promise<DashboardDriver> {
    const text = typeof dashboard === 'string' ? dashboard : JSON.stringify(dashboard, null, 2);
    return new DashboardDriver(this.store.create(text, options));
  }

  /**
   * A driver for a dashboard loaded earlier, by id.
   *
   * @example
   * harness.dashboard(dash.id).widget(0);
   */
  dashboard(id: string): DashboardDriver {
    return new DashboardDriver(this.store.get(id));
  }
}

/**
 * Creates an in-process harness.
 *
 * @example
 * const harness = createHarness({ functions: new FunctionRegistry({ functions: { hello: { handler: () => '<p>hi</p>' } } }) });
 */
export function createHarness(options: HarnessOptions): Harness {
  return new Harness(options);
}
