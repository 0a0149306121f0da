/**
 * A processed order's sales slip (issue 12 "From orders"): when an order becomes 処理済 its slip is written in the
 * same transaction through the sales resource's own save (validation, pricing, totals, number, audit rows, the
 * receivable), its lines as the order fixed them (item, name, quantity, unit price, tax class) and the delivery
 * fee as a line of its own (standard rate, at the price the order's totals counted it). Moved back from 処理済,
 * the order's slip is deleted through the sales resource's delete (refused once billed).
 */
import type { Transaction } from 'kysely';
import { formatMoney } from '../../lib/format';
import { moneyTermsOf } from '../../lib/money/totals';
import { feePrice } from '../../lib/orders/totals';
import { orderResource } from '../../lib/resources/order';
import { salesResource } from '../../lib/resources/sales';
import { rateOn } from '../../lib/tax';
import { rowsByIds } from '../db/bulk-write';
import type { Database, ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { storedChildren } from '../resources/children';
import { deleteInTransaction, saveBatch } from '../resources/records';
import type { WriteActor } from '../resources/policy';
import { taxPeriods } from '../tax/rates';

/** The name of the delivery fee's line on a slip. */
export const FEE_LINE_NAME = '送料';

/** The slip's 売上日: the day the goods were delivered (配送日), else the order date. */
export const slipDateOf = (order: ResourceRow): string => String(order.od_delivery_date || order.od_date);

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
 * lines, fee line and agreement check as `slipFromOrder`, one `saveBatch`. Answers the slips' ids in the orders' order.
 * @example await slipsFromOrders(trx, { userId: 1, call: 'seed' }, processedOrders) // [41, 42, …]
 */
export async function slipsFromOrders(trx: Transaction<Database>, actor: WriteActor, orders: readonly ResourceRow[]): Promise<number[]> {
  if (orders.length === 0) return [];
  const orderIds = orders.map((o) => Number(o.od_id));
  const withFee = orders.filter((o) => Number(o.od_delivery_fee ?? 0) !== 0).map((o) => Number(o.od_cl_id));
  const [lines, clients, periods] = await Promise.all([
    storedChildren(trx, orderResource.children!, orderIds),
    rowsByIds(trx, 'client', 'cl_id', withFee, ['cl_id', 'cl_tanka_type', 'cl_kake_ritu', 'cl_kin_kiri', 'cl_zei_kiri', 'cl_zei_ten']),
    taxPeriods(trx),
  ]);
  const entries = orders.map((order) => {
    const orderId = Number(order.od_id);
    const slipLines: Record<string, unknown>[] = (lines.get(orderId) ?? []).map((l) => ({
      it_id: l.odd_it_id, name: l.odd_name, quantity: l.odd_quantity, price: l.odd_price, tax_class: l.odd_tax_class,
    }));
    const fee = Number(order.od_delivery_fee ?? 0);
    if (fee !== 0) {
      const rate = rateOn(periods, 'standard', String(order.od_date)) ?? 0;
      slipLines.push({ name: FEE_LINE_NAME, quantity: 1, price: feePrice(fee, rate, moneyTermsOf(clients.get(Number(order.od_cl_id)))), tax_class: 'standard' });
    }
    const values = { cl_id: order.od_cl_id, date: slipDateOf(order), kind: 'sale', biko: `受注 ${String(order.od_number)}`, lines: slipLines };
    return { values, fixed: { sl_od_id: orderId } };
  });
  const { ids, rows } = await saveBatch(trx, actor, salesResource, entries);
  rows.forEach((slip, i) => {
    const order = orders[i];
    if (Number(slip.sl_total) !== Number(order.od_uriage_total)) {
      throw badRequest(`受注 ${String(order.od_number)}: 売上伝票の合計（${formatMoney(Number(slip.sl_total))}）が受注の合計金額（${formatMoney(Number(order.od_uriage_total))}）と合いません。受注日と配送日の間で税率が変わっていないか確認してください。`);
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
