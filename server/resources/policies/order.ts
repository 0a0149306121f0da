/**
 * 受注: the save writes the order and its lines (`lines` in the postData) in one transaction. The
 * lines' names, unit prices (customer's 単価区分/掛率), tax class and rate (fixed at the order date)
 * and the totals per rate (lib/orders/totals) are derived here; the shipping address, warehouse,
 * payment method and time slot default from the customer; the delivery fee from the shipping
 * prefecture. The status changes only through `order_status` (server/orders/status.ts).
 */
import type { Kysely, Transaction } from 'kysely';
import { formatOrderNumber, DEFAULT_ORDER_NUMBER_FORMAT } from '../../../lib/orders/number';
import { stockIsOut, statusText, type OrderLineInput } from '../../../lib/orders/status';
import { lineAmount, orderTotals, roundingOf, unitPriceFor, type TaxedAmount } from '../../../lib/orders/totals';
import { orderResource, SHIP_PARTS } from '../../../lib/resources/order';
import { defaultDeliveryDate, ORDER_SETTING_ID } from '../../../lib/resources/order-setting';
import { rateOn, type TaxClass } from '../../../lib/tax';
import { resourceView, type Database, type ResourceRow } from '../../db/schema';
import { searchText } from '../columns';
import { badRequest } from '../../http/api-error';
import { nextStamp } from '../../http/clock';
import { deliveryFeeFor } from '../../system/delivery-fee';
import { taxPeriods } from '../../tax/rates';
import { writeAudit } from '../../audit/audit-log';
import type { ResourcePolicy } from '../policy';

/** A line ready to store. */
interface PreparedLine {
  odd_it_id: number;
  odd_name: string;
  odd_quantity: number;
  odd_price: number;
  odd_amount: number;
  odd_tax_class: TaxClass;
  odd_tax_rate: number;
}

const MAX_LINES = 200;

/** The lines a save prepared, handed from beforeSave to afterSave (same input object). */
const preparedLines = new WeakMap<object, PreparedLine[]>();

const lineProblem = (index: number, field: string, message: string) =>
  badRequest(`明細${index + 1}行目: ${message}`, { fields: { [`lines.${index}.${field}`]: message } });

