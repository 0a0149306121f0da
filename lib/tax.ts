/**
 * Consumption tax (domain §2): which rate applies to a tax class on a transaction date. The ONE
 * answer, used by the server (`taxRateFor`, server/tax.ts) and by screens (from `tax_lst` rows).
 * The rate follows the slip (transaction) date, not the closing date.
 */
import { cellText } from './resources/checks';

/** An item's or line's tax class (`tax_class`): 標準税率, 軽減税率, 非課税, 不課税 (a bottle deposit is 不課税). */
export type TaxClass = 'standard' | 'reduced' | 'exempt' | 'outside';

export const TAX_CLASSES: readonly TaxClass[] = ['standard', 'reduced', 'exempt', 'outside'];

export const isTaxClass = (value: unknown): value is TaxClass => TAX_CLASSES.includes(value as TaxClass);

/** A stored class (unknown → standard). */
export const taxClassOf = (value: unknown): TaxClass => (isTaxClass(value) ? value : 'standard');

/** A rate period of one class (a `tax` record): `validTo` '' means open-ended. */
export interface TaxPeriod {
  taxClass: 'standard' | 'reduced';
  /** Percent, e.g. 10. */
  rate: number;
  /** First day (YYYY-MM-DD). */
  validFrom: string;
  /** Last day (YYYY-MM-DD), '' while open. */
  validTo: string;
}

/** The period of a `tax` answer row (`tx_tax_class`, `tx_rate`, `tx_valid_from`, `tx_valid_to`). */
export function taxPeriodOf(row: Record<string, unknown>): TaxPeriod | undefined {
  const taxClass = row.tx_tax_class;
  const rate = Number(row.tx_rate);
  if ((taxClass !== 'standard' && taxClass !== 'reduced') || !Number.isFinite(rate)) return undefined;
  return { taxClass, rate, validFrom: cellText(row.tx_valid_from), validTo: cellText(row.tx_valid_to) };
}

/** Whether a period covers a day. */
export const covers = (period: TaxPeriod, date: string): boolean =>
  period.validFrom !== '' && period.validFrom <= date && (period.validTo === '' || date <= period.validTo);

/** Whether two periods share a day (an open end reaches forever). */
export function overlaps(a: Pick<TaxPeriod, 'validFrom' | 'validTo'>, b: Pick<TaxPeriod, 'validFrom' | 'validTo'>): boolean {
  const aEnd = a.validTo || '9999-12-31';
  const bEnd = b.validTo || '9999-12-31';
  return a.validFrom <= bEnd && b.validFrom <= aEnd;
}

/**
 * The rate (percent) of a tax class on a date. `exempt` and `outside` are 0. Before the reduced rate existed
 * (2019-10-01) everything was taxed at the standard rate of the time, so a reduced date no reduced
 * period covers answers the standard rate. Undefined when no standard rate is registered for the
 * date (e.g. before 1989-04-01, when there was no consumption tax).
 * @example rateOn(rates, 'reduced', '2019-09-30') // 8 (the standard rate then)
 * @example rateOn(rates, 'reduced', '2019-10-01') // 8 (軽減税率)
 * @example rateOn(rates, 'standard', '2019-10-01') // 10
 */
export function rateOn(rates: readonly TaxPeriod[], taxClass: TaxClass, date: string): number | undefined {
  if (taxClass === 'exempt' || taxClass === 'outside') return 0;
  const find = (cls: TaxPeriod['taxClass']) => rates.find((p) => p.taxClass === cls && covers(p, date))?.rate;
  return (taxClass === 'reduced' ? find('reduced') : undefined) ?? find('standard');
}

/** Text of a rate for the UI, e.g. `10%`. */
export const formatRate = (rate: number | undefined): string => (rate === undefined ? '未登録' : `${rate}%`);
