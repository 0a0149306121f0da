/**
 * The arithmetic of one invoice of a closing (domain §1 "Invoice computation", issue 13), per billing customer,
 * pure and in whole yen, through the ONE money computation (lib/money/totals `invoiceTotals`):
 *
 * - 前回請求額 `prev_total`: the previous invoice's 今回請求額, or the opening balance before the first one;
 * - 入金額 `paid`: Σ the payments of the period, every kind (現金・振込・口座振替・手数料・値引・相殺, refunds negative);
 * - 繰越額 `carry` = prev_total − paid;
 * - 今回売上額 `sales_net`: Σ the slips' nets per rate (非課税・不課税 included with tax 0), returns negative;
 * - 消費税 per rate: 請求単位 customers round once per rate over the invoice, 伝票単位 sum the slips' own tax;
 * - 今回請求額 `total` = carry + sales_net + tax_total. Negative values are legal (a credit carried forward).
 *
 * An invoice is issued when the period has sales or payments, or a balance is carried.
 */
import { invoiceTotals, isTaxInclusive, type MoneyTerms, type RateTotal } from '../money/totals';
import type { TaxClass } from '../tax';

/** One per-rate row of a slip as `sales_rate` keeps it: the money computation's rate total without its label. */
export type SlipRate = Omit<RateTotal, 'label'>;

/** One invoice's rate row (`billing_rate`): the key (`10`, `8`, `exempt`, `outside`), rate, 税抜 and tax. */
export interface InvoiceRate {
  key: string;
  tax_class: TaxClass;
  rate: number;
  net: number;
  tax: number;
}

/** The money of one invoice, as the preview answers it and the closing stores it (`bl_*`). */
export interface InvoiceFigures {
  prev_total: number;
  paid: number;
  carry: number;
  sales_net: number;
  tax_total: number;
  total: number;
  rates: InvoiceRate[];
}

/** What one billing customer's invoice is computed from. */
export interface InvoiceLedger {
  /** The previous invoice's total, or the opening balance. */
  prevTotal: number;
  /** The payments of the period (amounts, signed). */
  payments: readonly number[];
  /**
   * The slips of the period (their rows per rate), or their rows already summed per rate (the server reads the sums:
   * the arithmetic reads nothing but a rate's sums, so one summed slip gives the same invoice).
   */
  slips: readonly { rates: readonly SlipRate[] }[];
  /** The billing customer's 税転嫁 and 消費税端数処理. */
  terms: Pick<MoneyTerms, 'zeiTen' | 'zeiKiri'>;
}

/**
 * A slip's bucket as `invoiceTotals` takes it, in the billing customer's terms: the amount it re-taxes is the 税抜
 * for a 外税 customer and the 税込 for a 内税 one (the same as the slip's own amount when a delivery site bills in the
 * same terms as its 請求先).
 */
const bucketOf = (r: SlipRate, inclusive: boolean): RateTotal => ({
  key: r.key, label: '', taxClass: r.taxClass, rate: r.rate, amount: inclusive ? r.total : r.net, net: r.net, tax: r.tax, total: r.total,
});

/**
 * An invoice's figures from its ledger.
 * @example invoiceFigures({ prevTotal: 5000, payments: [5000], slips: [{ rates: [{ key: '8', taxClass: 'reduced', rate: 8, amount: 1000, net: 1000, tax: 80, total: 1080 }] }], terms: { zeiTen: '3', zeiKiri: '0' } })
 * // { prev_total: 5000, paid: 5000, carry: 0, sales_net: 1000, tax_total: 80, total: 1080, rates: [{ key: '8', tax_class: 'reduced', rate: 8, net: 1000, tax: 80 }] }
 */
export function invoiceFigures(ledger: InvoiceLedger): InvoiceFigures {
  const inclusive = isTaxInclusive(ledger.terms.zeiTen);
  const totals = invoiceTotals(ledger.slips.map((s) => ({ rates: s.rates.map((r) => bucketOf(r, inclusive)) })), ledger.terms);
  const paid = ledger.payments.reduce((sum, amount) => sum + amount, 0);
  const carry = ledger.prevTotal - paid;
  return {
    prev_total: ledger.prevTotal, paid, carry, sales_net: totals.net, tax_total: totals.tax, total: carry + totals.net + totals.tax,
    rates: totals.rates.map((r) => ({ key: r.key, tax_class: r.taxClass, rate: r.rate, net: r.net, tax: r.tax })),
  };
}

/**
 * Whether a billing customer gets an invoice: sales or payments in the period (how many), or a balance carried.
 * @example isIssued({ slips: 0, payments: 0, carry: 0 }) // false
 */
export const isIssued = (what: { slips: number; payments: number; carry: number }): boolean => what.slips > 0 || what.payments > 0 || what.carry !== 0;

/** The money columns every closing sums (`totals` of the preview). */
export const MONEY_COLUMNS = ['prev_total', 'paid', 'carry', 'sales_net', 'tax_total', 'total'] as const;

/** The sums of the money columns over invoices. @example sumFigures([a, b]).total // a.total + b.total */
export function sumFigures(rows: readonly Pick<InvoiceFigures, (typeof MONEY_COLUMNS)[number]>[]): Record<(typeof MONEY_COLUMNS)[number], number> {
  const out = { prev_total: 0, paid: 0, carry: 0, sales_net: 0, tax_total: 0, total: 0 };
  for (const row of rows) for (const column of MONEY_COLUMNS) out[column] += row[column];
  return out;
}
