/**
 * The one file store: files kept in the database (tables `stored_file` and `file_chunk`, migration 0081), so any server
 * reads what any other wrote — an import's upload, a batch's PDF and ZIP.
 * - Written as a stream (`FileWriter`, a Node Writable): bytes are hashed (SHA-256) and counted as they come and
 *   inserted chunk by chunk (`CHUNK_BYTES`); the writer's callback waits for each insert, so a fast source is held back
 *   (backpressure) and memory stays at about one chunk. Each chunk is its own short statement — on SQLite a write lock
 *   held for one insert, never for the whole file, so other requests write between two chunks. Write outside a
 *   transaction (inside one, the whole file would hold it).
 * - A file is `complete` only once its last chunk is in (or, `deferComplete`, when its caller says so in the
 *   transaction that makes it valid: `completeFiles`); an incomplete file is never read.
 * - Read as a stream (`fileChunks`, `fileStream`): one chunk per query as the reader asks; a chunk missing (the file
 *   removed meanwhile) ends the stream with `FileGone`.
 * - Removed when it expires (`expires`), by whichever server next writes a file (at most once a minute per process)
 *   or calls `removeExpiredFiles`; a job's files by `removeJobFiles` (a failed or dead job).
 */
import { createHash, type Hash } from 'node:crypto';
import { Readable, Writable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Kysely } from 'kysely';
import type { Database, Row } from '../db/schema';
import { nowIso, nowMs } from '../http/clock';
import { CONSOLE_LOG, type ProcessLog } from '../http/log';

/** Bytes per chunk row: few round trips for a 50 MB file, half a megabyte in memory per stream. */
export const CHUNK_BYTES = 512 * 1024;
/** Files removed per statement when many expire at once (a short write lock each). */
const REMOVE_BATCH = 20;
/** A process sweeps expired files at most this often on its own (`removeExpiredFiles` sweeps at once). */
const SWEEP_EVERY_MS = 60 * 1000;

export type StoredFileRow = Row<'stored_file'>;

/**
 * The kind of the invoice archive's files (server/billing/archive.ts): once complete, kept unaltered until they expire —
 * the database refuses to change or remove them before (migration 0105), so a job's clean-up leaves them.
 */
export const ARCHIVE_FILE_KIND = 'invoice-archive';

/** What a file is, who it belongs to and how long it is kept. */
export interface FileSpec {
  /** What the file is (`import`, `billing-pdf` …): readers look files up by it. */
  kind: string;
  name: string;
  /** The user who sent it or asked for it. */
  userId?: number | null;
  /** The job writing it: `removeJobFiles` removes it with the job's other files. */
  jobId?: number | null;
  /** How long the file is kept from now (it expires then, and any server removes it). */
  keepMs: number;
  /** Leaves the file incomplete at its end: the caller completes it (`completeFiles`), e.g. in the transaction that makes it valid. */
  deferComplete?: boolean;
}

/** A written file. */
export interface WrittenFile {
  id: number;
  size: number;
  sha256: string;
}

/** Read of a file that is not there (never was, expired, removed meanwhile, or not complete). */
export class FileGone extends Error {
  constructor(readonly fileId: number) {
    super(`stored file ${fileId} is gone`);
    this.name = 'FileGone';
  }
}

