/**
 * Issue 11 (the month's generation): the `(deleted, name, id)` sort indexes of the names that sort by their reading
 * (`FieldDef.reading`: 会社名, 氏名, 商品名) are never read — sorting by such a name orders by the reading, the name and
 * the id (`listOrder`), which migration 0018's `(deleted, reading, name, id)` indexes serve — yet every write of the row
 * maintains them (a regular-delivery run moves 20,000 customers' next delivery date). Dropped; `down` makes them again.
 */
import type { Kysely } from 'kysely';

const UNREAD = [
  { index: 'client_cl_co_name_idx', table: 'client', columns: ['deleted', 'cl_co_name', 'cl_id'] },
  { index: 'client_cl_name_idx', table: 'client', columns: ['deleted', 'cl_name', 'cl_id'] },
  { index: 'item_it_name_idx', table: 'item', columns: ['deleted', 'it_name', 'it_id'] },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { index } of UNREAD) await db.schema.dropIndex(index).ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { index, table, columns } of UNREAD) await db.schema.createIndex(index).ifNotExists().on(table).columns([...columns]).execute();
}
