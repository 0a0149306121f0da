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
  const orderId = Number(order.od_id);
  const lines = (await storedChildren(trx, orderResource.children!, [orderId])).get(orderId) ?? [];
  const slipLines: Record<string, unknown>[] = lines.map((l) => ({
    it_id: l.odd_it_id, name: l.odd_name, quantity: l.odd_quantity, price: l.odd_price, tax_class: l.odd_tax_class,
  }));
  const fee = Number(order.od_delivery_fee ?? 0);
  if (fee !== 0) {
    const client = await trx.selectFrom('client').select(['cl_tanka_type', 'cl_kake_ritu', 'cl_kin_kiri', 'cl_zei_kiri', 'cl_zei_ten']).where('cl_id', '=', Number(order.od_cl_id)).executeTakeFirst();
    const rate = rateOn(await taxPeriods(trx), 'standard', String(order.od_date)) ?? 0;
    slipLines.push({ name: FEE_LINE_NAME, quantity: 1, price: feePrice(fee, rate, moneyTermsOf(client)), tax_class: 'standard' });
  }
  const values = { cl_id: order.od_cl_id, date: slipDateOf(order), kind: 'sale', biko: `受注 ${String(order.od_number)}`, lines: slipLines };
  const { ids, rows } = await saveBatch(trx, actor, salesResource, [{ values, fixed: { sl_od_id: orderId } }]);
  const slip = rows[0];
  if (Number(slip.sl_total) !== Number(order.od_uriage_total)) {
    throw badRequest(`売上伝票の合計（${formatMoney(Number(slip.sl_total))}）が受注の合計金額（${formatMoney(Number(order.od_uriage_total))}）と合いません。受注日と配送日の間で税率が変わっていないか確認してください。`);
  }
  return ids[0];
}

/**
 * Deletes the live slips a processed order made (the sales policy refuses a billed one).
 * @example await dropOrderSlip(trx, ctx, 12)
 */
export async function dropOrderSlip(trx: Transaction<Database>, actor: WriteActor, orderId: number): Promise<void> {
  const slips = await trx.selectFrom('sales').select('sl_id').where('sl_od_id', '=', orderId).where('deleted', '=', 0).execute();
  for (const slip of slips) await deleteInTransaction(trx, actor, salesResource, Number(slip.sl_id));
}
