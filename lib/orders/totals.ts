/**
 * An order's money: the one money computation (lib/money/totals) applied to an order, a slip of its own,
 * used by the server (server/orders/pricing.ts) and the order form.
 *
 * The delivery fee (送料（税抜）, /system/deliveryfee) is tax-exclusive and taxed at the standard rate of the
 * order date. It is a line of its own (`feeLine`): stored among the order's lines marked as the fee line
 * (`odd_fee`, derived by the order's save, never typed), copied to the processed order's sales slip like every
 * other line, tax-inclusive for a 内税 customer like every other line. So the order, its slip and the invoice
 * sum the same lines with the same `slipTotals`.
 */
import { lineAmount, slipTotals, unitPriceFor, type MoneyTerms, type MoneyTotals, type TaxedAmount } from '../money/totals';

/** The name of the delivery fee's line, on an order and on its sales slip. */
export const FEE_LINE_NAME = '送料';

/** The delivery fee as a priced line: one of it at the fee's unit price, class standard, the standard rate. */
export interface FeeLine extends TaxedAmount {
  name: string;
  quantity: 1;
  /** Yen with up to two decimals (a 内税 customer's tax-inclusive price). */
  price: number;
}

/**
 * The delivery fee as a line of the standard rate, in the customer's terms (×(100 + rate)/100 for 内税).
 * @example feeLine(550, 10, { ...terms, zeiTen: '5' }) // { name: '送料', quantity: 1, price: 605, amount: 605, taxClass: 'standard', taxRate: 10 }
 */
export function feeLine(fee: number, standardRate: number, terms: MoneyTerms): FeeLine {
  const price = feePrice(fee, standardRate, terms);
  return { name: FEE_LINE_NAME, quantity: 1, price, amount: lineAmount(1, price, terms.kinKiri), taxClass: 'standard', taxRate: standardRate };
}

/**
 * The delivery fee as the unit price of its line: tax-exclusive for 外税, × (100 + rate) / 100 for 内税, rounded to
 * sen like every unit price; never the 掛率.
 * @example feePrice(555, 10, { ...terms, zeiTen: '4' }) // 610.5
 */
export const feePrice = (fee: number, standardRate: number, terms: MoneyTerms): number => unitPriceFor(fee, { ...terms, tankaType: '' }, standardRate);

/**
 * The totals of an order's lines and its fee line (none for a fee of 0), one rounding per rate for the order (a
 * slip): what the order form shows live before the save stores the fee line.
 * @example orderTotalsWithFee([{ amount: 2600, taxClass: 'reduced', taxRate: 8 }], 550, 10, terms).total // 3413 (外税 切捨て)
 */
export function orderTotalsWithFee(lines: readonly TaxedAmount[], fee: number, standardRate: number, terms: MoneyTerms): MoneyTotals {
  return slipTotals(fee !== 0 ? [...lines, feeLine(fee, standardRate, terms)] : lines, terms);
}
