import type { LambdaEventKind } from './events.js';
import { usageError } from '../errors/index.js';

const NAMES: Record<LambdaEventKind, string> = {
  'api-gateway-rest': 'API Gateway REST API event',
  'api-gateway-http': 'API Gateway HTTP API event',
  'function-url': 'function URL event',
  alb: 'load balancer event',
};

const describeValue = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'object' || typeof value === 'undefined'
        ? `an ${typeof value}`
        : `a ${typeof value}`;

/** A field of a hand-written or damaged event that is not what the front door sends. */
function wrong(kind: LambdaEventKind, field: string, expected: string, value: unknown): TypeError {
  return usageError('TRELLIS_INVALID_EVENT', `The ${NAMES[kind]}'s ${field} must be ${expected}, not ${describeValue(value)}.`);
}

function optional(kind: LambdaEventKind, event: Record<string, unknown>, field: string, type: 'string' | 'boolean', path = field): void {
  const value = event[field];
  if (value !== undefined && value !== null && typeof value !== type) throw wrong(kind, path, `a ${type}`, value);
}

/** A map of names to strings (headers, query parameters), or absent. */
function stringMap(kind: LambdaEventKind, value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'object' || Array.isArray(value)) throw wrong(kind, field, 'an object of strings', value);
  for (const name in value) {
    const item = (value as Record<string, unknown>)[name];
    if (item !== undefined && item !== null && typeof item !== 'string')
      throw wrong(kind, `${field}[${JSON.stringify(name)}]`, 'a string', item);
  }
}

/** A map of names to lists of strings (multi-value headers and query parameters), or absent. */
function listMap(kind: LambdaEventKind, value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'object' || Array.isArray(value)) throw wrong(kind, field, 'an object of string arrays', value);
  for (const name in value) {
    const list = (value as Record<string, unknown>)[name];
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list)) throw wrong(kind, `${field}[${JSON.stringify(name)}]`, 'an array of strings', list);
    for (const item of list)
      if (typeof item !== 'string') throw wrong(kind, `${field}[${JSON.stringify(name)}]`, 'an array of strings', item);
  }
}

/**
 * Checks the fields the handler reads from an HTTP event beyond those that told its kind, so a hand-written
 * or damaged event fails with a TypeError naming the field rather than somewhere inside Node.js.
 */
export function checkEventFields(kind: LambdaEventKind, event: Record<string, unknown>): void {
  stringMap(kind, event.headers, 'headers');
  stringMap(kind, event.queryStringParameters, 'queryStringParameters');
  optional(kind, event, 'body', 'string');
  optional(kind, event, 'isBase64Encoded', 'boolean');
  const rc = event.requestContext as Record<string, unknown>;
  if (kind === 'api-gateway-http' || kind === 'function-url') {
    optional(kind, event, 'rawQueryString', 'string');
    const cookies = event.cookies;
    if (cookies !== undefined && cookies !== null && (!Array.isArray(cookies) || cookies.some((c) => typeof c !== 'string'))) {
      throw wrong(kind, 'cookies', 'an array of strings', cookies);
    }
    optional(kind, rc, 'stage', 'string', 'requestContext.stage');
    optional(kind, rc.http as Record<string, unknown>, 'sourceIp', 'string', 'requestContext.http.sourceIp');
    return;
  }
  listMap(kind, event.multiValueHeaders, 'multiValueHeaders');
  listMap(kind, event.multiValueQueryStringParameters, 'multiValueQueryStringParameters');
  if (kind === 'api-gateway-rest') {
    optional(kind, rc, 'stage', 'string', 'requestContext.stage');
    const identity = rc.identity;
    if (identity !== undefined && identity !== null) {
      if (typeof identity !== 'object' || Array.isArray(identity)) throw wrong(kind, 'requestContext.identity', 'an object', identity);
      optional(kind, identity as Record<string, unknown>, 'sourceIp', 'string', 'requestContext.identity.sourceIp');
    }
  }
}
