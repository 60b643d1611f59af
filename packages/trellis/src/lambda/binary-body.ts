import { isUtf8 } from 'node:buffer';

/** Media types whose bodies are text although they are not `text/*`. */
const TEXT_TYPES = new Set([
  'application/json',
  'application/javascript',
  'application/ecmascript',
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/graphql',
  'application/x-ndjson',
  'application/yaml',
  'application/x-yaml',
  'application/sql',
  'image/svg+xml',
]);

/**
 * The default rule for which response bodies go base64-encoded: every media type except text ones —
 * `text/*`, JSON, XML and their `+json` / `+xml` kinds (problem details included), JavaScript, form
 * data, YAML, NDJSON, GraphQL, SVG. Parameters such as `charset` are ignored.
 *
 * @example
 * isBinaryContentType('image/png'); // true
 * isBinaryContentType('application/problem+json; charset=utf-8'); // false
 */
export function isBinaryContentType(contentType: string): boolean {
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  if (type.startsWith('text/')) return false;
  if (type.endsWith('+json') || type.endsWith('+xml')) return false;
  return !TEXT_TYPES.has(type);
}

/**
 * Whether a response body must be base64-encoded: never when empty; always when it is content-encoded
 * (gzip, br, …) or its type is binary; otherwise (a text type, or none) when it is not valid UTF-8, so no
 * byte is ever lost to text decoding.
 */
export function bodyIsBinary(
  body: Buffer,
  contentType: string | undefined,
  contentEncoding: string | undefined,
  isBinary: (contentType: string) => boolean,
): boolean {
  if (body.length === 0) return false;
  if (contentEncoding !== undefined && contentEncoding.trim().toLowerCase() !== 'identity') return true;
  if (contentType !== undefined && isBinary(contentType)) return true;
  return !isUtf8(body);
}