/** Runs `work` in a transaction of its own, or in the one `db` already is. */
const inTransaction = async <T>(db: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> =>
  db.isTransaction ? work(db) : db.transaction().execute(work);

/**
 * Removes files and their chunks (the chunks first, so a connection without SQLite's foreign keys leaves none behind).
 * @example await removeFiles(db, [7, 8])
 */
export async function removeFiles(db: Kysely<Database>, ids: readonly number[]): Promise<number> {
  let removed = 0;
  for (let i = 0; i < ids.length; i += REMOVE_BATCH) {
    const batch = ids.slice(i, i + REMOVE_BATCH);
    removed += await inTransaction(db, async (trx) => {
      await trx.deleteFrom('file_chunk').where('fc_sf_id', 'in', batch).execute();
      const res = await trx.deleteFrom('stored_file').where('sf_id', 'in', batch).executeTakeFirst();
      return Number(res.numDeletedRows);
    });
  }
  return removed;
}

/**
 * Removes every file that expired by `now` (complete or not), a few at a time; answers how many.
 * @example await removeExpiredFiles(db)
 */
export async function removeExpiredFiles(db: Kysely<Database>, now = nowIso()): Promise<number> {
  let removed = 0;
  for (;;) {
    const ids = (await db.selectFrom('stored_file').select('sf_id').where('expires', '<=', now).orderBy('expires').limit(REMOVE_BATCH).execute()).map((r) => r.sf_id);
    if (ids.length === 0) return removed;
    removed += await removeFiles(db, ids);
    if (ids.length < REMOVE_BATCH) return removed;
  }
}

let lastSweep = Number.NEGATIVE_INFINITY;
/** Where a failed sweep is reported: the server's log once `logFileSweepsTo` names it (buildApp), else the console. */
let sweepLog: ProcessLog = CONSOLE_LOG;

/**
 * Reports this process's failed sweeps of expired files to `log` (the server's JSON log) instead of the console.
 * @example logFileSweepsTo(log)
 */
export function logFileSweepsTo(log: ProcessLog): void {
  sweepLog = log;
}

/** Removes expired files unless this process did so less than a minute ago (by the one clock). */
async function sweepExpiredFiles(db: Kysely<Database>): Promise<void> {
  const now = nowMs();
  if (now - lastSweep < SWEEP_EVERY_MS && now >= lastSweep) return;
  lastSweep = now;
  await removeExpiredFiles(db);
}

/**
 * Removes the files a job wrote (complete or not): a job that failed, was cancelled or was found dead. An archived
 * invoice it completed stays (it left the product).
 * @example await removeJobFiles(db, 42)
 */
export async function removeJobFiles(db: Kysely<Database>, jobId: number): Promise<number> {
  const ids = (await db.selectFrom('stored_file').select('sf_id').where('sf_job_id', '=', jobId)
    .where((eb) => eb.or([eb('sf_kind', '<>', ARCHIVE_FILE_KIND), eb('sf_complete', '=', 0)])).execute()).map((r) => r.sf_id);
  return removeFiles(db, ids);
}

/**
 * Marks files complete (readable), e.g. in the transaction that makes a job's result valid.
 * @example await completeFiles(trx, [pdf.id, zip.id])
 */
export async function completeFiles(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  if (ids.length) await db.updateTable('stored_file').set({ sf_complete: 1 }).where('sf_id', 'in', [...ids]).execute();
}

/**
 * A file being written into the store: pipe bytes into it; `done()` answers the file once it is complete. A failure (of
 * the source, of an insert, a `destroy(error)`) removes what was written.
 * @example const writer = new FileWriter(db, { kind: 'import', name: 'a.csv', userId: 1, keepMs: DAY }); await pipeline(source, writer); const { id } = await writer.done()
 */
export class FileWriter extends Writable {
  private readonly hash: Hash = createHash('sha256');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private seq = 0;
  private size = 0;
  private fileId: number | undefined;
  private written: WrittenFile | undefined;
  private readonly result: Promise<WrittenFile>;

  constructor(private readonly db: Kysely<Database>, private readonly spec: FileSpec) {
    super({ highWaterMark: CHUNK_BYTES });
    this.result = new Promise<WrittenFile>((resolve, reject) => {
      this.once('finish', () => (this.written ? resolve(this.written) : reject(new Error('file writer finished without a file'))));
      this.once('error', reject);
      this.once('close', () => reject(new Error('file writer closed before its end')));
    });
    // Awaited through done(); a writer whose caller gave up must not make an unhandled rejection.
    this.result.catch(() => undefined);
  }

  /** The file's id, once its row is written. */
  get id(): number | undefined {
    return this.fileId;
  }

  /** The file, once every chunk is in. */
  done(): Promise<WrittenFile> {
    return this.result;
  }

  /** Once the writer is closed — after a failure, once what it wrote is removed. */
  settled(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.once('close', () => resolve()));
  }

  /**
   * Pipes `source` (through `transforms`) into the file and answers it; a failure answers only once what was
   * written is removed (pipeline itself rejects before its last stream has finished being destroyed).
   * @example const file = await writer.pipeFrom(upload.stream, check)
   */
  async pipeFrom(source: Readable, ...transforms: Transform[]): Promise<WrittenFile> {
    try {
      await pipeline([source, ...transforms, this]);
    } catch (error) {
      await this.settled();
      throw error;
    }
    return this.done();
  }

  /** Gives up the file: what was written is removed (a completed file stays: remove it by id or job). */
  async abort(): Promise<void> {
    this.destroy();
    await this.settled();
  }

  override _construct(callback: (error?: Error | null) => void): void {
    const { db, spec } = this;
    (async () => {
      // Housekeeping for every server: a failed sweep (another server removing the same files) is not this file's failure.
      // Never inside the caller's transaction (an invoice's first print): a failed statement there would end it.
      if (!db.isTransaction) await sweepExpiredFiles(db).catch((error: unknown) => sweepLog.warn({ err: error }, 'removing expired files failed'));
      const now = nowMs();
      const row = await db.insertInto('stored_file').values({
        sf_kind: spec.kind, sf_name: spec.name, sf_usr_id: spec.userId ?? null, sf_job_id: spec.jobId ?? null,
        created: new Date(now).toISOString(), expires: new Date(now + spec.keepMs).toISOString(),
      }).returning('sf_id').executeTakeFirstOrThrow();
      this.fileId = row.sf_id;
    })().then(() => callback(), (error: unknown) => callback(error as Error));
  }

  /** Inserts the whole chunks held (all that is held when `last`). */
  private async flush(last: boolean): Promise<void> {
    if (this.pendingBytes === 0 || (!last && this.pendingBytes < CHUNK_BYTES)) return;
    const held = Buffer.concat(this.pending, this.pendingBytes);
    let at = 0;
    while (held.length - at >= CHUNK_BYTES || (last && at < held.length)) {
      const data = held.subarray(at, at + CHUNK_BYTES);
      await this.db.insertInto('file_chunk').values({ fc_sf_id: this.fileId!, fc_seq: this.seq, fc_data: data }).execute();
      this.seq += 1;
      at += data.length;
    }
    const rest = held.subarray(at);
    this.pending = rest.length ? [Buffer.from(rest)] : [];
    this.pendingBytes = rest.length;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.flush(false).then(() => callback(), (error: unknown) => callback(error as Error));
  }

  override _final(callback: (error?: Error | null) => void): void {
    (async () => {
      await this.flush(true);
      const sha256 = this.hash.digest('hex');
      await this.db.updateTable('stored_file').set({ sf_size: this.size, sf_sha256: sha256, ...(this.spec.deferComplete ? {} : { sf_complete: 1 }) })
        .where('sf_id', '=', this.fileId!).execute();
      this.written = { id: this.fileId!, size: this.size, sha256 };
    })().then(() => callback(), (error: unknown) => callback(error as Error));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.pending = [];
    // Ended without its file written (a failure, or given up): what was written goes.
    if (this.written || this.fileId === undefined) {
      callback(error);
      return;
    }
    removeFiles(this.db, [this.fileId]).then(() => callback(error), (failure: unknown) => callback(error ?? (failure as Error)));
  }
}

