import { BodyKind, ValidateKind } from '../../annotations/index.js';
import type { ValidateSchemas } from '../../annotations/index.js';
import type { ExecutionContext, Filter, OutgoingResponse, UserHook } from '../../pipeline/index.js';
import { findErrorHandler, type ErrorHandler } from './error-handlers.js';
import {
  bodyStream,
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
import { bodyFormat, parseBody } from './body-parser.js';
import { readMultipart, type MultipartForm } from './multipart.js';
import { Reply } from './reply.js';
import { SerializationSettings } from './settings.js';
import { toByteStream } from './streams.js';
import { validate } from './validation.js';

/** A request's parts in the order they are validated: path and headers say which resource and how; then the query and the body. */
const PARTS = ['params', 'headers', 'cookies', 'query', 'body'] as const;
type Part = (typeof PARTS)[number];

/** The value of a part as its schema checks it. */
function partValue(ctx: ExecutionContext, part: Part): unknown {
  switch (part) {
    case 'params':
      return { ...ctx.params };
    case 'headers':
      return headerObject(ctx);
    case 'cookies':
      return { ...ctx.cookies.all() };
    case 'query':
      return Object.fromEntries(ctx.request.query);
    default:
      return ctx.body;
  }
}

/** Keeps a part's validated value where the handler reads it. */
function setValidated(ctx: ExecutionContext, part: Part, value: unknown): void {
  if (part === 'params') ctx.validatedParams = value;
  else if (part === 'headers') ctx.validatedHeaders = value;
  else if (part === 'cookies') ctx.validatedCookies = value;
  else if (part === 'query') ctx.validatedQuery = value;
  else ctx.body = value;
}

/**
 * Validates the parts the schemas name, from part `from` on. A validator that answers at once is answered at
 * once: a promise only when one answers with a promise, and the rest follow it.
 */
function validateParts(ctx: ExecutionContext, schemas: ValidateSchemas, from = 0): void | Promise<void> {
  for (let i = from; i < PARTS.length; i++) {
    const part = PARTS[i]!;
    const schema = schemas[part];
    if (schema === undefined) continue;
    const checked = validate(schema, partValue(ctx, part), part, schemas.fieldStatus);
    if (checked instanceof Promise)
      return checked.then((value) => {
        setValidated(ctx, part, value);
        return validateParts(ctx, schemas, i + 1);
      });
    setValidated(ctx, part, checked);
  }
}

/**
 * Reads the body and validates the request before the handler runs: at once when the body is already here (as
 * it is on inject(), on Lambda, and on listen() once a small body has arrived) and the validators answer at
 * once; else a promise. A multipart body's promise gives its form, whose files go when the handler is done.
 */
function prepare(
  ctx: ExecutionContext,
  settings: SerializationSettings,
  schemas: ValidateSchemas | undefined,
): void | Promise<void | MultipartForm> {
  if (ctx.bodySource.present) {
    const body = ctx.annotations(BodyKind)[0];
    // The type is checked before a byte is read: a body the route does not take is refused at once.
    const contentType = ctx.request.headers.get('content-type');
    const format = bodyFormat(contentType, body);
    const limit = body?.limit ?? settings.bodyLimit;
    if (format === 'multipart')
      return readMultipart(ctx.bodySource, contentType!, limit, body).then((form) => withForm(ctx, form, schemas));
    if (format === 'stream') ctx.body = bodyStream(ctx.bodySource, limit);
    else {
      const raw = ctx.bodySource.readNow?.(limit);
      if (raw === undefined)
        return ctx.bodySource.read(limit).then((whole) => {
          ctx.body = parseBody(whole, format);
          return schemas && validateParts(ctx, schemas);
        });
      ctx.body = parseBody(raw, format);
    }
  }
  return schemas && validateParts(ctx, schemas);
}

/** A multipart body's fields and files on the context, validated; the files go at once if the request is refused. */
function withForm(
  ctx: ExecutionContext,
  form: MultipartForm,
  schemas: ValidateSchemas | undefined,
): MultipartForm | Promise<MultipartForm> {
  ctx.body = form.fields;
  ctx.files = form.files;
  const refused = (error: unknown): never => {
    void form.dispose(() => undefined);
    throw error;
  };
  try {
    const checked = schemas && validateParts(ctx, schemas);
    return checked instanceof Promise ? checked.then(() => form, refused) : form;
  } catch (error) {
    return refused(error);
  }
}

/** Runs the handler and writes what it answers; a handler that answers at once costs no extra ticks. */
function invoke(ctx: ExecutionContext, fail: (error: unknown) => void | Promise<void>): void | Promise<void> {
  try {
    const result = ctx.route.invoke(ctx);
    if (isThenable(result)) return Promise.resolve(result).then((value) => respondWith(ctx, value), fail);
    respondWith(ctx, result);
  } catch (error) {
    return fail(error);
  }
}

/** Runs the handler of a multipart request; its uploads are kept until it is done (a stream of one it returns was opened already). */
function invokeWithForm(
  ctx: ExecutionContext,
  form: MultipartForm,
  settings: SerializationSettings,
  fail: (error: unknown) => void | Promise<void>,
): void | Promise<void> {
  const done = () => void form.dispose((error) => settings.onError(error, ctx.route.id));
  const ran = invoke(ctx, fail);
  if (ran instanceof Promise) return ran.finally(done);
  done();
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
    if (ctx.bodySource.present || schemas !== undefined) {
      let ready: void | Promise<void | MultipartForm>;
      try {
        ready = prepare(ctx, settings, schemas);
      } catch (error) {
        return fail(error);
      }
      if (ready instanceof Promise)
        return ready.then((form) => (form === undefined ? invoke(ctx, fail) : invokeWithForm(ctx, form, settings, fail)), fail);
    }
    return invoke(ctx, fail);
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
