/**
 * One line of a slip (an order, a sales slip) priced at its date with the customer's terms: the ONE line
 * computation, run by the server's saves (server/orders/pricing.ts `priceLine`: order lines, sales lines) and live by
 * the forms before saving (lib/client/slips/use-priced-lines.ts: the order form, the sales slip form).
 *
 * An empty name is the item's, an empty unit price the customer's price of the item (単価区分/掛率, 税転嫁:
 * `unitPriceFor`), an empty class the item's (standard without an item); the rate is the class's on the date; the
 * amount is quantity × unit price by `kin_kiri` (`lineAmount`).
 */
import { rateOn, type TaxClass, type TaxPeriod } from '../tax';
import { lineAmount, unitPriceFor, type MoneyTerms } from './totals';

/** What pricing a line needs of its item: its name, list price (税抜) and tax class. */
export interface ItemPricing {
  name: string;
  price: number;
  taxClass: TaxClass;
}

/** A line as typed: an item (or none), a name, quantity, a unit price and a tax class (null: the item's). */
export interface LineInput {
  itemId: number | null;
  name: string;
  quantity: number;
  price: number | null;
  taxClass: TaxClass | null;
}

/** A line priced: the name, unit price (two decimals), amount (whole yen), class and the rate fixed at the date. */
export interface PricedLine {
  itemId: number | null;
  name: string;
  quantity: number;
  price: number;
  amount: number;
  taxClass: TaxClass;
  rate: number;
}

/** Why a line cannot be priced: the line's field and the message. */
export interface LineProblem {
  field: string;
  message: string;
}

/**
 * Prices a line: `item` is the line's item (undefined for a line without one, or an item that is gone — a problem when
 * the line names one). `dateLabel` names the date in the message of a date without a rate (受注日, 売上日).
 * @example priceLineOf({ name: '天然水', price: 1300, taxClass: 'reduced' }, periods, terms, { itemId: 3, name: '', quantity: 2, price: null, taxClass: null }, '2026-05-01', '売上日')
 * // { itemId: 3, name: '天然水', quantity: 2, price: 1300, amount: 2600, taxClass: 'reduced', rate: 8 }
 */
export function priceLineOf(item: ItemPricing | undefined, periods: readonly TaxPeriod[], terms: MoneyTerms, line: LineInput, date: string, dateLabel: string): PricedLine | LineProblem {
  if (line.itemId !== null && !item) return { field: 'it_id', message: '商品が見つかりません（削除された可能性があります）。選び直してください。' };
  const taxClass = line.taxClass ?? item?.taxClass ?? 'standard';
  const rate = rateOn(periods, taxClass, date);
  if (rate === undefined) return { field: line.itemId === null ? 'tax_class' : 'it_id', message: `${dateLabel}（${date}）の消費税率が登録されていません。税率設定を確認してください。` };
  const price = line.price ?? unitPriceFor(item?.price ?? 0, terms, rate);
  const name = (line.name.trim() || item?.name || '').slice(0, 100);
  return { itemId: line.itemId, name, quantity: line.quantity, price, amount: lineAmount(line.quantity, price, terms.kinKiri), taxClass, rate };
}

/** Whether `priceLineOf` answered a problem. */
export const isLineProblem = (priced: PricedLine | LineProblem): priced is LineProblem => 'field' in priced;
