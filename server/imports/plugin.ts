/**
 * The one import machinery (issue 14; docs/architecture.md "Imports"), for every import kind (lib/imports/registry.ts,
 * server/imports/registry.ts):
 * - `import_preview` (multipart: `kind`, `encoding` auto | utf8 | cp932, `mapping` JSON {field: header}, then `file`):
 *   stores the file (hashed), reads it (encoding detected or chosen; CSV parsed as a stream; headers mapped) and runs
 *   the kind over every row in ONE transaction that is rolled back — the dry run, through the same write path as a hand
 *   entered record. Answers `ImportPreview`; keeps the counts and every error (a second stored file). The upload and its
 *   errors live in the file store (server/files), so the commit and the error CSV are answered by any server.
 * - `import_commit` (`import_id`, `confirm_duplicate`): a job (`import_commit`, scope = the kind) running the same
 *   rows with writes in ONE transaction; any error then (data changed since the preview) fails it and nothing is written.
 * - `import_errors_csv` (`import_id`): the errored rows as they were in the file with a 「エラー内容」 column.
 * - `import_lst` (`kind`): the kind's recent imports. `import_template` (`kind`): a CSV of the kind's headers.
 * Each call needs the kind's area: write to import, read to see what was imported.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { formatDateTime } from '../../lib/format';
import { importSummary, type ImportError, type ImportKindInfo, type ImportNotices, type ImportPreview } from '../../lib/imports/kinds';
import { IMPORT_ENCODINGS, IMPORT_ERRORS_ANSWERED, IMPORT_MAX_BYTES, IMPORT_MESSAGES, type ImportEncoding, type ImportEncodingChoice } from '../../lib/imports/messages';
import { importKindInfo, isImportKind, type ImportKind } from '../../lib/imports/registry';
import type { ImportCommitResult, ImportRunInfo } from '../../lib/imports/runs';
import { can } from '../../lib/permissions';
import { CSV_HEADERS, MESSAGES } from '../../lib/protocol';
import { writeAudit } from '../audit/audit-log';
import { addCall, type AreaOptions, type FileAnswer, type SessionUser } from '../calls/call-table';
import type { Database, Row } from '../db/schema';
import { FileGone, fileChunks, removeFiles, storeStream, storedFile } from '../files';
import { ApiError, badRequest } from '../http/api-error';
import { pageParam, positiveId, type Params } from '../http/params';
import { csvFile, fileStamp, csvRecords, encodeCsv, neutralise } from '../resources';
import { encodingOf, fileRecords, IMPORT_ERRORS_FILE, IMPORT_KEEP_MS, storeFile } from './file';
import type { ImportKindHandler } from './kind';
import { JobCancelled } from '../jobs/jobs';
import { IMPORT_HANDLERS } from './registry';
import { noticeCollector, runKind, type FileMapping, type RunTotals } from './run';
import { nowIso, nowMs } from '../http/clock';
import { cellText } from '../../lib/resources/checks';

/** A kind the caller names, with its declaration and handler; 400 for an unknown or unbuilt kind, 403 without the kind's area. */
interface KindOf {
  kind: ImportKind;
  info: ImportKindInfo;
  handler: ImportKindHandler;
}

function kindOf(raw: string | undefined, user: SessionUser, level: 'read' | 'write'): KindOf {
  const kind = (raw ?? '').trim();
  const problem = (message: string) => badRequest(message, { fields: { kind: message } });
  if (kind === '') throw problem(IMPORT_MESSAGES.missingKind);
  if (!isImportKind(kind)) throw problem(IMPORT_MESSAGES.unknownKind(kind));
  const info = importKindInfo(kind);
  const handler = IMPORT_HANDLERS[kind];
  if (!info || !handler) throw problem(IMPORT_MESSAGES.notYet(kind));
  if (!can(user.areas, info.area, level)) throw new ApiError(403, MESSAGES.forbidden);
  return { kind, info, handler };
}

function encodingParam(raw: string | undefined): ImportEncodingChoice {
  const value = (raw ?? '').trim() || 'auto';
  if (!(IMPORT_ENCODINGS as readonly string[]).includes(value)) throw badRequest(IMPORT_MESSAGES.badEncoding, { fields: { encoding: IMPORT_MESSAGES.badEncoding } });
  return value as ImportEncodingChoice;
}

