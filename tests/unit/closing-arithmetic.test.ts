/**
 * The arithmetic of an invoice (lib/closing/arithmetic) on hand-worked cases and as properties over thousands of
 * random ledgers (fast-check): every yen reconciles over a sequence of closings (Σ totals = Σ opening balances + Σ
 * slip nets + tax − payments), 請求単位 rounds once per rate per invoice (and 伝票単位 sums the slips' tax), the
 * two differ by at most a yen per slip of the rate, summing the slips per rate first changes nothing, and an invoice is
 * issued exactly when something happened.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invoiceFigures, isIssued, sumFigures, type SlipRate } from '@/lib/closing/arithmetic';
import type { Rounding } from '@/lib/money/rounding';
import { bucketTax, roundsPerInvoice, slipTotals, type TaxedAmount, type TaxTransfer } from '@/lib/money/totals';
import type { TaxClass } from '@/lib/tax';

const terms = (zeiTen: TaxTransfer, zeiKiri: Rounding = '0') => ({ zeiTen, zeiKiri });
const RATE: Record<TaxClass, number> = { standard: 10, reduced: 8, exempt: 0, outside: 0 };
const line = (amount: number, taxClass: TaxClass = 'standard'): TaxedAmount => ({ amount, taxClass, taxRate: RATE[taxClass] });
/** A slip as `sales_rate` keeps it: the one money computation's buckets. */
const slipOf = (lines: readonly TaxedAmount[], t: ReturnType<typeof terms>): { rates: SlipRate[] } => ({ rates: slipTotals(lines, t).rates });

describe('invoiceFigures (hand-worked)', () => {
  it('外税・請求単位: one rounding per rate over the invoice; carry = prev − paid; total = carry + net + tax', () => {
    const t = terms('3', '0');
    const f = invoiceFigures({ prevTotal: 3240, payments: [3000, 240], slips: [slipOf([line(1005)], t), slipOf([line(1005), line(1000, 'reduced')], t)], terms: t });
    // 10%: 2,010 → 201 (the slips would say 100 + 100); 8%: 1,000 → 80.
    expect(f).toEqual({
      prev_total: 3240, paid: 3240, carry: 0, sales_net: 3010, tax_total: 281, total: 3291,
      rates: [{ key: '10', tax_class: 'standard', rate: 10, net: 2010, tax: 201 }, { key: '8', tax_class: 'reduced', rate: 8, net: 1000, tax: 80 }],
    });
  });

  it('外税・伝票単位: the slips\' own rounded tax, summed', () => {
    const t = terms('2', '2');
    expect(invoiceFigures({ prevTotal: 0, payments: [], slips: [slipOf([line(1005)], t), slipOf([line(1005)], t)], terms: t }).tax_total).toBe(202);
  });

  it('内税・請求単位: the tax extracted once from the rate\'s gross, net = gross − tax', () => {
    const t = terms('5', '0');
    const f = invoiceFigures({ prevTotal: 0, payments: [], slips: [1, 2, 3].map(() => slipOf([line(1000)], t)), terms: t });
    expect([f.sales_net, f.tax_total, f.total]).toEqual([2728, 272, 3000]);
    const perSlip = terms('4', '0');
    expect(invoiceFigures({ prevTotal: 0, payments: [], slips: [1, 2, 3].map(() => slipOf([line(1000)], perSlip)), terms: perSlip }).tax_total).toBe(270);
  });

  it('a return makes a rate\'s net negative; non-taxable buckets count with tax 0; a credit is carried', () => {
    const t = terms('3', '1');
    const f = invoiceFigures({
      prevTotal: 1000, payments: [5000],
      slips: [slipOf([line(2000, 'reduced'), line(500, 'outside'), line(300, 'exempt')], t), slipOf([line(-5001, 'reduced')], t)],
      terms: t,
    });
    // 8%: −3,001 × 8% = −240.08 → 切上げ away from zero −241.
    expect(f.rates.map((r) => [r.key, r.net, r.tax])).toEqual([['8', -3001, -241], ['exempt', 300, 0], ['outside', 500, 0]]);
    expect([f.carry, f.sales_net, f.tax_total, f.total]).toEqual([-4000, -2201, -241, -6442]);
  });

  it('a delivery site billing 内税 under a 外税 請求先 is re-taxed on its net', () => {
    const site = slipOf([line(1100)], terms('4', '0'));
    const f = invoiceFigures({ prevTotal: 0, payments: [], slips: [site], terms: terms('3', '0') });
    expect([f.sales_net, f.tax_total, f.total]).toEqual([1000, 100, 1100]);
  });

  it('is issued for sales, payments or a balance carried, never for nothing', () => {
    expect(isIssued({ slips: 0, payments: 0, carry: 0 })).toBe(false);
    expect(isIssued({ slips: 1, payments: 0, carry: 0 })).toBe(true);
    expect(isIssued({ slips: 0, payments: 1, carry: 0 })).toBe(true);
    expect(isIssued({ slips: 0, payments: 0, carry: -1 })).toBe(true);
  });
});

