/**
 * The ONE money computation (domain §2, issue 12 "Tax settings, made exact"): unit prices, line amounts and
 * the consumption tax of a slip (an order, a sales slip) and of an invoice, used by the server and the forms.
 *
 * - 税転嫁 (`zei_ten`) names the tax mode and the unit of rounding: 2 外税・伝票単位, 3 外税・請求単位 (default),
 *   4 内税・伝票単位, 5 内税・請求単位. Rounding per line (the old 1 明細単位) is not allowed on a qualified invoice.
 * - 外税: prices are tax-exclusive, tax = round(Σ net of the rate × rate / 100).
 *   内税: prices include tax, tax = round(Σ gross of the rate × rate / (100 + rate)), net = gross − tax.
 * - Tax is rounded once per rate (bucket `10`, `8`, `exempt`, `outside`) with `zei_kiri`: per slip (伝票単位,
 *   `slipTotals`) or per invoice (請求単位, `invoiceTotals` over the slips' buckets). Line amounts (quantity ×
 *   unit price) are rounded with `kin_kiri`.
 * - Unit prices carry up to two decimals (86.40円 from a 掛率); amounts are whole yen. Everything is integer
 *   arithmetic in sen or yen (lib/money/rounding), symmetric around zero.
 */
import type { TaxClass } from '../tax';
import { divideRounded, fromSen, roundingOf, toSen, type Rounding } from './rounding';
import { cellText } from '../resources/checks';

/** 税転嫁 codes a customer may hold (`cl_zei_ten`). */
export type TaxTransfer = '2' | '3' | '4' | '5';

/** The default: 外税・請求単位. */
export const DEFAULT_TAX_TRANSFER: TaxTransfer = '3';

/** A stored 税転嫁 ('' or a code no longer offered → the default). */
export const taxTransferOf = (value: unknown): TaxTransfer => {
  const code = cellText(value);
  return code === '2' || code === '4' || code === '5' ? code : DEFAULT_TAX_TRANSFER;
};

/** 内税: the customer's prices and line amounts include tax. */
export const isTaxInclusive = (transfer: TaxTransfer): boolean => transfer === '4' || transfer === '5';

/** 請求単位: the invoice rounds the tax again over all its slips (伝票単位 sums the slips' rounded tax). */
export const roundsPerInvoice = (transfer: TaxTransfer): boolean => transfer === '3' || transfer === '5';

/** A customer's money settings: how prices are derived and amounts and tax rounded. */
export interface MoneyTerms {
  /** 単価区分: '2' 掛率, otherwise the standard price. */
  tankaType: string;
  /** 掛率 in percent (an integer), or null. */
  kakeRitu: number | null;
  kinKiri: Rounding;
  zeiKiri: Rounding;
  zeiTen: TaxTransfer;
}

/**
 * The money terms of a customer row (`cl_tanka_type`, `cl_kake_ritu`, `cl_kin_kiri`, `cl_zei_kiri`, `cl_zei_ten`);
 * no customer (yet) gets the defaults.
 * @example moneyTermsOf({ cl_zei_ten: '5', cl_zei_kiri: '2' }).zeiTen // '5'
 */
export function moneyTermsOf(client: Readonly<Record<string, unknown>> | undefined): MoneyTerms {
  const kake = client?.cl_kake_ritu;
  const rate = kake === null || kake === undefined || kake === '' ? NaN : Number(kake);
  return {
    tankaType: cellText(client?.cl_tanka_type),
    kakeRitu: Number.isInteger(rate) && rate >= 0 ? rate : null,
    kinKiri: roundingOf(client?.cl_kin_kiri),
    zeiKiri: roundingOf(client?.cl_zei_kiri),
    zeiTen: taxTransferOf(client?.cl_zei_ten),
  };
}

/**
 * A customer's unit price of an item: the item's tax-exclusive price, × `kake_ritu` % with 単価区分 掛率, and
 * for a 内税 customer × (100 + rate) / 100, rounded once to sen with `kin_kiri`.
 * @example unitPriceFor(96, { ...terms, tankaType: '2', kakeRitu: 90 }, 8) // 86.4
 * @example unitPriceFor(1000, { ...terms, zeiTen: '5' }, 8) // 1080
 */
export function unitPriceFor(itemPrice: number, terms: Pick<MoneyTerms, 'tankaType' | 'kakeRitu' | 'kinKiri' | 'zeiTen'>, rate: number): number {
  const kake = terms.tankaType === '2' && terms.kakeRitu !== null ? terms.kakeRitu : 100;
  const gross = isTaxInclusive(terms.zeiTen) ? 100 + rate : 100;
  return fromSen(divideRounded(toSen(itemPrice) * kake * gross, 10_000, terms.kinKiri));
}

