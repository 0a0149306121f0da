/**
 * Running an import kind over a stored file (server/imports): the header row matched to the kind's columns (labels and
 * synonyms, the remembered or given mapping first; positions for a file without a header row), the records cut into
 * chunks of `CHUNK` rows (never splitting a `groupBy` group) and given to the kind's `apply` inside the caller's ONE
 * transaction, then `finish`. Every problem is written to a sink as it is found (the preview keeps the first ones and
 * writes all to a file), so memory holds a chunk at a time whatever the file's length.
 */
import type { Kysely } from 'kysely';
import { IMPORT_NOTICES_ANSWERED, type ImportAction, type ImportColumn, type ImportCounts, type ImportError, type ImportKindInfo, type ImportNotice, type ImportNotices, type ImportTotals } from '../../lib/imports/kinds';
import { IMPORT_MESSAGES, type ImportEncoding } from '../../lib/imports/messages';
import { searchKey } from '../../lib/text';
import type { Database } from '../db/schema';
import { badRequest } from '../http/api-error';
import { fileRecords, storedBytes, type FileRecord } from './file';
import type { ChunkOutcome, ImportKindHandler, ImportRow, ImportRun } from './kind';

/** Rows given to `apply` at once (a group may make a chunk longer). */
export const CHUNK = 1000;

/** How a header is compared: NFKC, case folded, spaces and dashes dropped (the search key). */
export const headerKey = (text: string): string => searchKey(text.trim());

/** The header → field mapping of a file: field → header text (or `#n` for a column by position), and the file's headers. */
export interface FileMapping {
  headers: string[];
  hasHeader: boolean;
  mapping: Record<string, string>;
}

/**
 * Matches a file's first record to the kind's columns: labels and synonyms, then the remembered mapping (where its
 * headers are in the file), then the given one (its headers must be; '' leaves a column out). A first record matching
 * no column is data when the kind's columns have positions (a file without a header row: columns `#n`, a given `#n`
 * overriding), else the file was read with the wrong encoding (refused naming it). A required column missing is refused
 * naming it.
 * @example mapHeaders(info, ['顧客コード', '会社名'], {}, undefined, 'utf8').mapping // { code: '顧客コード', co_name: '会社名' }
 */
