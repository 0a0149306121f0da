/**
 * The demo company's orders, saved through the order's one write path (`saveBatch`, server/resources/records.ts)
 * as a batch: priced as orders entered on the screens are (the customer's address, warehouse, payment method and
 * time slot, the lines' prices and tax at the order date, the delivery fee and the totals), numbered in the order
 * settings' format, with their lines and audit rows, in one transaction. Their past status and `created` (the
 * order date) are the seed's own facts (`fixed`). Ids follow the order dates. The processed ones get their sales
 * slips in the same transaction, through the sales save as an order moved to 処理済 does (`slipsFromOrders`).
 */
import { orderResource } from '../../lib/resources/order';
import { rowsByIds } from '../db/bulk-write';
import { saveBatch, type WriteContext } from '../resources';
import { slipsFromOrders } from '../sales';

/** One demo order to write. */
export interface OrderPlan {
  clientId: number;
  date: string;
  deliveryDate: string;
  status: string;
  biko: string;
  lines: readonly { it_id: number; quantity: number }[];
}

/** A written order: its id, number, total and payment method. */
export interface PlacedOrder {
  id: number;
  number: string;
  total: number;
  pmId: string;
}

/** A demo order's `created`: its order date, JST 10:00. */
const createdOn = (day: string): string => new Date(`${day}T10:00:00+09:00`).toISOString();

/**
 * Writes the planned orders (sorted by date, so ids and numbers follow the dates) with their lines;
 * answers what was written, in the order of `plans`.
 * @example const [placed] = await insertSeedOrders({ db, userId: 1 }, [{ clientId: 3, date: '2026-11-20', deliveryDate: '2026-11-24', status: 'shipped', biko: '', lines: [{ it_id: 1, quantity: 2 }] }])
 */
export async function insertSeedOrders(ctx: Pick<WriteContext, 'db' | 'userId'>, plans: readonly OrderPlan[]): Promise<PlacedOrder[]> {
  const order = plans.map((_, i) => i).sort((a, b) => (plans[a].date < plans[b].date ? -1 : plans[a].date > plans[b].date ? 1 : a - b));
  const placed = new Array<PlacedOrder>(plans.length);
  await ctx.db.transaction().execute(async (trx) => {
    const actor = { userId: ctx.userId, call: 'seed' };
    const { ids } = await saveBatch(trx, actor, orderResource, order.map((index) => {
      const plan = plans[index];
      return {
        values: { cl_id: plan.clientId, date: plan.date, delivery_date: plan.deliveryDate, biko: plan.biko, lines: plan.lines },
        fixed: { od_status: plan.status, created: createdOn(plan.date) },
      };
    }), { answer: false });
    const rows = await rowsByIds(trx, 'orders', 'od_id', ids, ['od_id', 'od_cl_id', 'od_number', 'od_date', 'od_delivery_date', 'od_delivery_fee', 'od_uriage_total', 'od_pm_id', 'od_status']);
    // A processed order has its sales slip, written as 処理済 writes it (server/sales/from-order.ts).
    await slipsFromOrders(trx, actor, ids.map((id) => rows.get(id)!).filter((row) => row.od_status === 'processed'));
    for (const [k, index] of order.entries()) {
      const row = rows.get(ids[k])!;
      placed[index] = { id: ids[k], number: String(row.od_number), total: Number(row.od_uriage_total), pmId: String(row.od_pm_id ?? '') };
    }
  });
  return placed;
}
