/**
 * Search keys that fold what staff type (issue 10): every stored `{prefix}search` is re-keyed with the
 * current `searchKey` (hyphens, dashes and spaces dropped, hiragana → katakana, widths folded), so old
 * rows are found like new ones. The keyword indexes follow by themselves: SQLite's FTS5 triggers fire on
 * the column's update, PostgreSQL's trigram index is the column's. Only rows whose key changes are written.
 *
 * And the indexes of sorting a name by its reading (`FieldDef.reading`): `(deleted, reading, name, id)`.
 */
import type { Kysely } from 'kysely';
import { RESOURCES } from '../../../lib/resources';
import { auditLogResource } from '../../../lib/resources/audit-log';
import { auditSearchText } from '../../audit/audit-log';
import { resourceColumns, searchText } from '../../resources';
import { updateTextEach } from '../bulk-write';
import type { Database, ResourceRow } from '../schema';

const CHUNK = 2000;

/** Sort by a name = by its reading, then the name: one index per such sortable name. */
const READING_INDEXES = [
  { table: 'client', id: 'cl_id', name: 'cl_co_name', reading: 'cl_co_name_kana' },
  { table: 'client', id: 'cl_id', name: 'cl_name', reading: 'cl_name_kana' },
  { table: 'item', id: 'it_id', name: 'it_name', reading: 'it_kana' },
  { table: 'user', id: 'user_id', name: 'user_name', reading: 'user_kana' },
] as const;

/**
 * Re-keys the `{prefix}search` column of every resource table (the audit log's from its changed values),
 * reading a chunk of rows at a time and writing only the keys that differ. Columns a later migration adds
 * are left to that migration: only the keyword columns the table has now are read.
 * @example await rekeySearch(db)
 */
export async function rekeySearch(db: Kysely<Database> | Kysely<unknown>): Promise<void> {
  const kdb = db as Kysely<Database>;
  const tables = new Map((await kdb.introspection.getTables()).map((t) => [t.name, new Set(t.columns.map((c) => c.name))]));
  const seen = new Set<string>();
  for (const def of Object.values(RESOURCES)) {
    const present = tables.get(def.table);
    const { id, search } = resourceColumns(def);
    if (seen.has(def.table) || !present?.has(search)) continue;
    seen.add(def.table);
    const keyword = def.list.keyword.map((name) => `${def.prefix}${name}`).filter((column) => present.has(column));
    const keyOf = def === auditLogResource
      ? (row: ResourceRow) => auditSearchText({ log_call: String(row.log_call ?? ''), log_table: String(row.log_table ?? ''), log_changes: String(row.log_changes ?? '') })
      : (row: ResourceRow) => searchText(def, row);
    let after = 0;
    for (;;) {
      const rows = (await kdb
        .selectFrom(def.table as 'client')
        .select([id, search, ...keyword] as 'cl_id'[])
        .where(id as 'cl_id', '>', after)
        .orderBy(id as 'cl_id')
        .limit(CHUNK)
        .execute()) as unknown as ResourceRow[];
      if (rows.length === 0) break;
      after = Number(rows[rows.length - 1][id]);
      const changed = new Map<number, Record<string, string>>();
      for (const row of rows) {
        const key = keyOf(row);
        if (key !== row[search]) changed.set(Number(row[id]), { [search]: key });
      }
      await updateTextEach(kdb, def.table, id, changed);
    }
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rekeySearch(db);
  for (const { table, id, name, reading } of READING_INDEXES) {
    await db.schema.createIndex(`${table}_${name}_reading_idx`).on(table).columns(['deleted', reading, name, id]).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table, name } of READING_INDEXES) await db.schema.dropIndex(`${table}_${name}_reading_idx`).ifExists().execute();
}