/**
 * Streams `source` into a new file; answers it once complete (a failure removes what was written and rethrows).
 * @example const file = await storeStream(db, createReadStream(path), { kind: 'billing-pdf', name: 'x.pdf', keepMs: DAY })
 */
export async function storeStream(db: Kysely<Database>, source: AsyncIterable<Buffer> | Readable, spec: FileSpec): Promise<WrittenFile> {
  return new FileWriter(db, spec).pipeFrom(source instanceof Readable ? source : Readable.from(source, { objectMode: false }));
}

/**
 * The file if it can be read now: complete and not expired.
 * @example const file = await storedFile(db, run.imp_file_id)
 */
export async function storedFile(db: Kysely<Database>, id: number | null | undefined): Promise<StoredFileRow | undefined> {
  if (id === null || id === undefined) return undefined;
  return db.selectFrom('stored_file').selectAll().where('sf_id', '=', id).where('sf_complete', '=', 1).where('expires', '>', nowIso()).executeTakeFirst();
}

/**
 * The readable file of a kind a job wrote (the newest, if it wrote several).
 * @example const pdf = await jobFile(db, jobId, 'billing-pdf')
 */
export async function jobFile(db: Kysely<Database>, jobId: number, kind: string): Promise<StoredFileRow | undefined> {
  return db.selectFrom('stored_file').selectAll().where('sf_job_id', '=', jobId).where('sf_kind', '=', kind)
    .where('sf_complete', '=', 1).where('expires', '>', nowIso()).orderBy('sf_id', 'desc').executeTakeFirst();
}

/**
 * A stored file's bytes, one chunk per query as the reader asks for them. A file not readable (missing, incomplete,
 * expired) or a chunk missing on the way (removed meanwhile) throws `FileGone`.
 * @example for await (const bytes of fileChunks(db, id)) hash.update(bytes)
 */
export async function* fileChunks(db: Kysely<Database>, id: number): AsyncGenerator<Buffer> {
  const file = await storedFile(db, id);
  if (!file) throw new FileGone(id);
  let read = 0;
  for (let seq = 0; read < file.sf_size; seq += 1) {
    const chunk = await db.selectFrom('file_chunk').select('fc_data').where('fc_sf_id', '=', id).where('fc_seq', '=', seq).executeTakeFirst();
    if (!chunk) throw new FileGone(id);
    const data = Buffer.isBuffer(chunk.fc_data) ? chunk.fc_data : Buffer.from(chunk.fc_data);
    read += data.length;
    yield data;
  }
}

/**
 * A stored file as a Readable (it reads one chunk ahead of its consumer).
 * @example await pipeline(fileStream(db, id), createWriteStream(path))
 */
export const fileStream = (db: Kysely<Database>, id: number): Readable =>
  Readable.from(fileChunks(db, id), { objectMode: false, highWaterMark: CHUNK_BYTES });

/**
 * A small stored file whole, in memory (a fixed-format import of a few hundred kilobytes); `FileGone` as `fileChunks`.
 * @example const bytes = await fileBytes(db, id)
 */
export async function fileBytes(db: Kysely<Database>, id: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of fileChunks(db, id)) parts.push(part);
  return Buffer.concat(parts);
}
