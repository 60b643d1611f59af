import { failureError, type BodySource } from '../index.js';
import { MemoryBodySource, nodeStream } from '../pipeline/index.js';

/** Standard base64 as API Gateway, function URLs and load balancers write it: padded, no line breaks. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** How many base64 characters a streamed body decodes at a time (a multiple of 4: 48 KiB of bytes). */
const SLICE = 64 * 1024;

/**
 * An event's body, kept as the event gives it (text, or base64) and decoded only when a route reads it: whole
 * for `read`, a slice at a time for `stream`, so a multipart or streamed body is never held twice.
 */
export class EventBodySource extends MemoryBodySource {
  readonly length: number;

  constructor(
    private readonly text: string,
    private readonly base64: boolean,
  ) {
    super();
    const padding = base64 ? (text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0) : 0;
    this.length = base64 ? (text.length / 4) * 3 - padding : Buffer.byteLength(text, 'utf8');
  }

  protected bytes(): Buffer {
    return Buffer.from(this.text, this.base64 ? 'base64' : 'utf8');
  }

  stream(limit: number): import('node:stream').Readable {
    this.claim(limit);
    const { text, base64 } = this;
    if (!base64) return nodeStream().Readable.from([Buffer.from(text, 'utf8')], { objectMode: false });
    let at = 0;
    return new (nodeStream().Readable)({
      read() {
        if (at >= text.length) return void this.push(null);
        const end = Math.min(at + SLICE, text.length);
        const chunk = Buffer.from(text.slice(at, end), 'base64');
        at = end;
        this.push(chunk);
      },
    });
  }
}

/** A body the event carries but that cannot be read (marked base64 but not base64): a route that reads it gets 400. */
export class UnreadableBody implements BodySource {
  readonly present = true;
  readonly length = undefined;
  #consumed = false;
  constructor(private readonly reason: string) {}

  get consumed(): boolean {
    return this.#consumed;
  }

  read(): Promise<Buffer> {
    this.#consumed = true;
    return Promise.reject(failureError('TRELLIS_INVALID_BASE64', this.reason));
  }
}

/** The body of an event, or none; one marked base64 that is not is refused (400) once a route reads it. */
export function eventBody(body: string | null | undefined, base64: boolean | undefined): BodySource | null {
  if (body === undefined || body === null || body === '') return null;
  if (!base64) return new EventBodySource(body, false);
  // Node.js decodes base64 leniently (skipping what is not base64): check first, so bad input is refused.
  if (!BASE64.test(body)) return new UnreadableBody('The request body is marked isBase64Encoded but is not valid base64.');
  return new EventBodySource(body, true);
}
