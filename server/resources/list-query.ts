/**
 * The list query shared by every `_lst`, `_cnt` and `_pagination` call: parameter checks
 * (n, p, col, odr, kw, postData, cl_id) and the WHERE / ORDER BY they mean (spec §5, DESIGN §3).
 */
import { sql, type Expression, type ExpressionBuilder, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { filterProblemMessage, normalizeFilters, type FilterDef } from '../../lib/filters';
import { jstDayStartIso, nextDay } from '../../lib/format';
import { LIMITS, MESSAGES, type FilterValue } from '../../lib/protocol';
import { fieldOfFilter, filterOf, listFilters } from '../../lib/list/list-state';
import { columnKind, columnOf, idColumn, keyLabel, type ResourceDef } from '../../lib/resources/types';
import { searchTerms } from '../../lib/text';
import { isPostgres } from '../db/bulk-write';
import type { ResourceDatabase, ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { jsonObject, optionalId, type Params } from '../http/params';
import { answerSelection, refTarget, resourceColumns } from './columns';
import type { KeywordMatcher } from './keyword';
import type { RowScope } from './policy';
import { japanToday } from '../http/clock';

export interface ListRequest {
  n: number;
  p: number;
  col: string;
  odr: 'asc' | 'desc';
  /** Keyword terms (search keys), all of which must match. */
  terms: string[];
  filters: Record<string, FilterValue>;
  /** Records pointing at one record: `{ cl_id: 12 }` lists a customer's records (any `ref` field, and `cl_id`). */
  owners: Record<string, number>;
  /** The rows the reader may see at all (the resource policy's `scope`); none: every row. */
  scope?: RowScope;
}

const TIMESTAMPS = new Set(['created', 'modified']);

function integerParam(value: string | undefined, fallback: number, min: number, max: number, message: string): number {
  const text = (value ?? '').trim();
  if (text === '') return fallback;
  if (!/^\d{1,9}$/.test(text)) throw badRequest(message);
  const n = Number(text);
  if (n < min || n > max) throw badRequest(message);
  return n;
}

/** Whether a value compared with a number column is one the column could hold (integers within 32 bits; decimals finite). */
function holdable(kind: 'integer' | 'real', value: FilterValue): boolean {
  const text = String(value).trim();
  if (kind === 'integer' && !/^-?\d{1,10}$/.test(text)) return false;
  if (kind === 'real' && !/^-?\d{1,13}(\.\d{1,6})?$/.test(text)) return false;
  const n = Number(text);
  return kind === 'integer' ? n >= LIMITS.minInteger && n <= LIMITS.maxInteger : Math.abs(n) <= LIMITS.maxDecimal;
}

/**
 * Values compared with a number column (equality, `in`, a number range) must be ones the column could
 * hold: the database would refuse text, a fraction or an overflowing integer with an error.
 */
function checkFilterNumbers(def: ResourceDef, filters: Record<string, FilterValue>): void {
  for (const [name, value] of Object.entries(filters)) {
    const filter = filterOf(def, name);
    if (!filter || (filter.kind !== 'equals' && filter.kind !== 'in' && filter.kind !== 'numberRange')) continue;
    const field = fieldOfFilter(def, filter);
    const kind = field ? columnKind(field) : filter.ref || filter.kind === 'numberRange' ? 'integer' : 'text';
    if (kind === 'text') continue;
    const values = (Array.isArray(value) ? value : [value]).filter((v) => v !== '');
    if (!values.every((v) => holdable(kind, v))) throw badRequest(filterProblemMessage(listFilters(def), 'value', name));
  }
}

/**
 * Checks and parses the list parameters of a call against the resource's declaration
 * (n, p, col, odr, kw, postData, and the owner of the records: `cl_id` or any other `ref` field).
 * @example parseListParams(clientResource, { n: '20', kw: 'ＡＢＣ' }) // { n: 20, p: 1, col: 'cl_id', odr: 'desc', terms: ['abc'], … }
 */
export function parseListParams(def: ResourceDef, params: Params): ListRequest {
  const n = integerParam(params.n, LIMITS.defaultPageSize, 1, LIMITS.maxPageSize, MESSAGES.badPageSize);
  const p = integerParam(params.p, 1, 1, 100_000_000, MESSAGES.badPage);
  const colParam = (params.col ?? '').trim();
  const col = colParam || def.list.defaultSort.col;
  if (!def.list.sortable.includes(col) && col !== def.list.defaultSort.col) throw badRequest(MESSAGES.badSortColumn);
  const odrParam = (params.odr ?? '').trim().toLowerCase();
  if (odrParam && odrParam !== 'asc' && odrParam !== 'desc') throw badRequest(MESSAGES.badSortOrder);
  const odr = (odrParam || (colParam ? 'asc' : def.list.defaultSort.odr)) as 'asc' | 'desc';
  const kw = params.kw ?? '';
  if (kw.length > LIMITS.maxKeyword) throw badRequest(MESSAGES.badKeyword);
  const terms = searchTerms(kw);
  const normalized = normalizeFilters(jsonObject(params.postData, (key) => keyLabel(def, key)), listFilters(def), japanToday());
  if (!normalized.ok) throw badRequest(filterProblemMessage(listFilters(def), normalized.problem, normalized.name));
  checkFilterNumbers(def, normalized.filters);
  const owners: Record<string, number> = {};
  for (const field of def.fields) {
    if (field.type !== 'ref' && field.name !== 'cl_id') continue;
    const id = optionalId(params[field.name]);
    if (id !== undefined) owners[field.name] = id;
  }
  return { n, p, col, odr, terms, filters: normalized.filters, owners };
}

/** The column a filter reads: its declared column, created/modified as is, else `{prefix}{name}`. */
export const filterColumn = (def: ResourceDef, filter: FilterDef): string =>
  filter.column ?? (TIMESTAMPS.has(filter.name) ? filter.name : columnOf(def, filter.name));

type Eb = ExpressionBuilder<ResourceDatabase, string>;

/** The stored phone columns hold digits and '-' only (`toHalfWidthNumber`): their digits contain the typed ones. */
const phoneHas = (column: string, digits: string) => sql<SqlBool>`REPLACE(${sql.ref(column)}, '-', '') LIKE ${`%${digits}%`}`;

/**
 * A `tel` filter: one of its phone columns holds the digits, on the record itself or on the record a `ref`
 * field names (`cl_id.tel_1`). Where every column of a table is a keyword field, its keyword index (whose
 * key drops the hyphens too) narrows the rows first; the ids found each way are one `id IN (… UNION …)`,
 * so the planner starts from them instead of walking every row.
 */
function telCondition(eb: Eb, def: ResourceDef, filter: FilterDef, digits: string, keyword: KeywordMatcher): Expression<SqlBool> {
  const groups = new Map<string, string[]>();
  for (const entry of filter.columns ?? []) {
    const [via, name] = entry.includes('.') ? entry.split('.') : ['', entry];
    groups.set(via, [...(groups.get(via) ?? []), name]);
  }
  const matching = (target: ResourceDef, names: readonly string[]): Expression<SqlBool> => {
    const phones = sql<SqlBool>`(${sql.join(names.map((name) => phoneHas(columnOf(target, name), digits)), sql` OR `)})`;
    return names.every((name) => target.list.keyword.includes(name)) ? eb.and([keyword.condition(target, [digits]), phones]) : phones;
  };
  const id = idColumn(def);
  const found = [...groups].map(([via, names]) => {
    const live = eb.selectFrom(def.table).select(id).where('deleted', '=', 0);
    if (!via) return live.where(() => matching(def, names));
    const field = def.fields.find((f) => f.name === via);
    if (!field) throw new Error(`filter ${filter.name} names an undeclared field ${via}`);
    const target = refTarget(field);
    const owners = eb.selectFrom(target.table).select(idColumn(target)).where((inner) => inner.and([inner('deleted', '=', 0), matching(target, names)]));
    return live.where(columnOf(def, via), 'in', owners);
  });
  return eb(id, 'in', found.slice(1).reduce((all, next) => all.unionAll(next), found[0]));
}

/** A filter's value compared with one column (every kind but `tel`, which reads the resource's phone columns). */
function columnCondition(eb: Eb, column: string, filter: FilterDef, value: FilterValue): Expression<SqlBool> | undefined {
  const pair = Array.isArray(value) ? value : [value];
  switch (filter.kind) {
    case 'dateRange':
    case 'relativeDate': {
      const [from, to] = pair.map(String);
      return TIMESTAMPS.has(column)
        ? eb.and([eb(column, '>=', jstDayStartIso(from)), eb(column, '<', jstDayStartIso(nextDay(to)))])
        : eb.and([eb(column, '>=', from), eb(column, '<=', to)]);
    }
    case 'in':
      return eb(column, 'in', pair.map(String));
    case 'numberRange': {
      const [min, max] = pair;
      const parts: Expression<SqlBool>[] = [];
      if (min !== '' && min !== undefined) parts.push(eb(column, '>=', Number(min)));
      if (max !== '' && max !== undefined) parts.push(eb(column, '<=', Number(max)));
      return parts.length ? eb.and(parts) : undefined;
    }
    default:
      return eb(column, '=', Array.isArray(value) ? String(value[0]) : value);
  }
}

function filterCondition(eb: Eb, def: ResourceDef, filter: FilterDef, value: FilterValue, keyword: KeywordMatcher): Expression<SqlBool> | undefined {
  if (filter.kind === 'tel') return telCondition(eb, def, filter, String(value), keyword);
  const { through } = filter;
  if (!through) return columnCondition(eb, filterColumn(def, filter), filter, value);
  // Through another table: the rows there that match, by the key that names the record (its lines' slip id).
  const rows = eb.selectFrom(through.table).select(through.key).where((inner) => columnCondition(inner, through.column, filter, value) ?? inner.lit(true));
  return eb(through.on ?? idColumn(def), 'in', rows);
}

/**
 * The WHERE of a list: not deleted, the reader's scope, the customer (`cl_id`), the filters and the keyword terms.
 * @example db.selectFrom('client').where((eb) => listCondition(eb, def, request, matcher))
 */
export function listCondition(eb: Eb, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb('deleted', '=', 0)];
  if (request.scope) parts.push(request.scope(eb));
  for (const [field, id] of Object.entries(request.owners)) parts.push(eb(columnOf(def, field), '=', id));
  for (const [name, value] of Object.entries(request.filters)) {
    const filter = filterOf(def, name);
    const condition = filter && filterCondition(eb, def, filter, value, keyword);
    if (condition) parts.push(condition);
  }
  if (request.terms.length) parts.push(keyword.condition(def, request.terms));
  return eb.and(parts);
}

/**
 * ORDER BY col odr, id odr: a stable order for paging. A name with a reading (`FieldDef.reading`) sorts
 * by the reading first, and the reading sorted alone orders like its name (migration 0018 indexes
 * `(deleted, reading, name, id)`); the resource's `list.sortThen` orders the rows equal in the column before the id.
 * @example listOrder(clientResource, { col: 'cl_co_name', odr: 'asc', … }) // [['cl_co_name_kana', 'asc'], ['cl_co_name', 'asc'], ['cl_id', 'asc']]
 * @example listOrder(auditLogResource, { col: 'log_call', odr: 'asc', … }) // [['log_call', 'asc'], ['created', 'asc'], ['log_id', 'asc']]
 */
export function listOrder(def: ResourceDef, request: ListRequest): [string, 'asc' | 'desc'][] {
  const { id, field } = resourceColumns(def);
  if (request.col === id) return [[id, request.odr]];
  const named = field.get(request.col);
  const name = named?.reading ? named : def.fields.find((f) => f.reading !== undefined && columnOf(def, f.reading) === request.col);
  const columns = name?.reading ? [columnOf(def, name.reading), columnOf(def, name.name)] : [request.col];
  const then = def.list.sortThen;
  if (then !== undefined && !columns.includes(then)) columns.push(then);
  return [...columns, id].map((column) => [column, request.odr]);
}

/**
 * The ids of one page, in list order: the query whose plan decides a list's speed (an index walk
 * for the sort, or the keyword index when it narrows the rows).
 */
export function pageIds(view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher) {
  const { id } = resourceColumns(def);
  return pageOrder(def, request, keyword, view.selectFrom(def.table).select(id).where((eb) => listCondition(eb, def, request, keyword)))
    .limit(request.n).offset((request.p - 1) * request.n);
}

/**
 * A list query in list order. COALESCE(c, c) sorts like c but cannot use c's index: when the keyword index
 * narrows the rows it then drives the page. A phone filter is looked up in the keyword index too (its digits are
 * part of the key).
 */
function pageOrder<Q extends { orderBy(expression: RawBuilder<unknown>, direction: 'asc' | 'desc'): Q }>(def: ResourceDef, request: ListRequest, keyword: KeywordMatcher, query: Q): Q {
  const phone = Object.entries(request.filters).some(([name, value]) => filterOf(def, name)?.kind === 'tel' && keyword.narrows(def, [String(value)]));
  const narrowed = (request.terms.length > 0 && keyword.narrows(def, request.terms)) || phone;
  let page = query;
  for (const [column, direction] of listOrder(def, request)) page = page.orderBy(narrowed ? sql`coalesce(${sql.ref(column)}, ${sql.ref(column)})` : sql.ref(column), direction);
  return page;
}

/**
 * One page of a list: the ids are paged first (from an index where possible), then only those rows
 * are read, so deep pages and wide rows stay cheap. Lists never count.
 * @example await selectPage(view, clientResource, parseListParams(clientResource, params), matcher)
 */
export async function selectPage(view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher): Promise<ResourceRow[]> {
  const { id } = resourceColumns(def);
  if (request.p === 1 && isPostgres(view)) {
    // PostgreSQL's first page in one level: the planner plans one scan of the table instead of two (bench/list-profile.ts
    // on 1,000,000 orders: a status list planned in about 0.4 ms instead of 0.7 and ran in 0.16 ms instead of 0.3). Only
    // the page's rows are read whole (no rows are skipped), and the names they refer to are looked up for them alone.
    const first = view.selectFrom(def.table).select(answerSelection(def, 'list')).where((eb) => listCondition(eb, def, request, keyword));
    return await pageOrder(def, request, keyword, first).limit(request.n).execute();
  }
  let query = view
    .selectFrom(def.table)
    .select(answerSelection(def, 'list'))
    .where(`${def.table}.${id}`, 'in', pageIds(view, def, request, keyword));
  for (const [column, direction] of listOrder(def, request)) query = query.orderBy(`${def.table}.${column}`, direction);
  return await query.execute();
}

/**
 * How many rows the list conditions match and the sums of the resource's money `totals` over them (`_sum`):
 * `{ count, [column]: sum }`, one query with `_cnt`'s WHERE.
 * @example await sumMatching(view, orderResource, request, matcher) // { count: 12, od_uriage_total: 93312 }
 */
export async function sumMatching(view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher): Promise<Record<string, number>> {
  const totals = def.list.totals ?? [];
  const row = await view
    .selectFrom(def.table)
    .select((eb) => [eb.fn.countAll<number>().as('count'), ...totals.map((column) => eb.fn.coalesce(eb.fn.sum<number>(column), sql<number>`0`).as(column))])
    .where((eb) => listCondition(eb, def, request, keyword))
    .executeTakeFirstOrThrow();
  return Object.fromEntries(['count', ...totals].map((column) => [column, Number((row as Record<string, unknown>)[column] ?? 0)]));
}

/** How many rows the list conditions match (`_cnt`, `_pagination`). */
export async function countMatching(view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher): Promise<number> {
  const row = await view
    .selectFrom(def.table)
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .where((eb) => listCondition(eb, def, request, keyword))
    .executeTakeFirstOrThrow();
  return row.total;
}
