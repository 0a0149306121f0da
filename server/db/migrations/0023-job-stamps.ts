/**
 * Rows a job writes carry its id (issue 11): `od_job_id` on orders, `odd_job_id` on their lines and
 * `log_job_id` on audit rows (NULL for a call's writes), so a regular-delivery run's orders and its audit
 * rows can be found — and a run undone — later. Partial indexes hold only the stamped rows.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  for (const [table, column] of [['orders', 'od_job_id'], ['order_detail', 'odd_job_id'], ['audit_log', 'log_job_id']] as const) {
    await db.schema.alterTable(table).addColumn(column, 'integer').execute();
    await sql`CREATE INDEX ${sql.raw(`${table}_job_idx`)} ON ${sql.table(table)} (${sql.ref(column)}) WHERE ${sql.ref(column)} IS NOT NULL`.execute(db);
  }
}
