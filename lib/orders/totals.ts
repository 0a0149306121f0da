/**
 * An order's money: the one money computation (lib/money/totals) applied to an order, a slip of its own,
 * used by the server (server/orders/pricing.ts) and the order form.
 *
 * The delivery fee (送料（税抜）, /system/deliveryfee) is tax-exclusive and taxed at the standard rate of the
 * order date: it is one more line of the standard rate's bucket (`orderTotalsWithFee`), tax-inclusive for a
 * 内税 customer like every other line.
 */
import { lineAmount, slipTotals, unitPriceFor, type MoneyTerms, type MoneyTotals, type TaxedAmount } from '../money/totals';

/**
 * The delivery fee as a line of the standard rate, in the customer's terms (×(100 + rate)/100 for 内税).
 * @example feeLine(550, 10, { ...terms, zeiTen: '5' }) // { amount: 605, taxClass: 'standard', taxRate: 10 }
 */
export function feeLine(fee: number, standardRate: number, terms: MoneyTerms): TaxedAmount {
  return { amount: lineAmount(1, feePrice(fee, standardRate, terms), terms.kinKiri), taxClass: 'standard', taxRate: standardRate };
}

/**
 * The delivery fee as the unit price of its line (what a processed order's sales slip carries): tax-exclusive for
 * 外税, × (100 + rate) / 100 for 内税, rounded to sen like every unit price; never the 掛率.
 * @example feePrice(555, 10, { ...terms, zeiTen: '4' }) // 610.5
 */
export const feePrice = (fee: number, standardRate: number, terms: MoneyTerms): number => unitPriceFor(fee, { ...terms, tankaType: '' }, standardRate);

/**
 * The totals of an order's lines and its delivery fee, one rounding per rate for the order (a slip).
 * @example orderTotalsWithFee([{ amount: 2600, taxClass: 'reduced', taxRate: 8 }], 550, 10, terms).total // 3413 (外税 切捨て)
 */
export function orderTotalsWithFee(lines: readonly TaxedAmount[], fee: number, standardRate: number, terms: MoneyTerms): MoneyTotals {
  return slipTotals(fee !== 0 ? [...lines, feeLine(fee, standardRate, terms)] : lines, terms);
}
