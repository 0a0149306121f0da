/**
 * The one money computation (lib/money): rounding symmetric around zero, every 税転嫁 × 端数処理 × sign, unit prices
 * of two decimals, slips and invoices; and properties over random slips (fast-check): Σ lines = net (外税) or total
 * (内税), net + tax = total, 内税 never drifts by a yen, per-slip and per-invoice rounding differ only where they should;
 * the lines' parts of their buckets (`lineShares`) add up to each bucket to the yen and stay within a yen of the exact share.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideRounded, toSen, type Rounding } from '@/lib/money/rounding';
import {
  bucketKey, bucketTax, invoiceTotals, isTaxInclusive, lineAmount, lineShares, moneyTermsOf, slipTotals, taxTransferOf, unitPriceFor,
  type MoneyTerms, type TaxedAmount, type TaxTransfer,
} from '@/lib/money/totals';
import { feeLine, orderTotalsWithFee } from '@/lib/orders/totals';
import { priceLineOf, type LineInput } from '@/lib/money/lines';
import type { TaxClass, TaxPeriod } from '@/lib/tax';

const MODES: readonly Rounding[] = ['0', '1', '2'];
const TRANSFERS: readonly TaxTransfer[] = ['2', '3', '4', '5'];
const terms = (zeiTen: TaxTransfer, zeiKiri: Rounding = '0', extra: Partial<MoneyTerms> = {}): MoneyTerms =>
  ({ ...moneyTermsOf(undefined), zeiTen, zeiKiri, ...extra });
const line = (amount: number, taxClass: TaxClass = 'standard', taxRate = taxClass === 'standard' ? 10 : taxClass === 'reduced' ? 8 : 0): TaxedAmount =>
  ({ amount, taxClass, taxRate });

/** numerator / denominator rounded by mode, by BigInt: the reference the integer code must equal. */
function reference(numerator: bigint, denominator: bigint, mode: Rounding): number {
  const abs = numerator < 0n ? -numerator : numerator;
  const q = abs / denominator;
  const r = abs % denominator;
  const up = mode === '1' ? r > 0n : mode === '2' ? r * 2n >= denominator : false;
  const rounded = up ? q + 1n : q;
  return Number(numerator < 0n ? -rounded : rounded);
}

describe('rounding (lib/money/rounding)', () => {
  it('rounds symmetric around zero: 切捨て toward zero, 切上げ away, 四捨五入 half away (never half-even)', () => {
    expect(MODES.map((m) => divideRounded(1005, 10, m))).toEqual([100, 101, 101]);
    expect(MODES.map((m) => divideRounded(-1005, 10, m))).toEqual([-100, -101, -101]);
    expect(MODES.map((m) => divideRounded(-333, 10, m))).toEqual([-33, -34, -33]);
    expect(MODES.map((m) => divideRounded(1025, 10, m))).toEqual([102, 103, 103]);
    expect(MODES.map((m) => divideRounded(-4, 10, m))).toEqual([0, -1, 0]);
    expect(Object.is(divideRounded(-4, 10, '0'), 0)).toBe(true);
    expect(() => divideRounded(1.5, 10, '0')).toThrow(RangeError);
    expect(() => divideRounded(1, 0, '0')).toThrow(RangeError);
  });
  it('equals exact rational rounding for any integers', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 100_000 }), fc.constantFrom(...MODES), (n, d, m) => {
      expect(divideRounded(n, d, m)).toBe(reference(BigInt(n), BigInt(d), m));
    }));
  });
  it('reads prices of two decimals as exact sen', () => {
    expect([toSen(86.4), toSen(1019.15), toSen(-0.29), toSen(0.07)]).toEqual([8640, 101915, -29, 7]);
  });
});

describe('税転嫁 and terms', () => {
  it('knows 2–5, defaults to 3 外税・請求単位 (the old 1 明細単位 and empty too)', () => {
    expect(['2', '3', '4', '5', '1', '', null, 9].map(taxTransferOf)).toEqual(['2', '3', '4', '5', '3', '3', '3', '3']);
    expect(TRANSFERS.map(isTaxInclusive)).toEqual([false, false, true, true]);
    expect(moneyTermsOf({ cl_tanka_type: '2', cl_kake_ritu: '85', cl_kin_kiri: '1', cl_zei_kiri: 2, cl_zei_ten: '5' }))
      .toEqual({ tankaType: '2', kakeRitu: 85, kinKiri: '1', zeiKiri: '2', zeiTen: '5' });
  });
});

