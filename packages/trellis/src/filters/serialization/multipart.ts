// multipart/form-data bodies (Body('multipart')): busboy parses the parts as the body arrives; every limit is
// checked as the bytes come, and a file goes to memory or, past the request's share of memory, to a file in a
// folder of its own that only this process's user can read, removed once the handler has finished.
import type { Readable } from 'node:stream';
import type { WriteStream } from 'node:fs';
import { multipartLimits, type BodySettings, type MultipartLimits } from '../../annotations/index.js';
import { bodyStream, failureError, nodeStream } from '../../pipeline/index.js';
import type { BodySource, UploadedFile } from '../../pipeline/index.js';

/** How many bytes of one request's files are kept in memory; the files past it are written to disk. */
const UPLOAD_MEMORY = 1024 * 1024;

/** A multipart body, read: its fields, its files, and how to remove what the files left on disk. */
export interface MultipartForm {
  readonly fields: Record<string, string | string[]>;
  readonly files: readonly UploadedFile[];
  /** Removes the files' bytes from disk; never rejects (what could not be removed is passed to `onError`). */
  dispose(onError: (error: unknown) => void): Promise<void>;
}

const fs = () => process.getBuiltinModule('node:fs');
const path = () => process.getBuiltinModule('node:path');

/** Where one request's files are kept: memory, up to UPLOAD_MEMORY bytes in all, then files in a private folder. */
class Spool {
  memory = 0;
  #folder: string | undefined;
  #count = 0;
  #removed = false;

