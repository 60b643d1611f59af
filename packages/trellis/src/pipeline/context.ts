import type { Readable } from 'node:stream';
import type { ServiceResolver } from '../services/index.js';
import type { Annotation, AnnotationKind } from './annotation.js';
import type { BodySource } from './body-source.js';
import type { UploadedFile } from './uploaded-file.js';
import { Cookies } from './cookies.js';
import { evaluatePreconditions, preconditionFailed, type ResourceState } from './conditional.js';
import { RequestHeaders, ResponseHeaders } from './headers.js';
import type { HeaderValue } from './headers.js';
import type { ProblemDetails } from './problem.js';
import { usageError } from '../errors/index.js';

export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/** What the pipeline knows of the handler a request was routed to. */
export interface RouteInfo {
  /** `METHOD /path`, unique within an app. */
  readonly id: string;
  /** Where the handler was declared: `Class.method` or the function's name. */
  readonly name: string;
  readonly method: HttpMethod;
  readonly path: string;
  /** The handler's annotations after class- and method-level ones are combined, in a canonical order. */
  readonly annotations: readonly Annotation[];
  /** Calls the handler. */
  readonly invoke: (ctx: ExecutionContext) => unknown;
}

/** Who is calling, as established by authentication. */
export interface Principal {
  readonly subject: string;
  readonly grants: ReadonlySet<string>;
  /** Which authenticator established it (e.g. `api-key`, `bearer`). */
  readonly scheme?: string;
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** A refusal recorded by a filter; the serialization stage writes it. */
export interface Refusal {
  readonly status: number;
  readonly problem: ProblemDetails;
  readonly headers: ResponseHeaders;
  /** The filter that recorded it. */
  readonly by: string;
}

/** A finished response: the handler's result, a cached copy, or a written refusal. */
export interface OutgoingResponse {
  status: number;
  headers: ResponseHeaders;
  /** The bytes, or a stream of them (written as they come, with backpressure). */
  body: Buffer | string | Readable | null;
}

export interface RequestInfo {
  readonly method: string;
  /** The request target as received (path and query). */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: RequestHeaders;
  /** The address of the connection's peer (the client, or the nearest proxy); undefined when unknown. */
  readonly remoteAddress: string | undefined;
  /**
   * The client's address: the peer, unless proxies the app trusts (`createApp({ trustProxy })`) say whom
   * they forwarded for in `X-Forwarded-For` or `Forwarded`. Undefined when unknown.
   */
  readonly clientAddress: string | undefined;
}

const NO_FILES: readonly UploadedFile[] = Object.freeze([]);

/**
 * Everything one request carries through the pipeline. A refusal is recorded, never returned early: once
 * `refuse` has been called the request is decided, later filters are skipped by the runner (unless they
 * observe decided requests) and the serialization stage writes the refusal.
 */
export class ExecutionContext {
  readonly request: RequestInfo;
  readonly route: RouteInfo;
  readonly params: Readonly<Record<string, string>>;
  readonly services: ServiceResolver;
  #responseHeaders: ResponseHeaders | undefined;
  #items: Map<unknown, unknown> | undefined;
  #cookies: Cookies | undefined;
  /** The authenticated caller, or null when anonymous. */
  principal: Principal | null = null;
  /** The parsed, validated request body (set by the serialization stage); a multipart body's fields. */
  body: unknown = undefined;
  /** The files a multipart body carried, in the order they came (`Body('multipart')`); empty otherwise. */
  files: readonly UploadedFile[] = NO_FILES;
  /** The validated query (set by the serialization stage when the handler declares a query schema). */
  validatedQuery: unknown = undefined;
  /** The validated path parameters (set when the handler declares a params schema; `params` keeps the raw strings). */
  validatedParams: unknown = undefined;
  /** The validated request headers (set when the handler declares a headers schema; names in lower case). */
  validatedHeaders: unknown = undefined;
  /** The validated cookies (set when the handler declares a cookies schema). */
  validatedCookies: unknown = undefined;
  /** @internal the filter now running, for recording who refused. */
  currentFilter = '';
  readonly #bodySource: BodySource;
  #refusal: Refusal | null = null;
  #response: OutgoingResponse | null = null;
  readonly #makeSignal: () => AbortSignal;
  #signal: AbortSignal | undefined;

