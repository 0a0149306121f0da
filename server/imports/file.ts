/**
 * An import's file in the file store (server/files): stored as it arrives while its bytes are checked as UTF-8 (so the
 * encoding is known without a second read; the store hashes it), then read back — from any server — as CSV records:
 * decoded (UTF-8, its BOM dropped, or cp932 through iconv-lite) and parsed by csv-parse as a stream (RFC 4180: CR LF or
 * LF, quoted fields holding commas, quotes and line breaks), so a file of any length is read in flat memory.
 */
import { Transform, type Readable } from 'node:stream';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import type { Kysely } from 'kysely';
import { IMPORT_MESSAGES, type ImportEncoding, type ImportEncodingChoice } from '../../lib/imports/messages';
import type { Database } from '../db/schema';
import { FileGone, FileWriter, fileBytes, fileStream } from '../files';
import { ApiError, badRequest } from '../http/api-error';

/** How long a stored file is kept (a preview not committed by then expires). */
export const IMPORT_KEEP_MS = 24 * 60 * 60 * 1000;

/** The store's kinds of an import's files: the upload and the errors found in it (JSON lines). */
export const IMPORT_FILE = 'import';
export const IMPORT_ERRORS_FILE = 'import-errors';

export interface StoredFile {
  /** The file's id in the store. */
  id: number;
  size: number;
  sha256: string;
  /** The file starts with the UTF-8 byte-order mark. */
  bom: boolean;
  /** Every byte sequence of the file is valid UTF-8. */
  validUtf8: boolean;
}

/**
 * Writes an uploaded file into the store as it arrives, checking it as UTF-8 on the way; a failed read (the size
 * limit, a broken body) removes what was written and rethrows.
 * @example const stored = await storeFile(ctx.upload.stream, db, { name: ctx.upload.name, userId: 1 })
 */
export async function storeFile(source: Readable, db: Kysely<Database>, owner: { name: string; userId: number }): Promise<StoredFile> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let validUtf8 = true;
  let head: Buffer = Buffer.alloc(0);
  const watch = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (head.length < 3) head = Buffer.concat([head, chunk.subarray(0, 3)]);
      if (validUtf8) {
        try {
          decoder.decode(chunk, { stream: true });
        } catch {
          validUtf8 = false;
        }
      }
      done(null, chunk);
    },
    flush(done) {
      if (validUtf8) {
        try {
          decoder.decode();
        } catch {
          validUtf8 = false;
        }
      }
      done();
    },
  });
  const writer = new FileWriter(db, { kind: IMPORT_FILE, name: owner.name, userId: owner.userId, keepMs: IMPORT_KEEP_MS });
  const { id, size, sha256 } = await writer.pipeFrom(source, watch);
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  return { id, size, sha256, bom, validUtf8 };
}

/**
 * The encoding a file is read as: the one chosen, else UTF-8 for a file with a BOM or valid as UTF-8, else cp932.
 * @example encodingOf({ bom: false, validUtf8: false }, 'auto') // 'cp932'
 */
export function encodingOf(file: Pick<StoredFile, 'bom' | 'validUtf8'>, choice: ImportEncodingChoice): ImportEncoding {
  if (choice !== 'auto') return choice;
  return file.bom || file.validUtf8 ? 'utf8' : 'cp932';
}

/**
 * A small stored file whole (a fixed-format kind's records); a file gone from the store is refused as expired.
 * @example const bytes = await storedBytes({ db, id: run.imp_file_id })
 */
export async function storedBytes(file: { db: Kysely<Database>; id: number }): Promise<Buffer> {
  try {
    return await fileBytes(file.db, file.id);
  } catch (error) {
    if (error instanceof FileGone) throw new ApiError(409, IMPORT_MESSAGES.expired);
    throw error;
  }
}

/** One record of a file: its 1-based number among the file's records and its cells as read. */
export interface FileRecord {
  row: number;
  cells: string[];
}

/** The line a csv-parse error points at. */
const lineOf = (error: unknown): number => {
  const lines = typeof error === 'object' && error !== null && 'lines' in error ? Number(error.lines) : NaN;
  return Number.isFinite(lines) && lines > 0 ? lines : 1;
};

/**
 * The records of a stored file, decoded as `encoding` and parsed as CSV, one at a time. Records whose cells are all
 * empty (Excel's blank lines, `,,,`) are passed over but counted, so row numbers are the file's. Text that does not
 * decode (U+FFFD: bytes that are not characters of the encoding) refuses the file naming the encoding; a file that is
 * not CSV (an unclosed quote) is refused naming the line.
 * A file gone from the store meanwhile (expired) is refused as expired.
 * @example for await (const { row, cells } of fileRecords(db, fileId, 'cp932')) …
 */
export async function* fileRecords(db: Kysely<Database>, fileId: number, encoding: ImportEncoding): AsyncGenerator<FileRecord> {
  const source = fileStream(db, fileId);
  const decoded = source.pipe(iconv.decodeStream(encoding === 'utf8' ? 'utf8' : 'cp932'));
  const parser = decoded.pipe(parse({ relax_column_count: true, skip_empty_lines: true, bom: true }));
  source.on('error', (error: Error) => parser.destroy(error));
  decoded.on('error', (error: Error) => parser.destroy(error));
  let row = 0;
  try {
    for await (const cells of parser as AsyncIterable<string[]>) {
      row += 1;
      if (cells.some((cell) => cell.includes('\ufffd'))) throw badRequest(IMPORT_MESSAGES.wrongEncoding(encoding));
      if (cells.every((cell) => cell.trim() === '')) continue;
      yield { row, cells };
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (error instanceof FileGone) throw new ApiError(409, IMPORT_MESSAGES.expired);
    throw badRequest(IMPORT_MESSAGES.badCsv(lineOf(error)));
  } finally {
    parser.destroy();
    source.destroy();
  }
}
