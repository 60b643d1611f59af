import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import {
  DashboardError,
  FunctionRegistry,
  createInterpreter,
  type FunctionInvoker,
  type FunctionsConfig,
  type Interpreter,
} from '../dashboard/index.js';
import { WidgetImages, type WidgetImagesOptions } from '../snapshot/index.js';
import { createApp, type App, type RouteDefinition } from 'trellis';
import { ChangeFeed } from './change-feed.js';
import { changesRoutes } from './changes-route.js';
import { dashboardErrorToProblem } from './errors.js';
import { watchFunctions, type FunctionWatch, type WatchOptions } from './function-watch.js';
import { isLoopback } from './hosts.js';
import { imageRoutes } from './image-route.js';
import { requestGuard } from './request-guard.js';
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
  /** At most this many dashboards, when a harness is made here; past it a new one is refused (413). Default 1,000. */
  maxDashboards?: number;
  /** The dashboard budget in bytes of sources (and as much of remembered widget content), when a harness is made here. Default 32 MiB. */
  maxDashboardBytes?: number;
  /** Epoch milliseconds, when a harness is made here. Default `Date.now`. */
  clock?: () => number;
  /** Largest accepted request body in bytes; default 5 MiB. */
  bodyLimit?: number;
  /** Serve the web page (`GET /` and `/web/*`) beside the API; default true. */
  web?: boolean;
  /** More routes served by the same app. */
  extraRoutes?: readonly RouteDefinition[];
  /**
   * Host names (in the `Host` header) served besides IP addresses and loopback names; `.example.com` admits
   * its subdomains too. Any other name gets 403, so a web page cannot reach the harness by DNS rebinding.
   */
  allowedHosts?: readonly string[];
  /** When set, every `/api/` request must send `Authorization: Bearer <token>` (401 otherwise). */
  token?: string;
  /** What `GET /api/changes` reports; default a feed of a harness that does not watch (no change ever comes). */
  changes?: ChangeFeed;
  /**
   * How `GET …/widgets/{wid}/image` draws widgets: the Chromium program, remote images, the time bound. Chromium
   * starts on the first image.
   */
  images?: WidgetImagesOptions;
}

/** The harness app and the interpreter behind it. */
export interface HarnessApp {
  app: App;
  harness: Interpreter;
  /** The changes `GET /api/changes` reports. */
  changes: ChangeFeed;
  /** What draws widget images; `close()` it with the harness (`startHarness` does). */
  images: WidgetImages;
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
      maxDashboardBytes: options.maxDashboardBytes,
      clock: options.clock,
    });
  const app = createApp({ bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT });
  app.filter(requestGuard({ allowedHosts: options.allowedHosts, token: options.token }));
  app.onError(DashboardError, dashboardErrorToProblem);
  const changes = options.changes ?? new ChangeFeed(false);
  const images = new WidgetImages(options.images);
  app.route(harnessRoutes(harness));
  app.route(imageRoutes(harness, images));
  app.route(changesRoutes(changes));
  if (options.web !== false) app.route(webRoutes());
  if (options.extraRoutes) app.route(options.extraRoutes);
  return { app, harness, changes, images };
}

/** Options of {@link startHarness}. */
export interface StartHarnessOptions extends HarnessAppOptions {
  /** Default 4600; 0 picks a free port. */
  port?: number;
  /**
   * Default 127.0.0.1. Any address that is not loopback gets a token (`token`, or a random one) unless
   * `insecureNoToken` is set.
   */
  host?: string;
  /**
   * Serve a non-loopback address without a token: anyone who can reach it can run the configured functions
   * with this process's credentials. Default false.
   */
  insecureNoToken?: boolean;
  /**
   * Watch mode: when a file of a function given as a module (`handler: "path/file.export"`) changes, its
   * execution environments restart, the widgets showing its output run it again on their next read, and
   * `GET /api/changes` (which the page listens to) reports it. Needs `functions` to be a configuration.
   */
  watch?: boolean | WatchOptions;
}

/** A listening harness. */
export interface RunningHarness extends HarnessApp {
  /** `http://HOST:PORT` */
  url: string;
  host: string;
  port: number;
  /** The token API calls must send (`Authorization: Bearer <token>`), or null when none is needed. */
  token: string | null;
  /** The watch, in watch mode (`roots` are the folders watched), else null. */
  watch: FunctionWatch | null;
  /** Stops watching and listening, closes the browser of widget images, then stops the functions' child processes (when the harness was made here). */
  close(): Promise<void>;
}

/**
 * Builds the harness app and listens (127.0.0.1:4600 unless told otherwise). On an address other than
 * loopback it requires a token, made at random unless given, unless `insecureNoToken` is set.
 *
 * @example
 * const running = await startHarness({ functions: config, port: 0 });
 * console.log(running.url);
 * await running.close();
 */
export async function startHarness(options: StartHarnessOptions): Promise<RunningHarness> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? (isLoopback(host) || options.insecureNoToken === true ? undefined : randomBytes(24).toString('base64url'));
  // A name the harness is told to listen on is a name it answers to.
  const allowedHosts = [...(options.allowedHosts ?? []), ...(isIP(host) === 0 ? [host] : [])];
  const watching = options.watch !== undefined && options.watch !== false;
  const config = options.functions;
  if (watching && (config === undefined || typeof (config as FunctionInvoker).invoke === 'function' || options.harness !== undefined)) {
    throw new TypeError('watch needs "functions" to be a functions configuration (the harness restarts the functions it starts itself)');
  }
  const changes = new ChangeFeed(watching);
  const { app, harness, images } = createHarnessApp({ ...options, token, allowedHosts, changes });
  const owned = options.harness === undefined;
  let bound;
  try {
    bound = await app.listen({ port: options.port ?? 4600, host });
  } catch (error) {
    await images.close();
    if (owned) await harness.close();
    throw error;
  }
  let watch: FunctionWatch | null = null;
  if (watching && harness.functions instanceof FunctionRegistry) {
    watch = watchFunctions(
      config as FunctionsConfig,
      harness.functions,
      harness.store,
      changes,
      options.watch === true ? {} : (options.watch as WatchOptions),
    );
  }
  let closing: Promise<void> | null = null;
  return {
    app,
    harness,
    changes,
    images,
    watch,
    url: bound.url,
    host: bound.host,
    port: bound.port,
    token: token ?? null,
    close: () =>
      (closing ??= (async () => {
        watch?.close();
        changes.close();
        await app.close();
        await images.close();
        if (owned) await harness.close();
      })()),
  };
}
