// Fetches one image from a public host for a widget image, when remote images are allowed: the host's addresses
// are looked up once, every one must be public, and the connection goes to the address that was checked (a name
// that resolves elsewhere a moment later cannot move it). Redirects are handed back to the browser, whose next
// request is checked the same way.
import { createHash } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import type { IncomingMessage } from 'node:http';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address.js';

/** Largest image fetched from a remote host. */
export const MAX_REMOTE_IMAGE_BYTES = 5 * 1024 * 1024;

/** What a widget image fetched from a remote host: recorded beside the image, so a golden says what it depended on. */
export interface RemoteResource {
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly bytes: number;
  /** SHA-256 of the body, hex. */
  readonly sha256: string;
}

export interface FetchedImage extends RemoteResource {
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/**
 * GETs `url` (http or https) from a public address, within `timeoutMs`; throws an Error saying why it was refused.
 *
 * @example
 * const image = await fetchPublicImage('https://example.com/logo.png', 5000);
 */
export async function fetchPublicImage(url: string, timeoutMs: number): Promise<FetchedImage> {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`${target.protocol} is not http or https`);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  const signal = AbortSignal.timeout(Math.max(1, timeoutMs));
  const addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  const refused = addresses.find((a) => !isPublicAddress(a.address));
  if (addresses.length === 0 || refused) {
    throw new Error(`${host} is ${refused ? `at ${refused.address}, ` : ''}not a public address`);
  }
  const { address, family } = addresses[0]!;
  const pinned: LookupFunction = (_name, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
    else callback(null, address, family);
  };
  const { request } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(
      target,
      { method: 'GET', lookup: pinned, signal, headers: { accept: 'image/*', 'user-agent': 'trellis-harness' } },
      resolve,
    );
    req.on('error', reject);
    req.end();
  });
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (bytes > MAX_REMOTE_IMAGE_BYTES) {
      response.destroy();
      throw new Error(`the image is larger than ${MAX_REMOTE_IMAGE_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  const body = Buffer.concat(chunks);
  const headers: Record<string, string> = {};
  const contentType = response.headers['content-type'] ?? null;
  if (contentType) headers['content-type'] = contentType;
  if (response.headers.location) headers.location = new URL(response.headers.location, target).href;
  return {
    url,
    status: response.statusCode ?? 502,
    contentType,
    bytes,
    sha256: createHash('sha256').update(body).digest('hex'),
    headers,
    body,
  };
}
