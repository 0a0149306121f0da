/**
 * The receivables ledger (売掛残高 `cl_uri_zan`): opening balance + Σ live sales slips − Σ live payments of the
 * customer, re-computed in the transaction of every slip and payment write (their policies' afterSave /
 * afterDelete) and of a change of the opening balance, so the credit-limit hold of orders and regular deliveries
 * (server/orders/pricing.ts `creditHoldReason`) reads a true balance. One UPDATE per customer with two indexed
 * sums (`sales (sl_cl_id, deleted, sl_total)`, `payment (deleted, py_cl_id, …)`).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import type { ReceivableSummary } from '../../lib/resources/sales';
import { chunksOf } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { lockCustomers } from '../resources/policies/bottle';

/**
 * Re-computes the customers' 売掛残高, a thousand customers per statement (a rental run's 20,000 slips). The
 * customers' rows are locked first (lowest id first), so two writes for one customer take turns and the second
 * sums what the first committed.
 * @example await recomputeReceivables(trx, [12])
 */
export async function recomputeReceivables(trx: Transaction<Database>, clientIds: readonly unknown[]): Promise<void> {
  const ids = [...new Set(clientIds.map(Number).filter((id) => Number.isInteger(id) && id > 0))].sort((a, b) => a - b);
  await lockCustomers(trx, ids);
  for (const chunk of chunksOf(ids, 1000)) {
    await sql`UPDATE client SET cl_uri_zan = COALESCE(cl_opening_balance, 0)
      + (SELECT COALESCE(SUM(sl_total), 0) FROM sales WHERE sl_cl_id = client.cl_id AND deleted = 0)
      - (SELECT COALESCE(SUM(py_amount), 0) FROM payment WHERE py_cl_id = client.cl_id AND deleted = 0)
      WHERE cl_id IN (${sql.join(chunk)})`.execute(trx);
  }
}

/**
 * The 売掛 summary of a customer (three queries).
 * @example await receivableSummary(db, 12) // { cl_id: 12, balance: 3240, last_payment: { … }, oldest_unpaid: { … } }
 */
export async function receivableSummary(db: Kysely<Database>, clientId: number): Promise<ReceivableSummary | undefined> {
  const client = await db.selectFrom('client').select(['cl_id', 'cl_uri_zan', 'cl_opening_balance']).where('cl_id', '=', clientId).where('deleted', '=', 0).executeTakeFirst();
  if (!client) return undefined;
  const [last, paid] = await Promise.all([
    db.selectFrom('payment').select(['py_id', 'py_date', 'py_amount']).where('py_cl_id', '=', clientId).where('deleted', '=', 0)
      .orderBy('py_date', 'desc').orderBy('py_id', 'desc').limit(1).executeTakeFirst(),
    db.selectFrom('payment').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('py_amount'), sql<number>`0`).as('paid'))
      .where('py_cl_id', '=', clientId).where('deleted', '=', 0).executeTakeFirst(),
  ]);
  // What the payments left for the slips, once the opening balance is paid.
  const forSlips = Number(paid?.paid ?? 0) - Number(client.cl_opening_balance ?? 0);
  const oldest = await sql<{ sl_id: number; sl_number: string; sl_date: string; sl_total: number; running: number }>`
    SELECT sl_id, sl_number, sl_date, sl_total, running FROM (
      SELECT sl_id, sl_number, sl_date, sl_total, SUM(sl_total) OVER (ORDER BY sl_date, sl_id) AS running
      FROM sales WHERE sl_cl_id = ${clientId} AND deleted = 0) t
    WHERE running > ${forSlips} AND sl_total > 0 ORDER BY sl_date, sl_id LIMIT 1`.execute(db);
  const slip = oldest.rows[0];
  return {
    cl_id: clientId,
    balance: Number(client.cl_uri_zan ?? 0),
    last_payment: last ? { py_id: Number(last.py_id), date: String(last.py_date), amount: Number(last.py_amount) } : null,
    oldest_unpaid: slip ? {
      sl_id: Number(slip.sl_id), number: String(slip.sl_number), date: String(slip.sl_date), total: Number(slip.sl_total),
      unpaid: Math.min(Number(slip.sl_total), Number(slip.running) - forSlips),
    } : null,
  };
}
