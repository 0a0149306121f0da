/**
 * The 弥生会計 journal import file (弥生インポート形式, 25 columns, no header; see shared/domain/money-and-files.md):
 * what `export_yayoi` writes for a period, as records of 25 cells — pure, so the server writes them (cp932, CR LF) and
 * tests read them. Sales: one line per slip and tax bucket (売掛金 / 売上高, or 預り金 for the 不課税 bucket), the amount
 * tax-inclusive and our per-rate tax in the 税金額 column of the 売上 side (the 「内」 税区分); payments: one line each
 * (普通預金・現金… by 入金区分 / 売掛金). The 売掛金 side's 補助科目 is the customer's 弥生取引先コード. Yayoi takes no negative
 * amount: a negative line (a return, a refund) is written with debit and credit swapped and the amounts positive.
 */
import type { PeriodRules } from '../period';
import type { YayoiSetting } from '../resources/yayoi-setting';

/** A journal's period: both days, at most a year (the screen's check and the server's). */
export const YAYOI_PERIOD: PeriodRules = { required: true, maxDays: 366 };

/** An earlier export as `accounting_export_lst` answers it. */
export interface AccountingExportRow {
  ae_id: number;
  ae_kind: string;
  ae_from: string;
  ae_to: string;
  ae_rows: number;
  ae_slips: number;
  ae_payments: number;
  /** 1: a 再出力 of a period exported before. */
  ae_reexport: number;
  /** Slips and payments dated before the period (late entries, not exported before). */
  ae_late: number;
  created: string;
  user_name: string;
}

/** One tax bucket of one sales slip (a `sales_rate` row with its slip and customer). */
export interface YayoiSlipRate {
  sl_id: number;
  number: string;
  date: string;
  client: string;
  /** The customer's 弥生取引先コード (`cl_yayoi_id`). */
  yayoi_id: string;
  /** `10`, `8`, `exempt`, `outside` (lib/money buckets). */
  key: string;
  /** Tax-inclusive amount of the bucket (signed). */
  total: number;
  /** Our tax of the bucket (signed). */
  tax: number;
  /** Dated before the export's period (entered after the export of its own period): 仕訳メモ says so. */
  late?: boolean;
}

/** One payment slip. */
export interface YayoiPayment {
  py_id: number;
  date: string;
  client: string;
  yayoi_id: string;
  /** 入金区分: cash, transfer, debit, fee, discount, offset. */
  kind: string;
  amount: number;
  /** Dated before the export's period, as a slip's `late`. */
  late?: boolean;
}

/** 仕訳メモ of a slip or payment dated before the export's period (a late entry, issue 19). */
export const YAYOI_LATE_MEMO = '出力期間より前の日付（前回出力後に計上）';

/** The header naming how many slips and payments of the file are dated before its period. */
export const YAYOI_LATE_HEADER = 'x-yayoi-late';

/** Columns of a record (A … Y). */
export const YAYOI_COLUMNS = 25;

/** Most bytes (cp932) of 摘要. */
export const YAYOI_MEMO_BYTES = 64;

const KIND_LABEL: Record<string, string> = { cash: '現金', transfer: '振込', debit: '口座振替', fee: '手数料', discount: '値引', offset: '相殺' };
const RATE_LABEL: Record<string, string> = { '10': '10%', '8': '軽減8%', exempt: '非課税', outside: '不課税' };

/** Bytes of a character in cp932: ASCII and half-width katakana 1, everything else 2. */
const cp932Bytes = (char: string): number => {
  const code = char.codePointAt(0) ?? 0;
  return code < 0x80 || (code >= 0xff61 && code <= 0xff9f) ? 1 : 2;
};

/**
 * Text for one cell: line breaks become spaces, and it is cut to `bytes` cp932 bytes at a character boundary.
 * @example yayoiText('山田商店 SL20260501-000001', 10) // '山田商店 S'
 */
