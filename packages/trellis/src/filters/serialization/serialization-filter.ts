import { BodyKind, ValidateKind } from '../../annotations/index.js';
import type { ValidateSchemas } from '../../annotations/index.js';
import type { ExecutionContext, Filter, OutgoingResponse, UserHook } from '../../pipeline/index.js';
import { findErrorHandler, type ErrorHandler } from './error-handlers.js';
import {
  ClientAbortedError,
  FilterOrder,
  HttpError,
  PayloadTooLargeError,
  USER_CODE_FAILED,
  callUserCode,
  errorText,
  failedMarker,
  failure,
  isThenable,
  ResponseHeaders,
  isReadable,
  problemResponse,
} from '../../pipeline/index.js';
import { bodyFormat, readBody } from './body-parser.js';
import { readMultipart, type MultipartForm } from './multipart.js';
import { Reply } from './reply.js';
import { SerializationSettings } from './settings.js';
import { toByteStream } from './streams.js';
import { validate } from './validation.js';

async function runHandler(ctx: ExecutionContext, settings: SerializationSettings, schemas: ValidateSchemas | undefined): Promise<void> {
  let form: MultipartForm | undefined;
  try {
    if (ctx.bodySource.present) {
      const body = ctx.annotations(BodyKind)[0];
      // The type is checked before a byte is read: a body the route does not take is refused at once.
      const contentType = ctx.request.headers.get('content-type');
      const format = bodyFormat(contentType, body);
      const limit = body?.limit ?? settings.bodyLimit;
      if (format === 'multipart') {
        form = await readMultipart(ctx.bodySource, contentType!, limit, body);
        ctx.body = form.fields;
        ctx.files = form.files;
      } else ctx.body = await readBody(ctx.bodySource, format, limit);
    }
    if (schemas !== undefined) {
      // Path and headers first: they say which resource and how; then the query and the body. A validator that
      // answers at once is not awaited: `validate` gives a promise only for one that answers with a promise.
      const { fieldStatus } = schemas;
      let checked: unknown;
      if (schemas.params) {
        checked = validate(schemas.params, { ...ctx.params }, 'params', fieldStatus);
        ctx.validatedParams = checked instanceof Promise ? await checked : checked;
      }
      if (schemas.headers) {
        checked = validate(schemas.headers, headerObject(ctx), 'headers', fieldStatus);
        ctx.validatedHeaders = checked instanceof Promise ? await checked : checked;
      }
      if (schemas.cookies) {
        checked = validate(schemas.cookies, { ...ctx.cookies.all() }, 'cookies', fieldStatus);
        ctx.validatedCookies = checked instanceof Promise ? await checked : checked;
      }
      if (schemas.query) {
        checked = validate(schemas.query, Object.fromEntries(ctx.request.query), 'query', fieldStatus);
        ctx.validatedQuery = checked instanceof Promise ? await checked : checked;
      }
      if (schemas.body) {
        checked = validate(schemas.body, ctx.body, 'body', fieldStatus);
        ctx.body = checked instanceof Promise ? await checked : checked;
      }
    }
    const result = ctx.route.invoke(ctx);
    respondWith(ctx, isThenable(result) ? await result : result);
  } finally {
    // Uploads are kept while the handler runs; a stream of one it returns was opened already.
    if (form !== undefined) void form.dispose((error) => settings.onError(error, ctx.route.id));
  }
}

/** The request headers as an object for a headers schema: lower-case names, repeated values joined with `, `. */
function headerObject(ctx: ExecutionContext): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of ctx.request.headers.entries()) out[name] = value;
  return out;
}

/** An error handler's answer that is already a response: what it threw that the framework answers itself (an `HttpError`). */
class Answered {
  constructor(readonly response: OutgoingResponse) {}
}

const ERROR_HANDLER: UserHook<OutgoingResponse, typeof USER_CODE_FAILED> = {
  where: 'app.onError(handler)',
  instead: 'the 500 problem was sent',
  // A value that cannot be sent (a BigInt, a cycle) cannot be used.
  accept: (answer) => (answer instanceof Answered ? answer.response : toResponse(answer)),
  fallback: failedMarker,
};

/** Errors an error handler may throw to answer: the framework turns them into their own responses. */
function answers(error: unknown): boolean {
  return error instanceof HttpError || error instanceof PayloadTooLargeError || error instanceof ClientAbortedError;
}

/** Runs an error handler: what it returns, or, for an `HttpError` it throws (or rejects with), that error's response. */
function runErrorHandler(ctx: ExecutionContext, handle: ErrorHandler<unknown>, error: unknown, settings: SerializationSettings): unknown {
  const answered = (thrown: unknown) => {
    if (answers(thrown)) return new Answered(errorResponse(ctx, thrown, settings));
    throw thrown;
  };
  let result: unknown;
  try {
    result = handle(error, ctx);
  } catch (thrown) {
    return answered(thrown);
  }
  return isThenable(result) ? Promise.resolve(result).then(undefined, answered) : result;
}

