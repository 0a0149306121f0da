/**
 * An order's derived values, one set of rules for an order entered on the screen (the order policy)
 * and for the orders a regular-delivery run creates in bulk (server/hod/generate.ts): the defaults
 * from the customer (shipping address, warehouse, payment method, time slot, delivery date), the
 * lines' names, unit prices (単価区分/掛率), tax class and rate fixed at the order date, the delivery
 * fee of the shipping prefecture as the order's fee line, and the totals per rate of all the lines (lib/money/totals).
 *
 * What the rules read from the database is loaded once into a `PricingBook` (four small queries);
 * everything else here is pure, so pricing a thousand orders costs what pricing one does.
 */
import type { Kysely } from 'kysely';
import { formatMoney } from '../../lib/format';
import { DEFAULT_ORDER_NUMBER_FORMAT } from '../../lib/orders/number';
import { feeIn, shippingOf, type DeliveryFee } from '../../lib/orders/delivery-fee';
import { priceLineOf, type ItemPricing, type LineInput, type LineProblem, type PricedLine } from '../../lib/money/lines';
import { moneyTermsOf, slipTotals, type MoneyTerms } from '../../lib/money/totals';
import { feeLine } from '../../lib/orders/totals';
import { orderResource, SHIP_PARTS } from '../../lib/resources/order';
import { defaultDeliveryDate, ORDER_SETTING_ID } from '../../lib/resources/order-setting';
import { rateOn, taxClassOf, type TaxClass, type TaxPeriod } from '../../lib/tax';
import type { BillingGroup } from '../clients';
import { resourceView, type Database, type ResourceRow } from '../db/schema';
import { childProblem } from '../resources';
import { liveDeliveryFees } from '../system';
import { taxPeriods } from '../tax';
import { cellText } from '../../lib/resources/checks';

const LINES = orderResource.children;

/** A line ready to store. */
export type PreparedLine = {
  odd_it_id: number;
  odd_name: string;
  odd_quantity: number;
  odd_price: number;
  odd_amount: number;
  odd_tax_class: TaxClass;
  odd_tax_rate: number;
  /** 0: a typed line (1 is the delivery fee's line, `feeLineRow`). */
  odd_fee: 0;
};

export interface OrderSettings {
  numberFormat: string;
  skId: string;
  cutoff: string;
  htId: string;
}

/** What pricing reads from the database, loaded once. */
export interface PricingBook {
  settings: OrderSettings;
  periods: TaxPeriod[];
  /** The live items among those asked for, by id. */
  items: Map<number, ItemPricing>;
  /** The live delivery fees by prefecture code. */
  fees: Map<string, DeliveryFee>;
  /** The live warehouses out of use (使用停止), id → name: never a new order's warehouse. */
  retired: Map<string, string>;
}

/** The order settings (/system/orders), with the defaults of a database that has none. */
export async function orderSettings(db: Kysely<Database>): Promise<OrderSettings> {
  const row = await resourceView(db).selectFrom('order_setting').selectAll().where('os_id', '=', ORDER_SETTING_ID).executeTakeFirst();
  return {
    numberFormat: String(row?.os_number_format || DEFAULT_ORDER_NUMBER_FORMAT),
    skId: String(row?.os_sk_id ?? ''),
    cutoff: String(row?.os_cutoff_time || '12:00'),
    htId: String(row?.os_ht_id ?? ''),
  };
}

/**
 * Loads the settings, tax periods, delivery fees and the given items (four queries).
 * @example const book = await pricingBook(trx, [3, 7])
 */
export async function pricingBook(db: Kysely<Database>, itemIds: readonly number[]): Promise<PricingBook> {
  const ids = [...new Set(itemIds)];
  const [settings, periods, fees, rows, retired] = await Promise.all([
    orderSettings(db),
    taxPeriods(db),
    liveDeliveryFees(db),
    ids.length === 0 ? [] : db.selectFrom('item').select(['it_id', 'it_name', 'it_price', 'it_tax_class']).where('it_id', 'in', ids).where('deleted', '=', 0).execute(),
    db.selectFrom('warehouse').select(['sk_id', 'sk_name']).where('deleted', '=', 0).where('sk_active', '=', 0).execute(),
  ]);
  const items = new Map(rows.map((r) => [r.it_id, { name: r.it_name, price: (r.it_price ?? 0), taxClass: taxClassOf(r.it_tax_class) }]));
  return { settings, periods, fees, items, retired: new Map(retired.map((w) => [String(w.sk_id), w.sk_name])) };
}

