/**
 * A processed order's sales slip (issue 12 "From orders"): when an order becomes 処理済 its slip is written in the
 * same transaction through the sales resource's own save (validation, pricing, totals, number, audit rows, the
 * receivable), its lines as the order fixed them (item, name, quantity, unit price, tax class) — the delivery fee's
 * line among them (no item, 送料, standard: lib/orders/totals `feeLine`), so both sum the same lines. Moved back from 処理済,
 * the order's slip is deleted through the sales resource's delete (refused once billed).
 */
import type { Transaction } from 'kysely';
import { formatMoney } from '../../lib/format';
import { orderResource } from '../../lib/resources/order';
import { salesResource } from '../../lib/resources/sales';
import { rowsByIds } from '../db/bulk-write';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { storedChildren, deleteInTransaction, saveBatch, type WriteActor } from '../resources';

/** The slip's 売上日: the day the goods were delivered (配送日), else the order date. */
export const slipDateOf = (order: ResourceRow): string => String(order.od_delivery_date || order.od_date);

/** The order's field the slip's 売上日 comes from: 配送日, else 受注日 (a refusal about the date is shown there). */
const dateFieldOf = (order: ResourceRow): string => (order.od_delivery_date ? 'delivery_date' : 'date');

/**
 * A refusal of the slip's save as the order's: what it says about the slip's date (`date`, 売上日) is said of the order's
 * field it came from — 配送日, not 受注日 (issue 19).
 */
function asOrderRefusal(error: unknown, order: ResourceRow): unknown {
  if (!(error instanceof ApiError) || typeof error.extra.fields !== 'object' || error.extra.fields === null) return error;
  const fields = error.extra.fields as Record<string, unknown>;
  if (!('date' in fields)) return error;
  const { date, ...rest } = fields;
  return new ApiError(error.status, error.message, { ...error.extra, fields: { ...rest, [dateFieldOf(order)]: date } });
}

/**
 * Writes the processed order's sales slip; refuses (nothing written) when the slip would not agree with the order
 * to the yen — a tax rate changed between the order date and the delivery date.
 * @example await slipFromOrder(trx, ctx, order) // 41 (the slip's id)
 */
export async function slipFromOrder(trx: Transaction<Database>, actor: WriteActor, order: ResourceRow): Promise<number> {
  return (await slipsFromOrders(trx, actor, [order]))[0];
}

/**
 * The slips of many processed orders in one batch of the sales save (the demo company's past orders): the same
 * lines and agreement check as `slipFromOrder`, one `saveBatch`. Answers the slips' ids in the orders' order.
 * @example await slipsFromOrders(trx, { userId: 1, call: 'seed' }, processedOrders) // [41, 42, …]
 */
export async function slipsFromOrders(trx: Transaction<Database>, actor: WriteActor, orders: readonly ResourceRow[]): Promise<number[]> {
  if (orders.length === 0) return [];
  const lines = await storedChildren(trx, orderResource.children!, orders.map((o) => Number(o.od_id)));
  const entries = orders.map((order) => {
    const orderId = Number(order.od_id);
    // Every line as the order fixed it, its fee line (no item, 送料, standard) included.
    const slipLines = (lines.get(orderId) ?? []).map((l) => ({
      it_id: l.odd_it_id, name: l.odd_name, quantity: l.odd_quantity, price: l.odd_price, tax_class: l.odd_tax_class,
    }));
    const values = { cl_id: order.od_cl_id, date: slipDateOf(order), kind: 'sale', biko: `受注 ${String(order.od_number)}`, lines: slipLines };
    return { values, fixed: { sl_od_id: orderId } };
  });
  // The slips' totals in one read (not each slip's whole answer): what the agreement check needs.
  const { ids } = await saveBatch(trx, actor, salesResource, entries, { answer: false }).catch((error: unknown) => {
    throw orders.length === 1 ? asOrderRefusal(error, orders[0]) : error;
  });
  const totals = await rowsByIds(trx, 'sales', 'sl_id', ids, ['sl_id', 'sl_total']);
  ids.forEach((slipId, i) => {
    const order = orders[i];
    const slip = totals.get(slipId)!;
    if (Number(slip.sl_total) !== Number(order.od_uriage_total)) {
      const message = `受注 ${String(order.od_number)}: 売上伝票の合計（${formatMoney(Number(slip.sl_total))}）が受注の合計金額（${formatMoney(Number(order.od_uriage_total))}）と合いません。受注日と配送日の間で税率が変わっていないか確認してください。`;
      throw badRequest(message, { fields: { [dateFieldOf(order)]: message } });
    }
  });
  return ids;
}

/**
 * Deletes the live slips a processed order made (the sales policy refuses a billed one).
 * @example await dropOrderSlip(trx, ctx, 12)
 */
export async function dropOrderSlip(trx: Transaction<Database>, actor: WriteActor, orderId: number): Promise<void> {
  const slips = await trx.selectFrom('sales').select('sl_id').where('sl_od_id', '=', orderId).where('deleted', '=', 0).execute();
  for (const slip of slips) await deleteInTransaction(trx, actor, salesResource, Number(slip.sl_id));
}