/**
 * A line's amount: quantity × unit price (two decimals at most) rounded to whole yen with `kin_kiri`.
 * @example lineAmount(3, 86.45, '0') // 259 (259.35)
 * @example lineAmount(-3, 86.45, '1') // -260
 */
export const lineAmount = (quantity: number, unitPrice: number, kinKiri: Rounding): number => divideRounded(quantity * toSen(unitPrice), 100, kinKiri);

/** What the totals need of a line: its amount (税抜 for 外税, 税込 for 内税), class and the rate fixed at its date. */
export interface TaxedAmount {
  amount: number;
  taxClass: TaxClass;
  /** Percent fixed at the slip date (0 for exempt and outside). */
  taxRate: number;
}

/** One bucket: the lines of one rate (or 非課税, 不課税) and its tax. */
export interface RateTotal {
  /** The rate as text (`10`, `8`), `exempt` (非課税) or `outside` (不課税). */
  key: string;
  /** Japanese label, e.g. `10%対象`, `8%対象（軽減税率）`, `非課税`, `不課税`. */
  label: string;
  taxClass: TaxClass;
  /** Percent (0 for exempt and outside). */
  rate: number;
  /** Σ line amounts as entered: tax-exclusive (外税) or tax-inclusive (内税). */
  amount: number;
  /** 税抜. */
  net: number;
  tax: number;
  /** 税込 = net + tax. */
  total: number;
}

export interface MoneyTotals {
  /** The buckets, highest rate first, then 非課税, then 不課税. */
  rates: RateTotal[];
  /** Σ net (税抜). */
  net: number;
  tax: number;
  /** Σ total (税込), e.g. an order's `uriage_total`. */
  total: number;
}

const isTaxed = (taxClass: TaxClass): boolean => taxClass === 'standard' || taxClass === 'reduced';

/** The bucket key of a line. @example bucketKey('reduced', 8) // '8' */
export const bucketKey = (taxClass: TaxClass, rate: number): string => (isTaxed(taxClass) ? String(rate) : taxClass);

/** A bucket's Japanese label (slips, invoices, the invoice PDF). @example rateLabel('reduced', 8) // '8%対象（軽減税率）' */
export const rateLabel = (taxClass: TaxClass, rate: number): string =>
  taxClass === 'exempt' ? '非課税' : taxClass === 'outside' ? '不課税' : taxClass === 'reduced' ? `${rate}%対象（軽減税率）` : `${rate}%対象`;

/**
 * The tax of one bucket's amount, rounded once with `zei_kiri`: 外税 on the net, 内税 out of the gross.
 * @example bucketTax(1005, 10, { zeiTen: '3', zeiKiri: '2' }) // { net: 1005, tax: 101 }
 * @example bucketTax(1080, 8, { zeiTen: '5', zeiKiri: '0' }) // { net: 1000, tax: 80 }
 */
export function bucketTax(amount: number, rate: number, terms: Pick<MoneyTerms, 'zeiTen' | 'zeiKiri'>): { net: number; tax: number } {
  if (rate === 0) return { net: amount, tax: 0 };
  if (!isTaxInclusive(terms.zeiTen)) return { net: amount, tax: divideRounded(amount * rate, 100, terms.zeiKiri) };
  const tax = divideRounded(amount * rate, 100 + rate, terms.zeiKiri);
  return { net: amount - tax, tax };
}

/**
 * Where a bucket stands among the others (higher first: the highest rate, …, 非課税, 不課税).
 * @example ['8', 'outside', '10'].sort((a, b) => bucketRank(b) - bucketRank(a)) // ['10', '8', 'outside']
 */
export const bucketRank = (key: string): number => (key === 'outside' ? -2 : key === 'exempt' ? -1 : Number(key) || 0);

const order = (bucket: RateTotal): number => bucketRank(bucket.key);

function summed(rates: RateTotal[]): MoneyTotals {
  rates.sort((a, b) => order(b) - order(a));
  const sum = (pick: (r: RateTotal) => number) => rates.reduce((s, r) => s + pick(r), 0);
  return { rates, net: sum((r) => r.net), tax: sum((r) => r.tax), total: sum((r) => r.total) };
}

function taxed(bucket: Omit<RateTotal, 'net' | 'tax' | 'total'>, terms: Pick<MoneyTerms, 'zeiTen' | 'zeiKiri'>): RateTotal {
  const { net, tax } = bucketTax(bucket.amount, isTaxed(bucket.taxClass) ? bucket.rate : 0, terms);
  return { ...bucket, net, tax, total: net + tax };
}

/**
 * A slip's totals (an order, a sales slip): its line amounts grouped by bucket, each bucket's tax rounded
 * once. For a 請求単位 customer the slip's tax is what the slip shows; the invoice rounds again.
 * @example slipTotals([{ amount: 1000, taxClass: 'reduced', taxRate: 8 }, { amount: 330, taxClass: 'standard', taxRate: 10 }], terms)
 * // 外税 切捨て: { rates: [{ key: '10', net: 330, tax: 33, … }, { key: '8', net: 1000, tax: 80, … }], net: 1330, tax: 113, total: 1443 }
 */
