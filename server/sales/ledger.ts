/**
 * The receivables ledger (売掛残高 `cl_uri_zan`): opening balance + Σ live sales slips − Σ live payments of the
 * customer, re-computed in the transaction of every slip and payment write (their policies' afterSave /
 * afterDelete) and of a change of the opening balance, so the credit-limit hold of orders and regular deliveries
 * (server/orders/pricing.ts `creditHoldReason`) reads a true balance. One UPDATE per customer with two indexed
 * sums (`sales (sl_cl_id, deleted, sl_total)`, `payment (deleted, py_cl_id, …)`).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { OPEN_ITEMS_MAX, type OpenSlip, type ReceivableSummary } from '../../lib/resources/sales';
import { billingGroupsOf } from '../clients/billing-chain';
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
 * The 売掛 summary of a customer, over its billing group (`billingGroupsOf`: a delivery site's slips are billed to,
 * and paid by, its 請求先): the customer's own balance, the group's, its last payment and its open items. The
 * payments pay the opening balances first, then the slips by date (a window sum); what they leave is open.
 * @example await receivableSummary(db, 12) // { cl_id: 12, balance: 3240, billing: null, last_payment: { … }, oldest_unpaid: { … }, open_items: [ … ] }
 */
export async function receivableSummary(db: Kysely<Database>, clientId: number): Promise<ReceivableSummary | undefined> {
  const client = await db.selectFrom('client').select(['cl_id', 'cl_uri_zan']).where('cl_id', '=', clientId).where('deleted', '=', 0).executeTakeFirst();
  if (!client) return undefined;
  const group = (await billingGroupsOf(db, [clientId])).get(clientId)!;
  const members = group.members;
  const [last, paid, opening] = await Promise.all([
    db.selectFrom('payment').select(['py_id', 'py_date', 'py_amount']).where('py_cl_id', 'in', members).where('deleted', '=', 0)
      .orderBy('py_date', 'desc').orderBy('py_id', 'desc').limit(1).executeTakeFirst(),
    db.selectFrom('payment').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('py_amount'), sql<number>`0`).as('paid'))
      .where('py_cl_id', 'in', members).where('deleted', '=', 0).executeTakeFirst(),
    db.selectFrom('client').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('cl_opening_balance'), sql<number>`0`).as('opening'))
      .where('cl_id', 'in', members).executeTakeFirst(),
  ]);
  // What the payments left for the slips, once the opening balances are paid.
  const forSlips = Number(paid?.paid ?? 0) - Number(opening?.opening ?? 0);
  const open_items = await openSlips(db, members, forSlips);
  return {
    cl_id: clientId,
    balance: Number(client.cl_uri_zan ?? 0),
    billing: members.length > 1 ? { cl_id: group.billingId, name: group.name, balance: group.balance, sites: members.length - 1 } : null,
    last_payment: last ? { py_id: Number(last.py_id), date: String(last.py_date), amount: Number(last.py_amount) } : null,
    oldest_unpaid: open_items[0] ?? null,
    open_items,
  };
}

/**
 * The slips of the customers the payments (`forSlips`, what they left after the opening balances) do not cover,
 * oldest first, with the part still unpaid. Closing (issue 13, server/closing) leaves this as it is for now: an
 * invoice's 今回請求額 carries the previous invoice's unpaid part (繰越額 = 前回請求額 − 入金額), so open invoices
 * (`bl_open` ≠ 0) listed before the unbilled slips would count a carried balance once per invoice it passed through.
 * Which invoices are open is what 消込 (allocation, `bl_allocated` / `bl_open`) decides; once it does, this lists the
 * open invoices, then the slips not billed yet (`sl_bli_id` null). Until then every slip is listed by date, billed or
 * not, and the sum is right either way.
 */
async function openSlips(db: Kysely<Database>, members: readonly number[], forSlips: number): Promise<OpenSlip[]> {
  const rows = await sql<{ sl_id: number; sl_number: string; sl_date: string; sl_cl_id: number; sl_total: number; running: number; name: string | null }>`
    SELECT t.sl_id, t.sl_number, t.sl_date, t.sl_cl_id, t.sl_total, t.running, COALESCE(NULLIF(c.cl_co_name, ''), c.cl_name) AS name FROM (
      SELECT sl_id, sl_number, sl_date, sl_cl_id, sl_total, SUM(sl_total) OVER (ORDER BY sl_date, sl_id) AS running
      FROM sales WHERE sl_cl_id IN (${sql.join(members)}) AND deleted = 0) t
    JOIN client c ON c.cl_id = t.sl_cl_id
    WHERE t.running > ${forSlips} AND t.sl_total > 0 ORDER BY t.sl_date, t.sl_id LIMIT ${OPEN_ITEMS_MAX}`.execute(db);
  return rows.rows.map((r) => ({
    kind: 'slip', sl_id: Number(r.sl_id), number: String(r.sl_number), date: String(r.sl_date), cl_id: Number(r.sl_cl_id), client_name: String(r.name ?? ''),
    total: Number(r.sl_total), unpaid: Math.min(Number(r.sl_total), Number(r.running) - forSlips),
  }));
}