/** The customer's columns the rules read (`shippingOf`, `newOrderDefaults`, `priceLines`, `totalsOf`, the credit limit). */
export const PRICING_CLIENT_COLUMNS: readonly string[] = [
  ...SHIP_PARTS.flatMap((part) => [`cl_shipping_${part}`, part === 'tel' ? 'cl_tel_1' : `cl_${part}`]),
  'cl_sk_id', 'cl_pm_id', 'cl_ht_id', 'cl_tanka_type', 'cl_kake_ritu', 'cl_kin_kiri', 'cl_zei_kiri', 'cl_zei_ten', 'cl_yoshin_gendo', 'cl_uri_zan',
];

/**
 * A new order's defaults for what it was not given: the shipping address, warehouse, payment method and
 * time slot (the customer's, else the order settings'), and the delivery date (by the cut-off time). A warehouse
 * out of use (使用停止) is passed over: the settings' next, else none.
 */
export function newOrderDefaults(book: PricingBook, client: ResourceRow, columns: ResourceRow, now: Date): ResourceRow {
  const derived: ResourceRow = {};
  if (SHIP_PARTS.every((part) => !columns[`od_ship_${part}`])) Object.assign(derived, shippingOf(client));
  const fallback: Record<string, string> = { od_sk_id: book.settings.skId, od_ht_id: book.settings.htId, od_pm_id: '' };
  const usable = (value: unknown, own: string): string => (own === 'od_sk_id' && book.retired.has(String(value)) ? '' : cellText(value ?? ''));
  for (const [own, theirs] of [['od_sk_id', 'cl_sk_id'], ['od_pm_id', 'cl_pm_id'], ['od_ht_id', 'cl_ht_id']] as const) {
    if (!columns[own]) derived[own] = usable(client[theirs], own) || usable(fallback[own], own);
  }
  if (!columns.od_delivery_date) derived.od_delivery_date = defaultDeliveryDate(String(columns.od_date ?? ''), now, book.settings.cutoff);
  return derived;
}

/**
 * One line of a slip (an order, a sales slip) priced at its date with the customer's terms: the one line computation
 * (lib/money/lines `priceLineOf`, which the forms run live) with the item from the book. Answers the problem (field,
 * message) when the item is gone or the date has no rate.
 * @example priceLine(book, terms, { itemId: 3, name: '', quantity: -2, price: null, taxClass: null }, '2026-05-01', '売上日')
 */
export const priceLine = (book: PricingBook, terms: MoneyTerms, line: LineInput, date: string, dateLabel: string): PricedLine | LineProblem =>
  priceLineOf(line.itemId === null ? undefined : book.items.get(line.itemId), book.periods, terms, line, date, dateLabel);

const emptyCell = (value: unknown): boolean => value === null || value === undefined || value === '';

/**
 * Fixes the lines' names, prices, classes and rates at the order date: `lines` are the order's child rows as
 * their declaration checked them (lib/resources/order `children`: item, name, quantity, price; `priceLine`).
 */
export function priceLines(book: PricingBook, lines: readonly ResourceRow[], client: ResourceRow, date: string): PreparedLine[] {
  const terms = moneyTermsOf(client);
  return lines.map((line, i) => {
    const priced = priceLine(book, terms, {
      itemId: Number(line.odd_it_id), name: String(line.odd_name ?? ''), quantity: Number(line.odd_quantity),
      price: emptyCell(line.odd_price) ? null : Number(line.odd_price), taxClass: null,
    }, date, '受注日');
    if ('field' in priced) throw childProblem(LINES, i, priced.field, priced.message);
    return { odd_it_id: Number(priced.itemId), odd_name: priced.name, odd_quantity: priced.quantity, odd_price: priced.price, odd_amount: priced.amount, odd_tax_class: priced.taxClass, odd_tax_rate: priced.rate, odd_fee: 0 };
  });
}

