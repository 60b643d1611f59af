import type { Readable } from 'node:stream';

/**
 * A file a `multipart/form-data` body carried (`Body('multipart')`); `ctx.files` lists them in the order they
 * came. Its bytes are kept until the handler has finished: read them, or send `stream()` on, in the handler.
 */
export interface UploadedFile {
  /** The form field it came in. */
  readonly field: string;
  /** The file's name as the client gave it, without folders (`''` when it gave none). The client chose it: never use it as a path. */
  readonly filename: string;
  /** Its media type as the part declared it (`application/octet-stream` when the part declared none). */
  readonly type: string;
  /** Its size in bytes. */
  readonly size: number;
  /** Its bytes as a stream, from the start each time it is called. */
  stream(): Readable;
  /** Its bytes. */
  bytes(): Promise<Buffer>;
  /** Its bytes as text (UTF-8). */
  text(): Promise<string>;
}
