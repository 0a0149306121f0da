/**
 * Invoices (issue 13): the 登録番号's check digit against numbers the 国税庁 publishes, the 自社情報 form's rules, the
 * recipient's name and honorific, the document's reconciliation to the yen (header = per-rate table = lines), and
 * where the PDF puts rows and closing blocks across pages.
 */
import { describe, expect, it } from 'vitest';
import { corporateCheckDigit, REGISTRATION_FORMAT_MESSAGE, registrationNumberProblem } from '@/lib/billing/registration-number';
import { invoiceFileName } from '@/lib/billing/messages';
import { companyProblems } from '@/lib/resources/company';
import { invoiceProblems, issuerOf, recipientOf, type InvoiceDocument, type InvoiceLine } from '@/server/billing/invoice-document';
import { layoutInvoice, wrapNote } from '@/server/billing/invoice-pdf';

describe('登録番号 (T + 法人番号)', () => {
  // Published 法人番号: 国税庁, 国立国会図書館, トヨタ自動車株式会社; and python-stdnum's test number.
  const PUBLISHED = ['7000012050002', '1000011000005', '1180301018771', '5835678256246'];

  it('computes the check digit of published corporate numbers', () => {
    for (const number of PUBLISHED) expect(corporateCheckDigit(number.slice(1)), number).toBe(Number(number[0]));
  });

  it('weights the digits 1, 2 from the right and answers 9 when the sum is a multiple of 9', () => {
    // 000012050002: 2×1 + 5×1 + 2×1 + 1×2 = 11 → 9 − 2 = 7.
    expect(corporateCheckDigit('000012050002')).toBe(7);
    expect(corporateCheckDigit('000000000000')).toBe(9);
    expect(corporateCheckDigit('000000000009')).toBe(9);
    // A 9 in the second position from the right weighs 18.
    expect(corporateCheckDigit('000000000090')).toBe(9);
    expect(corporateCheckDigit('000000000010')).toBe(7);
  });

  it('accepts T and a published number, refuses a changed digit, a missing T and other forms', () => {
    for (const number of PUBLISHED) expect(registrationNumberProblem(`T${number}`)).toBeUndefined();
    expect(registrationNumberProblem('T1180301018772')).toMatch(/^登録番号の検査用数字/);
    expect(registrationNumberProblem('T2180301018771')).toMatch(/^登録番号の検査用数字/);
    // Two neighbouring digits swapped.
    expect(registrationNumberProblem('T7000012500002')).toMatch(/^登録番号の検査用数字/);
    for (const bad of ['1180301018771', 't1180301018771', 'T118030101877', 'T11803010187711', 'T1180-3010-18771', '']) {
      expect(registrationNumberProblem(bad), bad).toBe(REGISTRATION_FORMAT_MESSAGE);
    }
  });
});

describe('自社情報 rules', () => {
  it('checks the 登録番号, the account number and the 委託者コード', () => {
    expect(companyProblems({ name: 'アクア', invoice_no: 'T7000012050002' })).toBeUndefined();
    expect(companyProblems({ invoice_no: 'T7000012050003' })?.invoice_no).toMatch(/検査用数字/);
    expect(companyProblems({ itaku_code: '12345' })?.itaku_code).toBe('委託者コードは 10 桁の数字で入力してください。');
    expect(companyProblems({ itaku_code: '1234567890' })).toBeUndefined();
  });

  it('wants the transfer account whole once any part of it is entered', () => {
    const account = { bank_name: 'みずほ銀行', bank_branch: '本店', bank_type: '1', bank_account: '1234567', bank_holder: 'アクア' };
    expect(companyProblems(account)).toBeUndefined();
    const partial = companyProblems({ ...account, bank_branch: '', bank_account: '123' });
    expect(Object.keys(partial ?? {}).sort()).toEqual(['bank_account', 'bank_branch']);
    expect(partial?.bank_account).toMatch(/^口座番号は 7 桁/);
    expect(partial?.bank_branch).toMatch(/^振込先は銀行名・支店名・種別・口座番号・口座名義をすべて/);
    // Nothing of the account: nothing wanted.
    expect(companyProblems({ bank_name: '', bank_branch: '', bank_type: '', bank_account: '', bank_holder: '' })).toBeUndefined();
  });

  it('refuses to issue without a name, an address or a 登録番号, naming what is missing', () => {
    expect(() => issuerOf(undefined)).toThrow('請求書を発行するには、システム > 自社情報 に会社名・住所・登録番号を登録してください。');
    expect(() => issuerOf({ cs_name: 'アクア', cs_address: '東京都', cs_invoice_no: '' })).toThrow(/に登録番号を登録/);
    const issuer = issuerOf({ cs_name: 'アクア', cs_address: '東京都', cs_invoice_no: 'T7000012050002', cs_bank_name: 'みずほ銀行', cs_bank_branch: '本店', cs_bank_type: '2', cs_bank_account: '0012345', cs_bank_holder: 'アクア' });
    expect(issuer.bankAccount).toBe('みずほ銀行 本店 当座 0012345 アクア');
  });
});

