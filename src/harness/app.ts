import { DashboardError, createInterpreter, type FunctionInvoker, type FunctionsConfig, type Interpreter } from '../dashboard/index.js';
import { createApp, type App, type RouteDefinition } from '../index.js';
import { dashboardErrorToProblem } from './errors.js';
import { harnessRoutes } from './routes.js';
import { webRoutes } from './web/index.js';

/** Largest accepted request body: 5 MiB. */
export const DEFAULT_BODY_LIMIT = 5 * 1024 * 1024;

/** Options of {@link createHarnessApp}. */
export interface HarnessAppOptions {
  /** The interpreter to serve. Give this or `functions`. */
  harness?: Interpreter;
  /** What runs the endpoints (a functions configuration or an invoker); a harness is made from it. */
  functions?: FunctionsConfig | FunctionInvoker;
  /** Cap on stored dashboards (least recently used goes first) when a harness is made here. Default 1,000. */
  maxDashboards?: number;
  /** Epoch milliseconds, when a harness is made here. Default `Date.now`. */
  clock?: () => number;
  /** Largest accepted request body in bytes; default 5 MiB. */
  bodyLimit?: number;
  /** Serve the web page (`GET /` and `/web/*`) beside the API; default true. */
  web?: boolean;
  /** More routes served by the same app. */
  extraRoutes?: readonly RouteDefinition[];
}

/** The harness app and the interpreter behind it. */
export interface HarnessApp {
  app: App;
  harness: Interpreter;
}

/**
 * Builds the harness HTTP API as a Trellis app (with its web page at `/` unless `web: false`), with the
 * interpreter it serves.
 *
 * @example
 * const { app, harness } = createHarnessApp({ functions: { functions: { hello: { handler: () => '<p>hi</p>' } } } });
 * const res = await app.inject({ method: 'POST', url: '/api/dashboards', body: JSON.stringify('{"widgets":[]}'), headers: { 'content-type': 'application/json' } });
 * await harness.close();
 */
export function createHarnessApp(options: HarnessAppOptions): HarnessApp {
  const harness =
    options.harness ??
    createInterpreter({
      functions: options.functions ?? { functions: {} },
      maxDashboards: options.maxDashboards,
      clock: options.clock,
    });
  const app = createApp({ bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT });
  app.onError(DashboardError, dashboardErrorToProblem);
  app.route(harnessRoutes(harness));
  if (options.web !== false) app.route(webRoutes());
  if (options.extraRoutes) app.route(options.extraRoutes);
  return { app, harness };
}

/** Options of {@link startHarness}. */
export interface StartHarnessOptions extends HarnessAppOptions {
  /** Default 4600; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

/** A listening harness. */
export interface RunningHarness extends HarnessApp {
  /** `http://HOST:PORT` */
  url: string;
  host: string;
  port: number;
  /** Stops listening, then stops the functions' child processes (when the harness was made here). */
  close(): Promise<void>;
}

/**
 * Builds the harness app and listens (127.0.0.1:4600 unless told otherwise).
 *
 * @example
 * const running = await startHarness({ functions: config, port: 0 });
 * console.log(running.url);
 * await running.close();
 */
export async function startHarness(options: StartHarnessOptions): Promise<RunningHarness> {
  const { app, harness } = createHarnessApp(options);
  const owned = options.harness === undefined;
  let bound;
  try {
    bound = await app.listen({ port: options.port ?? 4600, host: options.host ?? '127.0.0.1' });
  } catch (error) {
    if (owned) await harness.close();
    throw error;
  }
  let closing: Promise<void> | null = null;
  return {
    app,
    harness,
    url: bound.url,
    host: bound.host,
    port: bound.port,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        if (owned) await harness.close();
      })()),
  };
}
