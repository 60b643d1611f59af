import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RouteDefinition } from '../annotations/index.js';
import { ETagKind, describeController, toRouteInfo } from '../annotations/index.js';
import {
  Authenticator,
  MemoryResponseCache,
  ResponseCacheStore,
  SerializationSettings,
  CorsPolicy,
  corsOf,
  type CorsOptions,
  type ErrorClass,
  type ErrorHandler,
  type ErrorMapping,
  authenticationFilter,
  authorizationFilter,
  responseCacheFilter,
  serializationFilter,
} from '../filters/index.js';
import type { ExecutionContext, Feature, Filter, HttpMethod, OutgoingResponse } from '../pipeline/index.js';
import {
  CookieKeys,
  Logger,
  assertApplicationFilter,
  composeFilters,
  consoleLogger,
  cookieKeys,
  featureOf,
  guardedLogger,
} from '../pipeline/index.js';
import { ServiceCollection, ServiceProvider } from '../services/index.js';
import type { ServiceResolver } from '../services/index.js';
import { dispatch } from './dispatch.js';
import type { CompiledRoute, DispatchDeps, IncomingRequest } from './dispatch.js';
import { injectResponse, injectedRequest, recordResponse } from './inject.js';
import type { InjectRequest, InjectResponse, RecordedResponse } from './inject.js';
import { createNodeServer } from './node-host.js';
import { DEFAULT_MAX_HEADER_SIZE, DEFAULT_MAX_URL_LENGTH, headBytes, headerFieldsTooLarge } from './header-size.js';
import { Router } from './router.js';
import { compileTrust, guardedTrust, type TrustProxy } from './client-address.js';
import type { TrustFunction } from './request-info.js';
import { splitTarget } from './request-info.js';
import { usageError } from '../errors/index.js';

export interface AppOptions {
  /** Largest accepted request body in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** Development mode puts error stacks in 500 problems; default: NODE_ENV === 'development'. */
  development?: boolean;
  /**
   * Largest accepted request head (request line and headers) in bytes; default 16 KiB, node:http's. A larger
   * one is answered 431 by `listen()`, `inject()` and every AWS Lambda front door alike.
   */
  maxHeaderSize?: number;
  /**
   * Longest accepted request target (path and query) in bytes; default 8 KiB. A longer one is answered 414 by
   * `listen()`, `inject()` and every AWS Lambda front door alike, before routing.
   */
  maxUrlLength?: number;
  /**
   * Proxies trusted to say who the client is, for `ctx.request.clientAddress`: `false` (default), `true`,
   * a number of hops, addresses or subnets (`'loopback'`, `['10.0.0.0/8']`), or `(address, hop) => boolean`.
   * The function must answer at once with true or false: one that throws or answers anything else (a promise
   * included) is logged, and that hop is not trusted.
   */
  trustProxy?: TrustProxy;
  /**
   * Cross-origin settings for every route (a route's own `Cors` annotation replaces them; `Cors(false)` turns
   * them off for it): preflights are answered before authentication and rate limiting, and every response to
   * an allowed origin, refusals and 404s included, carries the `Access-Control-*` headers.
   */
  cors?: CorsOptions;
  /**
   * Keys of signed cookies (`ctx.cookies.set(name, value, { signed: true })`), newest first, each at least 32
   * bytes: the first signs, every one verifies. Rotate by putting a new key first and dropping the oldest once
   * the cookies it signed have expired.
   */
  cookieSecrets?: readonly (string | Buffer)[];
}

export interface ListenOptions {
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

export interface BoundAddress {
  host: string;
  port: number;
  url: string;
}

type ControllerClass = abstract new (...args: any[]) => object;

/**
 * A Trellis application: routes, filters and services, served by node:http or called with inject().
 *
 * @example
 * const app = createApp();
 * app.controller(Orders);
 * app.route(route('GET', '/health', () => ({ ok: true })));
 * const { url } = await app.listen({ port: 3000 });
 */
export class App {
  readonly services = new ServiceCollection();
  readonly #definitions: RouteDefinition[] = [];
  readonly #filters: Filter[] = [];
  readonly #errorHandlers: ErrorMapping[] = [];
  readonly #options: Required<Omit<AppOptions, 'maxHeaderSize' | 'trustProxy' | 'cors' | 'cookieSecrets'>> & {
    maxHeaderSize: number | undefined;
  };
  readonly #trust: TrustFunction;
  /** `trustProxy` was a function of the application's: called through the guard. */
  readonly #trustIsUserCode: boolean;
  readonly #cors: CorsPolicy | undefined;
  readonly #cookieKeys: readonly Buffer[];
  #built: { router: Router<CompiledRoute>; provider: ServiceProvider; routes: CompiledRoute[]; deps: DispatchDeps } | null = null;
  #server: Server | null = null;

