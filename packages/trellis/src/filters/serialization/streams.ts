import type { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { nodeStream } from '../../pipeline/index.js';

/**
 * A streamed body as bytes: every chunk a string (UTF-8) or bytes; anything else ends the stream with a
 * TypeError naming the chunk, so a handler's mistake cannot write an object's text to a client.
 */
export function toByteStream(value: object): Readable {
  const { Readable, Transform } = nodeStream();
  const source: Readable =
    value instanceof Readable
      ? value
      : typeof (value as { getReader?: unknown }).getReader === 'function'
        ? Readable.fromWeb(value as WebReadableStream)
        : Readable.from(value as AsyncIterable<unknown>, { objectMode: true });
  if (source instanceof Readable && !source.readableObjectMode && value instanceof Readable) return source;
  const bytes = new Transform({
    writableObjectMode: true,
    transform(chunk: unknown, _encoding, done) {
      if (typeof chunk === 'string') done(null, Buffer.from(chunk, 'utf8'));
      else if (chunk instanceof Uint8Array) done(null, chunk);
      else
        done(new TypeError(`A streamed response chunk must be a string or a Uint8Array, got ${chunk === null ? 'null' : typeof chunk}.`));
    },
  });
  source.on('error', (error) => bytes.destroy(error));
  bytes.on('close', () => {
    if (!source.destroyed) source.destroy();
  });
  return source.pipe(bytes);
}
