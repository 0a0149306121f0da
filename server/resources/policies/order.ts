/**
 * 受注: the save writes the order and its lines (`lines` in the postData) in one transaction. The
 * lines' names, unit prices (customer's 単価区分/掛率), tax class and rate (fixed at the order date)
 * and the totals per rate (lib/orders/totals) are derived here; the shipping address, warehouse,
 * payment method and time slot default from the customer; the delivery fee from the shipping
 * prefecture. The status changes only through `order_status` (server/orders/status.ts).
 */
import type { Kysely } from 'kysely';
import { formatOrderNumber } from '../../../lib/orders/number';
import { stockIsOut, statusText } from '../../../lib/orders/status';
import { orderResource } from '../../../lib/resources/order';
import { resourceView, type Database, type ResourceRow } from '../../db/schema';
import { searchText } from '../columns';
import { badRequest } from '../../http/api-error';
import { nextStamp } from '../../http/clock';
import { writeAudit } from '../../audit/audit-log';
import { feeOf, lineItemIds, newOrderDefaults, orderSettings, priceLines, pricingBook, totalsOf, type PreparedLine } from '../../orders/pricing';
import type { ResourcePolicy } from '../policy';

/** The lines a save prepared, handed from beforeSave to afterSave (same input object). */
const preparedLines = new WeakMap<object, PreparedLine[]>();

/** The stored lines of an order, in order. */
export async function orderLines(db: Kysely<Database>, orderId: number) {
  return db.selectFrom('order_detail').selectAll().where('odd_od_id', '=', orderId).orderBy('odd_sort').orderBy('odd_id').execute();
}

/**
 * Gives an order its number (the format of the order settings, from its date and id) and keeps its keyword text
 * in step, so the number is found by the list's keyword.
 */
export async function numberOrder(trx: Kysely<Database>, orderId: number): Promise<void> {
  const view = resourceView(trx);
  const row = await view.selectFrom('orders').selectAll().where('od_id', '=', orderId).executeTakeFirstOrThrow();
  const number = formatOrderNumber((await orderSettings(trx)).numberFormat, String(row.od_date), orderId);
  await view.updateTable('orders').set({ od_number: number, od_search: searchText(orderResource, { ...row, od_number: number }) }).where('od_id', '=', orderId).execute();
}

/** A line's text in the audit log, e.g. `天然水 12L ×2 @1,296 (8%)`. */
export const lineSummary = (l: Pick<PreparedLine, 'odd_name' | 'odd_quantity' | 'odd_price' | 'odd_tax_rate'>): string =>
  `${l.odd_name} ×${l.odd_quantity} @${l.odd_price} (${l.odd_tax_rate}%)`;

export const orderPolicy: ResourcePolicy = {
  async beforeSave({ trx, current, columns, input }) {
    const derived: ResourceRow = {};
    const sentLines = Array.isArray(input.lines) ? (input.lines as unknown[]) : undefined;
    if (current) {
      if (columns.od_status !== undefined && columns.od_status !== current.od_status) {
        throw badRequest('状態は状態ボタン（状態の変更）で変えてください。', { fields: { status: '状態は状態ボタンで変えてください。' } });
      }
      if (sentLines && stockIsOut(String(current.od_status))) {
        throw badRequest(`「${statusText(String(current.od_status))}」の受注の明細は変更できません。`);
      }
    } else if (sentLines && sentLines.length > 0 && !['untreated', 'pending', ''].includes(String(columns.od_status ?? ''))) {
      throw badRequest('明細のある受注は「未処理」か「保留」で登録してください。', { fields: { status: '「未処理」か「保留」で登録してください。' } });
    }
    if (!current && !columns.od_status) derived.od_status = 'untreated';
    const row = { ...current, ...columns };
    const client = await trx.selectFrom('client').selectAll().where('cl_id', '=', Number(row.od_cl_id)).executeTakeFirstOrThrow();
    const book = await pricingBook(trx, sentLines ? lineItemIds(sentLines) : []);
    if (!current) Object.assign(derived, newOrderDefaults(book, client, columns, new Date()));
    const date = String(row.od_date);
    const lines = sentLines
      ? priceLines(book, sentLines, client, date)
      : current ? await orderLines(trx, Number(current.od_id)) : [];
    if (sentLines) preparedLines.set(input, lines as PreparedLine[]);
    // An order without lines (entered before lines existed, or imported) keeps the total it was given.
    if (lines.length === 0) return derived;
    let fee = columns.od_delivery_fee === undefined ? current?.od_delivery_fee ?? null : columns.od_delivery_fee;
    if (fee === null || fee === '') {
      fee = feeOf(book, derived.od_ship_pref ?? row.od_ship_pref);
      derived.od_delivery_fee = fee;
    }
    return { ...derived, ...totalsOf(book, client, lines as PreparedLine[], Number(fee), date) };
  },

  async afterSave({ trx, actor, saved, input }) {
    const orderId = Number(saved.od_id);
    const stamp = nextStamp();
    if (!saved.od_number) await numberOrder(trx, orderId);
    const lines = preparedLines.get(input);
    if (!lines) return;
    const before = (await orderLines(trx, orderId)).map(lineSummary);
    const after = lines.map(lineSummary);
    await trx.deleteFrom('order_detail').where('odd_od_id', '=', orderId).execute();
    if (lines.length > 0) {
      await trx.insertInto('order_detail').values(lines.map((l, i) => ({ ...l, odd_od_id: orderId, odd_sort: i + 1, created: stamp }))).execute();
    }
    if (before.join('\n') !== after.join('\n')) {
      await writeAudit(trx, { userId: actor.userId, call: actor.call, table: 'orders', recordId: orderId, at: stamp, changes: { lines: [before.join('\n'), after.join('\n')] } });
    }
  },

  async beforeDelete({ current }) {
    if (stockIsOut(String(current.od_status))) {
      throw badRequest(`「${statusText(String(current.od_status))}」の受注は削除できません。先に状態を戻して在庫を戻してください。`);
    }
  },
};
