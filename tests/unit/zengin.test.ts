/**
 * 全銀 種別91 (JACCS): the kana a name becomes, the records' byte layout, and the result file reader — CR LF or none,
 * several blocks, and each bad file refused whole naming its line.
 */
import { describe, expect, it } from 'vitest';
import {
  dataRecord, endRecord, headerRecord, readData, toZenginKana, trailerOf, trailerRecord, zenginUnheld, type ZenginData,
} from '../../lib/zengin/format';
import { debitAccountProblems } from '../../lib/resources/client';
import { halfWidthOf } from '../../lib/resources/schema';
import { resultRecords } from '../../server/imports/kinds/jaccs_result';
import { customerProblems, debitDateOf } from '../../server/jaccs/request';
import { fileOf } from '../support/zengin-result';

const header = headerRecord({
  itakuCode: '1234567890', itakuName: 'ｱｸｱﾀｸﾊｲｾﾝﾀ-', debitDate: '2025-05-27', bankCode: '0001', bankName: 'ﾐｽﾞﾎ', branchCode: '123',
  branchName: 'ｼﾝｼﾞﾕｸ', accountType: '1', accountNo: '7654321',
});
const data = (customerNo: string, amount: number, result = '0'): ZenginData => ({
  bankCode: '0005', bankName: '', branchCode: '001', branchName: '', accountType: '1', accountNo: '0123456', holder: 'ﾔﾏﾀﾞ ﾀﾛｳ', amount, newCode: '1',
  customerNo, result,
});
const block = (rows: ZenginData[]): string[] => [header, ...rows.map(dataRecord), trailerRecord(trailerOf(rows))];

describe('toZenginKana', () => {
  it('turns hiragana, full-width and half-width kana into Zengin half-width kana with the voiced marks apart', () => {
    expect(toZenginKana('やまだ　たろう')).toBe('ﾔﾏﾀﾞ ﾀﾛｳ');
    expect(toZenginKana('パン・ド・ミー')).toBe('ﾊﾟﾝ.ﾄﾞ.ﾐ-');
    expect(toZenginKana('ヴァイオリン')).toBe('ｳﾞｱｲｵﾘﾝ');
  });
  it('enlarges small kana and writes the long vowel as "-", letters upper case', () => {
    expect(toZenginKana('ｷｯﾁｮｰ ｶﾌﾞｼｷｶﾞｲｼｬ')).toBe('ｷﾂﾁﾖ- ｶﾌﾞｼｷｶﾞｲｼﾔ');
    expect(toZenginKana('ｶ)ａｑｕａ')).toBe('ｶ)AQUA');
    expect(toZenginKana('ヶ月ヵ')).toBe('ｹ月ｶ');
  });
  it('names the characters Zengin cannot hold', () => {
    expect(zenginUnheld(toZenginKana('山田 タロウ'))).toEqual(['山', '田']);
    expect(zenginUnheld(toZenginKana('ﾀﾞｲｺｸﾔ (ｶ'))).toEqual([]);
    expect(zenginUnheld('ｰ')).toEqual(['ｰ']);
  });
  it('is what the customer form stores for 口座名義カナ, and refuses what Zengin cannot hold', async () => {
    const { clientResource } = await import('../../lib/resources/client');
    const field = clientResource.fields.find((f) => f.name === 'account_kana')!;
    expect(halfWidthOf(field, 'かぶしきがいしゃ　あくあ')).toBe('ｶﾌﾞｼｷｶﾞｲｼﾔ ｱｸｱ');
    const { checkValues } = await import('../../lib/resources/schema');
    const checked = checkValues(clientResource, { account_kana: '山田' });
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.fields.account_kana).toBe('口座名義カナに口座振替で使えない文字があります（山田）。カナ・英大文字・数字・スペースと ( ) . - / で入力してください。');
  });
});

