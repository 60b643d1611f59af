import { normalizeAddress, type BodySource } from '../index.js';
import { eventBody } from './event-body.js';
import type { AlbEvent, ApiGatewayHttpEvent, ApiGatewayRestEvent, LambdaEventKind, LambdaHttpEvent } from './events.js';

/** The HTTP request an event carries, as a host hands it to the app. */
export interface EventRequest {
  readonly method: string;
  /** Path (stage and base path removed) and query, percent-encoded as on the wire. */
  readonly url: string;
  /** Lower-case names; repeated headers as arrays. */
  readonly headers: Record<string, string | string[]>;
  /** The body, read when a route reads it; null when the event has none. */
  readonly body: BodySource | null;
  readonly sourceIp: string | undefined;
}

type HeaderMap = Record<string, string | undefined> | null | undefined;
type MultiHeaderMap = Record<string, string[] | undefined> | null | undefined;

/** Lower-cases names and keeps repeated values (multi-value maps win: they hold every value). */
function readHeaders(single: HeaderMap, multi: MultiHeaderMap): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  if (multi) {
    for (const name in multi) {
      const values = multi[name];
      if (!values || values.length === 0) continue;
      const key = name.toLowerCase();
      const seen = headers[key];
      const all = seen === undefined ? values : [...(Array.isArray(seen) ? seen : [seen]), ...values];
      headers[key] = all.length === 1 ? all[0]! : [...all];
    }
    return headers;
  }
  if (single) {
    for (const name in single) {
      const value = single[name];
      if (value !== undefined && value !== null) headers[name.toLowerCase()] = value;
    }
  }
  return headers;
}

/** Characters a request path cannot carry as they are, and a `%` that starts no escape. */
const UNSAFE_IN_PATH = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/u;
const UNSAFE_IN_PATH_ALL = new RegExp(UNSAFE_IN_PATH.source, 'gu');

/** A lone surrogate has no UTF-8 form: it becomes U+FFFD, as a browser would send it. */
const encodeChar = (c: string): string => {
  try {
    return encodeURIComponent(c);
  } catch {
    return '%EF%BF%BD';
  }
};

/** Percent-encodes what a gateway handed over decoded, leaving valid escapes as they are. */
function encodePath(path: string): string {
  return UNSAFE_IN_PATH.test(path) ? path.replace(UNSAFE_IN_PATH_ALL, encodeChar) : path;
}

/** Characters a request path cannot carry as they are; a `%` is left as it is. */
const UNSAFE_IN_RAW_PATH_ALL = /[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;

/**
 * A path a load balancer passes as the client wrote it, still percent-encoded: a `%` that starts no escape is
 * the client's mistake, left for routing to refuse (400) as every other door does.
 */
function rawPath(path: string): string {
  return path.replace(UNSAFE_IN_RAW_PATH_ALL, encodeChar);
}

/** Removes `prefix` (`/v1`) from the front of `path` when it is a whole segment there. */
function stripPrefix(path: string, prefix: string | undefined): string {
  if (!prefix || prefix === '/') return path;
  if (path === prefix) return '/';
  return path.startsWith(prefix) && path.charCodeAt(prefix.length) === 47 /* / */ ? path.slice(prefix.length) : path;
}

/** A query string from decoded name/value pairs (API Gateway decodes them). */
function encodeQuery(single: HeaderMap, multi: MultiHeaderMap, encode: (s: string) => string): string {
  const parts: string[] = [];
  if (multi) {
    for (const name in multi) for (const value of multi[name] ?? []) parts.push(`${encode(name)}=${encode(value)}`);
  } else if (single) {
    for (const name in single) {
      const value = single[name];
      if (value !== undefined && value !== null) parts.push(`${encode(name)}=${encode(value)}`);
    }
  }
  return parts.join('&');
}

const asIs = (s: string): string => s;

/** The body's true length replaces whatever the client announced (the gateway has already read it all). */
function settleLength(headers: Record<string, string | string[]>, body: BodySource | null): void {
  delete headers['transfer-encoding'];
  if (body?.length !== undefined) headers['content-length'] = String(body.length);
  else delete headers['content-length'];
}

function withQuery(path: string, query: string): string {
  return query === '' ? path : `${path}?${query}`;
}

function fromRest(event: ApiGatewayRestEvent, basePath: string | undefined): EventRequest {
  const headers = readHeaders(event.headers, event.multiValueHeaders);
  const body = eventBody(event.body, event.isBase64Encoded);
  settleLength(headers, body);
  const path = encodePath(stripPrefix(event.path, basePath));
  const query = encodeQuery(event.queryStringParameters, event.multiValueQueryStringParameters, encodeURIComponent);
  return {
    method: event.httpMethod.toUpperCase(),
    url: withQuery(path, query),
    headers,
    body,
    sourceIp: normalizeAddress(event.requestContext.identity?.sourceIp),
  };
}

function fromHttp(event: ApiGatewayHttpEvent, basePath: string | undefined): EventRequest {
  const headers = readHeaders(event.headers, undefined);
  if (event.cookies && event.cookies.length > 0) headers.cookie = event.cookies.join('; ');
  const body = eventBody(event.body, event.isBase64Encoded);
  settleLength(headers, body);
  const stage = event.requestContext.stage;
  // A named stage comes first in rawPath; `$default` (and a function URL) adds nothing.
  const unstaged = stage && stage !== '$default' ? stripPrefix(event.rawPath, `/${stage}`) : event.rawPath;
  const path = encodePath(stripPrefix(unstaged, basePath));
  return {
    method: event.requestContext.http.method.toUpperCase(),
    url: withQuery(path, event.rawQueryString ?? ''),
    headers,
    body,
    sourceIp: normalizeAddress(event.requestContext.http.sourceIp),
  };
}

function fromAlb(event: AlbEvent, basePath: string | undefined): EventRequest {
  const headers = readHeaders(event.headers, event.multiValueHeaders);
  const body = eventBody(event.body, event.isBase64Encoded);
  settleLength(headers, body);
  // A load balancer passes the path and the query as the client wrote them, still percent-encoded.
  const path = rawPath(stripPrefix(event.path, basePath));
  const query = encodeQuery(event.queryStringParameters, event.multiValueQueryStringParameters, asIs);
  const forwarded = headers['x-forwarded-for'];
  const list = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
  // The load balancer appends the address it saw last.
  const sourceIp = normalizeAddress(list?.split(',').pop());
  return { method: event.httpMethod.toUpperCase(), url: withQuery(path, query), headers, body, sourceIp };
}

/** Translates an event of a known kind into the request it carries. */
export function requestFromEvent(kind: LambdaEventKind, event: LambdaHttpEvent, basePath: string | undefined): EventRequest {
  switch (kind) {
    case 'api-gateway-rest':
      return fromRest(event as ApiGatewayRestEvent, basePath);
    case 'alb':
      return fromAlb(event as AlbEvent, basePath);
    default:
      return fromHttp(event as ApiGatewayHttpEvent, basePath);
  }
}
