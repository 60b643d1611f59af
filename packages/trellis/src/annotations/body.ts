import { annotation } from './annotation.js';
import type { AnnotationDecorator } from './annotation.js';
import type { AnnotationKind } from '../pipeline/index.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_ANNOTATION', message);

/**
 * What a route makes of a request body: `json` (parsed), `form` (urlencoded fields), `multipart`
 * (`multipart/form-data`: the fields in `ctx.body`, the files in `ctx.files`), `text` (a string), `bytes` (the
 * raw bytes, a `Uint8Array`) or `stream` (a Node.js `Readable` of the raw bytes, read by the handler as they
 * arrive).
 */
export type BodyFormat = 'json' | 'form' | 'multipart' | 'text' | 'bytes' | 'stream';

/**
 * The limits on a `multipart/form-data` body, each enforced while the body arrives: passing one answers 413
 * (`TRELLIS_MULTIPART_LIMIT`, naming it) without reading further. The whole body is bounded by `limit`.
 */
export interface MultipartLimits {
  /** Largest file in bytes; default: only the whole body's limit. */
  readonly fileSize?: number;
  /** Most files; default 10. */
  readonly files?: number;
  /** Most fields (parts that are not files); default 100. */
  readonly fields?: number;
  /** Largest field value in bytes; default 65,536. */
  readonly fieldSize?: number;
  /** Most parts, files and fields together; default: files plus fields. */
  readonly parts?: number;
}

/** A route's body settings. */
export interface BodySettings {
  readonly formats: readonly BodyFormat[];
  /** Media types `bytes` and `stream` take (`image/png`, `image/*`, `application/pdf`); every one when undefined. */
  readonly types?: readonly string[];
  /** Largest body in bytes; default the app's `bodyLimit`. */
  readonly limit?: number;
  /** The limits on a multipart body's parts. */
  readonly limits?: MultipartLimits;
  /** The fields a multipart body may carry files in; a file in another is refused (400). Any field when undefined. */
  readonly fileFields?: readonly string[];
}

/** The multipart limits a route leaves unsaid. */
const MULTIPART_DEFAULTS = Object.freeze({ files: 10, fields: 100, fieldSize: 64 * 1024 });

/** A route's multipart limits, the defaults filled in. */
export const multipartLimits = (
  settings: BodySettings | undefined,
): MultipartLimits & { readonly files: number; readonly fields: number; readonly fieldSize: number } => ({
  ...MULTIPART_DEFAULTS,
  ...settings?.limits,
});

