/**
 * Fewer indexes written per row of a month's regular-delivery generation (20,000 customers moved to their next
 * delivery date, 30,000 orders with their lines and 50,000 audit rows): PostgreSQL writes an entry in every index
 * of a table for each row inserted, and for each row updated whose indexed columns change (`modified` always does).
 * - Indexes no query reads: the job stamps' (`od_job_id`, `odd_job_id`, `log_job_id`, migration 0023). The stamps stay:
 *   a run's rows can still be found; a call that reads them by job brings its index with it.
 * - Sort indexes another index serves once the list orders alike (`listOrder`, `ListDef.sortThen`):
 *   - a reading sorted alone orders like its name, by (reading, name, id) — migration 0018's `(deleted, reading, name,
 *     id)`, so `(deleted, reading, id)` goes (client 会社名カナ・氏名カナ, item 商品名カナ);
 *   - the audit log orders the rows of a sorted user, call or kind of data by time (`sortThen: 'created'`), so
 *     `(deleted, column, created, id)` (migration 0007's for user and call, a new one for the kind of data, which also
 *     serves 「データ」 filtered newest first) replaces `(deleted, column, id)`.
 * - Flags and references that few customers hold are indexed for those only (partial): 代理店 (the `mt_dairiten`
 *   master reads `cl_dairiten_flag = 1`), 請求親顧客 (`cl_parent_id = …`, a NULL for most customers).
 */
import { sql, type Kysely } from 'kysely';

const UNREAD = [
  { index: 'orders_job_idx', table: 'orders', column: 'od_job_id' },
  { index: 'order_detail_job_idx', table: 'order_detail', column: 'odd_job_id' },
  { index: 'audit_log_job_idx', table: 'audit_log', column: 'log_job_id' },
] as const;

const SERVED = [
  { index: 'client_cl_co_name_kana_idx', table: 'client', columns: ['deleted', 'cl_co_name_kana', 'cl_id'] },
  { index: 'client_cl_name_kana_idx', table: 'client', columns: ['deleted', 'cl_name_kana', 'cl_id'] },
  { index: 'item_it_kana_idx', table: 'item', columns: ['deleted', 'it_kana', 'it_id'] },
  { index: 'audit_log_log_user_id_idx', table: 'audit_log', columns: ['deleted', 'log_user_id', 'log_id'] },
  { index: 'audit_log_log_call_idx', table: 'audit_log', columns: ['deleted', 'log_call', 'log_id'] },
  { index: 'audit_log_log_table_idx', table: 'audit_log', columns: ['deleted', 'log_table', 'log_id'] },
] as const;

const PARTIAL = [
  { index: 'client_dairiten_idx', columns: ['cl_dairiten_flag', 'deleted'], where: 'cl_dairiten_flag = 1' },
  { index: 'client_parent_idx', columns: ['cl_parent_id'], where: 'cl_parent_id IS NOT NULL' },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { index } of [...UNREAD, ...SERVED]) await db.schema.dropIndex(index).ifExists().execute();
  await db.schema.createIndex('audit_log_log_table_created_idx').on('audit_log').columns(['deleted', 'log_table', 'created', 'log_id']).execute();
  for (const { index, columns, where } of PARTIAL) {
    await db.schema.dropIndex(index).ifExists().execute();
    await sql`CREATE INDEX ${sql.raw(index)} ON client (${sql.raw(columns.join(', '))}) WHERE ${sql.raw(where)}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { index, columns } of PARTIAL) {
    await db.schema.dropIndex(index).ifExists().execute();
    await db.schema.createIndex(index).on('client').columns([...columns]).execute();
  }
  await db.schema.dropIndex('audit_log_log_table_created_idx').ifExists().execute();
  for (const { index, table, columns } of SERVED) await db.schema.createIndex(index).ifNotExists().on(table).columns([...columns]).execute();
  for (const { index, table, column } of UNREAD) await sql`CREATE INDEX IF NOT EXISTS ${sql.raw(index)} ON ${sql.table(table)} (${sql.ref(column)}) WHERE ${sql.ref(column)} IS NOT NULL`.execute(db);
}