describe('records', () => {
  it('are 120 characters each, N fields zero-filled and C fields space-filled at the documented positions', () => {
    const d = dataRecord(data('12', 5400));
    for (const r of [header, d, trailerRecord(trailerOf([data('12', 5400)])), endRecord()]) expect(r).toHaveLength(120);
    expect(header.slice(0, 4)).toBe('1910');
    expect(header.slice(4, 14)).toBe('1234567890');
    expect(header.slice(54, 58)).toBe('0527');
    expect(header.slice(58, 62)).toBe('0001');
    expect(header.slice(95, 103)).toBe('17654321');
    expect(d.slice(80, 90)).toBe('0000005400');
    expect(d.slice(91, 111)).toBe('00000000000000000012');
    expect(d[111]).toBe('0');
    expect(readData(d)).toMatchObject({ amount: 5400, customerNo: '00000000000000000012', holder: 'ﾔﾏﾀﾞ ﾀﾛｳ', accountNo: '0123456' });
  });
  it('debit on the 27th of the next month, or the next bank day', () => {
    expect(debitDateOf('202504')).toBe('2025-05-27');
    expect(debitDateOf('202508')).toBe('2025-09-29'); // 2025-09-27 is a Saturday
    expect(debitDateOf('202512')).toBe('2026-01-27');
  });
  it('customer problems name each missing or malformed field', () => {
    expect(customerProblems({ cl_bank_code: '12', cl_account_kana: '山田' }, 100)).toEqual([
      '銀行コードは 4 桁の数字で入力してください', '支店コードがありません', '預金種目がありません', '口座番号がありません', '顧客番号がありません',
      '口座名義カナに全銀フォーマットで使えない文字があります（山田）',
    ]);
    expect(debitAccountProblems({ debit_code: '123' }).debit_code).toBe('顧客番号は 20 桁の数字で入力してください。');
  });
});

describe('resultRecords', () => {
  const good = [...block([data('1', 5400), data('2', 3000, '1')]), ...block([data('3', 1200, '0')]), endRecord()];
  it('reads every data record of several blocks, with CR LF or without, naming each row by its line', () => {
    for (const crlf of [true, false]) {
      const rows = resultRecords(fileOf(good, crlf));
      expect(rows.map((r) => [r.row, r.values.debit_code.slice(-1), r.values.amount, r.values.result, r.values.block, r.values.debit_mmdd])).toEqual([
        [2, '1', '5400', '0', '1', '0527'], [3, '2', '3000', '1', '1', '0527'], [6, '3', '1200', '0', '2', '0527'],
      ]);
    }
  });
  it('refuses a 119-byte record naming its line', () => {
    const bad = [...good];
    bad[2] = bad[2].slice(0, 119);
    expect(() => resultRecords(fileOf(bad))).toThrow(/3 行目: レコードの長さが 119 バイト/);
    expect(() => resultRecords(fileOf(bad, false))).toThrow(/改行のないファイルの長さ 959 バイトが 120 バイトの倍数ではありません。3 行目/);
  });
  it('refuses a trailer that does not add up, naming the line and the count', () => {
    const bad = [...good];
    bad[3] = trailerRecord({ ...trailerOf([data('1', 5400), data('2', 3000, '1')]), doneTotal: 5401 });
    expect(() => resultRecords(fileOf(bad))).toThrow(/4 行目: トレーラーレコードの振替済金額 5,401円 がデータレコードの集計 5,400円 と合いません/);
    const count = [...good];
    count[6] = trailerRecord({ ...trailerOf([data('3', 1200)]), count: 2 });
    expect(() => resultRecords(fileOf(count))).toThrow(/7 行目: トレーラーレコードの合計件数 2件 がデータレコードの集計 1件/);
  });
  it('refuses an unknown record type, a lone LF, a missing end and a record after the end', () => {
    const unknown = [...good];
    unknown[1] = `3${unknown[1].slice(1)}`;
    expect(() => resultRecords(fileOf(unknown))).toThrow(/2 行目: レコード種別「3」/);
    const lf = Buffer.from(fileOf(good).toString('latin1').replace('\r\n', '\n'), 'latin1');
    expect(() => resultRecords(lf)).toThrow(/1 行目: 改行が CR LF ではありません/);
    expect(() => resultRecords(fileOf(good.slice(0, -1)))).toThrow(/エンドレコード（9）がありません/);
    expect(() => resultRecords(fileOf([...good, endRecord()]))).toThrow(/9 行目: エンドレコード（9）のあとに/);
    expect(() => resultRecords(Buffer.alloc(0))).toThrow(/空です/);
  });
  it('refuses a non-digit amount naming the field and its bytes', () => {
    const bad = [...good];
    bad[1] = `${bad[1].slice(0, 80)}00000054X0${bad[1].slice(90)}`;
    expect(() => resultRecords(fileOf(bad))).toThrow(/2 行目: 引落金額（81〜90 バイト目）が数字ではありません/);
  });
});
