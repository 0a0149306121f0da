/**
 * An order's money (domain §2): unit prices by the customer's price type, line amounts, and the
 * totals per tax rate. The ONE computation, used by the server (order policy) and the order form.
 *
 * Prices are tax-exclusive (商品 標準単価（税抜）), and so is the delivery fee (送料（税抜）, /system/deliveryfee),
 * which is taxed at the standard rate of the order date (`orderTotalsWithFee`). Tax is computed once per
 * order per rate on the rate's net amount (not per line), rounded with the customer's 消費税端数処理 (`zei_kiri`);
 * derived unit prices (掛率) are rounded with 金額端数処理 (`kin_kiri`).
 *
 * Rounding of negative amounts (値引き lines, a negative rate total) is symmetric: the mode applies
 * to the absolute value and the sign is kept, so a discount of -100.5 rounds like 100.5
 * (切捨て → -100, 切上げ → -101, 四捨五入 → -101).
 */
import type { TaxClass } from '../tax';

/** Rounding codes of `kin_kiri` / `zei_kiri`: 0 切捨て, 1 切上げ, 2 四捨五入. */
export type Rounding = '0' | '1' | '2';

/** A code as stored ('' or unknown → 切捨て, the usual default). */
export const roundingOf = (value: unknown): Rounding => (value === '1' || value === 1 ? '1' : value === '2' || value === 2 ? '2' : '0');

/**
 * Rounds to whole yen by a mode, symmetric around zero (see the file comment).
 * @example roundYen(-100.5, '0') // -100
 * @example roundYen(100.4, '1') // 101
 */
export function roundYen(value: number, mode: Rounding): number {
  const sign = value < 0 ? -1 : 1;
  // Tolerate binary noise (e.g. 1.1 * 3 = 3.3000000000000003) before rounding.
  const abs = Math.round(Math.abs(value) * 1e6) / 1e6;
  const rounded = mode === '1' ? Math.ceil(abs) : mode === '2' ? Math.floor(abs + 0.5) : Math.floor(abs);
  return rounded === 0 ? 0 : sign * rounded;
}

/**
 * The unit price of an item for a customer: the item's price, or with 単価区分 掛率 (`tanka_type` 2)
 * the price × `kake_ritu` % rounded with `kin_kiri`.
 * @example unitPriceFor(1000, { tankaType: '2', kakeRitu: 85, kinKiri: '0' }) // 850
 */
export function unitPriceFor(itemPrice: number, customer: { tankaType: unknown; kakeRitu: unknown; kinKiri: Rounding }): number {
  const rate = Number(customer.kakeRitu);
  if (String(customer.tankaType) !== '2' || customer.kakeRitu === null || customer.kakeRitu === '' || !Number.isFinite(rate)) return itemPrice;
  return roundYen((itemPrice * rate) / 100, customer.kinKiri);
}

/** A line's amount: quantity × unit price (whole yen; quantity and price are integers). */
export const lineAmount = (quantity: number, unitPrice: number): number => roundYen(quantity * unitPrice, '2');

/** What the totals need of a line (the delivery fee counts as a line of the standard rate: `orderTotalsWithFee`). */
export interface TaxedAmount {
  amount: number;
  taxClass: TaxClass;
  /** Percent fixed at the order date (0 for exempt). */
  taxRate: number;
}

/** The net amount and tax of one rate. */
export interface RateTotal {
  /** `exempt`, or the rate as text, e.g. `10`. */
  key: string;
  /** Japanese label, e.g. `10%対象`, `非課税`. */
  label: string;
  rate: number;
  net: number;
  tax: number;
}

export interface OrderTotals {
  /** Per rate, highest rate first, exempt last. */
  rates: RateTotal[];
  /** Sum of the nets (税抜). */
  net: number;
  tax: number;
  /** Tax-inclusive total (`uriage_total`). */
  total: number;
}

/**
 * The totals of an order: amounts grouped by rate (exempt apart), each rate's tax computed once on
 * its net and rounded with `zeiKiri`.
 * @example orderTotals([{ amount: 1000, taxClass: 'reduced', taxRate: 8 }, { amount: 330, taxClass: 'standard', taxRate: 10 }], '0')
 * // { rates: [{ key: '10', net: 330, tax: 33, … }, { key: '8', net: 1000, tax: 80, … }], net: 1330, tax: 113, total: 1443 }
 */
export function orderTotals(lines: readonly TaxedAmount[], zeiKiri: Rounding): OrderTotals {
  const groups = new Map<string, RateTotal>();
  for (const line of lines) {
    const exempt = line.taxClass === 'exempt' || line.taxRate === 0;
    const key = exempt ? 'exempt' : String(line.taxRate);
    const group = groups.get(key) ?? { key, label: exempt ? '非課税' : `${line.taxRate}%対象`, rate: exempt ? 0 : line.taxRate, net: 0, tax: 0 };
    group.net += line.amount;
    groups.set(key, group);
  }
  const rates = [...groups.values()].sort((a, b) => (a.key === 'exempt' ? 1 : b.key === 'exempt' ? -1 : b.rate - a.rate));
  for (const group of rates) group.tax = roundYen((group.net * group.rate) / 100, zeiKiri);
  const net = rates.reduce((sum, g) => sum + g.net, 0);
  const tax = rates.reduce((sum, g) => sum + g.tax, 0);
  return { rates, net, tax, total: net + tax };
}

/**
 * The totals of an order's lines and its delivery fee: the fee is tax-exclusive and taxed at the standard
 * rate of the order date (`standardRate`), in the standard rate's group with the lines of that rate.
 * @example orderTotalsWithFee([{ amount: 2600, taxClass: 'reduced', taxRate: 8 }], 550, 10, '0').total // 3413
 */
export function orderTotalsWithFee(lines: readonly TaxedAmount[], fee: number, standardRate: number, zeiKiri: Rounding): OrderTotals {
  return orderTotals(fee !== 0 ? [...lines, { amount: fee, taxClass: 'standard', taxRate: standardRate }] : lines, zeiKiri);
}