const FORMATS: readonly BodyFormat[] = ['json', 'form', 'multipart', 'text', 'bytes', 'stream'];
const LIMITS: readonly (keyof MultipartLimits)[] = ['fileSize', 'files', 'fields', 'fieldSize', 'parts'];
const MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/(\*|[a-z0-9!#$&^_.+-]+)$/;

export const BodyKind: AnnotationKind<BodySettings> = {
  name: 'Body',
  // One setting per handler: a method-level one replaces a class-level (or group) one.
  combine: (classLevel, methodLevel) => {
    const level = methodLevel.length > 0 ? methodLevel : classLevel;
    return level.length > 0 ? [level[level.length - 1]!] : [];
  },
  sortKey: (v) =>
    `${v.formats.join(',')}/${v.types?.join(',') ?? '*'}/${v.limit ?? ''}/${LIMITS.map((k) => v.limits?.[k] ?? '').join(',')}/${v.fileFields?.join(',') ?? ''}`,
};

/**
 * Says which bodies a route takes and how its handler gets them as `ctx.body`. Without it a route takes JSON,
 * form and text bodies. A body of another type is refused with 415 naming the types the route takes, before
 * it is read; one over `limit` with 413. Raw and streamed bodies work alike through `listen()`, `inject()` and
 * every Lambda door (where the body is already whole: the stream reads the decoded bytes).
 *
 * @example
 * // An image upload: ctx.body is a Uint8Array of at most 10 MiB.
 * route('PUT', '/avatars/:id', [Body('bytes', { types: ['image/png', 'image/jpeg'], limit: 10 * 1024 * 1024 })], put);
 * // A large import, read as it arrives: ctx.body is a Readable.
 * route('POST', '/imports', [Body('stream', { types: ['text/csv'], limit: 1024 ** 3 })], async (ctx) => { for await (const chunk of ctx.body as Readable) ... });
 * // JSON only: anything else is 415.
 * route('POST', '/orders', [Body('json')], create);
 * // A form with up to two photos of at most 20 MiB each: the fields in ctx.body, the photos in ctx.files.
 * route('POST', '/albums', [Body('multipart', { limit: 41 * 1024 * 1024, limits: { files: 2, fileSize: 20 * 1024 * 1024 }, fileFields: ['photos'] })], add);
 */
export function Body(
  formats: BodyFormat | readonly BodyFormat[],
  options: { types?: readonly string[]; limit?: number; limits?: MultipartLimits; fileFields?: readonly string[] } = {},
): AnnotationDecorator<BodySettings> {
  const list = typeof formats === 'string' ? [formats] : formats;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- Array.isArray narrows a readonly array to any[] (TypeScript #17002); the checks run for JavaScript callers
  if (!Array.isArray(list) || list.length === 0 || list.some((f) => !FORMATS.includes(f))) {
    throw invalid(`@Body takes one or more of ${FORMATS.map((f) => `"${f}"`).join(', ')}, got ${JSON.stringify(formats)}.`);
  }
  if (list.includes('stream') && list.length > 1)
    throw invalid('@Body("stream") cannot be combined with other formats: the handler reads the body itself.');
  const { types, limit, limits, fileFields } = options ?? {};
  if (
    types !== undefined &&
    (!Array.isArray(types) || types.length === 0 || types.some((t) => typeof t !== 'string' || !MEDIA_TYPE.test(t.toLowerCase())))
  ) {
    throw invalid(`@Body types must be media types such as "image/png" or "image/*", got ${JSON.stringify(types)}.`);
  }
  if (types !== undefined && !list.includes('bytes') && !list.includes('stream'))
    throw invalid('@Body types apply to "bytes" and "stream" bodies.');
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0))
    throw invalid(`@Body limit must be a whole number of bytes, got ${String(limit)}.`);
  if ((limits !== undefined || fileFields !== undefined) && !list.includes('multipart'))
    throw invalid('@Body limits and fileFields apply to "multipart" bodies.');
  if (limits !== undefined) checkLimits(limits);
  if (
    fileFields !== undefined &&
    (!Array.isArray(fileFields) || fileFields.length === 0 || fileFields.some((f) => typeof f !== 'string' || f === ''))
  )
    throw invalid(`@Body fileFields must be field names, got ${JSON.stringify(fileFields)}.`);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- Array.isArray narrows a readonly array to any[] (TypeScript #17002); the checks run for JavaScript callers
  const settings: { -readonly [K in keyof BodySettings]: BodySettings[K] } = { formats: Object.freeze([...new Set(list)]) };
  // eslint-disable-next-line @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-return -- Array.isArray narrows a readonly array to any[] (TypeScript #17002); the checks run for JavaScript callers
  if (types !== undefined) settings.types = Object.freeze(types.map((t) => t.toLowerCase()));
  if (limit !== undefined) settings.limit = limit;
  if (limits !== undefined) settings.limits = Object.freeze({ ...limits });
  if (fileFields !== undefined) settings.fileFields = Object.freeze([...new Set(fileFields)]);
  return annotation(BodyKind, Object.freeze(settings));
}

function checkLimits(limits: MultipartLimits): void {
  if (limits === null || typeof limits !== 'object') throw invalid(`@Body limits must be an object, got ${JSON.stringify(limits)}.`);
  for (const [key, value] of Object.entries(limits)) {
    if (!(LIMITS as readonly string[]).includes(key))
      throw invalid(`@Body limits takes ${LIMITS.map((k) => `"${k}"`).join(', ')}, got "${key}".`);
    if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < 0))
      throw invalid(`@Body limits.${key} must be a whole number, got ${String(value)}.`);
  }
}
