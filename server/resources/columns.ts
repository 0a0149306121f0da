/**
 * How a resource declaration maps to its table: column names, which columns a list answers,
 * secret columns, the search-text column (docs/architecture.md "Database").
 */
import { columnOf, idColumn, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import { searchKey } from '../../lib/text';
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
}

const STAMPS = ['created', 'modified'];

function listColumns(def: ResourceDef, field: Map<string, FieldDef>): string[] {
  const wanted = new Set([
    idColumn(def),
    ...def.list.columns.map((c) => c.name),
    ...def.list.sortable,
    ...def.list.keyword.map((name) => columnOf(def, name)),
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
    detail: [idColumn(def), ...fieldColumns, 'created', 'modified'],
    list: listColumns(def, field),
    secret: new Set(fieldColumns.filter((c) => field.get(c)!.type === 'secret')),
    field,
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
 * The `{prefix}search` text of a row: `searchKey` of its keyword fields joined by a space.
 * @example searchText(clientResource, { cl_co_name: 'ＡＢＣ商事' }) // 'abc商事'
 */
export function searchText(def: ResourceDef, row: Record<string, Cell | undefined>): string {
  return searchKey(
    def.list.keyword
      .map((name) => row[columnOf(def, name)])
      .filter((v) => v !== null && v !== undefined && v !== '')
      .join(' '),
  );
}
