import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { clientResource } from '@/lib/resources/client';
import { resourceSchema } from '@/lib/resources/schema';
import { escapeLike, searchJoin, searchKey, searchTerms, toHalfWidth, toHalfWidthNumber, toStoredKana, toStoredText } from '@/lib/text';

describe('width conversion', () => {
  it('converts full-width letters, digits and symbols to half-width', () => {
    expect(toHalfWidth('ＡＢＣ１２３＠ｅｘａｍｐｌｅ．ｊｐ')).toBe('ABC123@example.jp');
  });
  it('unifies dash variants in phone numbers and postcodes', () => {
    expect(toHalfWidthNumber('０３ー１２３４−５６７８')).toBe('03-1234-5678');
    expect(toHalfWidthNumber('１００－０００１')).toBe('100-0001');
  });
  it('leaves Japanese text alone', () => {
    expect(toHalfWidth('株式会社青葉商事')).toBe('株式会社青葉商事');
  });
  it('makes search keys width- and case-insensitive (NFKC both ways)', () => {
    expect(searchKey('ＡＢＣ商事')).toBe(searchKey('abc商事'));
    expect(searchKey('ｱｵﾊﾞ')).toBe('アオバ');
  });
  it('folds hyphens and dashes of every kind, spaces and hiragana in search keys', () => {
    const phone = searchKey('03-1234-5678');
    for (const typed of ['0312345678', '０３ー１２３４ー５６７８', '03－1234－5678', '03‐1234‐5678', '03 1234 5678']) expect(searchKey(typed)).toBe(phone);
    expect(searchKey('山田　太郎')).toBe(searchKey('山田太郎'));
    expect(searchKey('てんねんすい')).toBe(searchKey('テンネンスイ'));
    expect(searchKey('ﾃﾝﾈﾝｽｲ')).toBe(searchKey('てんねんすい'));
  });
  it('splits a keyword into folded terms, and keys each stored field alone', () => {
    expect(searchTerms(' やまだ　03-1234 やまだ ')).toEqual(['ヤマダ', '031234']);
    expect(searchJoin(['山田 太郎', '', '03-1234-5678'])).toBe('山田太郎 0312345678');
  });
  it('converts what text and カナ fields store', () => {
    expect(toStoredText('丸の内１－２－３　ﾋﾞﾙ（本館）')).toBe('丸の内1-2-3　ビル（本館）');
    expect(toStoredKana('やまだ ﾀﾛｳ')).toBe('ヤマダ タロウ');
    expect(toStoredKana('ゞ')).toBe('ヾ');
  });
  it('escapes LIKE wildcards', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});

describe('customer schema', () => {
  const schema = resourceSchema(clientResource);
  it('converts full-width phone, postcode and e-mail on validation', () => {
    const out = v.parse(schema, { status: '1', co_name: '青葉商事', tel_1: '０３－１２３４－５６７８', zipcode: '１０００００１', email: 'ＩＮＦＯ＠ｅｘａｍｐｌｅ．ｊｐ' });
    expect(out).toMatchObject({ tel_1: '03-1234-5678', zipcode: '100-0001', email: 'INFO@example.jp' });
  });
  it('names the field in its Japanese message', () => {
    const result = v.safeParse(schema, { status: '1', co_name: '青葉商事', tel_1: 'abc' });
    expect(result.success).toBe(false);
    expect(result.issues?.[0].message).toBe('電話番号1の形式が正しくありません（例: 03-1234-5678）。');
  });
  it('requires a company name or a person name', () => {
    const result = v.safeParse(schema, { status: '1', co_name: '', name: '', tel_1: '03-1234-5678' });
    expect(result.success).toBe(false);
    expect(result.issues?.map((i) => i.message)).toContain('会社名か氏名のどちらかを入力してください。');
  });
  it('converts カナ, 番地 and 法人番号 as typed: hiragana and half-width kana to katakana, full-width digits to half-width', () => {
    const out = v.parse(schema, { status: '1', co_name: '青葉商事', co_name_kana: 'あおばしょうじ', name_kana: 'ｱｵﾊﾞ ﾀﾛｳ', tel_1: '03-1234-5678', address: '１－２－３', co_id: '１２３４５６７８９０１２３' });
    expect(out).toMatchObject({ co_name_kana: 'アオバショウジ', name_kana: 'アオバ タロウ', address: '1-2-3', co_id: '1234567890123' });
  });
  it('refuses text longer than the field allows', () => {
    const result = v.safeParse(schema, { status: '1', co_name: 'あ'.repeat(101), tel_1: '03-1234-5678' });
    expect(result.issues?.[0].message).toBe('会社名は100文字以内で入力してください。');
  });
});