describe('unit prices and line amounts', () => {
  it('derives a unit price of two decimals from 掛率, tax-inclusive for 内税, rounded once with kin_kiri', () => {
    const kake = (kinKiri: Rounding, zeiTen: TaxTransfer = '3') => terms(zeiTen, '0', { tankaType: '2', kakeRitu: 90, kinKiri });
    expect(unitPriceFor(96, kake('0'), 8)).toBe(86.4);
    expect(unitPriceFor(1199, kake('0'), 8)).toBe(1079.1);
    expect(unitPriceFor(1199, terms('3', '0', { tankaType: '1', kakeRitu: 90 }), 8)).toBe(1199);
    // 内税: 1199 × 90% × 1.08 = 1165.4280 → 1165.42 / 1165.43 / 1165.43
    expect(MODES.map((m) => unitPriceFor(1199, kake(m, '5'), 8))).toEqual([1165.42, 1165.43, 1165.43]);
    expect(unitPriceFor(1000, terms('4'), 10)).toBe(1100);
    expect(unitPriceFor(-333, terms('4', '0', { kinKiri: '1' }), 10)).toBe(-366.3);
    expect(unitPriceFor(1000, terms('5'), 0)).toBe(1000);
  });
  it('rounds quantity × unit price to whole yen with kin_kiri, symmetric for returns', () => {
    expect(MODES.map((m) => lineAmount(3, 86.45, m))).toEqual([259, 260, 259]);
    expect(MODES.map((m) => lineAmount(-3, 86.45, m))).toEqual([-259, -260, -259]);
    expect(MODES.map((m) => lineAmount(2, 1019.25, m))).toEqual([2038, 2039, 2039]);
    expect(lineAmount(3, 1.1, '1')).toBe(4);
    expect(lineAmount(3, 0.1, '0')).toBe(0);
  });
  it('never drifts from exact sen arithmetic', () => {
    fc.assert(fc.property(fc.integer({ min: -99_999, max: 99_999 }), fc.integer({ min: -999_999_999, max: 999_999_999 }), fc.constantFrom(...MODES), (q, sen, m) => {
      expect(lineAmount(q, sen / 100, m)).toBe(reference(BigInt(q) * BigInt(sen), 100n, m));
    }));
  });
});

describe('the tax of a slip: every 税転嫁 × 消費税端数処理 × sign', () => {
  // [税転嫁, rate, amount of the bucket, tax by 切捨て / 切上げ / 四捨五入]
  const cases: [TaxTransfer, number, number, [number, number, number]][] = [
    ['2', 10, 1005, [100, 101, 101]], ['3', 10, 1005, [100, 101, 101]],
    ['2', 8, 1005, [80, 81, 80]], ['3', 8, 1005, [80, 81, 80]],
    ['4', 10, 1105, [100, 101, 100]], ['5', 10, 1105, [100, 101, 100]],
    ['4', 8, 1085, [80, 81, 80]], ['5', 8, 1085, [80, 81, 80]],
    ['4', 10, 1111, [101, 101, 101]], ['5', 8, 1080, [80, 80, 80]],
  ];
  for (const [zeiTen, rate, amount, taxes] of cases) {
    for (const sign of [1, -1]) {
      it(`税転嫁 ${zeiTen}, ${rate}%, ${sign * amount}円`, () => {
        MODES.forEach((mode, i) => {
          const totals = slipTotals([line(sign * amount, rate === 8 ? 'reduced' : 'standard', rate)], terms(zeiTen, mode));
          const tax = sign * taxes[i];
          const net = isTaxInclusive(zeiTen) ? sign * amount - tax : sign * amount;
          expect([totals.tax, totals.net, totals.total], `端数処理 ${mode}`).toEqual([tax, net, net + tax]);
          expect(totals.rates).toHaveLength(1);
          expect(totals.rates[0]).toMatchObject({ key: String(rate), amount: sign * amount, net, tax, total: net + tax });
        });
      });
    }
  }

  it('taxes each rate once on its sum, not per line, and keeps 非課税 and 不課税 apart, untaxed', () => {
    // Per line 3 × round(105 × 10%) = 3 × 10 (切捨て); once per rate: 315 × 10% = 31.
    expect(slipTotals([line(105), line(105), line(105)], terms('3')).tax).toBe(31);
    const mixed = slipTotals([line(1000, 'reduced'), line(330), line(500, 'exempt'), line(-100), line(2000, 'outside')], terms('2'));
    expect(mixed.rates.map((r) => [r.key, r.label, r.net, r.tax])).toEqual([
      ['10', '10%対象', 230, 23], ['8', '8%対象（軽減税率）', 1000, 80], ['exempt', '非課税', 500, 0], ['outside', '不課税', 2000, 0],
    ]);
    expect([mixed.net, mixed.tax, mixed.total]).toEqual([3730, 103, 3833]);
  });

  it('takes 内税 out of the gross: net = gross − tax, the total is what the lines say', () => {
    const totals = slipTotals([line(1080, 'reduced'), line(1100), line(1000, 'outside')], terms('4'));
    expect(totals.rates.map((r) => [r.key, r.amount, r.net, r.tax, r.total])).toEqual([['10', 1100, 1000, 100, 1100], ['8', 1080, 1000, 80, 1080], ['outside', 1000, 1000, 0, 1000]]);
    expect([totals.net, totals.tax, totals.total]).toEqual([3000, 180, 3180]);
    expect(bucketTax(1080, 8, terms('5'))).toEqual({ net: 1000, tax: 80 });
  });

  it('treats an order’s delivery fee as a line of the standard rate, tax-inclusive for 内税', () => {
    expect(feeLine(550, 10, terms('5'))).toEqual({ name: '送料', quantity: 1, price: 605, amount: 605, taxClass: 'standard', taxRate: 10 });
    const out = orderTotalsWithFee([line(2600, 'reduced'), line(1100)], 550, 10, terms('3'));
    expect(out.rates.map((r) => [r.key, r.net, r.tax])).toEqual([['10', 1650, 165], ['8', 2600, 208]]);
    const inside = orderTotalsWithFee([line(2808, 'reduced')], 550, 10, terms('5'));
    expect([inside.net, inside.tax, inside.total]).toEqual([3150, 263, 3413]);
  });
});

