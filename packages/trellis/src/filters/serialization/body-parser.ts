import { isUtf8 } from 'node:buffer';
import type { BodyFormat, BodySettings } from '../../annotations/index.js';
import { failureError } from '../../pipeline/index.js';

/** What a route takes without a `Body` annotation. */
const DEFAULT_FORMATS: readonly BodyFormat[] = ['json', 'form', 'text'];

const isJson = (type: string) => type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** The media type of a Content-Type value, lower case, without parameters. */
export function mediaType(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
}

/** Whether `type` is one of `accepted` (each an exact type or `major/*`). */
function matches(type: string, accepted: readonly string[] | undefined): boolean {
  if (accepted === undefined) return type !== '';
  return accepted.some((a) => a === type || (a.endsWith('/*') && type.startsWith(a.slice(0, -1))));
}

/** Which format a body of `type` is read as on a route that takes `formats`, or undefined (415). */
function formatFor(type: string, settings: BodySettings | undefined): BodyFormat | undefined {
  // The common case first: JSON on a route without a Body annotation.
  if (settings === undefined && type === 'application/json') return 'json';
  const formats = settings?.formats ?? DEFAULT_FORMATS;
  if (formats.includes('json') && isJson(type)) return 'json';
  if (formats.includes('form') && type === FORM) return 'form';
  if (formats.includes('multipart') && type === MULTIPART) return 'multipart';
  if (formats.includes('text') && type.startsWith('text/')) return 'text';
  for (const raw of ['bytes', 'stream'] as const) {
    if (formats.includes(raw) && matches(type, settings?.types)) return raw;
  }
  return undefined;
}

/** The media types a route takes, as its 415 names them. */
function supported(settings: BodySettings | undefined): string[] {
  const out: string[] = [];
  for (const f of settings?.formats ?? DEFAULT_FORMATS) {
    if (f === 'json') out.push('application/json');
    else if (f === 'form') out.push(FORM);
    else if (f === 'multipart') out.push(MULTIPART);
    else if (f === 'text') out.push('text/*');
    else out.push(...(settings?.types ?? ['*/*']));
  }
  return [...new Set(out)];
}

/**
 * Checks a body's type against what the route takes, before anything is read: the format to read it as, or a
 * 415 naming the types the route takes.
 */
export function bodyFormat(contentType: string | undefined, settings: BodySettings | undefined): BodyFormat {
  const type = mediaType(contentType);
  const format = formatFor(type, settings);
  if (format !== undefined) return format;
  const takes = supported(settings);
  throw failureError(
    'TRELLIS_UNSUPPORTED_MEDIA_TYPE',
    `Unsupported content type ${JSON.stringify(type || '(none)')}; this route takes ${takes.join(', ')}.`,
    {
      supported: takes,
    },
  );
}

/** A whole body as its format says: parsed JSON, form fields, text, or the raw bytes. */
export function parseBody(raw: Buffer, format: 'json' | 'form' | 'text' | 'bytes'): unknown {
  if (format === 'bytes') return raw;
  if (raw.length === 0) return undefined;
  if (format === 'json') {
    const text = decodeUtf8(raw);
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw failureError('TRELLIS_INVALID_JSON', `The request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (format === 'form') {
    const out = Object.create(null) as Record<string, string | string[]>;
    for (const [k, v] of new URLSearchParams(decodeUtf8(raw))) {
      const current = out[k];
      out[k] = current === undefined ? v : Array.isArray(current) ? [...current, v] : [current, v];
    }
    return out;
  }
  return decodeUtf8(raw);
}

/** The body as text; a body that is not UTF-8 is refused rather than read with replacement characters. */
function decodeUtf8(raw: Buffer): string {
  if (!isUtf8(raw)) throw failureError('TRELLIS_INVALID_UTF8', 'The request body is not valid UTF-8.');
  // A leading byte order mark is not text, as TextDecoder leaves it out too.
  return raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf ? raw.toString('utf8', 3) : raw.toString('utf8');
}