export function yayoiText(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text.replace(/[\r\n\t]+/g, ' ')) {
    const size = cp932Bytes(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

const slashDate = (date: string): string => date.replaceAll('-', '/');

/** One side of a line: 勘定科目, 補助科目, 税区分, 金額, 税金額 (部門 stays blank). */
interface Side {
  account: string;
  sub: string;
  taxClass: string;
  amount: number;
  tax: number;
}

interface Line {
  date: string;
  debit: Side;
  credit: Side;
  memo: string;
  late: boolean;
}

/** A line whose amount is negative, with the sides swapped and the amounts positive. */
function signed(line: Line, negative: boolean): Line {
  const abs = (side: Side): Side => ({ ...side, amount: Math.abs(side.amount), tax: Math.abs(side.tax) });
  return negative ? { ...line, debit: abs(line.credit), credit: abs(line.debit) } : { ...line, debit: abs(line.debit), credit: abs(line.credit) };
}

function slipLine(rate: YayoiSlipRate, setting: YayoiSetting): Line {
  const sales: Side = rate.key === '10' ? { account: setting.acc_sales, sub: '', taxClass: setting.tax_10, amount: rate.total, tax: rate.tax }
    : rate.key === '8' ? { account: setting.acc_sales, sub: '', taxClass: setting.tax_8, amount: rate.total, tax: rate.tax }
      : rate.key === 'exempt' ? { account: setting.acc_sales, sub: '', taxClass: setting.tax_exempt, amount: rate.total, tax: 0 }
        : { account: setting.acc_deposit, sub: '', taxClass: setting.tax_outside, amount: rate.total, tax: 0 };
  const receivable: Side = { account: setting.acc_receivable, sub: rate.yayoi_id, taxClass: setting.tax_none, amount: rate.total, tax: 0 };
  const memo = `${rate.number} ${RATE_LABEL[rate.key] ?? rate.key} ${rate.client}`;
  return signed({ date: rate.date, debit: receivable, credit: sales, memo, late: rate.late === true }, rate.total < 0);
}

function paymentLine(payment: YayoiPayment, setting: YayoiSetting): Line {
  const account = payment.kind === 'cash' ? setting.acc_cash
    : payment.kind === 'fee' ? setting.acc_fee
      : payment.kind === 'discount' ? setting.acc_discount
        : payment.kind === 'offset' ? setting.acc_offset
          : setting.acc_bank;
  const money: Side = { account, sub: '', taxClass: setting.tax_none, amount: payment.amount, tax: 0 };
  const receivable: Side = { account: setting.acc_receivable, sub: payment.yayoi_id, taxClass: setting.tax_none, amount: payment.amount, tax: 0 };
  const memo = `入金 ${KIND_LABEL[payment.kind] ?? payment.kind} ${payment.client}`;
  return signed({ date: payment.date, debit: money, credit: receivable, memo, late: payment.late === true }, payment.amount < 0);
}

const sideCells = (side: Side): string[] => [yayoiText(side.account, 24), yayoiText(side.sub, 24), '', side.taxClass, String(side.amount), String(side.tax)];

/**
 * The journal's records: slips (one 伝票 each, a line per non-zero bucket: 識別フラグ 2111 alone, else 2110 … 2100 … 2101) and
 * payments (2111 each), by date, slips before payments on a day, then by id; 伝票No. numbered from 1. A late entry (dated
 * before the period) keeps its date and says so in 仕訳メモ.
 * @example yayoiRecords([], [{ py_id: 1, date: '2026-05-27', client: '山田', yayoi_id: 'C01', kind: 'debit', amount: 1100 }], setting)[0].slice(0, 5) // ['2111', '1', '', '2026/05/27', '普通預金']
 */
export function yayoiRecords(rates: readonly YayoiSlipRate[], payments: readonly YayoiPayment[], setting: YayoiSetting): string[][] {
  const slips = new Map<number, YayoiSlipRate[]>();
  for (const rate of rates) {
    if (rate.total === 0 && rate.tax === 0) continue;
    slips.set(rate.sl_id, [...(slips.get(rate.sl_id) ?? []), rate]);
  }
  const bucketOrder = ['10', '8', 'exempt', 'outside'];
  const vouchers: { date: string; kind: 0 | 1; id: number; lines: Line[] }[] = [];
  for (const [id, list] of slips) {
    const sorted = [...list].sort((a, b) => bucketOrder.indexOf(a.key) - bucketOrder.indexOf(b.key));
    vouchers.push({ date: list[0].date, kind: 0, id, lines: sorted.map((rate) => slipLine(rate, setting)) });
  }
  for (const payment of payments) {
    if (payment.amount !== 0) vouchers.push({ date: payment.date, kind: 1, id: payment.py_id, lines: [paymentLine(payment, setting)] });
  }
  vouchers.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.kind - b.kind || a.id - b.id));
  const records: string[][] = [];
  vouchers.forEach((voucher, index) => {
    voucher.lines.forEach((line, i) => {
      const last = voucher.lines.length - 1;
      const flag = last === 0 ? '2111' : i === 0 ? '2110' : i === last ? '2101' : '2100';
      records.push([
        flag, String(index + 1), '', slashDate(line.date),
        ...sideCells(line.debit), ...sideCells(line.credit),
        yayoiText(line.memo, YAYOI_MEMO_BYTES).trimEnd(), '', '', '0', '', line.late ? YAYOI_LATE_MEMO : '', '0', '0', 'no',
      ]);
    });
  });
  return records;
}
