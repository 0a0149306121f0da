/**
 * The Yayoi journal's records (lib/accounting/yayoi.ts), pure: 25 cells, 識別フラグ per 伝票, the sides swapped for a negative
 * amount (never a minus), zero buckets left out, 摘要 cut at 64 cp932 bytes, the mapping table's names written as given.
 */
import { describe, expect, it } from 'vitest';
import { yayoiRecords, yayoiText, type YayoiPayment, type YayoiSlipRate } from '../../lib/accounting/yayoi';
import { YAYOI_DEFAULTS, type YayoiSetting } from '../../lib/resources/yayoi-setting';

const setting: YayoiSetting = { ...YAYOI_DEFAULTS };
const rate = (values: Partial<YayoiSlipRate>): YayoiSlipRate => ({
  sl_id: 1, number: 'SL20260401-000001', date: '2026-04-01', client: '山田商店', yayoi_id: 'Y01', key: '10', total: 1100, tax: 100, ...values,
});
const payment = (values: Partial<YayoiPayment>): YayoiPayment => ({ py_id: 1, date: '2026-04-02', client: '山田商店', yayoi_id: 'Y01', kind: 'transfer', amount: 1100, ...values });

describe('yayoiRecords', () => {
  it('writes 25 cells: 2111, 伝票No., slash date, 売掛金 (補助 = 弥生取引先コード) / 売上高 with our tax in the 税金額 column, type 0, 調整 no', () => {
    const [record] = yayoiRecords([rate({})], [], setting);
    expect(record).toHaveLength(25);
    expect(record).toEqual(['2111', '1', '', '2026/04/01', '売掛金', 'Y01', '', '対象外', '1100', '0', '売上高', '', '', '課税売上内10%', '1100', '100',
      'SL20260401-000001 10% 山田商店', '', '', '0', '', '', '0', '0', 'no']);
  });

  it('swaps debit and credit of a negative bucket and a refund, amounts positive', () => {
    const [ret, refund] = yayoiRecords([rate({ total: -550, tax: -50 })], [payment({ amount: -300, kind: 'cash' })], setting);
    expect([ret[4], ret[7], ret[8], ret[9], ret[10], ret[14]]).toEqual(['売上高', '課税売上内10%', '550', '50', '売掛金', '550']);
    expect([refund[4], refund[8], refund[10], refund[14]]).toEqual(['売掛金', '300', '現金', '300']);
  });

  it('makes one 伝票 of a slip with several buckets (2110, 2100, 2101), leaves zero buckets and payments out, orders by date with slips first', () => {
    const records = yayoiRecords([
      rate({ sl_id: 2, date: '2026-04-03', key: 'outside', total: 1000, tax: 0 }),
      rate({ sl_id: 2, date: '2026-04-03', key: '8', total: 540, tax: 40 }),
      rate({ sl_id: 2, date: '2026-04-03', key: 'exempt', total: 0, tax: 0 }),
      rate({ sl_id: 2, date: '2026-04-03', key: '10', total: 1100, tax: 100 }),
    ], [payment({ date: '2026-04-03' }), payment({ py_id: 2, amount: 0 })], setting);
    expect(records.map((r) => [r[0], r[1], r[13]])).toEqual([
      ['2110', '1', '課税売上内10%'], ['2100', '1', '課税売上内軽減8%'], ['2101', '1', '対象外'], ['2111', '2', '対象外'],
    ]);
    expect(records[2][10]).toBe('預り金');
    expect(records[3][10]).toBe('売掛金');
  });

  it('takes the accounts and tax classes of the mapping table', () => {
    const [record] = yayoiRecords([], [payment({ kind: 'debit' })], { ...setting, acc_bank: '当座預金', tax_none: '不課税' });
    expect([record[4], record[7]]).toEqual(['当座預金', '不課税']);
  });
});

describe('yayoiText', () => {
  it('cuts at cp932 bytes on a character boundary (half-width kana one byte) and turns line breaks into spaces', () => {
    expect(yayoiText('あいう', 5)).toBe('あい');
    expect(yayoiText('ｱｲｳｴｵ', 4)).toBe('ｱｲｳｴ');
    expect(yayoiText('a\r\nb', 10)).toBe('a b');
  });
});
