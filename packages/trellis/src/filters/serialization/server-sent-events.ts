import { Reply } from './reply.js';
import { usageError } from '../../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_ARGUMENT', message);

/** One server-sent event: `data` (a string, or a value sent as JSON), and optionally its `event` name, `id` and `retry`. */
export interface ServerSentEvent {
  readonly data: unknown;
  readonly event?: string;
  readonly id?: string;
  /** Milliseconds the browser waits before reconnecting. */
  readonly retry?: number;
}

const LINE_BREAK = /\r\n|\r|\n/;

function field(name: string, value: string): string {
  if (LINE_BREAK.test(value) || value.includes('\0'))
    throw invalid(`A server-sent event's ${name} cannot hold a line break or NUL, got ${JSON.stringify(value)}.`);
  return `${name}: ${value}\n`;
}

/** One event as the text/event-stream format writes it. */
export function formatServerSentEvent(e: ServerSentEvent | string): string {
  const event: ServerSentEvent = typeof e === 'string' ? { data: e } : e;
  let out = '';
  if (event.id !== undefined) out += field('id', String(event.id));
  if (event.event !== undefined) out += field('event', event.event);
  if (event.retry !== undefined) {
    if (!Number.isSafeInteger(event.retry) || event.retry < 0)
      throw invalid(`A server-sent event's retry is whole milliseconds, got ${String(event.retry)}.`);
    out += `retry: ${event.retry}\n`;
  }
  const data = typeof event.data === 'string' ? event.data : JSON.stringify(event.data);
  for (const line of (data ?? '').split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

async function* eventStream(source: AsyncIterable<ServerSentEvent | string>, heartbeatMs: number | undefined): AsyncGenerator<string> {
  const iterator = source[Symbol.asyncIterator]();
  try {
    while (true) {
      let next: Promise<IteratorResult<ServerSentEvent | string, unknown>> = iterator.next();
      if (heartbeatMs !== undefined) {
        // A comment line now and then keeps proxies from closing a quiet stream.
        for (;;) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          const beat = new Promise<'beat'>((resolve) => (timer = setTimeout(resolve, heartbeatMs, 'beat')));
          const first = await Promise.race([next, beat]);
          clearTimeout(timer);
          if (first !== 'beat') {
            next = Promise.resolve(first);
            break;
          }
          yield ': keep-alive\n\n';
        }
      }
      const { value, done } = await next;
      if (done) return;
      yield formatServerSentEvent(value);
    }
  } finally {
    await iterator.return?.();
  }
}

/**
 * Answers with server-sent events (`text/event-stream`) from an async iterable of events: each is written as it
 * comes, and the stream stops reading the source when the client leaves. Through `listen()` and a streaming
 * function URL (`lambdaStreamingHandler`) events arrive as they are produced; other Lambda doors can only
 * answer whole.
 *
 * @example
 * route('GET', '/prices', [], () => serverSentEvents(async function* () {
 *   for await (const price of prices()) yield { event: 'price', data: price };
 * }(), { heartbeatSeconds: 15 }));
 */
export function serverSentEvents(source: AsyncIterable<ServerSentEvent | string>, options: { heartbeatSeconds?: number } = {}): Reply {
  if (source === null || typeof (source as { [Symbol.asyncIterator]?: unknown })?.[Symbol.asyncIterator] !== 'function') {
    throw invalid('serverSentEvents takes an async iterable of events (an async generator, for example).');
  }
  const { heartbeatSeconds } = options;
  if (
    heartbeatSeconds !== undefined &&
    !(typeof heartbeatSeconds === 'number' && heartbeatSeconds > 0 && Number.isFinite(heartbeatSeconds))
  ) {
    throw invalid(`serverSentEvents: heartbeatSeconds must be a positive number of seconds, got ${String(heartbeatSeconds)}.`);
  }
  return new Reply(eventStream(source, heartbeatSeconds === undefined ? undefined : heartbeatSeconds * 1000), 200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
}
