import type { Writable } from 'node:stream';
import type { OutgoingResponse } from '../index.js';
import { httpEventKind, notAnHttpEvent } from './event-kind.js';
import type { GivenLambdaContext, LambdaHttpEvent } from './events.js';
import { checkBasePath, incomingFromEvent, lazyApp, type AppSource } from './handler.js';
import { usageError } from '../errors/index.js';

/** How Lambda's Node.js runtime knows a handler streams its response (what `awslambda.streamifyResponse` sets). */
const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
/** The content type that tells a function URL the stream starts with a status-and-headers prelude. */
const HTTP_INTEGRATION_RESPONSE = 'application/vnd.awslambda.http-integration-response';

/** The response stream Lambda's runtime hands a streaming handler. */
export type LambdaResponseStream = Writable & { setContentType?(contentType: string): void };

/** A streaming handler, as Lambda's Node.js runtime calls it: `(event, responseStream, context)`. */
export interface LambdaStreamingHandler {
  (event: LambdaHttpEvent, responseStream: LambdaResponseStream, context?: GivenLambdaContext): Promise<void>;
}

/** The status-and-headers prelude of a function URL's streamed response (payload 2.0's shape). */
function prelude(response: OutgoingResponse): string {
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(response.headers.toObject())) {
    if (name === 'set-cookie') cookies.push(...(Array.isArray(value) ? value : [value]));
    else headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return JSON.stringify(cookies.length > 0 ? { statusCode: response.status, headers, cookies } : { statusCode: response.status, headers });
}

/**
 * Turns an app into a Lambda handler for a function URL configured for response streaming
 * (`InvokeMode: RESPONSE_STREAM`): a streamed body (a Node.js Readable, a web ReadableStream, an async
 * iterable, or server-sent events) reaches the client as the handler produces it, with backpressure, and past
 * the 6 MB a buffered response may hold. The status and headers go first, as the runtime's prelude; every
 * other answer is written whole. The same routing and pipeline answer as under `listen()`, `inject()` and
 * `lambdaHandler`. Only function URL events can stream; another event kind is refused with a TypeError.
 *
 * @example
 * // handler.ts, deployed with a function URL whose InvokeMode is RESPONSE_STREAM
 * export const handler = lambdaStreamingHandler(app);
 */
export function lambdaStreamingHandler(source: AppSource, options: { basePath?: string } = {}): LambdaStreamingHandler {
  const basePath = checkBasePath(options.basePath);
  const appFor = lazyApp(source);
  const handler = async (event: unknown, responseStream: LambdaResponseStream, context?: GivenLambdaContext): Promise<void> => {
    const kind = httpEventKind(event);
    if (kind === null) throw notAnHttpEvent(event);
    // Only a function URL reads the prelude: API Gateway and a load balancer would pass it, the NUL bytes and the
    // body on to the client as one garbled payload.
    if (kind !== 'function-url') {
      throw usageError(
        'TRELLIS_INVALID_EVENT',
        `lambdaStreamingHandler answers function URL events (payload 2.0, requestContext.domainName *.lambda-url.*); this is an ${kind} event, which cannot stream: use lambdaHandler for it.`,
      );
    }
    const request = incomingFromEvent(kind, event as LambdaHttpEvent, context, basePath);
    const response = await (await appFor()).handle(request);
    responseStream.setContentType?.(HTTP_INTEGRATION_RESPONSE);
    responseStream.write(prelude(response));
    responseStream.write(new Uint8Array(8));
    const body = response.body;
    if (body === null || typeof body === 'string' || Buffer.isBuffer(body)) {
      responseStream.end(request.method === 'HEAD' || body === null ? undefined : body);
      return;
    }
    if (request.method === 'HEAD') {
      body.destroy();
      responseStream.end();
      return;
    }
    const { pipeline } = process.getBuiltinModule('node:stream');
    await new Promise<void>((resolve, reject) => pipeline(body, responseStream, (error) => (error ? reject(error) : resolve())));
  };
  (handler as unknown as Record<symbol, unknown>)[HANDLER_STREAMING] = 'response';
  return handler;
}
