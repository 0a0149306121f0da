/**
 * Carried invoices (issues 12/13). An invoice's 今回請求額 carries the previous invoice's unpaid part (繰越額 = 前回請求額 −
 * 入金額), so once a customer's next invoice is issued the previous one is settled by it: `bl_carried_by` names the invoice
 * that carries it and its 残額 `bl_open` is 0 — only a customer's latest invoice is open to 消込 and to the open items,
 * and the open amounts of all invoices add up to what is owed (never a carried balance counted once per invoice it passed
 * through). Existing databases: every invoice but each customer's latest (by closing date, then id) is marked carried by
 * the next one.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('billing').addColumn('bl_carried_by', 'integer').execute();
  await sql`CREATE INDEX billing_carried_idx ON billing (bl_carried_by) WHERE bl_carried_by IS NOT NULL`.execute(db);
  await sql`UPDATE billing SET bl_open = 0, bl_carried_by = (
      SELECT n.bl_id FROM billing n WHERE n.bl_cl_id = billing.bl_cl_id AND n.deleted = 0
        AND (n.bl_closing_date > billing.bl_closing_date OR (n.bl_closing_date = billing.bl_closing_date AND n.bl_id > billing.bl_id))
      ORDER BY n.bl_closing_date, n.bl_id LIMIT 1)
    WHERE deleted = 0 AND EXISTS (SELECT 1 FROM billing n WHERE n.bl_cl_id = billing.bl_cl_id AND n.deleted = 0
        AND (n.bl_closing_date > billing.bl_closing_date OR (n.bl_closing_date = billing.bl_closing_date AND n.bl_id > billing.bl_id)))`.execute(db);
}
