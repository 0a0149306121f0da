/**
 * An import's file on disk (server/imports): stored as it arrives under `{DATA_DIR}/imports/` while its SHA-256 is
 * computed and its bytes checked as UTF-8 (so the encoding is known without a second read), then read back as CSV
 * records — decoded (UTF-8, its BOM dropped, or cp932 through iconv-lite) and parsed by csv-parse as a stream (RFC 4180:
 * CR LF or LF, quoted fields holding commas, quotes and line breaks), so a file of any length is read in flat memory.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { IMPORT_MESSAGES, type ImportEncoding, type ImportEncodingChoice } from '../../lib/imports/messages';
import { pruneOldFiles } from '../calls/stored-files';
import { ApiError, badRequest } from '../http/api-error';
import { nowMs } from '../http/clock';

/** Where import files are kept. */
export const importDir = (dataDir: string): string => join(dataDir, 'imports');

/** How long a stored file is kept (a preview not committed by then expires). */
export const IMPORT_KEEP_MS = 24 * 60 * 60 * 1000;

export interface StoredFile {
  path: string;
  size: number;
  sha256: string;
  /** The file starts with the UTF-8 byte-order mark. */
  bom: boolean;
  /** Every byte sequence of the file is valid UTF-8. */
  validUtf8: boolean;
}

/**
 * Writes an uploaded file to disk as it arrives, hashing it and checking it as UTF-8 on the way; a failed read (the size
 * limit, a broken body) removes what was written and rethrows.
 * @example const stored = await storeFile(ctx.upload.stream, config.dataDir)
 */
export async function storeFile(source: Readable, dataDir: string): Promise<StoredFile> {
  mkdirSync(importDir(dataDir), { recursive: true });
  const path = join(importDir(dataDir), `${randomUUID()}.dat`);
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let validUtf8 = true;
  let head: Buffer = Buffer.alloc(0);
  let size = 0;
  const watch = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      if (head.length < 3) head = Buffer.concat([head, chunk.subarray(0, 3)]);
      size += chunk.byteLength;
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
  try {
    await pipeline(source, watch, createWriteStream(path));
  } catch (error) {
    rmSync(path, { force: true });
    throw error;
  }
  const bom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  return { path, size, sha256: hash.digest('hex'), bom, validUtf8 };
}

/**
 * The encoding a file is read as: the one chosen, else UTF-8 for a file with a BOM or valid as UTF-8, else cp932.
 * @example encodingOf({ bom: false, validUtf8: false }, 'auto') // 'cp932'
 */
export function encodingOf(file: Pick<StoredFile, 'bom' | 'validUtf8'>, choice: ImportEncodingChoice): ImportEncoding {
  if (choice !== 'auto') return choice;
  return file.bom || file.validUtf8 ? 'utf8' : 'cp932';
}

/** Removes stored files older than `IMPORT_KEEP_MS` (the runs are marked expired by the caller). */
export const pruneImportFiles = (dataDir: string, now = nowMs()): void => pruneOldFiles(importDir(dataDir), IMPORT_KEEP_MS, now);

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
 * @example for await (const { row, cells } of fileRecords(path, 'cp932')) …
 */
export async function* fileRecords(path: string, encoding: ImportEncoding): AsyncGenerator<FileRecord> {
  const decoded = createReadStream(path, { highWaterMark: 256 * 1024 }).pipe(iconv.decodeStream(encoding === 'utf8' ? 'utf8' : 'cp932'));
  const parser = decoded.pipe(parse({ relax_column_count: true, skip_empty_lines: true, bom: true }));
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
    throw badRequest(IMPORT_MESSAGES.badCsv(lineOf(error)));
  } finally {
    parser.destroy();
  }
}
