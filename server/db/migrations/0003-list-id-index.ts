/**
 * `(deleted, id)` indexes: the default list order (newest id first, deleted rows hidden) and
 * counts then read one small index instead of sorting the table.
 */
import type { Kysely } from 'kysely';

const TABLES = [
  { table: 'client', id: 'cl_id' },
  { table: 'orders', id: 'od_id' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { table, id } of TABLES) {
    await db.schema.createIndex(`${table}_deleted_id_idx`).on(table).columns(['deleted', id]).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table } of TABLES) await db.schema.dropIndex(`${table}_deleted_id_idx`).ifExists().execute();
}
