/**
 * What closing (issue 13, server/closing) reads, indexed:
 * - the unbilled slips and payments of a group's customers dated up to a closing date (partial indexes: billed rows,
 *   the bulk of a ledger after a few closings, are not in them, so a closing reads only what it may take);
 * - a billing customer's latest invoice (前回請求額) by closing date.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX sales_unbilled_idx ON sales (sl_cl_id, sl_date) WHERE sl_bli_id IS NULL AND deleted = 0`.execute(db);
  await sql`CREATE INDEX payment_unbilled_idx ON payment (py_cl_id, py_date) WHERE py_bli_id IS NULL AND deleted = 0`.execute(db);
  await db.schema.createIndex('billing_client_date_idx').on('billing').columns(['bl_cl_id', 'bl_closing_date', 'bl_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const index of ['billing_client_date_idx', 'payment_unbilled_idx', 'sales_unbilled_idx']) await sql`DROP INDEX IF EXISTS ${sql.raw(index)}`.execute(db);
}
