/**
 * The Yamato B2 row's pieces without a database: B2's width units, the address split into 住所 (全角 32) and
 * アパートマンション名 (全角 16), half-width kana, the JIS X 0208 replacements, the name rules and the problems a row
 * names; and the tracking number's check digit (lib/orders/tracking).
 */
import { describe, expect, it } from 'vitest';
import { isValidTrackingNo, trackingCheckDigit } from '@/lib/orders/tracking';
import { toHalfWidthKana } from '@/lib/text';
import { B2_COLUMN, B2_COLUMNS, b2Kana, b2Row, b2Width, cutWidth, splitAddress, type B2Order, type B2Sender } from '@/server/exports/b2-layout';
import { jisX0208Text } from '@/server/resources/csv-text';

const sender: B2Sender = { name: '株式会社アクア', zipcode: '1000001', address: '東京都千代田区千代田1-1', tel: '03-0000-0000', billingCode: '012345678901', billingClass: '', freightNo: '01' };
const order = (over: Partial<B2Order> = {}): B2Order => ({
  number: 'OD-1', deliveryDate: '2026-05-02', timeSlot: '1416', collect: false, total: 2160, tax: 160,
  ship: { coName: '', name: '山田 太郎', zipcode: '１５０－０００１', pref: '東京都', city: '渋谷区', address: '神宮前1-2-3', building: 'アクアビル101', tel: '０３ー１２３４ー５６７８' },
  client: { name: '山田 太郎', nameKana: 'ヤマダ タロウ', coName: '', coNameKana: '' },
  lines: [{ name: '天然水 12L', quantity: 2 }],
  ...over,
});
const cell = (cells: string[], column: number) => cells[column - 1];

describe('B2 widths and the address split', () => {
  it('counts a full-width character 2 and ASCII or half-width kana 1', () => {
    expect(b2Width('丸の内1-2')).toBe(9);
    expect(b2Width('ｱｲｳ')).toBe(3);
    expect(b2Width('𠮷')).toBe(2);
  });
  it('cuts at the width, at a space in the second half when there is one', () => {
    expect(cutWidth('東京都千代田区丸の内1-2-3 サンプルビル', 32)).toEqual(['東京都千代田区丸の内1-2-3', 'サンプルビル']);
    expect(cutWidth('あいうえおかきくけこ', 10)).toEqual(['あいうえお', 'かきくけこ']);
    expect(cutWidth('短い', 64)).toEqual(['短い', '']);
  });
  it('keeps an address of 32 full-width characters in the address column and moves the 33rd before the building', () => {
    const thirtyTwo = '北海道'.padEnd(32, '字');
    expect(splitAddress(thirtyTwo, 'ビル')).toEqual({ address: thirtyTwo, building: 'ビル' });
    expect(splitAddress(`${thirtyTwo}丁`, 'ビル')).toEqual({ address: thirtyTwo, building: '丁 ビル' });
  });
  it('refuses an address the two columns cannot hold (住所 64 + 建物 32 units)', () => {
    expect(splitAddress('字'.repeat(32), '字'.repeat(16))).toBeDefined();
    expect(splitAddress('字'.repeat(33), '字'.repeat(16))).toBeUndefined();
  });
});

describe('half-width kana', () => {
  it('makes katakana and hiragana half-width, voiced kana as two characters', () => {
    expect(toHalfWidthKana('ヤマダ　タロウ')).toBe('ﾔﾏﾀﾞ ﾀﾛｳ');
    expect(toHalfWidthKana('ぱーてぃー')).toBe('ﾊﾟｰﾃｨｰ');
    expect(toHalfWidthKana('ヴァイオリン・ガス「」ヶ')).toBe('ｳﾞｧｲｵﾘﾝ･ｶﾞｽ｢｣ｹ');
  });
  it('drops what has no half-width form from the B2 kana column and says which', () => {
    expect(b2Kana('カブシキガイシャ山田')).toEqual({ text: 'ｶﾌﾞｼｷｶﾞｲｼｬ', dropped: ['山', '田'] });
  });
});