describe('the tax of an invoice: per slip (伝票単位) or once per invoice (請求単位)', () => {
  it('sums the slips’ rounded tax for 2 and 4, and rounds again over the invoice for 3 and 5', () => {
    const slips = (zeiTen: TaxTransfer, amount: number) => [slipTotals([line(amount)], terms(zeiTen)), slipTotals([line(amount)], terms(zeiTen))];
    expect(invoiceTotals(slips('2', 1005), terms('2')).tax).toBe(200);
    expect(invoiceTotals(slips('3', 1005), terms('3')).tax).toBe(201);
    expect(invoiceTotals(slips('4', 1106), terms('4')).tax).toBe(200);
    const perInvoice = invoiceTotals(slips('5', 1106), terms('5'));
    expect([perInvoice.tax, perInvoice.net, perInvoice.total]).toEqual([201, 2011, 2212]);
  });
});

const transfer = fc.constantFrom(...TRANSFERS);
const rounding = fc.constantFrom(...MODES);
const taxedLine = fc.record({
  amount: fc.integer({ min: -2_000_000, max: 2_000_000 }),
  taxClass: fc.constantFrom<TaxClass>('standard', 'reduced', 'exempt', 'outside'),
  old: fc.boolean(),
}).map(({ amount, taxClass, old }): TaxedAmount => line(amount, taxClass, taxClass === 'standard' ? (old ? 8 : 10) : taxClass === 'reduced' ? 8 : 0));
const slip = fc.array(taxedLine, { maxLength: 30 });

