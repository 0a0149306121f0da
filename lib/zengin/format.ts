/**
 * 全銀協 口座振替 (種別コード 91) records, as text (issue 14, JACCS): every record is 120 characters of the
 * Zengin character set, each one byte in cp932 (JIS X 0201), so a record's text length is its byte length. The
 * layout is shared/domain/hod-back-office.md §3, confirmed byte for byte by money-and-files.md §1:
 * header 1 / data 2 / trailer 8 / end 9; N fields right-aligned zero-filled, C fields left-aligned space-filled.
 * Pure: the server encodes (iconv-lite) and reads files; the screens show the result codes' meanings.
 */

export const RECORD_LENGTH = 120;

/** 預金種目 of a debited account (口座振替: vain0x/zengin-edit; 4 貯蓄 is the 総合振込 list). */
export const DEBIT_ACCOUNT_TYPES = [
  { value: '1', text: '普通' },
  { value: '2', text: '当座' },
  { value: '9', text: 'その他' },
] as const;

/** 振替結果コード and their meaning (0 振替済; the rest 振替不能). */
export const DEBIT_RESULTS = [
  { value: '0', text: '振替済' },
  { value: '1', text: '資金不足' },
  { value: '2', text: '取引なし' },
  { value: '3', text: '預金者の都合による振替停止' },
  { value: '4', text: '依頼書なし' },
  { value: '8', text: '委託者の都合による振替停止' },
  { value: '9', text: 'その他' },
] as const;

/** The meaning of a result code (an unknown digit: その他). @example debitResultText('1') // '資金不足' */
export const debitResultText = (code: string): string => DEBIT_RESULTS.find((r) => r.value === code)?.text ?? `その他（コード ${code}）`;

/** The characters a Zengin C field may hold (vain0x CHAR_REGEXP): no small kana, no ｰ, no lower case. */
const ZENGIN_CHAR = /[ '()+,\-./0-9:?A-Z\\｢｣ｦｱ-ﾝﾞﾟ]/;

// Full-width katakana → half-width, learnt from NFKC of the half-width block (ｦ…ﾝ), so the table is not typed by hand.
const HALF_OF = new Map<string, string>();
for (let code = 0xff66; code <= 0xff9d; code += 1) {
  const half = String.fromCharCode(code);
  HALF_OF.set(half.normalize('NFKC'), half);
}
/** Small kana enlarged (Zengin has none), the marks Zengin writes otherwise. */
const ENLARGED: Record<string, string> = {
  ァ: 'ア', ィ: 'イ', ゥ: 'ウ', ェ: 'エ', ォ: 'オ', ッ: 'ツ', ャ: 'ヤ', ュ: 'ユ', ョ: 'ヨ', ヮ: 'ワ', ヵ: 'カ', ヶ: 'ケ',
  ヰ: 'イ', ヱ: 'エ', ー: '-', '‐': '-', '−': '-', '―': '-', '－': '-', '–': '-', '—': '-', '・': '.', '、': ',', '。': '.',
  '「': '｢', '」': '｣', '\u3099': 'ﾞ', '\u309A': 'ﾟ', '\u3000': ' ',
};

/**
 * What a Zengin field holds of a name typed any way: hiragana, full- or half-width katakana, full-width letters and
 * digits → half-width katakana with the voiced marks as their own character, small kana enlarged (ｬ → ﾔ, ｯ → ﾂ), the
 * long vowel and dashes as '-', letters upper case, spaces joined. Characters Zengin cannot hold stay as they are
 * (`zenginProblem` names them).
 * @example toZenginKana('やまだ　たろう') // 'ﾔﾏﾀﾞ ﾀﾛｳ'
 * @example toZenginKana('ｷｯﾁｮｰ ｶﾌﾞｼｷｶﾞｲｼｬ') // 'ｷﾂﾁﾖ- ｶﾌﾞｼｷｶﾞｲｼﾔ'
 */
export function toZenginKana(value: string): string {
  // NFKC: half-width kana → full-width (voiced marks joined), full-width ASCII → half-width; then NFD parts the marks.
  const text = value.normalize('NFKC').replace(/[\u3041-\u3096]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0x60)).normalize('NFD');
  let out = '';
  for (const ch of text) {
    const plain = ENLARGED[ch] ?? ch;
    out += HALF_OF.get(plain) ?? plain;
  }
  return out.toUpperCase().replace(/\s+/g, ' ').trim();
}

/**
 * The characters of a converted text Zengin cannot hold (each once, in order), or [] when it can hold it all.
 * @example zenginUnheld('ﾔﾏﾀﾞ 太郎') // ['太', '郎']
 */
export function zenginUnheld(text: string): string[] {
  return [...new Set([...text].filter((ch) => !ZENGIN_CHAR.test(ch)))];
}

/** N field: right-aligned, zero-filled; a value longer than the field is a bug of the caller (thrown). */
export function numberField(value: string | number, length: number): string {
  const text = String(value);
  if (!/^\d*$/.test(text) || text.length > length) throw new Error(`Zengin N field of ${length}: ${text}`);
  return text.padStart(length, '0');
}

/** C field: left-aligned, space-filled, cut to the field (names longer than the field are cut as banks do). */
export const charField = (value: string, length: number): string => value.slice(0, length).padEnd(length, ' ');