describe('JIS X 0208 text', () => {
  it('replaces NEC specials, IBM extensions and characters beyond the BMP, stand-ins first', () => {
    expect(jisX0208Text('髙橋①𠮷〜邉')).toEqual({
      held: '〓橋〓吉～邉',
      replaced: [{ char: '髙', to: '〓' }, { char: '①', to: '〓' }, { char: '𠮷', to: '吉' }],
    });
  });
});

describe('b2Row', () => {
  it('fills the 97 cells of a 発払い order: dates, time slot, phone, postcode, address, kana, items, contract codes', () => {
    const { cells, problems, replaced } = b2Row(order(), sender, '2026-05-01');
    expect(problems).toEqual([]);
    expect(replaced).toEqual([]);
    expect(cells).toHaveLength(B2_COLUMNS.length);
    expect(B2_COLUMNS).toHaveLength(97);
    expect([cell(cells, B2_COLUMN.number), cell(cells, B2_COLUMN.type), cell(cells, B2_COLUMN.shipDate), cell(cells, B2_COLUMN.deliveryDate), cell(cells, B2_COLUMN.timeSlot)])
      .toEqual(['OD-1', '0', '2026/05/01', '2026/05/02', '1416']);
    expect([cell(cells, B2_COLUMN.tel), cell(cells, B2_COLUMN.zipcode), cell(cells, B2_COLUMN.address), cell(cells, B2_COLUMN.building)])
      .toEqual(['03-1234-5678', '150-0001', '東京都渋谷区神宮前1-2-3', 'アクアビル101']);
    expect([cell(cells, B2_COLUMN.name), cell(cells, B2_COLUMN.kana), cell(cells, B2_COLUMN.item1)]).toEqual(['山田 太郎', 'ﾔﾏﾀﾞ ﾀﾛｳ', '天然水 12L ×2']);
    expect([cell(cells, B2_COLUMN.billingCode), cell(cells, B2_COLUMN.freightNo), cell(cells, B2_COLUMN.collect)]).toEqual(['012345678901', '01', '']);
  });
  it('writes a コレクト with its amount for an order paid on delivery', () => {
    const { cells } = b2Row(order({ collect: true }), sender, '2026-05-01');
    expect([cell(cells, B2_COLUMN.type), cell(cells, B2_COLUMN.collect), cell(cells, B2_COLUMN.collectTax)]).toEqual(['2', '2160', '160']);
  });
  it('puts a long company name in the company columns and ご担当者 as the name when there is no person', () => {
    const long = order({ ship: { ...order().ship, name: '', coName: '株式会社とても長い名前のウォーターサーバー販売' } });
    const { cells } = b2Row(long, sender, '2026-05-01');
    expect([cell(cells, B2_COLUMN.company1), cell(cells, B2_COLUMN.name)]).toEqual(['株式会社とても長い名前のウォーターサーバー販売', 'ご担当者']);
  });
  it('names every missing or unfit field, and the replaced characters with their field', () => {
    const bad = order({
      deliveryDate: '2026-04-30', timeSlot: '1012', lines: [],
      ship: { ...order().ship, zipcode: '', tel: '03-1234-5678-9999-1', name: '髙橋 一郎' },
    });
    const { problems, replaced } = b2Row(bad, sender, '2026-05-01');
    expect(problems.map((p) => p.field)).toEqual(['配送日', '配達時間帯', '配送先電話番号', '配送先郵便番号', '明細']);
    expect(replaced).toEqual([{ field: '配送先氏名', char: '髙', to: '〓' }]);
  });
});

describe('tracking numbers', () => {
  it('checks the last digit against the first 11 mod 7', () => {
    expect(trackingCheckDigit('44441375870')).toBe(3);
    expect(isValidTrackingNo('444413758703')).toBe(true);
    expect(isValidTrackingNo('4444-1375-8703')).toBe(true);
    expect(isValidTrackingNo('444413758704')).toBe(false);
    expect(isValidTrackingNo('44441375870')).toBe(false);
  });
});