  constructor(init: {
    request: RequestInfo;
    route: RouteInfo;
    params: Record<string, string>;
    services: ServiceResolver;
    body: BodySource;
    /** Made on first use: most requests never need one. */
    signal: () => AbortSignal;
    /** The host's per-request values, which `items` starts with (the map is taken, not copied). */
    items?: Map<unknown, unknown> | undefined;
  }) {
    this.request = init.request;
    this.route = init.route;
    this.params = init.params;
    this.services = init.services;
    this.#bodySource = init.body;
    this.#makeSignal = init.signal;
    this.#items = init.items;
  }

  /** Aborted when the client goes away. */
  get signal(): AbortSignal {
    this.#signal ??= this.#makeSignal();
    return this.#signal;
  }

  /** Headers that filters add to whatever response is written (e.g. `RateLimit-*`, and the cookies set). */
  get responseHeaders(): ResponseHeaders {
    this.#responseHeaders ??= new ResponseHeaders();
    return this.#responseHeaders;
  }

  /** The cookies the client sent (`get`, `getSigned`) and those the response sets (`set`, `clear`). */
  get cookies(): Cookies {
    this.#cookies ??= new Cookies(this);
    return this.#cookies;
  }

  /** True when a filter has added response headers. */
  get hasResponseHeaders(): boolean {
    return this.#responseHeaders !== undefined && this.#responseHeaders.size > 0;
  }

  /** Free-form per-request values for filters. */
  get items(): Map<unknown, unknown> {
    this.#items ??= new Map();
    return this.#items;
  }

  /** The recorded refusal, if any. */
  get refusal(): Refusal | null {
    return this.#refusal;
  }

  /** The response produced so far (by the serialization stage or a cache hit), if any. */
  get response(): OutgoingResponse | null {
    return this.#response;
  }

  /** True once a refusal is recorded or a response is produced: later filters do none of their work. */
  get decided(): boolean {
    return this.#refusal !== null || this.#response !== null;
  }

  /**
   * Records a refusal: the problem document to answer with (its `status`, 4xx or 5xx, is the response's) and
   * headers. The first one wins; returns false (and changes nothing) when the request was already decided. The
   * caller still calls `next()`.
   *
   * @example
   * ctx.refuse(problem(403, 'The grant "orders:write" is required.'));
   */
  refuse(problem: ProblemDetails, headers?: Record<string, HeaderValue>): boolean {
    if (this.decided) return false;
    const given: unknown = problem;
    const status = (problem as ProblemDetails | null)?.status;
    if (!Number.isInteger(status) || status! < 400 || status! > 599) {
      throw usageError(
        'TRELLIS_INVALID_ARGUMENT',
        typeof given === 'number'
          ? `ctx.refuse takes a problem document, whose status is the response's: ctx.refuse(problem(${given}, detail), headers).`
          : `A refusal needs a problem document with a 4xx or 5xx status, got ${JSON.stringify(status)}.`,
      );
    }
    this.#refusal = { status: status!, problem: { ...problem }, headers: new ResponseHeaders(headers), by: this.currentFilter };
    return true;
  }

  /**
   * Checks the request's preconditions (`If-Match`, `If-Unmodified-Since`, and on other methods than GET and
   * HEAD `If-None-Match`) against the resource as it is now, before the handler changes it: throws the 412
   * `HttpError` (`TRELLIS_PRECONDITION_FAILED`) when one fails, so a client updating what it read cannot
   * overwrite a change made since. GET and HEAD answers are checked for `If-None-Match` and
   * `If-Modified-Since` by the framework, from the answer's `ETag` and `Last-Modified`.
   *
   * @example
   * const order = await orders.get(id);
   * ctx.checkPreconditions({ etag: `"${order.version}"` }); // If-Match: "7" while the order is at "8" → 412
   */
  checkPreconditions(state: ResourceState): void {
    const outcome = evaluatePreconditions((name) => this.request.headers.get(name), this.request.method, state);
    if (outcome === 'failed') throw preconditionFailed();
  }

  /** Produces the response (a cache hit, or the serialization stage). Returns false when already decided. */
  respond(response: OutgoingResponse): boolean {
    if (this.#response !== null) return false;
    if (this.#refusal !== null && response.status < 400) return false;
    this.#response = response;
    return true;
  }

  /** The body's source; read it only through the serialization stage. */
  get bodySource(): BodySource {
    return this.#bodySource;
  }

  /** The values of one annotation kind on this request's handler. */
  annotations<T>(kind: AnnotationKind<T>): T[] {
    const out: T[] = [];
    for (const a of this.route.annotations) if (a.kind === kind) out.push(a.value as T);
    return out;
  }
}