/** A mapping `{field: header}` (strings only), or undefined when none was sent. */
function mappingParam(raw: string | undefined): Record<string, string> | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const refuse = () => badRequest(IMPORT_MESSAGES.badMapping, { fields: { mapping: IMPORT_MESSAGES.badMapping } });
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw refuse();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw refuse();
  const out: Record<string, string> = {};
  for (const [field, header] of Object.entries(parsed)) {
    if (typeof header !== 'string') throw refuse();
    out[field] = header;
  }
  return out;
}

const parseJson = <T>(text: unknown, fallback: T): T => {
  try {
    return JSON.parse(cellText(text)) as T;
  } catch {
    return fallback;
  }
};

/**
 * Writes errors as they are found, keeping the first `IMPORT_ERRORS_ANSWERED` for the answer. They are found inside the
 * dry run's transaction, which on SQLite holds the write lock and the connection until it rolls back, so they go to a
 * file of this request in the system's temporary folder first and into the store (JSON lines) after it (`keep`).
 */
class ErrorSink {
  readonly first: ImportError[] = [];
  private readonly path = join(tmpdir(), `hod-import-errors-${randomUUID()}.jsonl`);
  private readonly out: WriteStream;
  private buffered = '';
  private count = 0;
  constructor() {
    this.out = createWriteStream(this.path);
  }
  add(error: ImportError): void {
    this.count += 1;
    if (this.first.length < IMPORT_ERRORS_ANSWERED) this.first.push(error);
    this.buffered += `${JSON.stringify(error)}\n`;
    if (this.buffered.length > 64 * 1024) this.drain();
  }
  private drain(): void {
    if (this.buffered) this.out.write(this.buffered);
    this.buffered = '';
  }
  async close(): Promise<void> {
    if (this.out.closed) return;
    this.drain();
    this.out.end();
    await once(this.out, 'close');
  }
  /** Moves the errors into the store (none: no file); answers the stored file's id. The temporary file goes either way. */
  async keep(db: Kysely<Database>, owner: { name: string; userId: number }): Promise<number | null> {
    await this.close();
    try {
      if (this.count === 0) return null;
      return (await storeStream(db, createReadStream(this.path), { kind: IMPORT_ERRORS_FILE, name: `${owner.name}.errors`, userId: owner.userId, keepMs: IMPORT_KEEP_MS })).id;
    } finally {
      rmSync(this.path, { force: true });
    }
  }
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    rmSync(this.path, { force: true });
  }
}

/** A stored run's errors by row (read back from its errors file, JSON lines, chunk by chunk). */
async function storedErrors(db: Kysely<Database>, fileId: number | null): Promise<Map<number, string[]>> {
  const byRow = new Map<number, string[]>();
  if (fileId === null) return byRow;
  const decoder = new StringDecoder('utf8');
  let rest = '';
  const take = (line: string) => {
    if (!line) return;
    const error = JSON.parse(line) as ImportError;
    const messages = byRow.get(error.row) ?? [];
    messages.push(error.column ? `${error.column}: ${error.message}` : error.message);
    byRow.set(error.row, messages);
  };
  try {
    for await (const chunk of fileChunks(db, fileId)) {
      const lines = (rest + decoder.write(chunk)).split('\n');
      rest = lines.pop() ?? '';
      lines.forEach(take);
    }
  } catch (error) {
    if (error instanceof FileGone) throw new ApiError(409, IMPORT_MESSAGES.expired);
    throw error;
  }
  take(rest + decoder.end());
  return byRow;
}

/** The dry run's transaction ends by this, so nothing it wrote stays. */
class RolledBack extends Error {
  constructor(readonly outcome: { file: FileMapping; totals: RunTotals }) {
    super('import dry run');
  }
}