describe('the recipient', () => {
  it('is a company 御中, a person 様, or what the customer says', () => {
    expect(recipientOf({ cl_id: 1, cl_co_name: '𠮷田商店', cl_name: '' })).toMatchObject({ name: '𠮷田商店', honorific: '御中', attention: '' });
    expect(recipientOf({ cl_id: 2, cl_co_name: '', cl_name: '山田 太郎' })).toMatchObject({ name: '山田 太郎', honorific: '様' });
    expect(recipientOf({ cl_id: 3, cl_co_name: '株式会社ＡＢＣ', cl_busyo: '総務部', cl_name: '山本 一郎' })).toMatchObject({ name: '株式会社ＡＢＣ', attention: '総務部 山本 一郎', honorific: '様' });
    expect(recipientOf({ cl_id: 4, cl_co_name: '株式会社ＡＢＣ', cl_busyo: '総務部', cl_name: '' })).toMatchObject({ attention: '総務部', honorific: '御中' });
    expect(recipientOf({ cl_id: 5, cl_co_name: '', cl_name: '山田 太郎', cl_keisho: '殿' }).honorific).toBe('殿');
  });

  it('takes the 請求先 block when one is entered', () => {
    const r = recipientOf({
      cl_id: 6, cl_co_name: '支店', cl_pref: '大阪府', cl_city: '大阪市',
      cl_billing_co_name: '本社経理部', cl_billing_zipcode: '100-0001', cl_billing_pref: '東京都', cl_billing_city: '千代田区', cl_billing_address: '1-1', cl_billing_building: 'ビル3F',
    });
    expect(r).toMatchObject({ name: '本社経理部', zipcode: '100-0001', addressLines: ['東京都千代田区1-1', 'ビル3F'] });
  });
});

const line = (amount: number, taxClass: InvoiceLine['taxClass'] = 'reduced', quantity = 1): InvoiceLine => ({
  name: taxClass === 'reduced' ? '天然水 12L' : 'サーバーレンタル', quantity, unitPrice: amount / quantity, amount, taxClass,
  rate: taxClass === 'reduced' ? 8 : taxClass === 'standard' ? 10 : 0, reduced: taxClass === 'reduced',
});

/** An invoice that reconciles: 10% 1,000 + 8% 2,400 + 不課税 500, 外税, a payment of 3,000 against 5,000. */
function invoice(extra: Partial<InvoiceDocument> = {}, lineCount = 0): InvoiceDocument {
  const lines = lineCount ? Array.from({ length: lineCount }, () => line(100)) : [line(1000, 'standard'), line(2400, 'reduced', 2), line(500, 'outside')];
  const reduced = lines.filter((l) => l.taxClass === 'reduced').reduce((s, l) => s + l.amount, 0);
  const rates = [
    ...(lineCount ? [] : [{ key: '10', label: '10%対象', rate: 10, net: 1000, tax: 100, total: 1100 }]),
    { key: '8', label: '8%対象（軽減税率）', rate: 8, net: reduced, tax: Math.floor(reduced * 0.08), total: reduced + Math.floor(reduced * 0.08) },
    ...(lineCount ? [] : [{ key: 'outside', label: '不課税', rate: 0, net: 500, tax: 0, total: 500 }]),
  ];
  const salesNet = rates.reduce((s, r) => s + r.net, 0);
  const tax = rates.reduce((s, r) => s + r.tax, 0);
  return {
    bl_id: 1, number: 'BL-1', simeGp: '20', simeYm: '202605', issuedOn: '2026-05-25', closingDate: '2026-05-20', periodFrom: '2026-04-21', periodTo: '2026-05-20', dueDate: '2026-06-27',
    issuer: { name: 'アクア', zipcode: '', address: '東京都', tel: '', fax: '', email: '', registrationNumber: 'T7000012050002', bankAccount: 'みずほ銀行 本店 普通 1234567 アクア', note: '' },
    recipient: { cl_id: 1, name: '𠮷田商店', honorific: '御中', attention: '', zipcode: '', addressLines: [] },
    prevTotal: 5000, paid: 3000, carry: 2000, salesNet, tax, total: 2000 + salesNet + tax,
    rates,
    slips: [{ sl_id: 1, number: 'SL-1', date: '2026-05-01', site: '', late: false, lines }],
    payments: [{ date: '2026-05-10', kind: '振込', amount: 3000, late: false }],
    taxIncluded: false, printCount: 0,
    ...extra,
  };
}

