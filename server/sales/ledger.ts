/**
 * The receivables ledger (売掛残高 `cl_uri_zan`): opening balance + Σ live sales slips − Σ live payments of the
 * customer, re-computed in the transaction of every slip and payment write (their policies' afterSave /
 * afterDelete) and of a change of the opening balance, so the credit-limit hold of orders and regular deliveries
 * (server/orders/pricing.ts `creditHoldReason`) reads a true balance. One UPDATE per customer with two indexed
 * sums (`sales (sl_cl_id, deleted, sl_total)`, `payment (deleted, py_cl_id, …)`).
 */
import { sql, type Kysely, type Transaction } from 'kysely';
import { OPEN_ITEMS_MAX, type OpenItem, type OpenSlip, type ReceivableSummary } from '../../lib/resources/sales';
import { billingGroupsOf } from '../clients';
import { chunksOf } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { lockCustomers } from '../stock';

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
  const last = await db.selectFrom('payment').select(['py_id', 'py_date', 'py_amount']).where('py_cl_id', 'in', members).where('deleted', '=', 0)
    .orderBy('py_date', 'desc').orderBy('py_id', 'desc').limit(1).executeTakeFirst();
  const open_items = await openItems(db, group);
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
 * What the group still owes, oldest first. Once it is billed, its latest invoice (by closing date) carries every earlier
 * one's unpaid part (繰越額 = 前回請求額 − 入金額), so it alone stands for what was billed — earlier invoices listed beside it
 * would count a carried balance once per invoice it passed through — followed by the slips not billed yet; the payments
 * not billed yet (every one after the closing: 消込 to the invoice included) pay them in that order. Before the first
 * invoice: every slip, the payments having paid the opening balances first.
 */
async function openItems(db: Kysely<Database>, group: { billingId: number; name: string; members: readonly number[] }): Promise<OpenItem[]> {
  const latest = await db.selectFrom('billing').select(['bl_id', 'bl_number', 'bl_closing_date', 'bl_total'])
    .where('bl_cl_id', '=', group.billingId).where('deleted', '=', 0).orderBy('bl_closing_date', 'desc').orderBy('bl_id', 'desc').limit(1).executeTakeFirst();
  if (!latest) {
    const [paid, opening] = await Promise.all([
      db.selectFrom('payment').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('py_amount'), sql<number>`0`).as('paid'))
        .where('py_cl_id', 'in', group.members).where('deleted', '=', 0).executeTakeFirst(),
      db.selectFrom('client').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('cl_opening_balance'), sql<number>`0`).as('opening'))
        .where('cl_id', 'in', group.members).executeTakeFirst(),
    ]);
    return openSlips(db, group.members, Number(paid?.paid ?? 0) - Number(opening?.opening ?? 0), false);
  }
  const unbilled = await db.selectFrom('payment').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('py_amount'), sql<number>`0`).as('paid'))
    .where('py_cl_id', 'in', group.members).where('deleted', '=', 0).where('py_bli_id', 'is', null).executeTakeFirst();
  const paidSince = Number(unbilled?.paid ?? 0);
  const total = Number(latest.bl_total);
  const invoice: OpenItem[] = total > 0 && total > paidSince
    ? [{ kind: 'invoice', bl_id: Number(latest.bl_id), number: String(latest.bl_number), date: String(latest.bl_closing_date), cl_id: group.billingId, client_name: group.name, total, unpaid: Math.min(total, total - paidSince) }]
    : [];
  return [...invoice, ...(await openSlips(db, group.members, paidSince - total, true))].slice(0, OPEN_ITEMS_MAX);
}

/**
 * The slips of the customers the payments (`forSlips`, what they left after what comes first) do not cover, oldest
 * first, with the part still unpaid; `unbilledOnly`: the slips no invoice holds yet.
 */
async function openSlips(db: Kysely<Database>, members: readonly number[], forSlips: number, unbilledOnly: boolean): Promise<OpenSlip[]> {
  const rows = await sql<{ sl_id: number; sl_number: string; sl_date: string; sl_cl_id: number; sl_total: number; running: number; name: string | null }>`
    SELECT t.sl_id, t.sl_number, t.sl_date, t.sl_cl_id, t.sl_total, t.running, COALESCE(NULLIF(c.cl_co_name, ''), c.cl_name) AS name FROM (
      SELECT sl_id, sl_number, sl_date, sl_cl_id, sl_total, SUM(sl_total) OVER (ORDER BY sl_date, sl_id) AS running
      FROM sales WHERE sl_cl_id IN (${sql.join(members)}) AND deleted = 0${unbilledOnly ? sql` AND sl_bli_id IS NULL` : sql``}) t
    JOIN client c ON c.cl_id = t.sl_cl_id
    WHERE t.running > ${forSlips} AND t.sl_total > 0 ORDER BY t.sl_date, t.sl_id LIMIT ${OPEN_ITEMS_MAX}`.execute(db);
  return rows.rows.map((r) => ({
    kind: 'slip', sl_id: Number(r.sl_id), number: String(r.sl_number), date: String(r.sl_date), cl_id: Number(r.sl_cl_id), client_name: String(r.name ?? ''),
    total: Number(r.sl_total), unpaid: Math.min(Number(r.sl_total), Number(r.running) - forSlips),
  }));
}