export async function importsPlugin(_app: FastifyInstance, { calls, database, jobs }: AreaOptions): Promise<void> {
  const { db } = database;
  /** A run's stored file, read beside the transaction that runs the kind (on SQLite a second connection: the run's own holds the write lock). */
  const sourceOf = (fileId: number) => ({ db: database.reader, id: fileId });

  /** Files older than a day expire (the store removes them); their previews can no longer be committed. */
  async function expireOld(): Promise<void> {
    const before = new Date(nowMs() - IMPORT_KEEP_MS).toISOString();
    await db.updateTable('import_run').set({ imp_state: 'expired' }).where('imp_state', '=', 'preview').where('created', '<', before).execute();
  }

  /** The latest commit of the same file (kind and SHA-256) other than `exceptId`. */
  async function committedBefore(kind: string, sha256: string, exceptId?: number): Promise<ImportPreview['imported_before']> {
    let query = db.selectFrom('import_run').leftJoin('user', 'user.user_id', 'import_run.imp_usr_id')
      .select(['imp_id', 'imp_committed', 'user_name'])
      .where('imp_kind', '=', kind).where('imp_sha256', '=', sha256).where('imp_state', '=', 'committed');
    if (exceptId !== undefined) query = query.where('imp_id', '<>', exceptId);
    const row = await query.orderBy('imp_id', 'desc').executeTakeFirst();
    return row ? { import_id: row.imp_id, committed: row.imp_committed, user_name: (row.user_name ?? '') } : null;
  }

  async function runOf(params: Params, user: SessionUser, level: 'read' | 'write'): Promise<{ row: Row<'import_run'> } & KindOf> {
    const raw = (params.import_id ?? '').trim();
    if (raw === '') throw badRequest(IMPORT_MESSAGES.missingImport, { fields: { import_id: IMPORT_MESSAGES.missingImport } });
    const row = await db.selectFrom('import_run').selectAll().where('imp_id', '=', positiveId(raw)).executeTakeFirst();
    if (!row) throw new ApiError(404, IMPORT_MESSAGES.notFound);
    return { row, ...kindOf(row.imp_kind, user, level) };
  }

  addCall(calls, 'import_preview', {
    upload: { field: 'file', maxBytes: IMPORT_MAX_BYTES, accept: { extensions: ['.csv', '.txt', '.dat'], types: ['text/csv', 'text/plain', 'application/vnd.ms-excel'] }, auditTable: 'import_run' },
    handler: async ({ params, user, call, upload }) => {
      const { kind, info, handler } = kindOf(params.kind, user, 'write');
      const choice = encodingParam(params.encoding);
      const given = mappingParam(params.mapping);
      await expireOld();
      const stored = await storeFile(upload.stream, db, { name: upload.name, userId: user.user_id });
      const sink = new ErrorSink();
      let errorsFileId: number | null = null;
      try {
        const encoding: ImportEncoding = info.format === 'fixed' ? 'cp932' : encodingOf(stored, choice);
        if (info.format === 'csv' && encoding === 'utf8' && !stored.validUtf8) throw badRequest(IMPORT_MESSAGES.wrongEncoding(encoding));
        const remembered = parseJson<Record<string, string>>(
          (await db.selectFrom('import_mapping').select('imm_mapping').where('imm_kind', '=', kind).executeTakeFirst())?.imm_mapping, {},
        );
        let outcome: { file: FileMapping; totals: RunTotals };
        const notices = noticeCollector();
        let noticed: ImportNotices = {};
        try {
          await db.transaction().execute(async (trx) => {
            const run = { trx, actor: { userId: user.user_id, call, user }, dryRun: true, state: new Map<string, unknown>() };
            const done = await runKind({ info, handler, file: sourceOf(stored.id), encoding, remembered, given, onError: (error) => sink.add(error), onNotice: notices.add, run });
            noticed = notices.answer(handler, run);
            throw new RolledBack(done);
          });
          throw new Error('unreachable: the dry run commits nothing');
        } catch (error) {
          if (!(error instanceof RolledBack)) throw error;
          outcome = error.outcome;
        }
        errorsFileId = await sink.keep(db, { name: upload.name, userId: user.user_id });
        const { file, totals } = outcome;
        const now = nowIso();
        const inserted = await db.insertInto('import_run').values({
          imp_kind: kind, imp_file_name: upload.name, imp_size: stored.size, imp_sha256: stored.sha256, imp_encoding: encoding,
          imp_mapping: JSON.stringify(file.mapping), imp_headers: JSON.stringify(file.headers), imp_rows: totals.rows, imp_inserts: totals.inserts,
          imp_updates: totals.updates, imp_skips: totals.skips, imp_errors: totals.errors, imp_state: 'preview', imp_usr_id: user.user_id,
          imp_path: '', imp_file_id: stored.id, imp_errors_file_id: errorsFileId, created: now,
        }).returning('imp_id').executeTakeFirstOrThrow();
        if (given) {
          // The user's own choices are remembered for the kind (a column left out too).
          const remember = JSON.stringify({ ...file.mapping, ...Object.fromEntries(Object.entries(given).filter(([, h]) => h === '')) });
          const updated = await db.updateTable('import_mapping').set({ imm_mapping: remember, imm_usr_id: user.user_id, modified: now }).where('imm_kind', '=', kind).executeTakeFirst();
          if (Number(updated.numUpdatedRows) === 0) await db.insertInto('import_mapping').values({ imm_kind: kind, imm_mapping: remember, imm_usr_id: user.user_id, modified: now }).execute();
        }
        const answer: ImportPreview = {
          import_id: inserted.imp_id, kind, file_name: upload.name, encoding, rows: totals.rows, inserts: totals.inserts, updates: totals.updates,
          skips: totals.skips, ...(totals.groups ? { groups: totals.groups } : {}), summary: importSummary(info, totals, false),
          ...noticed, errors: sink.first, errors_more: totals.errors - sink.first.length, mapping: file.mapping, headers: file.headers,
          imported_before: await committedBefore(kind, stored.sha256),
        };
        return [answer];
      } catch (error) {
        await sink.discard();
        await removeFiles(db, errorsFileId === null ? [stored.id] : [stored.id, errorsFileId]);
        throw error;
      }
    },
  });

  addCall(calls, 'import_commit', {
    handler: async ({ params, user, call }) => {
      const { row, kind, info, handler } = await runOf(params, user, 'write');
      const importId = row.imp_id;
      const state = row.imp_state;
      if (state === 'committed') throw new ApiError(409, IMPORT_MESSAGES.committed);
      if (state === 'failed') throw new ApiError(409, IMPORT_MESSAGES.failed);
      if (state === 'expired' || !(await storedFile(db, row.imp_file_id))) throw new ApiError(409, IMPORT_MESSAGES.expired);
      const errors = row.imp_errors;
      if (errors > 0) throw badRequest(IMPORT_MESSAGES.hasErrors(errors));
      const confirm = (params.confirm_duplicate ?? '').trim();
      if (!['', '0', '1'].includes(confirm)) throw badRequest(MESSAGES.badRequest, { fields: { confirm_duplicate: MESSAGES.badRequest } });
      const before = await committedBefore(kind, row.imp_sha256, importId);
      if (before && confirm !== '1') {
        throw new ApiError(409, IMPORT_MESSAGES.importedBefore(formatDateTime(before.committed), before.user_name || '他のユーザー'), { imported_before: before });
      }
      const mapping = parseJson<Record<string, string>>(row.imp_mapping, {});
      const source = sourceOf(row.imp_file_id!);
      const encoding = row.imp_encoding as ImportEncoding;
      const total = row.imp_rows;
      const job_id = await jobs.start<ImportCommitResult>({
        kind: 'import_commit', scope: kind, params: { import_id: importId, kind }, user,
        work: async ({ id, database: { db: jobDb }, progress }) => {
          const first: ImportError[] = [];
          try {
            return await jobDb.transaction().execute(async (trx) => {
              const live = await trx.selectFrom('import_run').select('imp_state').where('imp_id', '=', importId).executeTakeFirst();
              if (live?.imp_state !== 'preview') throw new ApiError(409, IMPORT_MESSAGES.committed);
              const notices = noticeCollector();
              const run = { trx, actor: { userId: user.user_id, call, user, jobId: id }, dryRun: false, state: new Map<string, unknown>() };
              const { totals } = await runKind({
                info, handler, file: source, encoding, remembered: {}, given: mapping,
                onError: (error) => {
                  if (first.length < 5) first.push(error);
                },
                onNotice: notices.add,
                progress: (done) => progress(done, total),
                run,
              });
              if (totals.errors > 0) {
                const named = first.map((e) => `${e.row} 行目${e.column ? ` ${e.column}` : ''}: ${e.message}`).join(' / ');
                throw badRequest(IMPORT_MESSAGES.changedSince(totals.errors, named));
              }
              const committed = nowIso();
              await trx.updateTable('import_run').set({
                imp_state: 'committed', imp_job_id: id, imp_committed: committed, imp_rows: totals.rows,
                imp_inserts: totals.inserts, imp_updates: totals.updates, imp_skips: totals.skips,
              }).where('imp_id', '=', importId).execute();
              await writeAudit(trx, {
                userId: user.user_id, call, table: 'import_run', recordId: importId, jobId: id,
                changes: {
                  取込: [null, info.label], ファイル名: [null, row.imp_file_name], 追加: [null, totals.inserts], 更新: [null, totals.updates], スキップ: [null, totals.skips],
                },
              });
              return {
                import_id: importId, rows: totals.rows, inserts: totals.inserts, updates: totals.updates, skips: totals.skips,
                ...(totals.groups ? { groups: totals.groups } : {}), summary: importSummary(info, totals, true), ...notices.answer(handler, run),
              };
            });
          } catch (error) {
            // A cancelled commit wrote nothing and may be run again.
            if (error instanceof JobCancelled) throw error;
            const message = error instanceof ApiError ? error.message : MESSAGES.internal;
            await db.updateTable('import_run').set({ imp_state: 'failed', imp_job_id: id, imp_error: message }).where('imp_id', '=', importId).where('imp_state', '=', 'preview').execute();
            throw error;
          }
        },
      });
      await db.updateTable('import_run').set({ imp_job_id: job_id }).where('imp_id', '=', importId).where('imp_job_id', 'is', null).execute();
      return [{ job_id, import_id: importId }];
    },
  });

  addCall(calls, 'import_errors_csv', {
    handler: async ({ params, user }): Promise<FileAnswer> => {
      const { row, info } = await runOf(params, user, 'read');
      const files = database.reader;
      const stored = await storedFile(files, row.imp_file_id);
      if (!stored) throw new ApiError(409, IMPORT_MESSAGES.expired);
      const fileId = stored.sf_id;
      const byRow = await storedErrors(files, row.imp_errors_file_id);
      if (byRow.size === 0) throw badRequest('この取込にエラーはありません。');
      const encoding = row.imp_encoding as ImportEncoding;
      const headers = parseJson<string[]>(row.imp_headers, []);
      const reason = IMPORT_MESSAGES.errorsColumn;
      async function* body(): AsyncGenerator<Buffer> {
        let records: string[][] = [];
        let first = true;
        const out = () => {
          const bytes = encodeCsv(csvRecords(records), encoding, first).bytes;
          first = false;
          records = [];
          return bytes;
        };
        if (info.format === 'fixed') {
          records.push(['行', reason]);
          for (const [r, messages] of byRow) records.push([String(r), neutralise(messages.join(' / '))]);
          yield out();
          return;
        }
        if (headers.length) records.push([...headers, reason]);
        for await (const record of fileRecords(files, fileId, encoding)) {
          const messages = byRow.get(record.row);
          if (!messages) continue;
          records.push([...record.cells, neutralise(messages.join(' / '))]);
          if (records.length >= 500) yield out();
        }
        if (records.length || first) yield out();
      }
      const stamp = fileStamp();
      return {
        file: {
          name: `${info.label}_エラー行_${stamp}.csv`, asciiName: `import_errors_${row.imp_id}_${stamp}.csv`,
          contentType: encoding === 'cp932' ? 'text/csv; charset=Shift_JIS' : 'text/csv; charset=utf-8',
          body: body(), headers: { [CSV_HEADERS.rows]: String(byRow.size) },
        },
      };
    },
  });

  addCall(calls, 'import_lst', {
    handler: async ({ params, user }) => {
      const { kind } = kindOf(params.kind, user, 'read');
      const limit = pageParam(params.n, 10, 100, MESSAGES.badPageSize);
      const rows = await db.selectFrom('import_run').leftJoin('user', 'user.user_id', 'import_run.imp_usr_id')
        .select(['imp_id', 'imp_kind', 'imp_file_name', 'imp_size', 'imp_encoding', 'imp_rows', 'imp_inserts', 'imp_updates', 'imp_skips', 'imp_errors',
          'imp_state', 'imp_error', 'imp_job_id', 'user_name', 'import_run.created', 'imp_committed'])
        .where('imp_kind', '=', kind).orderBy('imp_id', 'desc').limit(limit).execute();
      return rows.map((r): ImportRunInfo => ({
        import_id: r.imp_id, kind: r.imp_kind, file_name: r.imp_file_name, size: r.imp_size, encoding: r.imp_encoding,
        rows: r.imp_rows, inserts: r.imp_inserts, updates: r.imp_updates, skips: r.imp_skips, errors: r.imp_errors,
        state: r.imp_state, error: (r.imp_error ?? ''), job_id: r.imp_job_id === null ? null : r.imp_job_id,
        user_name: (r.user_name ?? ''), created: r.created, committed: (r.imp_committed ?? ''),
      }));
    },
  });

  addCall(calls, 'import_template', {
    handler: async ({ params, user }) => {
      const { kind, info } = kindOf(params.kind, user, 'read');
      const enc = (params.enc ?? '').trim() === 'utf8' ? 'utf8' : 'cp932';
      return csvFile({ name: `${info.label}_テンプレート`, asciiName: `import_${kind}_template`, records: [info.columns.map((c) => c.label)], encoding: enc });
    },
  });
}
