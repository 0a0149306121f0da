/**
 * Where a sales slip comes from beside an order (issue 12): a month's server rental (`sl_ag_id` the agreement,
 * `sl_ym` the month YYYYMM — at most one live slip per agreement and month, a partial unique index, so a second
 * run or a concurrent one never bills a month twice) and a bottle movement's deposit (`sl_bt_id` — at most one live
 * slip per movement). Sales slips and their lines carry the id of the job that wrote them (`sl_job_id`,
 * `sld_job_id`), like orders (migration 0023).
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

export async function up(db: Kysely<unknown>, _dialect: DialectName): Promise<void> {
  for (const [table, column, type] of [
    ['sales', 'sl_job_id', 'integer'], ['sales_detail', 'sld_job_id', 'integer'],
    ['sales', 'sl_ag_id', 'integer'], ['sales', 'sl_ym', 'text'], ['sales', 'sl_bt_id', 'integer'],
  ] as const) {
    await db.schema.alterTable(table).addColumn(column, type).execute();
  }
  await sql`CREATE INDEX sales_job_idx ON sales (sl_job_id) WHERE sl_job_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX sales_detail_job_idx ON sales_detail (sld_job_id) WHERE sld_job_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX sales_rental_once_idx ON sales (sl_ag_id, sl_ym) WHERE deleted = 0 AND sl_ag_id IS NOT NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX sales_bottle_once_idx ON sales (sl_bt_id) WHERE deleted = 0 AND sl_bt_id IS NOT NULL`.execute(db);
}