/** A bank account as the records name it: the bank and branch by code and kana name, the type and number. */
export interface ZenginAccount {
  bankCode: string;
  bankName: string;
  branchCode: string;
  branchName: string;
  accountType: string;
  accountNo: string;
}

/** The header record: the consignor and the account the debits are paid into. */
export interface ZenginHeader extends ZenginAccount {
  /** 委託者コード (10 digits). */
  itakuCode: string;
  itakuName: string;
  /** 引落日 YYYY-MM-DD (the record holds MMDD). */
  debitDate: string;
}

/** A data record: the customer's account debited. */
export interface ZenginData extends ZenginAccount {
  holder: string;
  amount: number;
  /** 新規コード: 1 第1回, 2 変更, 0 その他. */
  newCode: string;
  /** 顧客番号 (20 digits). */
  customerNo: string;
  /** 振替結果コード: '0' in a request. */
  result: string;
}

export interface ZenginTrailer {
  count: number;
  total: number;
  doneCount: number;
  doneTotal: number;
  failedCount: number;
  failedTotal: number;
}

/** The header record (種別 91, コード区分 0). */
export const headerRecord = (h: ZenginHeader): string =>
  `191${'0'}${numberField(h.itakuCode, 10)}${charField(h.itakuName, 40)}${h.debitDate.slice(5, 7)}${h.debitDate.slice(8, 10)}`
  + `${numberField(h.bankCode, 4)}${charField(h.bankName, 15)}${numberField(h.branchCode, 3)}${charField(h.branchName, 15)}`
  + `${h.accountType ? numberField(h.accountType, 1) : ' '}${h.accountNo ? numberField(h.accountNo, 7) : ' '.repeat(7)}${' '.repeat(17)}`;

/** A data record. */
export const dataRecord = (d: ZenginData): string =>
  `2${numberField(d.bankCode, 4)}${charField(d.bankName, 15)}${numberField(d.branchCode, 3)}${charField(d.branchName, 15)}${' '.repeat(4)}`
  + `${numberField(d.accountType, 1)}${numberField(d.accountNo, 7)}${charField(d.holder, 30)}${numberField(d.amount, 10)}`
  + `${numberField(d.newCode, 1)}${numberField(d.customerNo, 20)}${numberField(d.result, 1)}${' '.repeat(8)}`;

/** The trailer record of a block. */
export const trailerRecord = (t: ZenginTrailer): string =>
  `8${numberField(t.count, 6)}${numberField(t.total, 12)}${numberField(t.doneCount, 6)}${numberField(t.doneTotal, 12)}`
  + `${numberField(t.failedCount, 6)}${numberField(t.failedTotal, 12)}${' '.repeat(65)}`;

/** The end record. */
export const endRecord = (): string => `9${' '.repeat(119)}`;

/** The trailer of data records: all of them, those debited (result 0) and those not. */
export function trailerOf(rows: readonly Pick<ZenginData, 'amount' | 'result'>[]): ZenginTrailer {
  const done = rows.filter((r) => r.result === '0');
  const sum = (list: readonly { amount: number }[]) => list.reduce((s, r) => s + r.amount, 0);
  const failed = rows.filter((r) => r.result !== '0');
  return { count: rows.length, total: sum(rows), doneCount: done.length, doneTotal: sum(done), failedCount: failed.length, failedTotal: sum(failed) };
}

/** Reads a data record's fields (positions of §3, 1-based in the doc). */
export function readData(record: string): ZenginData {
  const at = (from: number, length: number) => record.slice(from - 1, from - 1 + length);
  return {
    bankCode: at(2, 4), bankName: at(6, 15).trimEnd(), branchCode: at(21, 3), branchName: at(24, 15).trimEnd(),
    accountType: at(43, 1), accountNo: at(44, 7), holder: at(51, 30).trimEnd(), amount: Number(at(81, 10)),
    newCode: at(91, 1), customerNo: at(92, 20), result: at(112, 1),
  };
}

/** Reads a trailer record's counts and sums. */
export function readTrailer(record: string): ZenginTrailer {
  const at = (from: number, length: number) => Number(record.slice(from - 1, from - 1 + length));
  return { count: at(2, 6), total: at(8, 12), doneCount: at(20, 6), doneTotal: at(26, 12), failedCount: at(38, 6), failedTotal: at(44, 12) };
}

/** Which N fields of each record type must be digits (1-based position, length, name). */
export const NUMERIC_FIELDS: Record<string, readonly (readonly [number, number, string])[]> = {
  '1': [[2, 2, '種別コード'], [5, 10, '委託者コード'], [55, 4, '引落日']],
  '2': [[2, 4, '引落銀行番号'], [21, 3, '引落支店番号'], [43, 1, '預金種目'], [44, 7, '口座番号'], [81, 10, '引落金額'], [92, 20, '顧客番号'], [112, 1, '振替結果コード']],
  '8': [[2, 6, '合計件数'], [8, 12, '合計金額'], [20, 6, '振替済件数'], [26, 12, '振替済金額'], [38, 6, '振替不能件数'], [44, 12, '振替不能金額']],
  '9': [],
};