/** The delivery fee (税抜, lib/orders/delivery-fee) of a shipping prefecture (code or name); 0 when it names none or has no fee. */
export const feeOf = (book: PricingBook, pref: unknown): number => feeIn(book.fees, pref)?.fee ?? 0;

/**
 * The order's delivery fee line as stored (`odd_fee` 1, no item): the fee (税抜) at the standard rate of the order date
 * in the customer's terms (lib/orders/totals `feeLine`); undefined for no fee.
 * @example feeLineRow(book, client, 550, '2026-11-25') // { odd_it_id: null, odd_name: '送料', odd_quantity: 1, odd_price: 550, odd_amount: 550, odd_tax_class: 'standard', odd_tax_rate: 10, odd_fee: 1 }
 */
export function feeLineRow(book: PricingBook, client: ResourceRow, fee: number, date: string): ResourceRow | undefined {
  if (fee === 0) return undefined;
  const line = feeLine(fee, rateOn(book.periods, 'standard', date) ?? 0, moneyTermsOf(client));
  return { odd_it_id: null, odd_name: line.name, odd_quantity: line.quantity, odd_price: line.price, odd_amount: line.amount, odd_tax_class: line.taxClass, odd_tax_rate: line.taxRate, odd_fee: 1 };
}

/** Whether a stored line is the delivery fee's. */
export const isFeeLine = (line: ResourceRow): boolean => Number(line.odd_fee ?? 0) === 1;

/** The columns of a line a save writes (what `priceLines` and `feeLineRow` answer). */
const LINE_COLUMNS = ['odd_it_id', 'odd_name', 'odd_quantity', 'odd_price', 'odd_amount', 'odd_tax_class', 'odd_tax_rate', 'odd_fee'] as const;

/**
 * A stored line as a save writes it again (its id, order, position and stamps are the save's).
 * @example asWritten(storedRow) // { odd_it_id: 3, odd_name: '天然水', odd_quantity: 2, …, odd_fee: 0 }
 */
export const asWritten = (line: ResourceRow): ResourceRow => Object.fromEntries(LINE_COLUMNS.map((column) => [column, line[column] ?? null]));

/**
 * The order's totals: its lines (the fee line among them), per rate rounded once by the customer's 税転嫁 and
 * 消費税端数 (`zei_ten`, `zei_kiri`; lib/money/totals `slipTotals`, as its sales slip's).
 */
export function totalsOf(client: ResourceRow, lines: readonly ResourceRow[]): ResourceRow {
  const totals = slipTotals(lines.map((l) => ({ amount: Number(l.odd_amount), taxClass: taxClassOf(l.odd_tax_class), taxRate: Number(l.odd_tax_rate) })), moneyTermsOf(client));
  return { od_net_total: totals.net, od_tax_total: totals.tax, od_uriage_total: totals.total };
}

/**
 * Why an order is held: its billing group's receivable (売掛残高 of the 請求先 and its 納品先, `billingGroupsOf`), the
 * orders created before it in the same run for that group (`earlier`, a regular-delivery run) and this order would
 * pass the billing customer's credit limit (与信限度額; 0 = none): credit is given to whoever pays, so a delivery
 * site's order is checked against its 請求先's limit. Undefined when it may go ahead; the reason names the 請求先
 * when the order's customer is a site of it, or has sites.
 * @example creditHoldReason({ billingId: 3, name: 'A', limit: 100000, balance: 95000, members: [3] }, 3, 8640) // '与信限度額を超えるため保留にしました（限度額 100,000円、売掛残高 95,000円＋この受注 8,640円）。'
 */
export function creditHoldReason(group: BillingGroup, clientId: number, total: number, earlier = 0): string | undefined {
  const { limit, balance } = group;
  if (!limit || balance + earlier + total <= limit) return undefined;
  const before = earlier ? `＋同時に作成した受注 ${formatMoney(earlier)}` : '';
  const whose = group.billingId !== clientId ? `請求先「${group.name}」の` : '';
  const sites = group.members.length > 1 ? `（納品先 ${group.members.length - 1}件を含む）` : '';
  return `与信限度額を超えるため保留にしました（${whose}限度額 ${formatMoney(limit)}、売掛残高 ${formatMoney(balance)}${sites}${before}＋この受注 ${formatMoney(total)}）。`;
}
