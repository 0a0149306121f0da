/**
 * The demo company's orders, priced as orders entered on the screens are (server/orders/pricing.ts: the
 * customer's address, warehouse, payment method and time slot, the lines' prices and tax at the order
 * date, the delivery fee and the totals), numbered in the order settings' format and written in
 * multi-row statements with their lines, in one transaction. Ids follow the order dates.
 */
import type { Kysely } from 'kysely';
import { formatOrderNumber } from '../../lib/orders/number';
import { orderResource } from '../../lib/resources/order';
import { chunksOf, insertMany, reserveIds, rowsByIds } from '../db/bulk-write';
import type { Database, ResourceRow } from '../db/schema';
import { nextStamp } from '../http/clock';
import { PRICING_CLIENT_COLUMNS, priceNewOrder, pricingBook } from '../orders/pricing';
import { searchText } from '../resources/columns';
import { toRow } from './bulk-insert';

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
 * @example const [placed] = await insertSeedOrders(db, [{ clientId: 3, date: '2026-11-20', deliveryDate: '2026-11-24', status: 'shipped', biko: '', lines: [{ it_id: 1, quantity: 2 }] }])
 */
export async function insertSeedOrders(db: Kysely<Database>, plans: readonly OrderPlan[]): Promise<PlacedOrder[]> {
  const now = new Date();
  const order = plans.map((_, i) => i).sort((a, b) => (plans[a].date < plans[b].date ? -1 : plans[a].date > plans[b].date ? 1 : a - b));
  const placed = new Array<PlacedOrder>(plans.length);
  await db.transaction().execute(async (trx) => {
    const clients = await rowsByIds(trx, 'client', 'cl_id', plans.map((p) => p.clientId), ['cl_id', ...PRICING_CLIENT_COLUMNS]);
    const book = await pricingBook(trx, plans.flatMap((p) => p.lines.map((l) => l.it_id)));
    const ids = await reserveIds(trx, 'orders', 'od_id', plans.length);
    const stamp = nextStamp();
    let next = 0;
    for (const chunk of chunksOf(order, 2000)) {
      const orderRows: ResourceRow[] = [];
      const lineRows: ResourceRow[] = [];
      for (const index of chunk) {
        const plan = plans[index];
        const id = ids[next++];
        const base = toRow(orderResource, { cl_id: plan.clientId, date: plan.date, delivery_date: plan.deliveryDate, status: plan.status, biko: plan.biko }, createdOn(plan.date), stamp);
        const { row, lines } = priceNewOrder(book, clients.get(plan.clientId)!, base, plan.lines, now);
        row.od_id = id;
        row.od_number = formatOrderNumber(book.settings.numberFormat, plan.date, id);
        row.od_search = searchText(orderResource, row);
        lines.forEach((line, n) => lineRows.push({ ...line, odd_od_id: id, odd_sort: n + 1, created: stamp }));
        orderRows.push(row);
        placed[index] = { id, number: String(row.od_number), total: Number(row.od_uriage_total), pmId: String(row.od_pm_id ?? '') };
      }
      await insertMany(trx, 'orders', orderRows);
      await insertMany(trx, 'order_detail', lineRows);
    }
  });
  return placed;
}