export function mapHeaders(
  info: ImportKindInfo, first: readonly string[], remembered: Readonly<Record<string, string>>, given: Readonly<Record<string, string>> | undefined, encoding: ImportEncoding,
): FileMapping {
  const byKey = new Map<string, ImportColumn>();
  for (const column of info.columns) {
    for (const name of [column.label, ...(column.synonyms ?? [])]) if (!byKey.has(headerKey(name))) byKey.set(headerKey(name), column);
  }
  const headers = first.map((h) => h.trim());
  const mapping: Record<string, string> = {};
  for (const header of headers) {
    const column = byKey.get(headerKey(header));
    if (column && mapping[column.field] === undefined) mapping[column.field] = header;
  }
  const known = (field: string) => info.columns.some((c) => c.field === field);
  const positioned = info.columns.filter((c) => c.position !== undefined);
  const byPositionOnly = Object.values(given ?? {}).every((h) => h === '' || /^#\d+$/.test(h));
  if (Object.keys(mapping).length === 0 && positioned.length > 0 && byPositionOnly) {
    // No header row: the columns by position (`#n`, 1-based), a given `#n` or '' overriding.
    const byPosition: Record<string, string> = Object.fromEntries(positioned.map((c) => [c.field, `#${c.position! + 1}`]));
    for (const [field, header] of Object.entries(given ?? {})) {
      if (!known(field)) throw badRequest(IMPORT_MESSAGES.mappingUnknownField(field), { fields: { mapping: IMPORT_MESSAGES.mappingUnknownField(field) } });
      if (header === '') delete byPosition[field];
      else byPosition[field] = header;
    }
    checkRequired(info, byPosition);
    return { headers: [], hasHeader: false, mapping: byPosition };
  }
  if (Object.keys(mapping).length === 0 && Object.keys(given ?? {}).length === 0) throw badRequest(IMPORT_MESSAGES.noKnownHeader(encoding));
  for (const [field, header] of Object.entries(remembered)) {
    if (!known(field)) continue;
    if (header === '') delete mapping[field];
    else if (headers.includes(header)) mapping[field] = header;
  }
  for (const [field, header] of Object.entries(given ?? {})) {
    const column = info.columns.find((c) => c.field === field);
    if (!column) throw badRequest(IMPORT_MESSAGES.mappingUnknownField(field), { fields: { mapping: IMPORT_MESSAGES.mappingUnknownField(field) } });
    if (header === '') delete mapping[field];
    else if (headers.includes(header.trim())) mapping[field] = header.trim();
    else throw badRequest(IMPORT_MESSAGES.mappingUnknownHeader(column.label, header), { fields: { mapping: IMPORT_MESSAGES.mappingUnknownHeader(column.label, header) } });
  }
  checkRequired(info, mapping);
  return { headers, hasHeader: true, mapping };
}

function checkRequired(info: ImportKindInfo, mapping: Readonly<Record<string, string>>): void {
  const missing = info.columns.filter((c) => c.required && mapping[c.field] === undefined).map((c) => c.label);
  if (missing.length) throw badRequest(IMPORT_MESSAGES.missingColumns(missing));
}

/** Where a column's value is in a record: its index among the headers, or its position. */
function indexesOf(file: FileMapping): [string, number][] {
  return Object.entries(file.mapping).map(([field, header]) => [field, header.startsWith('#') && !file.hasHeader ? Number(header.slice(1)) - 1 : file.headers.indexOf(header)]);
}

export interface RunTotals extends ImportTotals {
  errors: number;
}

/** Counts one action. */
function countAction(counts: ImportCounts, action: ImportAction | undefined): void {
  if (action === 'insert') counts.inserts += 1;
  else if (action === 'update') counts.updates += 1;
  else counts.skips += 1;
}

export interface RunInput {
  info: ImportKindInfo;
  handler: ImportKindHandler;
  run: ImportRun;
  /** The stored file (server/files) and the connection it is read through (not the run's transaction: a reader beside it). */
  file: { db: Kysely<Database>; id: number };
  encoding: ImportEncoding;
  /** The remembered mapping of the kind (preview) or the run's own (commit). */
  remembered: Readonly<Record<string, string>>;
  given?: Readonly<Record<string, string>>;
  /** Hears every problem, in the order found. */
  onError: (error: ImportError) => void;
  /** Hears every notice (a row named beside the counts), in row order. */
  onNotice?: (notice: ImportNotice) => void;
  /** Hears the rows done after each chunk. */
  progress?: (done: number) => Promise<void>;
}

/**
 * Reads the file and runs the kind over it in the caller's transaction (`run.trx`): answers the file's mapping and the
 * totals (errored rows are not counted as inserts, updates or skips).
 */
export async function runKind(input: RunInput): Promise<{ file: FileMapping; totals: RunTotals }> {
  const { info, handler, run, onError } = input;
  const totals: RunTotals = { rows: 0, inserts: 0, updates: 0, skips: 0, errors: 0, ...(info.groupBy ? { groups: { inserts: 0, updates: 0, skips: 0 } } : {}) };
  const report = (error: ImportError) => {
    totals.errors += 1;
    onError(error);
  };
  let chunk: ImportRow[] = [];
  /** Problems of records among the chunk's (a wrong number of cells), reported with the chunk's in row order. */
  let shapes: ImportError[] = [];
  const flush = async () => {
    const rows = chunk;
    const found = shapes;
    chunk = [];
    shapes = [];
    const outcome: ChunkOutcome = rows.length ? await handler.apply(run, rows) : { actions: [], errors: [] };
    const errored = new Set<number>();
    for (const error of [...found, ...outcome.errors].sort((a, b) => a.row - b.row)) {
      errored.add(error.row);
      report(error);
    }
    for (const [i, row] of rows.entries()) {
      if (errored.has(row.row)) continue;
      countAction(totals, outcome.actions[i]);
    }
    for (const notice of outcome.notices ?? []) input.onNotice?.(notice);
    // A group (an order's consecutive lines) counts once, by its first row's action, unless one of its rows has an error.
    if (totals.groups && info.groupBy) {
      const key = info.groupBy;
      for (let start = 0; start < rows.length;) {
        let end = start + 1;
        while (end < rows.length && rows[end].values[key] === rows[start].values[key] && rows[start].values[key] !== '') end += 1;
        if (!rows.slice(start, end).some((row) => errored.has(row.row))) countAction(totals.groups, outcome.actions[start]);
        start = end;
      }
    }
    await input.progress?.(totals.rows);
  };
  const push = async (row: ImportRow) => {
    totals.rows += 1;
    const last = chunk[chunk.length - 1];
    if (chunk.length >= CHUNK && (!info.groupBy || !last || last.values[info.groupBy] !== row.values[info.groupBy])) await flush();
    chunk.push(row);
  };

  let file: FileMapping;
  if (info.format === 'fixed') {
    if (!handler.records) throw new Error(`import kind ${info.label}: a fixed-format kind needs records()`);
    file = { headers: [], hasHeader: false, mapping: {} };
    for (const row of handler.records(await storedBytes(input.file))) await push(row);
  } else {
    let indexes: [string, number][] | undefined;
    let mapped: FileMapping | undefined;
    for await (const record of fileRecords(input.file.db, input.file.id, input.encoding)) {
      if (!mapped) {
        mapped = mapHeaders(info, record.cells, input.remembered, input.given, input.encoding);
        indexes = indexesOf(mapped);
        if (mapped.hasHeader) continue;
      }
      const problem = shapeProblem(mapped, record);
      if (problem) {
        totals.rows += 1;
        shapes.push({ row: record.row, column: '', message: problem });
        continue;
      }
      const values: Record<string, string> = {};
      for (const [field, index] of indexes!) values[field] = (record.cells[index] ?? '').trim();
      await push({ row: record.row, values });
    }
    if (!mapped) throw badRequest(IMPORT_MESSAGES.empty);
    file = mapped;
  }
  await flush();
  if (totals.rows === 0) throw badRequest(IMPORT_MESSAGES.empty);
  for (const error of (await handler.finish?.(run)) ?? []) report(error);
  return { file, totals };
}

/** A record whose cells do not line up with the header row (a row error; the file's other rows are still read). */
function shapeProblem(file: FileMapping, record: FileRecord): string | undefined {
  if (file.hasHeader && record.cells.length !== file.headers.length) return IMPORT_MESSAGES.columnCount(file.headers.length, record.cells.length);
  return undefined;
}

/**
 * Keeps the first notices of a run for its answer (`IMPORT_NOTICES_ANSWERED`), counting the rest; `answer` adds the
 * handler's link to their records — the same for the preview and the commit's result.
 */
export function noticeCollector() {
  const kept: ImportNotice[] = [];
  let more = 0;
  return {
    add: (notice: ImportNotice): void => {
      if (kept.length < IMPORT_NOTICES_ANSWERED) kept.push(notice);
      else more += 1;
    },
    answer: (handler: ImportKindHandler, run: ImportRun): ImportNotices => {
      if (kept.length === 0) return {};
      const link = handler.noticeLink?.(run);
      return { notices: kept, notices_more: more, ...(link ? { notice_link: link } : {}) };
    },
  };
}
