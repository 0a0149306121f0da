/**
 * The demo company's receivables: after the orders (whose processed ones have their slips) and the payments,
 * every customer's 売掛残高 is re-computed by the ledger (server/sales/ledger.ts), and a few customers with an
 * unpaid balance get a slip entered by hand through the sales save — a 返品 of one unit of what they were last
 * sold, or a 値引 — dated the day after that sale, so the balances stay what the slips and payments say.
 */
import type { Kysely } from 'kysely';
import { addDays } from '../../lib/format';
import { salesResource } from '../../lib/resources/sales';
import type { Database } from '../db/schema';
import { storedChildren, saveBatch, type BulkEntry } from '../resources';
import { recomputeReceivables } from '../sales';

/** How many customers get a hand slip of each kind. */
export const DEMO_HAND_SLIPS = 6;
/** The demo 値引 (tax-inclusive for 内税 customers, as any unit price). */
const DISCOUNT = 500;

/**
 * Re-computes every customer's 売掛残高, then writes the hand slips (返品 and 値引) of customers whose unpaid
 * balance covers them.
 * @example await seedReceivables(db, 1, '2026-11-25')
 */
export async function seedReceivables(db: Kysely<Database>, adminId: number, today: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const clients = await trx.selectFrom('client').select('cl_id').where('deleted', '=', 0).orderBy('cl_id').execute();
    await recomputeReceivables(trx, clients.map((c) => c.cl_id));
    // Each indebted customer's latest slip with an item line: what a return takes back, the day after.
    const latest = await trx.selectFrom('sales as s').innerJoin('client as c', 'c.cl_id', 's.sl_cl_id')
      .select(['s.sl_id', 's.sl_cl_id', 's.sl_date', 's.sl_number'])
      .where('s.deleted', '=', 0).where('s.sl_kind', '=', 'sale').where('s.sl_date', '<', today).where('c.cl_uri_zan', '>=', 3000)
      .where('s.sl_id', '=', (eb) => eb.selectFrom('sales as t').select((t) => t.fn.max('t.sl_id').as('m')).whereRef('t.sl_cl_id', '=', 's.sl_cl_id').where('t.deleted', '=', 0))
      .orderBy('s.sl_cl_id').limit(DEMO_HAND_SLIPS * 2).execute();
    const lines = await storedChildren(trx, salesResource.children!, latest.map((s) => Number(s.sl_id)));
    const entries = latest.map((slip, i): BulkEntry => {
      const date = addDays(String(slip.sl_date), 1) > today ? String(slip.sl_date) : addDays(String(slip.sl_date), 1);
      const item = (lines.get(Number(slip.sl_id)) ?? []).find((l) => l.sld_it_id !== null && Number(l.sld_quantity) > 0);
      if (i % 2 === 0 && item) {
        return { values: { cl_id: slip.sl_cl_id, date, kind: 'return', biko: `${String(slip.sl_number)} の返品（破損）`, lines: [{ it_id: item.sld_it_id, quantity: -1 }] } };
      }
      return { values: { cl_id: slip.sl_cl_id, date, kind: 'discount', biko: '配送遅延のお詫び', lines: [{ name: '値引（配送遅延）', quantity: 1, price: -DISCOUNT, tax_class: 'standard' }] } };
    });
    await saveBatch(trx, { userId: adminId, call: 'seed' }, salesResource, entries, { answer: false });
  });
}