const TAX_CLASSES: readonly TaxClass[] = ['standard', 'reduced', 'exempt', 'outside'];
const lineArb = fc.record({ amount: fc.integer({ min: -200_000, max: 200_000 }), taxClass: fc.constantFrom(...TAX_CLASSES) }).map((l) => line(l.amount, l.taxClass));
const termsArb = fc.record({ zeiTen: fc.constantFrom<TaxTransfer>('2', '3', '4', '5'), zeiKiri: fc.constantFrom<Rounding>('0', '1', '2') });
/** One month of a customer: its slips' lines and its payments. */
const monthArb = fc.record({
  slips: fc.array(fc.array(lineArb, { minLength: 1, maxLength: 5 }), { maxLength: 6 }),
  payments: fc.array(fc.integer({ min: -50_000, max: 500_000 }).filter((n) => n !== 0), { maxLength: 3 }),
});
const customerArb = fc.record({ opening: fc.integer({ min: -100_000, max: 1_000_000 }), terms: termsArb, months: fc.array(monthArb, { minLength: 1, maxLength: 6 }) });

describe('invoiceFigures (properties over random ledgers)', () => {
  it('every yen reconciles over a sequence of closings: Σ last totals = Σ opening + Σ nets + Σ tax − Σ payments', () => {
    fc.assert(fc.property(fc.array(customerArb, { minLength: 1, maxLength: 8 }), (customers) => {
      let lastTotals = 0;
      let expected = 0;
      for (const c of customers) {
        let prev = c.opening;
        expected += c.opening;
        for (const month of c.months) {
          const f = invoiceFigures({ prevTotal: prev, payments: month.payments, slips: month.slips.map((l) => slipOf(l, c.terms)), terms: c.terms });
          // Each invoice adds up on its own (plain comparisons: expect() in a loop of thousands is slow).
          if (f.carry !== f.prev_total - f.paid || f.total !== f.carry + f.sales_net + f.tax_total) return false;
          if (f.rates.reduce((s, r) => s + r.net, 0) !== f.sales_net || f.rates.reduce((s, r) => s + r.tax, 0) !== f.tax_total) return false;
          expected += f.sales_net + f.tax_total - month.payments.reduce((s, p) => s + p, 0);
          prev = f.total;
        }
        lastTotals += prev;
      }
      return lastTotals === expected;
    }), { numRuns: 3000 });
  });

  it('請求単位 rounds each rate once over the invoice; 伝票単位 sums the slips\' rounded tax; they differ by at most a yen per slip', () => {
    fc.assert(fc.property(termsArb, monthArb, (t, month) => {
      const slips = month.slips.map((l) => slipOf(l, t));
      const f = invoiceFigures({ prevTotal: 0, payments: [], slips, terms: t });
      for (const r of f.rates) {
        const mine = slips.flatMap((s) => s.rates.filter((x) => x.key === r.key));
        const slipTax = mine.reduce((s, x) => s + x.tax, 0);
        if (roundsPerInvoice(t.zeiTen)) {
          // One rounding of the rate's whole amount (税抜 for 外税, 税込 for 内税).
          const once = bucketTax(mine.reduce((s, x) => s + x.amount, 0), r.rate, t);
          expect([r.net, r.tax]).toEqual([once.net, once.tax]);
          expect(Math.abs(r.tax - slipTax)).toBeLessThanOrEqual(mine.length);
        } else {
          expect(r.tax).toBe(slipTax);
        }
        // Net + tax of the rate is what the slips charged (税込), whichever way the tax was rounded, for 内税.
        if (t.zeiTen === '4' || t.zeiTen === '5') expect(r.net + r.tax).toBe(mine.reduce((s, x) => s + x.total, 0));
      }
    }), { numRuns: 5000 });
  });

  it('the slips\' rows summed per rate first (what the server reads) give the same invoice', () => {
    fc.assert(fc.property(termsArb, monthArb, fc.integer({ min: -100_000, max: 100_000 }), (t, month, prev) => {
      const slips = month.slips.map((l) => slipOf(l, t));
      const sums = new Map<string, SlipRate>();
      for (const r of slips.flatMap((x) => x.rates)) {
        const k = `${r.key}:${r.taxClass}`;
        const was = sums.get(k);
        sums.set(k, was ? { ...was, amount: was.amount + r.amount, net: was.net + r.net, tax: was.tax + r.tax, total: was.total + r.total } : { ...r });
      }
      const one = invoiceFigures({ prevTotal: prev, payments: month.payments, slips, terms: t });
      const summed = invoiceFigures({ prevTotal: prev, payments: [month.payments.reduce((a, b) => a + b, 0)], slips: [{ rates: [...sums.values()] }], terms: t });
      expect(summed).toEqual(one);
    }), { numRuns: 2000 });
  });

  it('sums every money column of many invoices', () => {
    fc.assert(fc.property(fc.array(fc.record({ prev_total: fc.integer(), paid: fc.integer(), carry: fc.integer(), sales_net: fc.integer(), tax_total: fc.integer(), total: fc.integer() }).map((r) => ({ ...r })), { maxLength: 20 }), (rows) => {
      const sums = sumFigures(rows);
      for (const k of ['prev_total', 'paid', 'carry', 'sales_net', 'tax_total', 'total'] as const) expect(sums[k]).toBe(rows.reduce((s, r) => s + r[k], 0));
    }), { numRuns: 500 });
  });
});
