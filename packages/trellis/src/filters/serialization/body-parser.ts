import { HttpError } from '../../pipeline/index.js';

/** Parses a body by its content type: JSON, form or text; anything else is 415. Empty bodies give undefined. */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'))) {
    const text = decodeUtf8(raw);
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new HttpError(400, `The request body is not valid JSON: ${(error as Error).message}`);
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    const out: Record<string, string | string[]> = Object.create(null);
    for (const [k, v] of new URLSearchParams(decodeUtf8(raw))) {
      const current = out[k];
      out[k] = current === undefined ? v : Array.isArray(current) ? [...current, v] : [current, v];
    }
    return out;
  }
  if (type.startsWith('text/')) return decodeUtf8(raw);
  throw new HttpError(415, `Unsupported content type ${JSON.stringify(type || '(none)')}; send application/json, application/x-www-form-urlencoded or text/*.`, {
    supported: ['application/json', 'application/x-www-form-urlencoded', 'text/*'],
  });
}

const decoder = new TextDecoder('utf-8', { fatal: true });
function decodeUtf8(raw: Buffer): string {
  try {
    return decoder.decode(raw);
  } catch {
    throw new HttpError(400, 'The request body is not valid UTF-8.');
  }
}
