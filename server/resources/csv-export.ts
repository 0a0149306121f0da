/**
 * `{r}_csv`: a resource's list as a CSV file — the `_lst` parameters (keyword, filters, sort, owner ids,
 * the reader's row scope), every page, the list's columns or every field, Japanese headers, values as
 * people read them (dates, Japan time, plain yen, the labels of selects and references). Rows are read
 * from the database a page at a time by keyset on the list order, and each page is written only when the
 * client has taken the one before (the answer streams with backpressure), so memory stays flat.
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { formatDate, formatTimestamp } from '../../lib/format';
import { CSV_COLS, CSV_ENCODINGS, CSV_HEADERS, MESSAGES, type CsvCols, type CsvEncoding } from '../../lib/protocol';
import { columnOf, fieldOfColumn, idColumn, labelColumnOf, type FieldDef, type Option, type ResourceDef } from '../../lib/resources/types';
import { writeAudit } from '../audit/audit-log';
import type { FileAnswer, SessionUser } from '../calls/call-table';
import type { AppDatabase } from '../db/connect';
import type { ResourceDatabase, ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import type { Params } from '../http/params';
import { masterOptions } from '../master/plugin';
import { answerSelection } from './columns';
import type { KeywordMatcher } from './keyword';
import { countMatching, listCondition, listOrder, type ListRequest } from './list-query';
import { csvRecords, encodeCsv, neutralise } from './csv-text';

/** How a column's value becomes its cell. */
type CsvValue =
  | { kind: 'text' | 'date' | 'timestamp' | 'number' | 'flag' }
  | { kind: 'options'; options: readonly Option[] }
  | { kind: 'master'; table: string }
  | { kind: 'ref'; labelColumn: string };

export interface CsvColumn {
  /** The answered column the value comes from. */
  column: string;
  /** The Japanese header. */
  label: string;
  value: CsvValue;
}

const STAMP_LABELS: Record<string, string> = { created: '登録日時', modified: '更新日時' };

function valueOfField(def: ResourceDef, field: FieldDef): CsvValue {
  switch (field.type) {
    case 'ref':
      return { kind: 'ref', labelColumn: labelColumnOf(def, field.name) };
    case 'select':
      return field.master ? { kind: 'master', table: field.master } : { kind: 'options', options: field.options ?? [] };
    case 'date':
      return { kind: 'date' };
    case 'datetime':
      return { kind: 'timestamp' };
    case 'money':
    case 'number':
    case 'decimal':
      return { kind: 'number' };
    case 'flag':
      return { kind: 'flag' };
    default:
      return { kind: 'text' };
  }
}

const exported = (field: FieldDef): boolean => field.type !== 'image' && field.type !== 'secret';

/**
 * The columns of a resource's CSV: the list's (`list`), or ID, the list's, every other field and the
 * stamps (`all`); never pictures or secrets.
 * @example csvColumns(orderResource, 'list').map((c) => c.label) // ['受注番号', '受注日', '顧客', '配送日', '状態', '合計金額']
 */
export function csvColumns(def: ResourceDef, cols: CsvCols): CsvColumn[] {
  const out: CsvColumn[] = [];
  const add = (column: CsvColumn) => {
    if (!out.some((c) => c.column === column.column)) out.push(column);
  };
  if (cols === 'all') add({ column: idColumn(def), label: 'ID', value: { kind: 'number' } });
  for (const column of def.list.columns) {
    const field = column.format === 'option' ? fieldOfColumn(def, column) : def.fields.find((f) => columnOf(def, f.name) === column.name);
    if (field && !exported(field)) continue;
    const value: CsvValue = STAMP_LABELS[column.name] || column.format === 'datetime' ? { kind: 'timestamp' }
      : column.format === 'ref' ? { kind: 'ref', labelColumn: `${column.name}_label` }
      : field ? valueOfField(def, field)
      : column.format === 'money' ? { kind: 'number' } : { kind: 'text' };
    add({ column: column.name, label: column.label, value });
  }
  if (cols === 'list') return out;
  for (const field of def.fields.filter(exported)) add({ column: columnOf(def, field.name), label: field.label, value: valueOfField(def, field) });
  for (const [column, label] of Object.entries(STAMP_LABELS)) add({ column, label, value: { kind: 'timestamp' } });
  return out;
}

/** One cell's text; text that people typed is neutralised, numbers the database holds are written as they are. */
function cellOf(column: CsvColumn, row: ResourceRow, masters: ReadonlyMap<string, ReadonlyMap<string, string>>): string {
  const value = row[column.column];
  const { value: how } = column;
  if (how.kind === 'ref') return neutralise(String(row[how.labelColumn] || (value ?? '')));
  if (value === null || value === undefined || value === '') return '';
  switch (how.kind) {
    case 'number':
      return String(value);
    case 'flag':
      return Number(value) === 1 ? '1' : '0';
    case 'date':
      return formatDate(String(value));
    case 'timestamp':
      return formatTimestamp(String(value));
    case 'options':
      return neutralise(how.options.find((o) => o.value === String(value))?.text ?? String(value));
    case 'master':
      return neutralise(masters.get(how.table)?.get(String(value)) ?? String(value));
    default:
      return neutralise(String(value));
  }
}

type Eb = ExpressionBuilder<ResourceDatabase, string>;
type Order = [string, 'asc' | 'desc'][];

/**
 * The rows after `last` in the list order (keyset paging). PostgreSQL sorts NULL after every value,
 * SQLite before, each in its own ORDER BY; the condition follows the dialect's order.
 */
