/**
 * `{r}_csv`: a resource's list as a CSV file — the `_lst` parameters (keyword, filters, sort, owner ids,
 * the reader's row scope), every page, the list's columns or every field, Japanese headers, values as
 * people read them (dates, Japan time, plain yen, the labels of selects and references). Rows are read
 * from the database a page at a time by keyset on the list order, and each page is written only when the
 * client has taken the one before (the answer streams with backpressure), so memory stays flat.
 */
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from 'kysely';
import { monthLabel } from '../../lib/format';
import { formatDate, formatTimestamp } from '../../lib/format';
import { CSV_COLS, CSV_ENCODINGS, CSV_HEADERS, MESSAGES, type CsvCols, type CsvEncoding } from '../../lib/protocol';
import { columnOf, fieldOfColumn, idColumn, type ChildDef, type FieldDef, type Option, type ResourceDef } from '../../lib/resources/types';
import { writeAudit } from '../audit/audit-log';
import type { FileAnswer, SessionUser } from '../calls/call-table';
import type { AppDatabase } from '../db/connect';
import type { Database, ResourceDatabase, ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import type { Params } from '../http/params';
import { childColumn, storedChildren } from './children';
import { plainSelection, refTarget, titleSql } from './columns';
import type { KeywordMatcher } from './keyword';
import { countMatching, listCondition, listOrder, type ListRequest } from './list-query';
import { csvRecords, encodeCsv, neutralise } from './csv-text';
import { resourceService } from './registry';
import { nowIso } from '../http/clock';

/** How a column's value becomes its cell. */
type CsvValue =
  | { kind: 'text' | 'date' | 'timestamp' | 'number' | 'flag' | 'month' }
  | { kind: 'options'; options: readonly Option[] }
  | { kind: 'master'; table: string }
  | { kind: 'ref'; target: ResourceDef };

export interface CsvColumn {
  /** The answered column the value comes from. */
  column: string;
  /** The Japanese header. */
  label: string;
  value: CsvValue;
}

const STAMP_LABELS: Record<string, string> = { created: '登録日時', modified: '更新日時' };

function valueOfField(field: FieldDef): CsvValue {
  if (field.format === 'month') return { kind: 'month' };
  switch (field.type) {
    case 'ref':
      return { kind: 'ref', target: refTarget(field) };
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
      : field ? valueOfField(field)
      : column.format === 'money' ? { kind: 'number' } : { kind: 'text' };
    add({ column: column.name, label: column.label, value });
  }
  if (cols === 'list') return out;
  for (const field of def.fields.filter(exported)) add({ column: columnOf(def, field.name), label: field.label, value: valueOfField(field) });
  for (const [column, label] of Object.entries(STAMP_LABELS)) add({ column, label, value: { kind: 'timestamp' } });
  return out;
}

/**
 * The columns of a record's child rows beside its own (`lines`: an order's or a slip's 明細): the row's position, its fields
 * and what the server derives, each header named after the child row (「明細：品名」).
 * @example lineColumns(orderResource.children!).map((c) => c.label)[0] // '明細：行'
 */
export function lineColumns(child: ChildDef): CsvColumn[] {
  const label = (text: string) => `${child.label}：${text}`;
  const out: CsvColumn[] = [{ column: childColumn(child, child.sortField), label: label('行'), value: { kind: 'number' } }];
  for (const field of [...child.fields, ...(child.derived ?? [])].filter(exported)) {
    out.push({ column: childColumn(child, field.name), label: label(field.label), value: valueOfField(field) });
  }
  if (child.derivedFlag) out.push({ column: childColumn(child, child.derivedFlag), label: label('自動行'), value: { kind: 'flag' } });
  return out;
}

/**
 * One row per child row, the record's columns repeated on each (a record without child rows: one row, its child cells empty),
 * read with one query per page of records.
 */
async function withLines(reader: Kysely<Database>, def: ResourceDef, child: ChildDef, rows: readonly ResourceRow[]): Promise<ResourceRow[]> {
  const id = idColumn(def);
  const lines = await storedChildren(reader, child, rows.map((row) => Number(row[id])));
  return rows.flatMap((row) => {
    const own = lines.get(Number(row[id])) ?? [];
    return own.length ? own.map((line) => ({ ...line, ...row })) : [row];
  });
}

/** Names by value: of each master a column shows (`masters`, by code), and of the records a page's `ref` columns name (by column, by id). */
type Names = ReadonlyMap<string, ReadonlyMap<string | number, string>>;

/** One cell's text; text that people typed is neutralised, numbers the database holds are written as they are. */
function cellOf(column: CsvColumn, row: ResourceRow, masters: Names, refs: Names): string {
  const value = row[column.column];
  const { value: how } = column;
  if (how.kind === 'ref') return neutralise(String((value !== null && value !== undefined && refs.get(column.column)?.get(Number(value))) || (value ?? '')));
  if (value === null || value === undefined || value === '') return '';
  switch (how.kind) {
    case 'number':
      return String(value);
    case 'flag':
      return Number(value) === 1 ? '1' : '0';
    case 'date':
      return formatDate(String(value));
    case 'month':
      return monthLabel(String(value));
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
 * The walk of a list in its order, a page at a time after the last row of the page before (keyset paging), as
 * index ranges only: after a last row (v1, v2, id) come the rows with c1 = v1, c2 = v2 and a later id, then those
 * with c1 = v1 and a later c2, then those with a later c1 — each an equality prefix and one bound, so every query
 * starts where the last one stopped. A condition joining them with OR, or a row value, is read by SQLite as a range
 * on c1 alone, which re-reads the rest of c1's group on every page. NULLs come where the dialect sorts them
 * (PostgreSQL after every value, SQLite before), each column's NULLs a range of their own; the id has none.
 */
class Keyset {
  constructor(
    private readonly table: string,
    private readonly order: Order,
    private readonly nullsLargest: boolean,
  ) {}

  /** The ranges holding the rows after `last`, in list order, each as a condition. */
  after(last: ResourceRow): ((eb: Eb) => Expression<SqlBool>)[] {
    const ranges: ((eb: Eb) => Expression<SqlBool>)[] = [];
    for (let k = this.order.length - 1; k >= 0; k -= 1) {
      const [column, direction] = this.order[k];
      const ref = `${this.table}.${column}`;
      const value = last[column];
      const nullsAfter = (direction === 'asc') === this.nullsLargest;
      const isId = k === this.order.length - 1;
      const prefix = (eb: Eb) => this.order.slice(0, k).map(([c]) => (last[c] === null || last[c] === undefined ? eb(`${this.table}.${c}`, 'is', null) : eb(`${this.table}.${c}`, '=', last[c])));
      const range = (bound: (eb: Eb) => Expression<SqlBool>) => ranges.push((eb) => eb.and([...prefix(eb), bound(eb)]));
      if (value === null || value === undefined) {
        if (!nullsAfter) range((eb) => eb(ref, 'is not', null));
        continue;
      }
      range((eb) => eb(ref, direction === 'asc' ? '>' : '<', value));
      if (nullsAfter && !isId) range((eb) => eb(ref, 'is', null));
    }
    return ranges;
  }
}

/** Rows per database page of an export. */
const PAGE_ROWS = 1000;

/** One page of an export: its rows and the names its `ref` columns show. */
interface Page {
  rows: ResourceRow[];
  /** The page's last record (the keyset's position) and whether the page was full (another may follow). */
  last: ResourceRow | undefined;
  full: boolean;
  refs: Names;
}

/**
 * The list's pages in list order, each read after the last row of the one before, with its references' names. The
 * next page is read while the caller writes this one (on PostgreSQL the database works while JavaScript turns rows
 * into CSV); at most two pages are held.
 */
async function* listPages(view: Kysely<ResourceDatabase>, nullsLargest: boolean, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher, cols: CsvCols, columns: readonly CsvColumn[], expand?: (rows: ResourceRow[]) => Promise<ResourceRow[]>): AsyncGenerator<Page> {
  const order = listOrder(def, request);
  const selection = plainSelection(def, cols === 'all' ? 'detail' : 'list');
  const keys = order.map(([column]) => `${def.table}.${column}`).filter((column) => !selection.includes(column));
  const keyset = new Keyset(def.table, order, nullsLargest);
  const names: NameCache = new Map();
  const read = async (last: ResourceRow | undefined): Promise<Page> => {
    const rows: ResourceRow[] = [];
    for (const range of last ? keyset.after(last) : [undefined]) {
      let query = view
        .selectFrom(def.table)
        .select([...selection, ...keys])
        .where((eb) => (range ? eb.and([listCondition(eb, def, request, keyword), range(eb)]) : listCondition(eb, def, request, keyword)));
      for (const [column, direction] of order) query = query.orderBy(`${def.table}.${column}`, direction);
      rows.push(...((await query.limit(PAGE_ROWS - rows.length).execute()) as ResourceRow[]));
      if (rows.length === PAGE_ROWS) break;
    }
    // The keyset continues after the page's last record; its rows (a record's child rows joined) are what is written.
    const written = expand && rows.length ? await expand(rows) : rows;
    return { rows: written, last: rows[rows.length - 1], full: rows.length === PAGE_ROWS, refs: await refNames(view, columns, written, names) };
  };
  const ahead = (last: ResourceRow | undefined): Promise<Page> => {
    const page = read(last);
    page.catch(() => undefined); // a reader that stops early (a cancelled download) leaves it unread: its failure is nobody's
    return page;
  };
  let next: Promise<Page> | undefined = ahead(undefined);
  while (next) {
    const page: Page = await next;
    next = page.full ? ahead(page.last) : undefined;
    if (page.rows.length) yield page;
  }
}

/** Names of the records an export's `ref` columns named so far, per column: read once, not once per page. */
type NameCache = Map<string, Map<number, string>>;

/** Names an export keeps per `ref` column (the oldest read are forgotten first): memory stays bounded. */
const NAMES_KEPT = 20_000;

/**
 * The names of the records a page's `ref` columns hold (integer ids): those the export has not read yet in one query
 * per column (not one subquery per row), the rest from `cache` — a customer of many orders is read once, not on every
 * page. Column → id → the record's title, a deleted record's too (as the lists name it).
 */
async function refNames(view: Kysely<ResourceDatabase>, columns: readonly CsvColumn[], rows: readonly ResourceRow[], cache: NameCache): Promise<Names> {
  const names = new Map<string, Map<number, string>>();
  for (const { column, value } of columns) {
    if (value.kind !== 'ref') continue;
    const known = cache.get(column) ?? new Map<number, string>();
    cache.set(column, known);
    const page = new Map<number, string>();
    const unread: number[] = [];
    for (const row of rows) {
      const ref = row[column];
      if (ref === null || ref === undefined || ref === '') continue;
      const id = Number(ref);
      if (page.has(id)) continue;
      const name = known.get(id);
      page.set(id, name ?? '');
      if (name === undefined) unread.push(id);
    }
    if (unread.length) {
      const id = idColumn(value.target);
      const found = (await view.selectFrom(value.target.table).select([id, titleSql(value.target, value.target.table).as('title')]).where(id, 'in', unread).execute()) as ResourceRow[];
      for (const row of found) {
        const name = String(row.title ?? '');
        page.set(Number(row[id]), name);
        known.set(Number(row[id]), name);
      }
      for (const old of known.keys()) {
        if (known.size <= NAMES_KEPT) break;
        known.delete(old);
      }
    }
    names.set(column, page);
  }
  return names;
}

const choice = <T extends string>(value: string | undefined, allowed: readonly T[], fallback: T, message: string): T => {
  const text = (value ?? '').trim();
  if (text === '') return fallback;
  if (!(allowed as readonly string[]).includes(text)) throw badRequest(message);
  return text as T;
};

/** The moment in a file name: Japan time, e.g. 20260401-0930. */
export const fileStamp = (): string => formatTimestamp(nowIso()).replace(/[-:]/g, '').replace(' ', '-').slice(0, 13);

/** The `enc` parameter of a CSV call: `cp932` (the default) or `utf8`, else 400. */
export const csvEncodingParam = (params: Params): CsvEncoding => choice(params.enc, CSV_ENCODINGS, 'cp932', MESSAGES.csvBadEncoding);

/**
 * A CSV made in memory (a report's rows: the header first) as a file answer, written and encoded as `{r}_csv` writes
 * its pages (cp932 with 〓 for what it cannot hold, or UTF-8 after a BOM), named `{name}_{Japan time}.csv`, its data
 * records counted in `X-Csv-Rows` and the replaced characters in `X-Csv-Replaced` (headers both). Text cells that people
 * typed are the caller's to `neutralise`.
 * @example csvFile({ name: '売上レポート_月別', asciiName: 'salesreport_month', records: [['月', '税抜金額'], ['2026年5月', '1000']], encoding: 'cp932' })
 */
export function csvFile({ name, asciiName, records, encoding }: { name: string; asciiName: string; records: readonly (readonly string[])[]; encoding: CsvEncoding }): FileAnswer {
  const { bytes, replaced } = encodeCsv(csvRecords(records), encoding, true);
  const stamp = fileStamp();
  return {
    file: {
      name: `${name}_${stamp}.csv`,
      asciiName: `${asciiName}_${stamp}.csv`,
      contentType: encoding === 'cp932' ? 'text/csv; charset=Shift_JIS' : 'text/csv; charset=utf-8',
      body: bytes,
      // Known before the first byte here, so both are headers.
      headers: { [CSV_HEADERS.rows]: String(Math.max(0, records.length - 1)), [CSV_HEADERS.replaced]: String(replaced) },
    },
  };
}

/** What a caller other than `{r}_csv` chooses (`download_table`): the columns, child rows, the file's name, the audit's wording. */
export interface CsvExportOptions {
  /** The columns, instead of the `cols` parameter. */
  cols?: CsvCols;
  /** One row per child row (`def.children`), the record's columns repeated. */
  lines?: boolean;
  /** The file's name before the time stamp (Japanese and ASCII), instead of the resource's. */
  name?: { label: string; ascii: string };
  /** The conditions the audit row names, instead of the list's keyword, filters and sort. */
  conditions?: Record<string, string | undefined>;
}

/**
 * Rows of an export with child rows: each matching record's child rows, or one row for a record without any
 * (records + child rows − records having child rows).
 */
async function countWithLines(view: Kysely<ResourceDatabase>, def: ResourceDef, child: ChildDef, request: ListRequest, keyword: KeywordMatcher): Promise<number> {
  const parent = childColumn(child, child.parentField);
  const ids = view.selectFrom(def.table).select(idColumn(def)).where((eb) => listCondition(eb, def, request, keyword));
  const [records, lines] = await Promise.all([
    countMatching(view, def, request, keyword),
    view.selectFrom(child.table).select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>(parent).distinct().as('parents')])
      .where(parent, 'in', ids).executeTakeFirstOrThrow(),
  ]);
  return records + lines.n - lines.parents;
}

const AUDIT_TABLE = 'audit_log';

/**
 * The audit log's export holds the rows there are when it is counted: not its own audit row (written before the first byte),
 * nor those written while it streams, so the file has the rows `X-Csv-Rows` names.
 */
async function upToNow(view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest): Promise<ListRequest> {
  const id = idColumn(def);
  const last = await view.selectFrom(def.table).select((eb) => eb.fn.max(id).as('last')).executeTakeFirst();
  const bound = Number(last?.last ?? 0);
  const { scope } = request;
  return { ...request, scope: (eb) => eb.and([...(scope ? [scope(eb)] : []), eb(`${def.table}.${id}`, '<=', bound)]) };
}

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
  listed: ListRequest,
  options: CsvExportOptions = {},
): Promise<FileAnswer> {
  const request = def.table === AUDIT_TABLE ? await upToNow(view, def, listed) : listed;
  const cols = options.cols ?? choice(params.cols, CSV_COLS, 'list', MESSAGES.csvBadCols);
  const encoding = csvEncodingParam(params);
  const child = options.lines ? def.children : undefined;
  const columns = [...csvColumns(def, cols), ...(child ? lineColumns(child) : [])];
  const masters = new Map<string, Map<string, string>>();
  for (const { value } of columns) {
    if (value.kind === 'master' && !masters.has(value.table)) {
      masters.set(value.table, new Map((await resourceService('masterOptions')(database.db, user, value.table)).map((o) => [o.value, o.text])));
    }
  }
  const total = child ? await countWithLines(view, def, child, request, keyword) : await countMatching(view, def, request, keyword);
  const conditions: Record<string, [null, string]> = {};
  const described = options.conditions ?? { キーワード: params.kw, 絞り込み条件: params.postData, 並べ替え: `${request.col} ${request.odr}`, 列: cols };
  for (const [key, value] of Object.entries({ ...described, 文字コード: encoding, 件数: String(total) })) {
    if (value && value.trim() && value !== '{}') conditions[key] = [null, value];
  }
  await writeAudit(database.db, { userId: user.user_id, call, table: def.table, recordId: null, changes: conditions });

  let replaced = 0;
  const nullsLargest = database.dialect === 'postgres';
  async function* body(): AsyncGenerator<Buffer> {
    let text = csvRecords([columns.map((c) => c.label)]);
    let first = true;
    for await (const { rows, refs } of listPages(view, nullsLargest, def, request, keyword, cols, columns, child && ((rows) => withLines(database.reader, def, child, rows)))) {
      text += csvRecords(rows.map((row) => columns.map((column) => cellOf(column, row, masters, refs))));
      const encoded = encodeCsv(text, encoding, first);
      replaced += encoded.replaced;
      first = false;
      text = '';
      yield encoded.bytes;
    }
    if (first) yield encodeCsv(text, encoding, true).bytes;
  }
  const stamp = fileStamp();
  const name = options.name ?? { label: def.label, ascii: def.name };
  return {
    file: {
      name: `${name.label}_${stamp}.csv`,
      asciiName: `${name.ascii}_${stamp}.csv`,
      contentType: encoding === 'cp932' ? 'text/csv; charset=Shift_JIS' : 'text/csv; charset=utf-8',
      body: body(),
      headers: { [CSV_HEADERS.rows]: String(total) },
      trailers: { [CSV_HEADERS.replaced]: () => String(replaced) },
    },
  };
}