  /** The path of a new file in the request's folder, made (mode 0700, a name no one can guess) on first use. */
  newPath(): string {
    this.#folder ??= fs().mkdtempSync(path().join(process.getBuiltinModule('node:os').tmpdir(), 'trellis-upload-'));
    return path().join(this.#folder, String(++this.#count));
  }

  get removed(): boolean {
    return this.#removed;
  }

  async remove(): Promise<void> {
    this.#removed = true;
    if (this.#folder !== undefined) await fs().promises.rm(this.#folder, { recursive: true, force: true });
  }
}

/** One uploaded file: its bytes in memory, or in a file of the spool's folder. */
class Upload implements UploadedFile {
  size = 0;
  chunks: Buffer[] = [];
  file: string | undefined;

  constructor(
    readonly field: string,
    readonly filename: string,
    readonly type: string,
    private readonly spool: Spool,
  ) {}

  stream(): Readable {
    if (this.file === undefined) return nodeStream().Readable.from(this.chunks, { objectMode: false });
    // Opened now, so a stream the handler returns still reads once the folder is removed.
    let fd: number;
    try {
      fd = fs().openSync(this.file, 'r');
    } catch (error) {
      if (this.spool.removed)
        throw new Error(`The upload "${this.filename}" was removed when the handler finished; read it in the handler.`, {
          cause: error,
        });
      throw error;
    }
    return fs().createReadStream('', { fd });
  }

  async bytes(): Promise<Buffer> {
    if (this.file === undefined) return this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
    const chunks: Buffer[] = [];
    for await (const chunk of this.stream()) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks, this.size);
  }

  async text(): Promise<string> {
    return (await this.bytes()).toString('utf8');
  }

  /** Keeps `chunk`: in memory while the request's share lasts, else on disk. False when the writer needs a drain. */
  keep(chunk: Buffer, writer: () => WriteStream): boolean {
    this.size += chunk.length;
    if (this.file === undefined && this.spool.memory + chunk.length <= UPLOAD_MEMORY) {
      this.chunks.push(chunk);
      this.spool.memory += chunk.length;
      return true;
    }
    const out = writer();
    return out.write(chunk);
  }
}

const limitError = (name: keyof MultipartLimits, max: number, what: string) =>
  failureError('TRELLIS_MULTIPART_LIMIT', `${what} (the "${name}" limit is ${max}).`, { limit: name, max });

const invalid = (detail: string) => failureError('TRELLIS_INVALID_MULTIPART', detail);

/** Why busboy could not read the body, in the client's terms: it says "Malformed part header" of a header past its size too. */
const unreadable = (error: Error): string =>
  error.message === 'Malformed part header' ? "a part's header lines are malformed or longer than 16 KiB in all" : error.message;

type Busboy = typeof import('busboy');
let busboyModule: Promise<Busboy> | undefined;

/** busboy, loaded the first time a multipart body arrives. */
function loadBusboy(): Promise<Busboy> {
  return (busboyModule ??= import('busboy').then((m) => ((m as { default?: Busboy }).default ?? m) as Busboy));
}

/**
 * Reads a multipart body: the fields (a repeated name gives an array) and the files, with every limit the
 * route sets checked as the body arrives. Rejects with a 413 naming the limit passed, a 400 for a body that is
 * not multipart as it says, or the body source's own error (the whole body's limit, the client leaving); what
 * was written to disk by then is removed.
 */
export async function readMultipart(
  source: BodySource,
  contentType: string,
  limit: number,
  settings: BodySettings | undefined,
): Promise<MultipartForm> {
  const busboy = await loadBusboy();
  const limits = multipartLimits(settings);
  const fileFields = settings?.fileFields;
  let parser: ReturnType<Busboy>;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      // busboy flags a file or field that reaches its limit; one byte more lets one of exactly the limit through.
      limits: {
        files: limits.files,
        fields: limits.fields,
        fieldSize: limits.fieldSize + 1,
        ...(limits.fileSize === undefined ? {} : { fileSize: limits.fileSize + 1 }),
        // busboy counts a part once it has ended, and says so on reaching the count.
        ...(limits.parts === undefined ? {} : { parts: limits.parts + 1 }),
      },
      defParamCharset: 'utf8',
    });
  } catch (error) {
    throw invalid(`The multipart body cannot be read: ${(error as Error).message}.`);
  }
  const spool = new Spool();
  const fields = Object.create(null) as Record<string, string | string[]>;
  const files: Upload[] = [];
  const writers = new Set<WriteStream>();
  const body = bodyStream(source, limit);

  return new Promise<MultipartForm>((resolve, reject) => {
    let failed = false;
    let parsed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      // busboy tells of a limit from inside its own write, which goes on after the event: let it finish first.
      process.nextTick(stop, error);
    };
    const stop = (error: unknown) => {
      body.unpipe(parser);
      body.destroy();
      parser.destroy();
      for (const w of writers) w.destroy();
      // The folder goes once every writer has let go of its file.
      void Promise.all([...writers].map((w) => new Promise<void>((done) => (w.closed ? done() : w.once('close', () => done())))))
        .then(() => spool.remove())
        .catch(() => undefined)
        .finally(() => reject(error));
    };
    const finish = () => {
      if (failed || !parsed || writers.size > 0) return;
      resolve({
        fields,
        files,
        dispose: (onError) => spool.remove().catch(onError),
      });
    };

    parser.on('field', (name, value, info) => {
      if (info.valueTruncated)
        return fail(limitError('fieldSize', limits.fieldSize, `The field "${name}" is larger than the limit of ${limits.fieldSize} bytes`));
      const current = fields[name];
      fields[name] = current === undefined ? value : Array.isArray(current) ? [...current, value] : [current, value];
    });
    parser.on('file', (name, part, info) => {
      if (fileFields !== undefined && !fileFields.includes(name)) {
        part.resume();
        return fail(invalid(`The part "${name}" is a file; this route takes files in ${fileFields.map((f) => `"${f}"`).join(', ')}.`));
      }
      const upload = new Upload(name, info.filename ?? '', info.mimeType, spool);
      files.push(upload);
      let writer: WriteStream | undefined;
      const openWriter = () => {
        if (writer !== undefined) return writer;
        const out = fs().createWriteStream(spool.newPath(), { flags: 'wx', mode: 0o600 });
        writer = out;
        writers.add(out);
        out.on('error', fail);
        out.on('close', () => {
          writers.delete(out);
          finish();
        });
        // What the file kept in memory goes first, and its share of memory is given back.
        for (const chunk of upload.chunks) out.write(chunk);
        spool.memory -= upload.chunks.reduce((n, c) => n + c.length, 0);
        upload.chunks = [];
        upload.file = out.path as string;
        return out;
      };
      part.on('data', (chunk: Buffer) => {
        if (failed) return;
        if (!upload.keep(chunk, openWriter)) {
          part.pause();
          writer!.once('drain', () => part.resume());
        }
      });
      part.on('limit', () =>
        fail(limitError('fileSize', limits.fileSize!, `The file in "${name}" is larger than the limit of ${limits.fileSize} bytes`)),
      );
      part.on('error', fail);
      part.on('end', () => writer?.end());
    });
    parser.on('filesLimit', () => fail(limitError('files', limits.files, `The body has more than ${limits.files} files`)));
    parser.on('fieldsLimit', () => fail(limitError('fields', limits.fields, `The body has more than ${limits.fields} fields`)));
    parser.on('partsLimit', () => fail(limitError('parts', limits.parts!, `The body has more than ${limits.parts} parts`)));
    parser.on('error', (error: Error) => fail(invalid(`The multipart body cannot be read: ${unreadable(error)}.`)));
    parser.on('close', () => {
      parsed = true;
      finish();
    });
    // The body's own failures (past the whole body's limit, the client leaving) are answered as they are.
    body.on('error', fail);
    body.pipe(parser);
  });
}