function after(eb: Eb, table: string, order: Order, last: ResourceRow, nullsLargest: boolean): Expression<SqlBool> {
  const [[column, direction], ...rest] = order;
  const ref = `${table}.${column}`;
  const value = last[column];
  const nullsAfter = (direction === 'asc') === nullsLargest;
  const tail = rest.length ? after(eb, table, rest, last, nullsLargest) : undefined;
  if (value === null || value === undefined) {
    const same = tail ? eb.and([eb(ref, 'is', null), tail]) : sql<SqlBool>`1 = 0`;
    return nullsAfter ? same : eb.or([eb(ref, 'is not', null), same]);
  }
  const parts: Expression<SqlBool>[] = [eb(ref, direction === 'asc' ? '>' : '<', value)];
  if (tail) parts.push(eb.and([eb(ref, '=', value), tail]));
  if (nullsAfter) parts.push(eb(ref, 'is', null));
  return eb.or(parts);
}

/** Rows per database page of an export. */
const PAGE_ROWS = 1000;

/** The list's rows in list order, a page at a time, each page read after the last row of the one before. */
async function* listRows(view: Kysely<ResourceDatabase>, nullsLargest: boolean, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher, cols: CsvCols): AsyncGenerator<ResourceRow[]> {
  const order = listOrder(def, request);
  const selection = answerSelection(def, cols === 'all' ? 'detail' : 'list');
  const selected = new Set(selection.filter((s): s is string => typeof s === 'string'));
  const keys = order.map(([column]) => `${def.table}.${column}`).filter((column) => !selected.has(column));
  let last: ResourceRow | undefined;
  for (;;) {
    let query = view
      .selectFrom(def.table)
      .select([...selection, ...keys])
      .where((eb) => (last ? eb.and([listCondition(eb, def, request, keyword), after(eb, def.table, order, last, nullsLargest)]) : listCondition(eb, def, request, keyword)));
    for (const [column, direction] of order) query = query.orderBy(`${def.table}.${column}`, direction);
    const rows = (await query.limit(PAGE_ROWS).execute()) as ResourceRow[];
    if (rows.length) yield rows;
    if (rows.length < PAGE_ROWS) return;
    last = rows[rows.length - 1];
  }
}

const choice = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, message: string): T => {
  const text = (value ?? '').trim();
  if (text === '') return fallback;
  if (!(allowed as readonly string[]).includes(text)) throw badRequest(message);
  return text as T;
};

/** The moment in a file name: Japan time, e.g. 20260401-0930. */
const fileStamp = (): string => formatTimestamp(new Date().toISOString()).replace(/[-:]/g, '').replace(' ', '-').slice(0, 13);

export interface CsvExport {
  view: Kysely<ResourceDatabase>;
  database: AppDatabase;
  keyword: KeywordMatcher;
}

/**
 * Answers `{r}_csv` over the list's request (`_lst`'s parameters and the reader's row scope, as the
 * plugin's `listRequest` makes it; its other parameters checked, its columns' master labels read and the export audit-logged
 * before the first byte).
 * @example await exportCsv(deps, orderResource, ctx, { ...parseListParams(orderResource, ctx.params), scope: undefined })
 */
export async function exportCsv(
  { view, database, keyword }: CsvExport,
  def: ResourceDef,
  { call, params, user }: { call: string; params: Params; user: SessionUser },
  request: ListRequest,
): Promise<FileAnswer> {
  const cols = choice(params.cols, CSV_COLS, 'list', MESSAGES.csvBadCols);
  const encoding: CsvEncoding = choice(params.enc, CSV_ENCODINGS, 'cp932', MESSAGES.csvBadEncoding);
  const columns = csvColumns(def, cols);
  const masters = new Map<string, Map<string, string>>();
  for (const { value } of columns) {
    if (value.kind === 'master' && !masters.has(value.table)) {
      masters.set(value.table, new Map((await masterOptions(database.db, user, value.table)).map((o) => [o.value, o.text])));
    }
  }
  const total = await countMatching(view, def, request, keyword);
  const conditions: Record<string, [null, string]> = {};
  for (const [key, value] of Object.entries({ キーワード: params.kw, 絞り込み条件: params.postData, 並べ替え: `${request.col} ${request.odr}`, 列: cols, 文字コード: encoding, 件数: String(total) })) {
    if (value && value.trim() && value !== '{}') conditions[key] = [null, value];
  }
  await writeAudit(database.db, { userId: user.user_id, call, table: def.table, recordId: null, changes: conditions });

  let replaced = 0;
  const nullsLargest = database.dialect === 'postgres';
  async function* body(): AsyncGenerator<Buffer> {
    let text = csvRecords([columns.map((c) => c.label)]);
    let first = true;
    for await (const rows of listRows(view, nullsLargest, def, request, keyword, cols)) {
      text += csvRecords(rows.map((row) => columns.map((column) => cellOf(column, row, masters))));
      const encoded = encodeCsv(text, encoding, first);
      replaced += encoded.replaced;
      first = false;
      text = '';
      yield encoded.bytes;
    }
    if (first) yield encodeCsv(text, encoding, true).bytes;
  }
  const stamp = fileStamp();
  return {
    file: {
      name: `${def.label}_${stamp}.csv`,
      asciiName: `${def.name}_${stamp}.csv`,
      contentType: encoding === 'cp932' ? 'text/csv; charset=Shift_JIS' : 'text/csv; charset=utf-8',
      body: body(),
      headers: { [CSV_HEADERS.rows]: String(total) },
      trailers: { [CSV_HEADERS.replaced]: () => String(replaced) },
    },
  };
}