/**
 * The app's error handler for `error`, when one takes it: its result, or the response of the `HttpError` it
 * throws. A handler that fails otherwise (throws, rejects, answers what cannot be sent) is logged, once, and the
 * 500 problem goes out.
 */
function mappedErrorResponse(
  ctx: ExecutionContext,
  error: unknown,
  settings: SerializationSettings,
): OutgoingResponse | Promise<OutgoingResponse> {
  const handle = settings.errorHandlers && findErrorHandler(settings.errorHandlers, error);
  if (handle === undefined) return errorResponse(ctx, error, settings);
  const about = `${ctx.route.id}, for ${errorText(error)}`;
  const mapped = callUserCode(ctx.services, ERROR_HANDLER, () => runErrorHandler(ctx, handle, error, settings), about);
  const settled = (response: OutgoingResponse | typeof USER_CODE_FAILED) =>
    response === USER_CODE_FAILED ? handlerFailed(error, settings) : response;
  return mapped instanceof Promise ? mapped.then(settled) : settled(mapped);
}

function errorResponse(ctx: ExecutionContext, error: unknown, settings: SerializationSettings): OutgoingResponse {
  if (error instanceof HttpError) {
    const response = problemResponse(error.problem);
    for (const [k, v] of Object.entries(error.headers)) response.headers.set(k, v);
    return response;
  }
  if (error instanceof PayloadTooLargeError)
    return problemResponse(failure('TRELLIS_BODY_TOO_LARGE', error.message, { limit: error.limit }));
  if (error instanceof ClientAbortedError) {
    settings.onClientAbort?.(ctx.route.id);
    return problemResponse(failure('TRELLIS_CLIENT_ABORTED', error.message));
  }
  settings.onError(error, ctx.route.id);
  return handlerFailed(error, settings);
}

/** The 500 problem of a handler that failed (its stack only in development mode). */
function handlerFailed(error: unknown, settings: SerializationSettings): OutgoingResponse {
  const extensions: Record<string, unknown> = {};
  if (settings.development && error instanceof Error) extensions.stack = error.stack;
  return problemResponse(
    failure(
      'TRELLIS_HANDLER_FAILED',
      settings.development ? String((error as Error)?.message ?? error) : 'The handler failed.',
      extensions,
    ),
  );
}

/**
 * The terminal stage. For a decided request it writes the recorded refusal (or the response a filter
 * produced) and reads no body; otherwise it reads and parses the body, validates, runs the handler and
 * writes its result.
 */
export const serializationFilter: Filter = {
  name: 'serialization',
  order: FilterOrder.Serialization,
  observesDecided: true,
  run(ctx) {
    const refusal = ctx.refusal;
    if (refusal !== null) {
      ctx.respond(problemResponse(refusal.problem, refusal.headers));
      return;
    }
    if (ctx.response !== null) return;
    const settings = ctx.services.get(SerializationSettings);
    const fail = (error: unknown): void | Promise<void> => {
      const response = mappedErrorResponse(ctx, error, settings);
      if (response instanceof Promise) return response.then((r) => void ctx.respond(r));
      ctx.respond(response);
    };
    const schemas = ctx.annotations(ValidateKind)[0];
    if (ctx.bodySource.present || schemas !== undefined) return runHandler(ctx, settings, schemas).catch(fail);
    // Hot path: no body, nothing to validate, and a handler that answers at once costs no extra ticks.
    try {
      const result = ctx.route.invoke(ctx);
      if (isThenable(result)) return Promise.resolve(result).then((value) => respondWith(ctx, value), fail);
      respondWith(ctx, result);
    } catch (error) {
      return fail(error);
    }
  },
};

/** Writes the handler's result, or the refusal the handler recorded itself with `ctx.refuse()`. */
function respondWith(ctx: ExecutionContext, value: unknown): void {
  const refusal = ctx.refusal;
  ctx.respond(refusal === null ? toResponse(value) : problemResponse(refusal.problem, refusal.headers));
}

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Turns a handler's return value into a response: object → JSON, string → text, bytes → octets, a stream (a
 * Node.js Readable, a web ReadableStream or an async iterable of strings and bytes) → streamed, undefined → 204.
 */
export function toResponse(result: unknown): OutgoingResponse {
  let status = 200;
  let headers = new ResponseHeaders();
  let body = result;
  if (result instanceof Reply) {
    status = result.status;
    headers = new ResponseHeaders(result.headers);
    body = result.body;
  }
  if (body === undefined || body === null) {
    return { status: result instanceof Reply ? status : 204, headers, body: null };
  }
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
    return { status, headers, body };
  }
  if (isStreamBody(body)) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
    return { status, headers, body: toByteStream(body) };
  }
  if (body instanceof Uint8Array) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
    return { status, headers, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  }
  if (!headers.has('content-type')) headers.set('content-type', JSON_TYPE);
  return { status, headers, body: JSON.stringify(body) };
}

/** Whether a handler's result is a body to stream: a Node.js Readable, a web ReadableStream or an async iterable. */
function isStreamBody(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  return (
    (typeof (value as { pipe?: unknown }).pipe === 'function' && isReadable(value)) ||
    typeof (value as { getReader?: unknown }).getReader === 'function' ||
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}