describe('an invoice reconciles to the yen', () => {
  it('agrees when header, per-rate rows, lines and payments agree', () => {
    const doc = invoice();
    expect(doc.total).toBe(2000 + 3900 + 292);
    expect(invoiceProblems(doc)).toEqual([]);
  });

  it('accepts a 内税 rate whose lines sum to its 税込 amount', () => {
    const doc = invoice();
    const rates = doc.rates.map((r) => (r.key === '8' ? { ...r, net: 2223, tax: 177, total: 2400 } : r));
    const salesNet = rates.reduce((s, r) => s + r.net, 0);
    const tax = rates.reduce((s, r) => s + r.tax, 0);
    expect(invoiceProblems({ ...doc, rates, salesNet, tax, total: doc.carry + salesNet + tax, taxIncluded: true })).toEqual([]);
  });

  it('names each disagreement', () => {
    const doc = invoice();
    expect(invoiceProblems({ ...doc, carry: 2001, total: doc.total + 1 })).toEqual(['繰越額 2,001円 が 前回請求額 5,000円 − 入金額 3,000円 と一致しません']);
    expect(invoiceProblems({ ...doc, total: doc.total + 1 })).toEqual(['今回請求額 6,193円 が 繰越額 + 今回売上額 + 消費税 と一致しません']);
    expect(invoiceProblems({ ...doc, tax: doc.tax + 1, total: doc.total + 1 })).toEqual(['税率ごとの消費税の合計 292円 が 消費税 293円 と一致しません']);
    const slips = [{ ...doc.slips[0], lines: [...doc.slips[0].lines, line(1, 'standard')] }];
    expect(invoiceProblems({ ...doc, slips })).toEqual(['10%対象の明細の合計 1,001円 が 税抜 1,000円・税込 1,100円 のどちらとも一致しません']);
    expect(invoiceProblems({ ...doc, payments: [] })).toEqual(['入金の合計 0円 が 入金額 3,000円 と一致しません']);
    const noOutside = doc.rates.filter((r) => r.key !== 'outside');
    expect(invoiceProblems({ ...doc, rates: noOutside, salesNet: doc.salesNet - 500, total: doc.total - 500 })).toEqual(['明細に 不課税 の金額 500円 がありますが、税率ごとの集計にありません']);
  });
});

describe('where the PDF puts things', () => {
  it('keeps a short invoice on one page with the legend, payments, account and note after the lines', () => {
    const pages = layoutInvoice(invoice({ issuer: { ...invoice().issuer, note: 'お振込手数料はご負担ください。' } }));
    expect(pages).toHaveLength(1);
    expect(pages[0].rows.map((r) => r.row.kind)).toEqual(['line', 'line', 'line']);
    expect(pages[0].tails.map((t) => t.tail.kind)).toEqual(['legend', 'paymentsHead', 'payment', 'bank', 'noteHead', 'noteLine']);
    // Rows run down the page, the blocks after them.
    const ys = [...pages[0].rows.map((r) => r.y), ...pages[0].tails.map((t) => t.y)];
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
  });

  it('goes on to further pages with the table head again and the slip named again', () => {
    // Page 1 holds 27 rows below its heading blocks, a further page 47.
    const pages = layoutInvoice(invoice({}, 100));
    expect(pages.map((p) => p.rows.length)).toEqual([27, 47, 26]);
    for (const page of pages.slice(1)) {
      expect(page.tableTop).toBe(pages[1].tableTop);
      const first = page.rows[0]?.row;
      if (first?.kind === 'line') expect(first.showSlip).toBe(true);
    }
    // Page 2 holds more rows than page 1 (no heading blocks) and every row ends above the footer.
    expect(pages[1].rows.length).toBeGreaterThan(pages[0].rows.length);
    for (const page of pages) for (const { y } of page.rows) expect(y + 15).toBeLessThanOrEqual(841.89 - 36 - 18);
  });

  it('starts a new page for a block that does not fit, and keeps the payments head with its first payment', () => {
    // Fill page 1 to one row above its end: the payments head and first payment cannot both fit.
    const perFirstPage = layoutInvoice(invoice({}, 200))[0].rows.length;
    const pages = layoutInvoice(invoice({ payments: [{ date: '2026-05-10', kind: '振込', amount: 3000, late: false }] }, perFirstPage - 1));
    const head = pages.findIndex((p) => p.tails.some((t) => t.tail.kind === 'paymentsHead'));
    const payment = pages.findIndex((p) => p.tails.some((t) => t.tail.kind === 'payment'));
    expect(head).toBe(payment);
  });

  it('wraps the note by width, full-width characters counting double', () => {
    expect(wrapNote('あいう\nえ', 2)).toEqual(['あい', 'う', 'え']);
    expect(wrapNote('abcd', 1)).toEqual(['ab', 'cd']);
    expect(wrapNote('\n\n', 4)).toEqual([]);
  });

  it("names each customer's file, file-system characters replaced", () => {
    expect(invoiceFileName('BL202605-000001', '𠮷田商店')).toBe('請求書_BL202605-000001_𠮷田商店.pdf');
    expect(invoiceFileName('BL/1', 'A:B*C')).toBe('請求書_BL_1_A_B_C.pdf');
  });
});
