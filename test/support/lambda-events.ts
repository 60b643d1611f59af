/**
 * Lambda HTTP events for tests, made from the fixtures in test/fixtures/lambda (AWS's documented shapes):
 * `httpEvent(kind, request)` puts one HTTP request into the event a front door would send for it, in that
 * front door's own representation (decoded query maps for API Gateway 1.0, comma-joined headers and a
 * `cookies` array for 2.0, raw query values for a load balancer).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type FixtureKind = 'rest-api' | 'http-api' | 'function-url' | 'alb' | 'alb-multi-value';
export const FIXTURE_KINDS: readonly FixtureKind[] = ['rest-api', 'http-api', 'function-url', 'alb', 'alb-multi-value'];

export interface EventRequestSpec {
  method?: string;
  /** Path as the client sent it, percent-encoded, without stage. */
  path?: string;
  /** Query as the client sent it (`a=1&b=x%20y`). */
  query?: string;
  /** Headers by name (any case); repeated values as arrays. */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
  sourceIp?: string;
  /** The API Gateway stage (REST API, HTTP API). */
  stage?: string;
}

/** The fixtures' folder, from test/support or from a benchmark compiled into .bench/. */
const FIXTURES = [
  join(fileURLToPath(new URL('.', import.meta.url)), '..', 'fixtures', 'lambda'),
  join(fileURLToPath(new URL('.', import.meta.url)), '..', 'test', 'fixtures', 'lambda'),
].find((dir) => existsSync(dir))!;

export function fixture(kind: FixtureKind): any {
  return JSON.parse(readFileSync(join(FIXTURES, `${kind}.json`), 'utf8'));
}

function queryPairs(query: string): [string, string][] {
  return query === ''
    ? []
    : query.split('&').map((part) => {
        const eq = part.indexOf('=');
        return eq === -1 ? [part, ''] : [part.slice(0, eq), part.slice(eq + 1)];
      });
}

const decode = (s: string): string => decodeURIComponent(s.replace(/\+/g, ' '));

function group(pairs: [string, string][]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of pairs) (out[k] ??= []).push(v);
  return out;
}

const last = (m: Record<string, string[]>): Record<string, string> =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v[v.length - 1]!]));

export function httpEvent(kind: FixtureKind, spec: EventRequestSpec = {}): any {
  const event = fixture(kind);
  const method = spec.method ?? 'GET';
  const path = spec.path ?? '/';
  const query = spec.query ?? '';
  const headerLists: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(spec.headers ?? {})) headerLists[name.toLowerCase()] = Array.isArray(value) ? value : [value];
  const body =
    spec.body === undefined
      ? undefined
      : Buffer.isBuffer(spec.body)
        ? { text: spec.body.toString('base64'), base64: true }
        : { text: spec.body, base64: false };
  if (kind === 'rest-api') {
    event.httpMethod = method;
    event.requestContext.httpMethod = method;
    event.path = decodeURI(path);
    if (spec.stage !== undefined) event.requestContext.stage = spec.stage;
    event.requestContext.path = `/${event.requestContext.stage}${event.path}`;
    event.multiValueHeaders = headerLists;
    event.headers = last(headerLists);
    const decoded = group(queryPairs(query).map(([k, v]) => [decode(k), decode(v)]));
    event.multiValueQueryStringParameters = query === '' ? null : decoded;
    event.queryStringParameters = query === '' ? null : last(decoded);
    event.requestContext.identity.sourceIp = spec.sourceIp ?? event.requestContext.identity.sourceIp;
    event.body = body?.text ?? null;
    event.isBase64Encoded = body?.base64 ?? false;
    return event;
  }
  if (kind === 'http-api' || kind === 'function-url') {
    event.requestContext.http.method = method;
    if (spec.stage !== undefined) event.requestContext.stage = spec.stage;
    const stage = event.requestContext.stage;
    event.rawPath = stage === '$default' ? decodeURI(path) : `/${stage}${decodeURI(path)}`;
    event.requestContext.http.path = event.rawPath;
    event.rawQueryString = query;
    const decoded = group(queryPairs(query).map(([k, v]) => [decode(k), decode(v)]));
    event.queryStringParameters = Object.fromEntries(Object.entries(decoded).map(([k, v]) => [k, v.join(',')]));
    if (query === '') delete event.queryStringParameters;
    const cookies = headerLists.cookie;
    delete headerLists.cookie;
    event.headers = Object.fromEntries(Object.entries(headerLists).map(([k, v]) => [k, v.join(',')]));
    if (cookies) event.cookies = cookies.flatMap((c) => c.split(/;\s*/));
    else delete event.cookies;
    event.requestContext.http.sourceIp = spec.sourceIp ?? event.requestContext.http.sourceIp;
    if (body) event.body = body.text;
    else delete event.body;
    event.isBase64Encoded = body?.base64 ?? false;
    return event;
  }
  event.httpMethod = method;
  event.path = path;
  if (spec.sourceIp !== undefined) headerLists['x-forwarded-for'] = [spec.sourceIp];
  const raw = group(queryPairs(query));
  if (kind === 'alb-multi-value') {
    event.multiValueHeaders = headerLists;
    event.multiValueQueryStringParameters = raw;
  } else {
    event.headers = Object.fromEntries(Object.entries(headerLists).map(([k, v]) => [k, v[v.length - 1]!]));
    event.queryStringParameters = last(raw);
  }
  event.body = body?.text ?? '';
  event.isBase64Encoded = body?.base64 ?? false;
  return event;
}

/** A Lambda context object like the Node.js runtime's. */
export function lambdaContext(awsRequestId = 'b1c2d3e4-0000-4000-8000-000000000001'): any {
  return {
    awsRequestId,
    functionName: 'orders',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:eu-west-1:111122223333:function:orders',
    memoryLimitInMB: '128',
    logGroupName: '/aws/lambda/orders',
    logStreamName: '2026/11/24/[$LATEST]0123456789abcdef',
    getRemainingTimeInMillis: () => 3000,
  };
}

/** Reads a Lambda result back as status, lower-case headers (repeated ones as arrays) and body bytes. */
export function readResult(result: any): { statusCode: number; headers: Record<string, string | string[]>; rawBody: Buffer; body: string } {
  const headers: Record<string, string | string[]> = {};
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    const seen = headers[key];
    headers[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  };
  for (const [name, value] of Object.entries(result.headers ?? {})) {
    if (result.multiValueHeaders?.[name] === undefined) add(name, value as string);
  }
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) for (const v of values as string[]) add(name, v);
  for (const cookie of result.cookies ?? []) add('set-cookie', cookie);
  const rawBody = Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  return { statusCode: result.statusCode, headers, rawBody, body: rawBody.toString('utf8') };
}