describe('properties over random slips (fast-check)', () => {
  it('Σ lines = net (外税) or total (内税); net + tax = total, per rate and in all', () => {
    fc.assert(fc.property(slip, transfer, rounding, (lines, zeiTen, zeiKiri) => {
      const totals = slipTotals(lines, terms(zeiTen, zeiKiri));
      const sum = lines.reduce((s, l) => s + l.amount, 0);
      expect(isTaxInclusive(zeiTen) ? totals.total : totals.net).toBe(sum);
      expect(totals.net + totals.tax).toBe(totals.total);
      for (const r of totals.rates) expect(r.net + r.tax).toBe(r.total);
      expect(totals.rates.reduce((s, r) => s + r.amount, 0)).toBe(sum);
    }));
  });

  it('内税 never drifts by a yen: each rate’s tax is the one rounding of gross × rate / (100 + rate)', () => {
    fc.assert(fc.property(slip, fc.constantFrom<TaxTransfer>('4', '5'), rounding, (lines, zeiTen, zeiKiri) => {
      const totals = slipTotals(lines, terms(zeiTen, zeiKiri));
      for (const r of totals.rates) {
        const gross = lines.filter((l) => (l.taxClass === 'standard' || l.taxClass === 'reduced' ? String(l.taxRate) : l.taxClass) === r.key).reduce((s, l) => s + l.amount, 0);
        expect(r.total).toBe(gross);
        expect(r.tax).toBe(r.rate === 0 ? 0 : reference(BigInt(gross) * BigInt(r.rate), BigInt(100 + r.rate), zeiKiri));
        expect(Math.abs(r.tax * (100 + r.rate) - gross * r.rate)).toBeLessThan(100 + r.rate);
      }
    }));
  });

  it('per-slip and per-invoice rounding differ only where slips were rounded: never in amounts, by less than a yen per slip', () => {
    fc.assert(fc.property(fc.array(slip, { minLength: 1, maxLength: 8 }), fc.constantFrom<[TaxTransfer, TaxTransfer]>(['2', '3'], ['4', '5']), rounding,
      (slipLines, [perSlip, perInvoice], zeiKiri) => {
        const slipsOf = (zeiTen: TaxTransfer) => slipLines.map((lines) => slipTotals(lines, terms(zeiTen, zeiKiri)));
        const a = invoiceTotals(slipsOf(perSlip), terms(perSlip, zeiKiri));
        const b = invoiceTotals(slipsOf(perInvoice), terms(perInvoice, zeiKiri));
        expect(a.tax).toBe(slipsOf(perSlip).reduce((s, t) => s + t.tax, 0));
        expect(b.rates.map((r) => [r.key, r.amount])).toEqual(a.rates.map((r) => [r.key, r.amount]));
        for (const rb of b.rates) {
          const ra = a.rates.find((r) => r.key === rb.key)!;
          const denominator = isTaxInclusive(perSlip) ? 100 + rb.rate : 100;
          const withRest = slipsOf(perSlip).filter((t) => t.rates.some((r) => r.key === rb.key && (r.amount * r.rate) % denominator !== 0)).length;
          if (withRest === 0) expect(rb.tax).toBe(ra.tax);
          expect(Math.abs(rb.tax - ra.tax)).toBeLessThanOrEqual(withRest);
          expect(rb.net + rb.tax).toBe(rb.total);
        }
        if (slipLines.length === 1) expect(b).toEqual(slipsOf(perInvoice)[0]);
      }));
  });
});

describe('the lines\' parts of their buckets (lineShares)', () => {
  it('a 外税 line keeps its amount as net and takes its share of the tax; 内税 splits its amount as its bucket was', () => {
    const outside = [line(1000, 'reduced'), line(500, 'reduced'), line(330)];
    expect(lineShares(outside, slipTotals(outside, terms('3')).rates)).toEqual([{ net: 1000, tax: 80 }, { net: 500, tax: 40 }, { net: 330, tax: 33 }]);
    const inside = [line(1080, 'reduced'), line(540, 'reduced')];
    expect(lineShares(inside, slipTotals(inside, terms('5')).rates)).toEqual([{ net: 1000, tax: 80 }, { net: 500, tax: 40 }]);
  });

  it('shares a rounded tax by the largest remainder, the earlier line first on a tie, and a return takes a negative share', () => {
    // 3 × 101円 at 10%, 切捨て: the bucket's tax is 30 (30.3), the lines' exact shares 10 each.
    const three = [line(101), line(101), line(101)];
    expect(lineShares(three, slipTotals(three, terms('2')).rates)).toEqual([{ net: 101, tax: 10 }, { net: 101, tax: 10 }, { net: 101, tax: 10 }]);
    // 2 × 105円 at 10%, 切上げ: tax 21, shares 10.5 each: the first line takes the yen.
    const two = [line(105), line(105)];
    expect(lineShares(two, slipTotals(two, terms('2', '1')).rates)).toEqual([{ net: 105, tax: 11 }, { net: 105, tax: 10 }]);
    const withReturn = [line(2000, 'reduced'), line(-500, 'reduced')];
    expect(lineShares(withReturn, slipTotals(withReturn, terms('3')).rates)).toEqual([{ net: 2000, tax: 160 }, { net: -500, tax: -40 }]);
  });

  it('a bucket whose amounts cancel out has no tax: its lines keep their amounts as net', () => {
    const cancel = [line(1000), line(-1000), line(300, 'outside')];
    expect(lineShares(cancel, slipTotals(cancel, terms('5')).rates)).toEqual([{ net: 1000, tax: 0 }, { net: -1000, tax: 0 }, { net: 300, tax: 0 }]);
  });

  it('over random slips: the parts add up to each bucket to the yen, net + tax = amount (内税) or tax on top (外税), each within a yen of its exact share', () => {
    fc.assert(fc.property(slip, transfer, rounding, (lines, zeiTen, zeiKiri) => {
      const { rates } = slipTotals(lines, terms(zeiTen, zeiKiri));
      const shares = lineShares(lines, rates);
      for (const r of rates) {
        const members = lines.flatMap((l, i) => (bucketKey(l.taxClass, l.taxRate) === r.key || (r.rate === 0 && l.taxClass === r.key) ? [i] : []));
        expect(members.reduce((s, i) => s + shares[i].net, 0)).toBe(r.net);
        expect(members.reduce((s, i) => s + shares[i].tax, 0)).toBe(r.tax);
        for (const i of members) {
          expect(shares[i].net + (isTaxInclusive(zeiTen) ? shares[i].tax : 0)).toBe(lines[i].amount);
          if (r.amount !== 0) expect(Math.abs(shares[i].tax * r.amount - lines[i].amount * r.tax)).toBeLessThan(Math.abs(r.amount));
        }
      }
    }));
  });
});

