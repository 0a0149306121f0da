import { describe, expect, it } from 'vitest';
import { moneyTermsOf } from '@/lib/money/totals';
import { deliveryFeesOf } from '@/lib/orders/delivery-fee';
import { orderPricing, type OrderPricingInput } from '@/lib/orders/form-pricing';
import type { TaxPeriod } from '@/lib/tax';

const periods: TaxPeriod[] = [
  { taxClass: 'standard', rate: 10, validFrom: '2019-10-01', validTo: '' },
  { taxClass: 'reduced', rate: 8, validFrom: '2019-10-01', validTo: '' },
];
const fees = deliveryFeesOf([
  { df_pref_code: '13', df_pref_name: '東京都', df_fee: 550, df_remote_fee: 0, df_note: '' },
  { df_pref_code: '47', df_pref_name: '沖縄県', df_fee: 1320, df_remote_fee: 1650, df_note: '' },
]);
const input = (extra: Partial<OrderPricingInput> = {}): OrderPricingInput => ({
  amounts: [{ amount: 2600, taxClass: 'reduced', taxRate: 8 }],
  linesCountable: true,
  feeText: '',
  ship: {},
  client: undefined,
  isNew: true,
  fees,
  periods,
  date: '2026-10-01',
  terms: moneyTermsOf(undefined),
  ...extra,
});

describe('orderPricing: the order form’s fee and totals before the save', () => {
  it('charges the typed fee as a standard-rate line and totals the order with it', () => {
    const out = orderPricing(input({ feeText: ' 550 ' }));
    expect(out.fee).toBe(550);
    expect(out.prefFee).toBeUndefined();
    expect(out.feeLine).toEqual({ name: '送料', quantity: 1, price: 550, amount: 550, taxClass: 'standard', taxRate: 10 });
    expect(out.totals.total).toBe(3413);
    expect(out.countable).toBe(true);
  });

  it('takes the shipping prefecture’s fee when none is typed', () => {
    const out = orderPricing(input({ ship: { pref: '沖縄県', city: '那覇市' }, isNew: false }));
    expect(out.shipPref).toBe('沖縄県');
    expect(out.prefFee?.prefName).toBe('沖縄県');
    expect(out.fee).toBe(1320);
  });

  it('ships a new order without a shipping address to the customer’s address, a stored one nowhere', () => {
    const client = { cl_pref: '東京都', cl_shipping_pref: '' };
    expect(orderPricing(input({ client })).prefFee?.fee).toBe(550);
    const stored = orderPricing(input({ client, isNew: false }));
    expect([stored.shipPref, stored.fee, stored.feeLine]).toEqual(['', 0, undefined]);
    expect(stored.totals.total).toBe(2808);
  });

  it('cannot count a wrong fee or an unpriced line', () => {
    const wrong = orderPricing(input({ feeText: '5.5' }));
    expect([wrong.fee, wrong.countable, wrong.feeLine]).toEqual([undefined, false, undefined]);
    expect(orderPricing(input({ linesCountable: false, feeText: '0' })).countable).toBe(false);
  });

  it('prices the fee tax-inclusive for a 内税 customer', () => {
    const out = orderPricing(input({ feeText: '550', terms: moneyTermsOf({ cl_zei_ten: '5' }) }));
    expect(out.feeLine?.price).toBe(605);
  });
});