export function slipTotals(lines: readonly TaxedAmount[], terms: Pick<MoneyTerms, 'zeiTen' | 'zeiKiri'>): MoneyTotals {
  const buckets = new Map<string, Omit<RateTotal, 'net' | 'tax' | 'total'>>();
  for (const line of lines) {
    const rate = isTaxed(line.taxClass) ? line.taxRate : 0;
    const key = bucketKey(line.taxClass, rate);
    const bucket = buckets.get(key) ?? { key, label: rateLabel(line.taxClass, rate), taxClass: line.taxClass, rate, amount: 0 };
    if (!Number.isSafeInteger(line.amount)) throw new RangeError(`a line amount is whole yen: ${line.amount}`);
    bucket.amount += line.amount;
    buckets.set(key, bucket);
  }
  return summed([...buckets.values()].map((b) => taxed(b, terms)));
}

/**
 * An invoice's totals over its slips' buckets: 請求単位 (3, 5) sums each bucket's amounts and rounds its tax
 * once for the invoice; 伝票単位 (2, 4) sums the slips' own rounded tax.
 * @example invoiceTotals([slipA, slipB], { zeiTen: '3', zeiKiri: '0' }).tax // round(Σ net × rate) per rate
 */
export function invoiceTotals(slips: readonly Pick<MoneyTotals, 'rates'>[], terms: Pick<MoneyTerms, 'zeiTen' | 'zeiKiri'>): MoneyTotals {
  const buckets = new Map<string, RateTotal>();
  for (const slip of slips) {
    for (const r of slip.rates) {
      const bucket = buckets.get(r.key) ?? { ...r, amount: 0, net: 0, tax: 0, total: 0 };
      bucket.amount += r.amount;
      bucket.net += r.net;
      bucket.tax += r.tax;
      bucket.total += r.total;
      buckets.set(r.key, bucket);
    }
  }
  const rates = [...buckets.values()];
  return summed(roundsPerInvoice(terms.zeiTen) ? rates.map((b) => taxed(b, terms)) : rates);
}

/** A line's part of its slip's bucket: 税抜 and 消費税 (a report by item sums them). */
export interface LineShare {
  net: number;
  tax: number;
}

/**
 * Each line's part of its bucket's net and tax, the lines in the order given: the bucket's tax shared in proportion to
 * the lines' amounts, whole yen by the largest remainder (ties: the earlier line), so the parts add up to the bucket
 * exactly; a line's net is its amount (外税) or its amount less its tax (内税: the amount includes tax). A bucket whose
 * amounts cancel out has no tax, and its lines keep their amounts as net. `rates` are the slip's buckets as
 * `slipTotals` made them (or as stored, `sales_rate`).
 * @example lineShares([{ amount: 1080, taxClass: 'reduced', taxRate: 8 }, { amount: 540, taxClass: 'reduced', taxRate: 8 }], slipTotals(lines, { zeiTen: '5', zeiKiri: '0' }).rates)
 * // [{ net: 1000, tax: 80 }, { net: 500, tax: 40 }]
 */
export function lineShares(lines: readonly TaxedAmount[], rates: readonly Pick<RateTotal, 'key' | 'amount' | 'net' | 'tax'>[]): LineShare[] {
  const shares: LineShare[] = lines.map((line) => ({ net: line.amount, tax: 0 }));
  for (const bucket of rates) {
    const members = lines.flatMap((line, i) => (bucketKey(line.taxClass, isTaxed(line.taxClass) ? line.taxRate : 0) === bucket.key ? [i] : []));
    if (bucket.amount === 0 || members.length === 0) continue;
    // amount × tax / bucket amount, by integer division with a positive divisor: a floor and its remainder each.
    const sign = bucket.amount < 0 ? -1 : 1;
    const divisor = sign * bucket.amount;
    const parts = members.map((i) => {
      const numerator = sign * lines[i].amount * bucket.tax;
      if (!Number.isSafeInteger(numerator)) throw new RangeError(`a line's share is out of range: ${lines[i].amount} × ${bucket.tax}`);
      const remainder = ((numerator % divisor) + divisor) % divisor;
      return { i, tax: (numerator - remainder) / divisor, remainder };
    });
    let left = bucket.tax - parts.reduce((s, p) => s + p.tax, 0);
    for (const part of [...parts].sort((a, b) => b.remainder - a.remainder || a.i - b.i)) {
      if (left <= 0) break;
      part.tax += 1;
      left -= 1;
    }
    const inclusive = bucket.net !== bucket.amount;
    for (const part of parts) shares[part.i] = { net: inclusive ? lines[part.i].amount - part.tax : lines[part.i].amount, tax: part.tax };
  }
  return shares;
}
