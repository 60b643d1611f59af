import type { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { isReadable, nodeStream } from '../../pipeline/index.js';

/** Whether a handler's result is a body to stream: a Node.js Readable, a web ReadableStream or an async iterable. */
export function isStreamBody(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return (
    isReadable(value) ||
    typeof (value as { getReader?: unknown }).getReader === 'function' ||
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

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
