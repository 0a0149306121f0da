/**
 * How a resource declaration maps to its table: column names, which columns a list answers,
 * secret columns, the search-text column (docs/architecture.md "Database").
 */
import { sql, type AliasedRawBuilder } from 'kysely';
import { resourceNamed } from '../../lib/resources';
import { columnOf, idColumn, labelColumnOf, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { searchJoin } from '../../lib/text';
import type { Cell, ResourceRow } from '../db/schema';

export interface ResourceColumns {
  id: string;
  /** `{prefix}search`: never answered. */
  search: string;
  /** Everything a detail answers: id, every field, created, modified. */
  detail: string[];
  /**
   * What a list answers, kept small because every list call pays for each column: the id, the
   * declared list columns, the sortable columns, the keyword fields, created and modified (never
   * pictures or secrets). `_dtl` answers the whole record.
   */
  list: string[];
  /** Secret columns: stored as hashes, answered as ''. */
  secret: Set<string>;
  /** Column → field declaration. */
  field: Map<string, FieldDef>;
  /** `ref` fields by column. */
  refs: Map<string, FieldDef>;
}

const STAMPS = ['created', 'modified'];

function listColumns(def: ResourceDef, field: Map<string, FieldDef>): string[] {
  const wanted = new Set([
    idColumn(def),
    ...def.list.columns.map((c) => c.name),
    ...def.list.sortable,
    ...def.list.keyword.map((name) => columnOf(def, name)),
    // A record picker names the rows it offers by their title fields.
    ...def.titleFields.filter((name) => field.has(columnOf(def, name))).map((name) => columnOf(def, name)),
  ]);
  const answerable = (column: string) => {
    const f = field.get(column);
    return f ? f.type !== 'image' && f.type !== 'secret' : column === idColumn(def);
  };
  return [...[...wanted].filter(answerable), ...STAMPS];
}

const cache = new WeakMap<ResourceDef, ResourceColumns>();

/**
 * The column metadata of a resource (computed once per declaration).
 * @example resourceColumns(clientResource).id // 'cl_id'
 */
export function resourceColumns(def: ResourceDef): ResourceColumns {
  const known = cache.get(def);
  if (known) return known;
  const field = new Map(def.fields.map((f) => [columnOf(def, f.name), f]));
  const fieldColumns = [...field.keys()];
  const columns: ResourceColumns = {
    id: idColumn(def),
    search: `${def.prefix}search`,
    detail: [idColumn(def), ...fieldColumns, ...(def.detailColumns ?? []), 'created', 'modified'],
    list: listColumns(def, field),
    secret: new Set(fieldColumns.filter((c) => field.get(c)!.type === 'secret')),
    field,
    refs: new Map([...field].filter(([, f]) => f.type === 'ref')),
  };
  cache.set(def, columns);
  return columns;
}

/** A stored row as answered: secrets blanked (search and deleted are never selected). */
export function answerRow(def: ResourceDef, row: ResourceRow): ResourceRow {
  const { secret } = resourceColumns(def);
  if (secret.size === 0) return row;
  const out: ResourceRow = { ...row };
  for (const column of secret) if (column in out) out[column] = '';
  return out;
}

/**
 * The `{prefix}search` text of a row: its keyword fields, each a `searchKey`, joined by a space.
 * @example searchText(clientResource, { cl_co_name: 'ＡＢＣ商事', cl_tel_1: '03-1234-5678' }) // 'abc商事 0312345678'
 */
export function searchText(def: ResourceDef, row: Record<string, Cell | undefined>): string {
  return searchJoin(
    def.list.keyword
      .map((name) => row[columnOf(def, name)])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .map(String),
  );
}

/** The resource a `ref` field points at (declarations are checked by the API tests). */
export function refTarget(field: FieldDef): ResourceDef {
  const target = field.ref ? resourceNamed(field.ref) : undefined;
  if (!target) throw new Error(`field ${field.name} refers to an undeclared resource ${String(field.ref)}`);
  return target;
}

/**
 * SQL text naming a record of `def` by its title fields (first non-empty), for the alias `alias`.
 * @example titleSql(clientResource, 'r') // COALESCE(NULLIF(r.cl_co_name, ''), NULLIF(r.cl_name, ''), '')
 */
export function titleSql(def: ResourceDef, alias: string) {
  const { field } = resourceColumns(def);
  const parts = def.titleFields.map((name) => {
    const column = name === 'id' ? idColumn(def) : columnOf(def, name);
    const ref = sql.ref(`${alias}.${column}`);
    return field.get(column)?.type === 'text' || field.get(column)?.type === 'kana' ? sql`NULLIF(${ref}, '')` : sql`CAST(${ref} AS TEXT)`;
  });
  return sql<string>`COALESCE(${sql.join([...parts, sql`''`])})`;
}

/**
 * SQL naming the value of a master-backed select, for a detail: the master row's text (a deleted
 * row's too, so a retired value keeps its name), or the record's name for masters answered from
 * other tables; undefined where the value is its own name (roles) or every value is always offered.
 */
function masterLabelSql(master: string, value: ReturnType<typeof sql.ref>) {
  const byId = (table: string, id: string, name: string) =>
    sql<string>`(SELECT ${sql.ref(`ref_m.${name}`)} FROM ${sql.table(table)} AS ref_m WHERE CAST(${sql.ref(`ref_m.${id}`)} AS TEXT) = ${value})`;
  if (master === 'mt_warehouse') return byId('warehouse', 'sk_id', 'sk_name');
  if (master === 'mt_user') return byId('user', 'user_id', 'user_name');
  if (master === 'mt_returnable_item') return byId('item', 'it_id', 'it_name');
  if (master === 'mt_role' || master.startsWith('mt_log_')) return undefined;
  return sql<string>`(SELECT ref_m.mo_text FROM master_option AS ref_m WHERE ref_m.mo_table = ${master} AND ref_m.mo_value = ${value} ORDER BY ref_m.deleted, ref_m.mo_id DESC LIMIT 1)`;
}

/**
 * What a list or detail selects: its plain columns plus, for each `ref` field, the referenced
 * record's name as `{column}_label` (a correlated subquery on the referenced id); a detail also
 * names the value of each master-backed select the same way, so a form shows a value its master
 * no longer offers.
 * @example view.selectFrom('contact').select(answerSelection(contactResource, 'list'))
 */
export function answerSelection(def: ResourceDef, which: 'list' | 'detail'): (string | AliasedRawBuilder<string, string>)[] {
  const columns = resourceColumns(def);
  const plain = which === 'list' ? columns.list : columns.detail;
  const labels = [...columns.refs]
    .filter(([column]) => plain.includes(column))
    .map(([column, field]) => {
      const target = refTarget(field);
      const name = field.name;
      return sql<string>`(SELECT ${titleSql(target, 'ref_t')} FROM ${sql.table(target.table)} AS ref_t WHERE ref_t.${sql.ref(idColumn(target))} = ${sql.ref(`${def.table}.${column}`)})`.as(
        labelColumnOf(def, name),
      );
    });
  const masterLabels = which === 'list' ? [] : [...columns.field].flatMap(([column, field]) => {
    const label = field.type === 'select' && field.master ? masterLabelSql(field.master, sql.ref(`${def.table}.${column}`)) : undefined;
    return label ? [label.as(labelColumnOf(def, field.name))] : [];
  });
  return [...plainSelection(def, which), ...labels, ...masterLabels];
}

/**
 * The stored columns a list or detail answers, without the names of what they refer to (a reader that names
 * many rows at once looks those up itself, e.g. the CSV export per page).
 * @example plainSelection(orderResource, 'list') // ['orders.od_id', 'orders.od_number', …]
 */
export function plainSelection(def: ResourceDef, which: 'list' | 'detail'): string[] {
  const columns = resourceColumns(def);
  return (which === 'list' ? columns.list : columns.detail).map((c) => (c.includes('.') ? c : `${def.table}.${c}`));
}