describe('one line computation for the order form, the sales slip form and their saves (priceLineOf)', () => {
  const periods: TaxPeriod[] = [
    { taxClass: 'standard', rate: 8, validFrom: '2014-04-01', validTo: '2019-09-30' },
    { taxClass: 'standard', rate: 10, validFrom: '2019-10-01', validTo: '' },
    { taxClass: 'reduced', rate: 8, validFrom: '2019-10-01', validTo: '' },
  ];
  const water = { name: '天然水 12L', price: 96, taxClass: 'reduced' as const };
  const typed = (extra: Partial<LineInput> = {}): LineInput => ({ itemId: 3, name: '', quantity: 3, price: null, taxClass: null, ...extra });

  it('an item fills the name, the class and the customer\'s unit price (掛率, 内税) left empty; the rate is the class\'s on the date', () => {
    expect(priceLineOf(water, periods, terms('3'), typed(), '2026-05-01', '売上日')).toEqual({ itemId: 3, name: '天然水 12L', quantity: 3, price: 96, amount: 288, taxClass: 'reduced', rate: 8 });
    const kake = priceLineOf(water, periods, terms('3', '0', { tankaType: '2', kakeRitu: 90, kinKiri: '2' }), typed(), '2026-05-01', '売上日');
    expect(kake).toMatchObject({ price: 86.4, amount: 259 });
    expect(priceLineOf(water, periods, terms('5'), typed({ quantity: 1 }), '2026-05-01', '売上日')).toMatchObject({ price: 103.68, amount: 103 });
  });

  it('what the line gives wins over the item: its name, unit price and class (the class\'s rate, then the price the customer\'s of it)', () => {
    expect(priceLineOf(water, periods, terms('3'), typed({ name: '返品 天然水', quantity: -1, price: 90.5 }), '2026-05-01', '売上日'))
      .toMatchObject({ name: '返品 天然水', price: 90.5, amount: -90, taxClass: 'reduced' });
    expect(priceLineOf(water, periods, terms('5'), typed({ quantity: 1, taxClass: 'standard' }), '2026-05-01', '売上日')).toMatchObject({ taxClass: 'standard', rate: 10, price: 105.6 });
    expect(priceLineOf(water, periods, terms('3'), typed({ taxClass: 'reduced' }), '2019-09-30', '受注日')).toMatchObject({ rate: 8 });
  });

  it('a line without an item is standard unless given a class; a gone item or a date without a rate is a problem naming the field', () => {
    expect(priceLineOf(undefined, periods, terms('3'), typed({ itemId: null, name: '作業費', quantity: 1, price: 5000 }), '2026-05-01', '売上日'))
      .toMatchObject({ itemId: null, name: '作業費', amount: 5000, taxClass: 'standard', rate: 10 });
    expect(priceLineOf(undefined, periods, terms('3'), typed(), '2026-05-01', '売上日')).toEqual({ field: 'it_id', message: '商品が見つかりません（削除された可能性があります）。選び直してください。' });
    expect(priceLineOf(undefined, periods, terms('3'), typed({ itemId: null, price: 1 }), '2010-01-01', '売上日')).toEqual({ field: 'tax_class', message: '売上日（2010-01-01）の消費税率が登録されていません。税率設定を確認してください。' });
  });
});