  constructor(options: AppOptions = {}) {
    const bodyLimit = options.bodyLimit ?? 1024 * 1024;
    if (!Number.isSafeInteger(bodyLimit) || bodyLimit < 0)
      throw usageError(
        'TRELLIS_INVALID_APP_OPTIONS',
        `bodyLimit must be a whole number of bytes, got ${String(options.bodyLimit)}.`,
        RangeError,
      );
    const maxUrlLength = options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH;
    if (!Number.isSafeInteger(maxUrlLength) || maxUrlLength < 1)
      throw usageError(
        'TRELLIS_INVALID_APP_OPTIONS',
        `maxUrlLength must be a whole number of bytes >= 1, got ${String(options.maxUrlLength)}.`,
        RangeError,
      );
    this.#options = {
      bodyLimit,
      development: options.development ?? process.env.NODE_ENV === 'development',
      maxHeaderSize: options.maxHeaderSize,
      maxUrlLength,
    };
    this.#trust = compileTrust(options.trustProxy);
    this.#trustIsUserCode = typeof options.trustProxy === 'function';
    this.#cors = options.cors === undefined ? undefined : new CorsPolicy(options.cors, 'createApp({ cors })');
    this.#cookieKeys = cookieKeys(options.cookieSecrets);
  }

  /** Adds routes declared in the functional form. */
  route(...definitions: (RouteDefinition | readonly RouteDefinition[])[]): this {
    this.#assertOpen();
    this.#definitions.push(...definitions.flat());
    return this;
  }

  /**
   * Adds the routes of a decorated class. The instance comes from the services when the class is
   * registered there (any lifetime), otherwise one instance is made with `new`.
   */
  controller(controller: ControllerClass): this {
    this.#assertOpen();
    let shared: object | undefined;
    const instanceFor = (ctx: ExecutionContext) =>
      ctx.services.tryGet<object>(controller) ?? (shared ??= new (controller as unknown as new () => object)());
    this.#definitions.push(...describeController(controller, instanceFor));
    return this;
  }

  /** Adds an application filter, at any order below `FilterOrder.Serialization`. */
  filter(filter: Filter): this {
    this.#assertOpen();
    assertApplicationFilter(filter);
    this.#filters.push(filter);
    return this;
  }

  /**
   * Maps errors that handlers throw to responses, in one place for the whole app (registrations are tried in
   * order; the first whose class matches, or that takes every error, answers). The handler returns what a
   * route handler would (a value, `reply(…)`, or a promise of one) or throws an `HttpError` for a problem
   * response; errors no registration takes become the usual 500 problem. A handler that throws anything else,
   * rejects, or answers what cannot be sent is logged once (`app.onError(handler) … threw …`) and the 500
   * problem goes out. Refusals recorded by filters are not errors and never reach it.
   *
   * @example
   * app.onError(NotFoundError, (error) => { throw new HttpError(404, error.message); });
   * app.onError((error, ctx) => reply({ failed: ctx.route.id }, { status: 500 }));
   */
  onError(handler: ErrorHandler<unknown>): this;
  onError<E>(type: ErrorClass<E>, handler: ErrorHandler<E>): this;
  onError<E>(typeOrHandler: ErrorClass<E> | ErrorHandler<unknown>, handler?: ErrorHandler<E>): this {
    this.#assertOpen();
    if (handler === undefined) {
      if (typeof typeOrHandler !== 'function')
        throw usageError('TRELLIS_INVALID_APP_OPTIONS', 'onError takes a handler function, or an error class and a handler.');
      this.#errorHandlers.push({ type: undefined, handle: typeOrHandler as ErrorHandler<unknown> });
    } else {
      if (typeof typeOrHandler !== 'function' || typeof handler !== 'function') {
        throw usageError('TRELLIS_INVALID_APP_OPTIONS', 'onError(type, handler) takes an error class and a handler function.');
      }
      this.#errorHandlers.push({ type: typeOrHandler as ErrorClass<E>, handle: handler });
    }
    return this;
  }

  /** Builds routes, services and pipelines; runs once, on first use. Throws on conflicting declarations. */
  build(): this {
    if (this.#built) return this;
    const infos = this.#definitions.map(toRouteInfo);
    const features = new Map<string, Feature>();
    for (const info of infos) {
      for (const a of info.annotations) {
        const feature = featureOf(a.kind);
        if (feature) features.set(feature.name, feature);
      }
    }
    const options = this.#options;
    this.services.addDefault(Logger, () => consoleLogger);
    this.services.addDefault(ResponseCacheStore, () => new MemoryResponseCache());
    this.services.addDefault(CookieKeys, () => this.#cookieKeys);
    this.services.addDefault(SerializationSettings, (s) => {
      const logger = guardedLogger(s.get(Logger));
      return {
        bodyLimit: options.bodyLimit,
        development: options.development,
        onError: (error, route) => logger.error(`Handler of ${route} failed`, { error }),
        onClientAbort: (route) => logger.debug?.(`The client of ${route} left before sending the whole body`),
        errorHandlers: this.#errorHandlers,
      };
    });
    for (const feature of features.values()) feature.configure?.(this.services);
    const provider = new ServiceProvider(this.services.seal());
    const filters: Filter[] = [authorizationFilter, responseCacheFilter, serializationFilter, ...this.#filters];
    if ((provider.entries.get(Authenticator)?.length ?? 0) > 0) filters.push(authenticationFilter);
    for (const feature of features.values()) filters.push(...(feature.filters?.() ?? []));
    const router = new Router<CompiledRoute>();
    const routes: CompiledRoute[] = [];
    const appCors = this.#cors;
    for (const info of infos) {
      const compiled: CompiledRoute = {
        info,
        run: composeFilters(filters, info),
        cors: corsOf(info, appCors),
        etag: info.annotations.some((a) => a.kind === ETagKind),
      };
      router.add(info.method, info.path, compiled);
      routes.push(compiled);
    }
    router.addImplicitHead(routes.filter((r) => r.info.method === 'GET').map((r) => [r.info.path, r]));
    const logger = guardedLogger(provider.get(Logger));
    const deps: DispatchDeps = {
      router,
      provider,
      onError: (error, where) => logger.error(`Request to ${where} failed`, { error }),
      trust: this.#trustIsUserCode ? guardedTrust(this.#trust!, provider) : this.#trust,
      cors: appCors,
      maxUrlLength: options.maxUrlLength,
    };
    this.#built = { router, provider, routes, deps };
    return this;
  }

  /** The built routes' descriptors (id, method, path, annotations). */
  get routes(): readonly CompiledRoute['info'][] {
    return this.build().#built!.routes.map((r) => r.info);
  }

  /**
   * The methods the app answers on `path` (a request target, percent-encoded as in a URL; a query is ignored),
   * HEAD included where GET is; [] when no route matches it. A host that turns another kind of event into a
   * request picks its method with it.
   *
   * @example
   * app.methodsOf('/orders/42'); // ['GET', 'HEAD', 'DELETE']
   */
  methodsOf(path: string): readonly HttpMethod[] {
    const target = splitTarget(path);
    return target === null ? [] : this.build().#built!.router.allowedMethods(target.path);
  }

  /**
   * The built app's services (building it on first use): singleton and transient services, for code that reads
   * an app from outside a request, such as its OpenAPI document reading the authenticators. Scoped services need
   * a request.
   */
  get provider(): ServiceResolver {
    return this.build().#built!.provider;
  }

  /** Runs a request through the same routing and pipeline as the server, without a socket. */
  async inject(request: InjectRequest): Promise<InjectResponse> {
    return injectResponse(await this.respond(injectedRequest(request)));
  }

  /**
   * Dispatches one request and writes its response the way every host does (so a header node:http would
   * refuse becomes the same 500 here), recording status, headers and bytes: the path inject() and the AWS
   * Lambda front doors share. A streamed body is read whole, up to `maxBodyBytes` (past it, a 500 problem
   * saying so). Rejects only as `handle()` does, when the app cannot be built.
   */
  async respond(request: IncomingRequest, options: { maxBodyBytes?: number } = {}): Promise<RecordedResponse> {
    // The same header limit as listen(), where node:http enforces it before the app sees the request.
    const response = await this.handle(request);
    return recordResponse(
      request.method,
      response,
      (error) => this.#logger().error('Writing a response failed', { error }),
      options.maxBodyBytes,
    );
  }

  #logger(): Logger {
    return guardedLogger(this.build().#built!.provider.get(Logger));
  }

  /**
   * Dispatches one request (for custom hosts, and the streaming Lambda door), with the header limit
   * `listen()` has from node:http: a larger head is answered 431. A streamed body is left for the host to
   * write. Every failure of the request is answered (a problem response), not rejected; the promise rejects
   * only when the app cannot be built — the error `build()` throws for routes that conflict, on the first
   * request of an app not built before.
   */
  handle(request: IncomingRequest): Promise<OutgoingResponse> {
    if (headBytes(request) > (this.#options.maxHeaderSize ?? DEFAULT_MAX_HEADER_SIZE)) return Promise.resolve(headerFieldsTooLarge());
    try {
      return Promise.resolve(dispatch((this.#built ?? this.build().#built!).deps, request));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Starts a node:http server on 127.0.0.1 unless another host is given. */
  async listen(options: ListenOptions = {}): Promise<BoundAddress> {
    if (this.#server) throw usageError('TRELLIS_APP_LISTENING', 'The app is already listening; close() it first.', Error);
    const logger = this.#logger();
    // node:http has held the head to maxHeaderSize already.
    const deps = this.build().#built!.deps;
    const server = createNodeServer(dispatch.bind(undefined, deps), {
      maxHeaderSize: this.#options.maxHeaderSize,
      onError: (error) => logger.error('Writing a response failed', { error }),
    });
    const host = options.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.#server = server;
    const address = server.address() as AddressInfo;
    const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return { host: address.address, port: address.port, url: `http://${shown}:${address.port}` };
  }

  /** Stops accepting connections, lets requests in flight finish, then closes idle connections. */
  async close(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }

  #assertOpen(): void {
    if (this.#built)
      throw usageError(
        'TRELLIS_APP_BUILT',
        'Routes and filters cannot change once the app is built (after the first listen(), inject() or build()).',
        Error,
      );
  }
}

/** Creates an application. */
export function createApp(options: AppOptions = {}): App {
  return new App(options);
}