/** A whole number in [min, max] from a form value (full-width digits and commas allowed), else undefined. */
export function integerIn(value: unknown, min: number, max: number): number | undefined {
  const text = String(value ?? '').normalize('NFKC').replaceAll(',', '').trim();
  if (!/^-?\d{1,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n >= min && n <= max ? n : undefined;
}

/** The order settings (/system/orders), with the defaults of a database that has none. */
export async function orderSettings(db: Kysely<Database>): Promise<{ numberFormat: string; skId: string; cutoff: string; htId: string }> {
  const row = await resourceView(db).selectFrom('order_setting').selectAll().where('os_id', '=', ORDER_SETTING_ID).executeTakeFirst();
  return {
    numberFormat: String(row?.os_number_format || DEFAULT_ORDER_NUMBER_FORMAT),
    skId: String(row?.os_sk_id ?? ''),
    cutoff: String(row?.os_cutoff_time || '12:00'),
    htId: String(row?.os_ht_id ?? ''),
  };
}

/** The customer's address (shipping_* when entered, else the main address) as the order's ship_* columns. */
function shippingOf(client: ResourceRow): ResourceRow {
  const hasShipping = Boolean(client.cl_shipping_address || client.cl_shipping_pref || client.cl_shipping_city);
  const mainColumn = (part: string) => (part === 'tel' ? 'cl_tel_1' : `cl_${part}`);
  return Object.fromEntries(SHIP_PARTS.map((part) => [`od_ship_${part}`, String(client[hasShipping ? `cl_shipping_${part}` : mainColumn(part)] ?? '')]));
}

/** Validates the sent lines and fixes their names, prices, classes and rates at the order date. */
async function prepareLines(trx: Transaction<Database>, sent: unknown[], client: ResourceRow, date: string): Promise<PreparedLine[]> {
  if (sent.length > MAX_LINES) throw badRequest(`明細は${MAX_LINES}行までです。`);
  const periods = await taxPeriods(trx);
  const kinKiri = roundingOf(client.cl_kin_kiri);
  const lines: PreparedLine[] = [];
  for (const [i, raw] of sent.entries()) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw lineProblem(i, 'it_id', '明細の形式が正しくありません。');
    const line = raw as OrderLineInput;
    const itemId = integerIn(line.it_id, 1, 2_147_483_647);
    if (itemId === undefined) throw lineProblem(i, 'it_id', '商品を選んでください。');
    const item = await trx.selectFrom('item').select(['it_id', 'it_name', 'it_price', 'it_tax_class']).where('it_id', '=', itemId).where('deleted', '=', 0).executeTakeFirst();
    if (!item) throw lineProblem(i, 'it_id', `商品が見つかりません（ID ${itemId}）。選び直してください。`);
    const quantity = integerIn(line.quantity, -99_999, 99_999);
    if (quantity === undefined || quantity === 0) throw lineProblem(i, 'quantity', '数量は -99999〜99999 の0以外の整数で入力してください。');
    const priceText = String(line.price ?? '').trim();
    const price = priceText === ''
      ? unitPriceFor(Number(item.it_price ?? 0), { tankaType: client.cl_tanka_type, kakeRitu: client.cl_kake_ritu, kinKiri })
      : integerIn(priceText, -9_999_999, 9_999_999);
    if (price === undefined) throw lineProblem(i, 'price', '単価は -9999999〜9999999 の整数で入力してください。');
    const taxClass = (['standard', 'reduced', 'exempt'].includes(String(item.it_tax_class)) ? item.it_tax_class : 'standard') as TaxClass;
    const rate = rateOn(periods, taxClass, date);
    if (rate === undefined) throw lineProblem(i, 'it_id', `受注日（${date}）の消費税率が登録されていません。税率設定を確認してください。`);
    const name = String(line.name ?? '').trim() || String(item.it_name);
    lines.push({ odd_it_id: itemId, odd_name: name.slice(0, 100), odd_quantity: quantity, odd_price: price, odd_amount: lineAmount(quantity, price), odd_tax_class: taxClass, odd_tax_rate: rate });
  }
  return lines;
}

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
const lineSummary = (l: Pick<PreparedLine, 'odd_name' | 'odd_quantity' | 'odd_price' | 'odd_tax_rate'>): string =>
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
    if (!current) {
      if (SHIP_PARTS.every((part) => !columns[`od_ship_${part}`])) Object.assign(derived, shippingOf(client));
      const settings = await orderSettings(trx);
      const fallback: Record<string, string> = { od_sk_id: settings.skId, od_ht_id: settings.htId, od_pm_id: '' };
      for (const [own, theirs] of [['od_sk_id', 'cl_sk_id'], ['od_pm_id', 'cl_pm_id'], ['od_ht_id', 'cl_ht_id']] as const) {
        if (!columns[own]) derived[own] = String(client[theirs] || fallback[own]);
      }
      if (!columns.od_delivery_date) derived.od_delivery_date = defaultDeliveryDate(String(columns.od_date ?? ''), new Date(), settings.cutoff);
    }
    const date = String(row.od_date);
    const lines = sentLines
      ? await prepareLines(trx, sentLines, client, date)
      : current ? await orderLines(trx, Number(current.od_id)) : [];
    if (sentLines) preparedLines.set(input, lines as PreparedLine[]);
    // An order without lines (entered before lines existed, or imported) keeps the total it was given.
    if (lines.length === 0) return derived;
    let fee = columns.od_delivery_fee === undefined ? current?.od_delivery_fee ?? null : columns.od_delivery_fee;
    if (fee === null || fee === '') {
      const pref = String(derived.od_ship_pref ?? row.od_ship_pref ?? '');
      fee = pref ? (await deliveryFeeFor(trx, pref))?.fee ?? 0 : 0;
      derived.od_delivery_fee = fee;
    }
    const feeRate = rateOn(await taxPeriods(trx), 'standard', date) ?? 0;
    const amounts: TaxedAmount[] = lines.map((l) => ({ amount: Number(l.odd_amount), taxClass: l.odd_tax_class as TaxClass, taxRate: Number(l.odd_tax_rate) }));
    if (Number(fee) !== 0) amounts.push({ amount: Number(fee), taxClass: 'standard', taxRate: feeRate });
    const totals = orderTotals(amounts, roundingOf(client.cl_zei_kiri));
    return { ...derived, od_net_total: totals.net, od_tax_total: totals.tax, od_uriage_total: totals.total };
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
