/**
 * Reading a call's upload (`UploadDef`, server/calls/call-table.ts) from a `multipart/form-data` body with
 * @fastify/multipart, as a stream: the text fields before the file are the call's parameters (checked as a
 * form's are), so the caller is authenticated and checked before the file is read; the file reaches the
 * handler as it arrives, counted and cut at the call's limit (413 naming it), never held in memory whole.
 */
import { extname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { Multipart, MultipartFile } from '@fastify/multipart';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { ApiError, badRequest } from '../http/api-error';
import { readParams, type Params } from '../http/params';
import type { UploadDef, UploadedFile } from './call-table';

/** Multipart bytes beyond the file and its fields (boundaries, part headers) a body may hold before it is plainly too large. */
const FRAMING_BYTES = 64 * 1024;

const tooLarge = (upload: UploadDef): ApiError => new ApiError(413, MESSAGES.uploadTooLarge(upload.maxBytes));

/** An upload being read: the parameters sent before the file, the file part (if one came), and the end of the request. */
export interface OpenUpload {
  params: Params;
  /** The file as the handler gets it, after checking that one came under the declared field with an accepted type. */
  file(): UploadedFile;
  /** The refusal an error of the handler stands for: the 413 when the file went past the limit (whatever the handler made of it), else the error itself. */
  refusal(error: unknown): unknown;
  /** Whether the file went past the limit (even if the handler swallowed the stream's error). */
  readonly overLimit: boolean;
  /** Stops parsing and lets the rest of the body go by unread (the answer does not wait for it). */
  discard(): void;
}

/** Lets whatever the client still sends go by, unparsed and unkept. */
export function discardBody(request: FastifyRequest): void {
  request.raw.unpipe();
  request.raw.resume();
}

const accepted = (upload: UploadDef, part: MultipartFile): boolean =>
  upload.accept.extensions.includes(extname(part.filename).toLowerCase()) || upload.accept.types.includes(part.mimetype.toLowerCase());

/**
 * Starts reading a multipart call: refuses a body whose announced length is past the limit (before reading
 * it), then reads the text fields up to the first file part.
 * @example const open = await openUpload(request, def.upload); const user = await authenticate(open.params)
 */
export async function openUpload(request: FastifyRequest, upload: UploadDef): Promise<OpenUpload> {
  const announced = Number(request.headers['content-length'] ?? 0);
  if (announced > upload.maxBytes + LIMITS.maxUploadFieldBytes + FRAMING_BYTES) {
    discardBody(request);
    throw tooLarge(upload);
  }
  const fields: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  let part: MultipartFile | undefined;
  let overLimit = false;
  /** The refusal of a body that broke off inside the file (the caller's mistake, not the server's), and the stream the handler reads. */
  let broken: ApiError | undefined;
  let counted: Transform | undefined;
  /** What an error of reading the body means to the caller: a second file, too many fields, else a body that is not multipart. */
  const parsing = (error: unknown): ApiError => {
    if (error instanceof ApiError) return error;
    const code = typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
    if (code === 'FST_FILES_LIMIT') return badRequest(MESSAGES.uploadOneFile);
    if (code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') return new ApiError(413, MESSAGES.tooLarge);
    return badRequest(MESSAGES.uploadBadForm);
  };
  let iterator: AsyncIterator<Multipart>;
  try {
    // One byte past the limit lets the counter below see that the file is larger than allowed.
    const parts = request.parts({ limits: { fileSize: upload.maxBytes + 1, files: 1, fields: LIMITS.maxUploadFields, fieldSize: LIMITS.maxUploadFieldBytes } });
    iterator = (parts as AsyncIterable<Multipart>)[Symbol.asyncIterator]();
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (next.value.type === 'file') {
        part = next.value;
        // Listened to at once: the body may break off while the caller is still being checked.
        part.file.on('error', (error) => {
          broken ??= parsing(error);
          counted?.destroy(broken);
        });
        break;
      }
      if (next.value.valueTruncated || next.value.fieldnameTruncated) throw new ApiError(413, MESSAGES.tooLarge);
      const value = typeof next.value.value === 'string' ? next.value.value : JSON.stringify(next.value.value);
      const seen = fields[next.value.fieldname];
      fields[next.value.fieldname] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
  } catch (error) {
    discardBody(request);
    throw parsing(error);
  }
  /** What follows the file: nothing may (a second file, a field sent after it); read before the handler sees the file end. */
  async function rest(): Promise<void> {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (next.value.type === 'file') throw badRequest(MESSAGES.uploadOneFile);
      throw badRequest(MESSAGES.uploadFieldsFirst);
    }
  }
  const params = readParams(fields);

  function file(): UploadedFile {
    if (!part || part.filename === '') throw badRequest(MESSAGES.uploadMissing);
    if (part.fieldname !== upload.field) throw badRequest(MESSAGES.uploadMissing);
    if (!accepted(upload, part)) throw badRequest(MESSAGES.uploadBadType(upload.accept.extensions));
    if (broken) throw broken;
    let size = 0;
    const stream = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.byteLength;
        if (size > upload.maxBytes) {
          overLimit = true;
          done(tooLarge(upload));
        } else done(null, chunk);
      },
      // The file's end reaches the handler only once the body is known to hold nothing more, so a refusal
      // of the rest still rolls back what the handler wrote while reading.
      flush(done) {
        rest().then(() => done(), (error: unknown) => done(parsing(error)));
      },
    });
    counted = stream;
    const source: Readable = part.file;
    // The handler reads `stream`; an error of either side (the limit, a broken body, the handler giving up) ends both.
    pipeline(source, stream).catch(() => undefined);
    return {
      name: part.filename,
      type: part.mimetype,
      stream,
      get size() {
        return size;
      },
    };
  }

  return {
    params,
    file,
    refusal: (error) => (overLimit ? tooLarge(upload) : error),
    get overLimit() {
      return overLimit;
    },
    discard: () => discardBody(request),
  };
}
