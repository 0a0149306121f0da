/**
 * Issuing invoices (issue 13), on the real server and both dialects: 自社情報 (`company_dtl` / `company_save`, the
 * 登録番号's check digit), the qualified-invoice PDF (`billing_pdf`) read back as text AND rendered to a picture whose
 * regions are checked for ink (title, totals, the stamp area, blank margins), the Japanese font embedded as a subset
 * with 𠮷, several pages when lines overflow, reprints counted and handed out as the stored bytes (the invoice archive,
 * tests/api/invoice-archive.test.ts), an invoice that does not reconcile refused; the batch (`billing_pdf_batch` job, `billing_pdf_batch_file` as one merged PDF and a ZIP of one PDF per
 * customer); the mail (`billing_mail`) through a local SMTP server with the PDF attached, logged in `billing_send`
 * (`billing_send_lst`) when sent and when refused. The invoices are made by the real closing (`closing_run`) of slips and
 * payments entered through their saves.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { BILLING_MESSAGES, invoiceFileName } from '../../lib/billing/messages';
import { closingLabel } from '../../lib/closing/period';
import { formatDateJa } from '../../lib/format';
import { MESSAGES } from '../../lib/protocol';
import { dayJa } from '../../server/billing/invoice-document';
import type { JobInfo } from '../../lib/jobs';
import type { MailBatchPreview, MailBatchResult } from '../../lib/billing/mail-batch';
import type { MailStatus } from '../../lib/protocol';
import { dialects, type Harness, jobEnded, type ParamValue, resourceCalls, useHarness } from './harness';
import { inkIn, pdfFonts, pdfPages, pdfText, renderPage } from '../support/pdf';
import { startLocalSmtp, type LocalSmtp } from '../support/local-smtp';

type Row = Record<string, string | number | null>;
type ErrorRow = { error: string; fields?: Record<string, string> };

const COMPANY = {
  name: 'テスト宅配水株式会社', zipcode: '100-0001', address: '東京都千代田区千代田1-1', tel: '03-1111-2222', fax: '', email: 'billing@example.jp',
  invoice_no: 'T7000012050002', bank_name: 'みずほ銀行', bank_branch: '本店', bank_type: '1', bank_account: '1234567', bank_holder: 'テストタクハイスイ',
  itaku_code: '', itaku_name: '', invoice_note: 'お振込手数料はお客様のご負担でお願いいたします。',
};
const FROM = 'noreply@aqua.example.jp';

/** A file answer's bytes (the harness reads answers as text). */
async function download(h: Harness, call: string, params: Record<string, ParamValue>): Promise<{ status: number; headers: Headers; bytes: Buffer; json: unknown }> {
  const body = new URLSearchParams({ authKey: h.adminKey });
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) body.set(key, String(value));
  const res = await fetch(`${h.url}${h.config.dbApiPrefix}/${call}`, { method: 'POST', body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('application/json') ? JSON.parse(bytes.toString('utf8')) as unknown : undefined;
  return { status: res.status, headers: res.headers, bytes, json };
}

/** The name a download is saved under (filename* of Content-Disposition). */
const savedName = (headers: Headers): string => decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(headers.get('content-disposition') ?? '')?.[1] ?? '');

// Regions of page 1 in points from the top-left (invoice-pdf.ts draws them there).
const TITLE = { x: 250, y: 36, w: 95, h: 30 };
const STAMP = { x: 500, y: 38, w: 55, h: 20 };
const TOTAL_VALUE = { x: 475, y: 270, w: 80, h: 22 };
const RIGHT_MARGIN = { x: 565, y: 0, w: 30, h: 841 };
const SUMMARY = { x: 36, y: 252, w: 523, h: 42 };

for (const dialect of dialects()) {
  describe(dialect, () => {
    let smtp: LocalSmtp;
    before(async () => {
      smtp = await startLocalSmtp({ refuse: /^refuse@/ });
    });
    after(async () => {
      await smtp.close();
    });
    const h = useHarness(dialect, () => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MAIL_FROM: FROM, COMPANY_NAME: 'アクア' }));
    const { save, created } = resourceCalls(h);
    const ids = { yoshida: 0, large: 0, noMail: 0, broken: 0, invoice: 0, largeInvoice: 0, noMailInvoice: 0, wrong: 0 };
    const numbers = { invoice: '', largeInvoice: '', noMailInvoice: '', wrong: '' };
    let due = '';
    const printCount = async (id: number): Promise<Row> =>
      h.database.db.selectFrom('billing').select(['bl_print_count', 'bl_reissued']).where('bl_id', '=', id).executeTakeFirstOrThrow();
    const finished = (jobId: number): Promise<JobInfo> => jobEnded(h, jobId);

    // The invoices come from the real closing (`closing_run`) of the slips and payments entered through their saves.
    before(async () => {
      const [company] = (await h.post<Row>('company_dtl', { id: 1 })).body;
      const saved = await save('company', { ...COMPANY, modified: company.modified }, 1);
      assert.equal(saved.status, 200, saved.text);
      const item = async (code: string, name: string, price: number, tax_class: string) =>
        Number((await created('item', { code, name, unit: '本', price, tax_class, stock_tracked: 0 })).it_id);
      const water = await item('B-W12', '天然水 12L', 1200, 'reduced');
      const rental = await item('B-RENT', 'サーバーレンタル', 1100, 'standard');
      const deposit = await item('B-DEP', '容器保証金', 1000, 'outside');
      const client = async (values: Record<string, unknown>) =>
        Number((await created('client', { status: '1', tel_1: '03-1234-5678', zei_ten: '3', zei_kiri: '0', sime_gp: '20', collect_cycle: '1', collect_day: 27, ...values })).cl_id);
      const opening = (amount: number) => ({ opening_balance: amount, opening_balance_date: '2026-04-01' });
      ids.yoshida = await client({ co_name: '𠮷田商店', zipcode: '060-0001', pref: '北海道', city: '札幌市中央区', address: '北一条西2-1', email: 'yoshida@example.jp', ...opening(5000) });
      ids.large = await client({ co_name: '', name: '大口 太郎', pref: '東京都', city: '港区', billing_email: 'refuse@example.jp', email: 'ok@example.jp' });
      ids.noMail = await client({ co_name: 'メールなし商会', pref: '東京都', ...opening(1000) });
      ids.broken = await client({ co_name: '金額不一致商店', pref: '東京都', sime_gp: '25', ...opening(700) });
      const slip = async (cl_id: number, date: string, lines: Record<string, unknown>[]) => created('sales', { cl_id, date, lines });
      const payment = async (cl_id: number, date: string, amount: number) => created('payment', { cl_id, date, amount, kind: 'transfer' });
      await slip(ids.yoshida, '2026-05-01', [{ it_id: water, quantity: 2 }, { it_id: rental, quantity: 1 }]);
      await slip(ids.yoshida, '2026-05-10', [{ it_id: water, quantity: 1 }, { it_id: deposit, quantity: 1 }]);
      await payment(ids.yoshida, '2026-05-15', 3000);
      await slip(ids.large, '2026-05-02', Array.from({ length: 80 }, (_, i) => ({ it_id: i % 2 ? water : rental, quantity: 1 + (i % 3) })));
      for (const gp of ['20', '25']) {
        const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: gp, sime_ym: '202605' });
        assert.equal(run.status, 200, run.text);
        const job = await finished(run.body[0].job_id);
        assert.equal(job.state, 'done', JSON.stringify(job));
      }
      const invoiceOf = async (cl_id: number) => h.database.db.selectFrom('billing').select(['bl_id', 'bl_number', 'bl_due_date']).where('bl_cl_id', '=', cl_id).where('deleted', '=', 0).executeTakeFirstOrThrow();
      for (const [key, cl] of [['invoice', ids.yoshida], ['largeInvoice', ids.large], ['noMailInvoice', ids.noMail], ['wrong', ids.broken]] as const) {
        const row = await invoiceOf(cl);
        ids[key] = Number(row.bl_id);
        numbers[key] = String(row.bl_number);
        if (key === 'invoice') due = String(row.bl_due_date);
      }
      // An invoice whose header no longer agrees with its rows (what a bug or a hand edit could leave): never issued.
      await h.database.db.updateTable('billing').set({ bl_total: 701 }).where('bl_id', '=', ids.wrong).execute();
    });

    describe('自社情報', () => {
      it('is one record read by company_dtl and saved by company_save, the 登録番号 checked', async () => {
        const [row] = (await h.post<Row>('company_dtl', { id: 1 })).body;
        assert.equal(row.cs_name, COMPANY.name);
        assert.equal(row.cs_invoice_no, 'T7000012050002');
        const badDigit = await save('company', { invoice_no: 'T8000012050002', modified: row.modified }, 1);
        assert.equal(badDigit.status, 400);
        assert.match((badDigit.body[0] as unknown as ErrorRow).fields!.invoice_no, /^登録番号の検査用数字/);
        const badForm = await save('company', { invoice_no: '7000012050002', modified: row.modified }, 1);
        assert.equal((badForm.body[0] as unknown as ErrorRow).fields!.invoice_no, '登録番号は T と 13 桁の数字で入力してください（例: T1180301018771）。');
        // Full-width input is converted before the check.
        const fullWidth = await save('company', { invoice_no: 'Ｔ１１８０３０１０１８７７１', modified: row.modified }, 1);
        assert.equal(fullWidth.status, 200, fullWidth.text);
        assert.equal(fullWidth.body[0].cs_invoice_no, 'T1180301018771');
        const back = await save('company', { invoice_no: COMPANY.invoice_no, modified: fullWidth.body[0].modified }, 1);
        assert.equal(back.status, 200, back.text);
        assert.equal((await h.post('company_save', { postData: JSON.stringify(COMPANY) })).status, 403, 'no second record');
        assert.equal((await h.post('company_del', { id: 1 })).status, 404, 'no delete call');
      });

      it('may be read but not saved by a role without the system area at write', async () => {
        const key = await h.keyOf(h.fixtures.users.accounting.email, h.fixtures.users.accounting.password);
        const [row] = (await h.post<Row>('company_dtl', { id: 1 })).body;
        const res = await h.post('company_save', { id: 1, postData: JSON.stringify({ name: '乗っ取り', modified: row.modified }) }, key);
        assert.equal(res.status, 403);
        assert.equal((await h.post<Row>('company_dtl', { id: 1 })).body[0].cs_name, COMPANY.name);
      });
    });

    describe('billing_pdf', () => {
      it('answers an A4 qualified invoice whose text names issuer, 登録番号, recipient, totals, rates and ※', async () => {
        const res = await download(h, 'billing_pdf', { id: ids.invoice });
        assert.equal(res.status, 200, JSON.stringify(res.json));
        assert.equal(res.headers.get('content-type'), 'application/pdf');
        assert.equal(savedName(res.headers), `請求書_${numbers.invoice}_𠮷田商店.pdf`);
        assert.equal(res.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
        assert.equal(res.headers.get('x-invoice-reissue'), '0');
        const text = pdfText(res.bytes);
        // 外税・請求単位 切捨て: 8% on 3,600 = 288, 10% on 1,100 = 110, 不課税 1,000; 5,000 − 3,000 + 5,700 + 398 = 8,098.
        for (const expected of [
          '請求書', 'テスト宅配水株式会社', '登録番号 T7000012050002', '𠮷田商店', '御中', `請求番号 ${numbers.invoice}`,
          '対象期間 2026年4月21日〜2026年5月20日', '8,098', '5,700', '398', '5,000', '3,000', '2,000',
          '10%対象', '8%対象（軽減税率）', '不課税', '3,600', '288', '1,100', '110', '※', '※は軽減税率対象',
          `お支払期限（入金予定日） ${dayJa(due)}`, 'みずほ銀行 本店 普通 1234567 テストタクハイスイ', 'お振込手数料はお客様のご負担',
          'SL20260501', '天然水 12L', 'サーバーレンタル', '容器保証金',
        ]) assert.ok(text.includes(expected), `the text holds ${expected}\n${text}`);
        assert.ok(!text.includes('再発行'), 'a first print is not a reprint');
        // The 8% lines carry ※, the others do not: each ※ stands on a line of 天然水 (or the legend / rate row).
        assert.equal(pdfPages(res.bytes), 1);
        const row = await printCount(ids.invoice);
        assert.equal(Number(row.bl_print_count), 1);
        assert.ok(!row.bl_reissued);
        const audit = await h.database.db.selectFrom('audit_log').selectAll().where('log_call', '=', 'billing_pdf').where('log_table', '=', 'billing').where('log_record_id', '=', ids.invoice).execute();
        assert.equal(audit.length, 1);
        assert.deepEqual((JSON.parse(audit[0].log_changes) as Record<string, unknown>).bl_print_count, [0, 1]);
      });

      it('embeds the Japanese font as a subset with its Unicode map, and the page looks like an invoice', async () => {
        const first = await download(h, 'billing_pdf', { id: ids.invoice });
        const res = await download(h, 'billing_pdf', { id: ids.invoice });
        // The invoice left before: its second print is the stored document, byte for byte (電子帳簿保存法), no 再発行 stamp.
        assert.ok(res.bytes.equals(first.bytes), 'a reprint hands out the stored bytes');
        assert.equal(res.headers.get('x-invoice-reissue'), '1');
        assert.equal(res.headers.get('x-invoice-sha256'), createHash('sha256').update(res.bytes).digest('hex'));
        const fonts = pdfFonts(res.bytes);
        assert.ok(fonts.length >= 1 && fonts.every((f) => f.embedded && f.subset && f.unicode && /^[A-Z]{6}\+NotoSansJP/.test(f.name)), JSON.stringify(fonts));
        assert.ok(fonts.every((f) => /TrueType/.test(f.type)), 'TrueType outlines (CID TrueType)');
        const page = renderPage(res.bytes, 1, 72);
        // A4 portrait (595.28 × 841.89 pt) at 72 dpi.
        assert.ok(Math.abs(page.width - 595) <= 1 && Math.abs(page.height - 842) <= 1, `${page.width} × ${page.height}`);
        assert.ok(inkIn(page, TITLE) > 0.1, `the title is drawn (${inkIn(page, TITLE)})`);
        assert.ok(inkIn(page, SUMMARY) > 0.03, 'the summary table is drawn');
        assert.ok(inkIn(page, TOTAL_VALUE) > 0.03, `the 今回請求額 figure is drawn (${inkIn(page, TOTAL_VALUE)})`);
        assert.equal(inkIn(page, RIGHT_MARGIN), 0, 'the right margin is blank');
        assert.ok(!pdfText(res.bytes).includes('再発行'));
        assert.equal(inkIn(page, STAMP), 0, 'no stamp on a reprint');
        const row = await printCount(ids.invoice);
        assert.equal(Number(row.bl_print_count), 3);
        assert.match(String(row.bl_reissued), /^\d{4}-\d{2}-\d{2}T/);
      });

      it('leaves the stamp area blank on a first print (the 修正 stamp is for a corrected invoice only)', async () => {
        const first = await download(h, 'billing_pdf', { id: ids.largeInvoice });
        assert.equal(first.status, 200, JSON.stringify(first.json));
        assert.equal(first.headers.get('x-invoice-reissue'), '0');
        assert.equal(inkIn(renderPage(first.bytes, 1, 72), STAMP), 0, 'no stamp');
      });

      it('goes on to further pages when lines overflow, each with its page number', async () => {
        const res = await download(h, 'billing_pdf', { id: ids.largeInvoice });
        const pages = pdfPages(res.bytes);
        // 80 lines: 27 on page 1, 47 on page 2, the rest on page 3.
        assert.equal(pages, 3);
        assert.equal(res.headers.get('x-invoice-pages'), '3');
        assert.ok(pdfText(res.bytes, 1).includes('大口 太郎'), 'a person is the recipient');
        assert.ok(pdfText(res.bytes, 1).includes('様'));
        for (const n of [2, 3]) {
          const text = pdfText(res.bytes, n);
          assert.ok(text.includes('請求書（続き）') && new RegExp(`${n}\\s*/\\s*3`).test(text) && text.includes('SL20260502'), `page ${n}:\n${text}`);
          assert.ok(inkIn(renderPage(res.bytes, n, 72), { x: 36, y: 62, w: 523, h: 16 }) > 0.03, `page ${n} draws the table head`);
        }
      });

      it('refuses bad input and an invoice that does not reconcile, counting nothing', async () => {
        const missing = await download(h, 'billing_pdf', {});
        assert.equal(missing.status, 400);
        assert.equal((missing.json as ErrorRow[])[0].error, BILLING_MESSAGES.missingId);
        const unknown = await download(h, 'billing_pdf', { id: 999_999 });
        assert.equal(unknown.status, 404);
        assert.equal((unknown.json as ErrorRow[])[0].error, BILLING_MESSAGES.notFound);
        const wrong = await download(h, 'billing_pdf', { id: ids.wrong });
        assert.equal(wrong.status, 400);
        assert.equal((wrong.json as ErrorRow[])[0].error, `請求 ${numbers.wrong} は金額が合わないため発行できません（今回請求額 701円 が 繰越額 + 今回売上額 + 消費税 と一致しません）。`);
        assert.equal(Number((await printCount(ids.wrong)).bl_print_count), 0);
      });

      it('is refused to a role without the sales area at write', async () => {
        const key = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
        assert.equal((await h.post('billing_pdf', { id: ids.invoice }, key)).status, 403);
      });
    });

    describe('billing_pdf_batch', () => {
      it('writes the closing as one merged PDF and a ZIP of one PDF per customer', async () => {
        const before = await h.database.db.selectFrom('billing').select(['bl_id', 'bl_print_count']).where('bl_sime_gp', '=', '20').where('bl_sime_ym', '=', '202605').orderBy('bl_id').execute();
        const start = await h.post<{ job_id: number }>('billing_pdf_batch', { sime_gp: '20', sime_ym: '202605' });
        assert.equal(start.status, 200, start.text);
        const job = await finished(start.body[0].job_id);
        assert.equal(job.state, 'done', JSON.stringify(job));
        const result = job.result as Record<string, number | string>;
        assert.equal(result.invoices, 3);
        assert.equal(result.pages, 1 + 3 + 1);

        const pdf = await download(h, 'billing_pdf_batch_file', { job_id: job.job_id, format: 'pdf' });
        assert.equal(pdf.status, 200, JSON.stringify(pdf.json));
        assert.equal(savedName(pdf.headers), '請求書_2026年5月_20日締め.pdf');
        assert.equal(pdfPages(pdf.bytes), 5);
        const text = pdfText(pdf.bytes);
        for (const number of [numbers.invoice, numbers.largeInvoice, numbers.noMailInvoice]) assert.ok(text.includes(number), number);
        assert.ok(!text.includes(numbers.wrong), 'another group is not in it');
        assert.ok(inkIn(renderPage(pdf.bytes, 5, 72), TITLE) > 0.1, 'the last invoice starts with its own title');

        const zip = await download(h, 'billing_pdf_batch_file', { job_id: job.job_id, format: 'zip' });
        assert.equal(zip.headers.get('content-type'), 'application/zip');
        assert.equal(savedName(zip.headers), '請求書_2026年5月_20日締め.zip');
        const files = unzipSync(new Uint8Array(zip.bytes));
        assert.deepEqual(Object.keys(files).sort(), [
          invoiceFileName(numbers.invoice, '𠮷田商店'), invoiceFileName(numbers.largeInvoice, '大口 太郎'), invoiceFileName(numbers.noMailInvoice, 'メールなし商会'),
        ].sort());
        for (const [name, bytes] of Object.entries(files)) {
          const file = Buffer.from(bytes);
          assert.equal(file.subarray(0, 5).toString('latin1'), '%PDF-', name);
          assert.ok(pdfText(file).includes(name.split('_')[1]), `${name} is its own invoice`);
        }
        // Every invoice of the batch counted as issued once more, the reprints marked.
        const after = await h.database.db.selectFrom('billing').select(['bl_id', 'bl_print_count']).where('bl_sime_gp', '=', '20').where('bl_sime_ym', '=', '202605').orderBy('bl_id').execute();
        assert.deepEqual(after.map((r) => Number(r.bl_print_count)), before.map((r) => Number(r.bl_print_count) + 1));
        assert.equal(result.reissued, before.filter((r) => Number(r.bl_print_count) > 0).length);
      });

      it('refuses bad parameters, a closing without invoices and a file of another job', async () => {
        const badGroup = await h.post<ErrorRow>('billing_pdf_batch', { sime_gp: '7', sime_ym: '202605' });
        assert.equal(badGroup.status, 400);
        assert.equal(badGroup.body[0].fields?.sime_gp, MESSAGES.closingBadGroup);
        const badMonth = await h.post<ErrorRow>('billing_pdf_batch', { sime_gp: '20', sime_ym: '2026-13' });
        assert.equal(badMonth.body[0].fields?.sime_ym, MESSAGES.closingBadMonth);
        const none = await h.post<ErrorRow>('billing_pdf_batch', { sime_gp: '31', sime_ym: '202605' });
        assert.equal(none.status, 400);
        assert.equal(none.body[0].error, BILLING_MESSAGES.noInvoices(closingLabel('31', '202605')));
        const badFormat = await h.post<ErrorRow>('billing_pdf_batch_file', { job_id: 1, format: 'xlsx' });
        assert.equal(badFormat.body[0].error, BILLING_MESSAGES.badFormat);
        const gone = await h.post<ErrorRow>('billing_pdf_batch_file', { job_id: 999_999, format: 'pdf' });
        assert.equal(gone.status, 404);
      });

      it('fails the job, naming the invoice, when one does not reconcile', async () => {
        const start = await h.post<{ job_id: number }>('billing_pdf_batch', { sime_gp: '25', sime_ym: '202605' });
        const job = await finished(start.body[0].job_id);
        assert.equal(job.state, 'failed');
        assert.ok(job.error.startsWith(`請求 ${numbers.wrong} は金額が合わないため発行できません`), job.error);
        const file = await h.post<ErrorRow>('billing_pdf_batch_file', { job_id: job.job_id, format: 'pdf' });
        assert.equal(file.body[0].error, BILLING_MESSAGES.batchFailed);
        assert.equal(Number((await printCount(ids.wrong)).bl_print_count), 0);
      });
    });

    describe('billing_mail', () => {
      it('sends the invoice PDF attached with the 請求 template, logs it and counts it as issued', async () => {
        const countBefore = Number((await printCount(ids.invoice)).bl_print_count);
        const res = await h.post<Row>('billing_mail', { id: ids.invoice });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].to, 'yoshida@example.jp');
        const mail = smtp.received.at(-1)!;
        assert.deepEqual(mail.envelopeTo, ['yoshida@example.jp']);
        assert.equal(mail.subject, `【テスト宅配水株式会社】ご請求書のお届け（請求番号 ${numbers.invoice}）`);
        assert.match(mail.text, /^𠮷田商店 様/);
        assert.match(mail.text, /ご請求金額: 8,098円/);
        assert.ok(mail.text.includes(`お支払期限: ${formatDateJa(due)}`), mail.text);
        assert.equal(mail.attachments.length, 1);
        const [file] = mail.attachments;
        assert.equal(file.contentType, 'application/pdf');
        assert.equal(file.filename, `請求書_${numbers.invoice}_𠮷田商店.pdf`);
        assert.equal(file.content.subarray(0, 5).toString('latin1'), '%PDF-');
        assert.ok(pdfText(file.content).includes('登録番号 T7000012050002'));
        assert.equal(Number((await printCount(ids.invoice)).bl_print_count), countBefore + 1);

        const log = await h.post<Row>('billing_send_lst', { bl_id: ids.invoice });
        assert.equal(log.status, 200, log.text);
        assert.equal(log.body[0].bs_state, 'sent');
        assert.equal(log.body[0].bs_to, 'yoshida@example.jp');
        assert.equal(log.body[0].user_name, '管理 太郎');
        const audit = await h.database.db.selectFrom('audit_log').selectAll().where('log_call', '=', 'billing_mail').where('log_record_id', '=', ids.invoice).execute();
        assert.equal(audit.length, 1);
        assert.deepEqual((JSON.parse(audit[0].log_changes) as Record<string, unknown>).to, [null, 'yoshida@example.jp']);
      });

      it('sends to the 請求先メールアドレス first, and logs a refusal of the mail server as failed', async () => {
        const sent = smtp.received.length;
        const res = await h.post<ErrorRow>('billing_mail', { id: ids.largeInvoice });
        assert.equal(res.status, 502);
        assert.match(res.body[0].error, /^メールを送信できませんでした（メールサーバーが送信先を受け付けませんでした）/);
        assert.equal(smtp.received.length, sent);
        const [row] = (await h.post<Row>('billing_send_lst', { bl_id: ids.largeInvoice })).body;
        assert.equal(row.bs_state, 'failed');
        assert.equal(row.bs_to, 'refuse@example.jp');
        assert.equal(row.bs_error, res.body[0].error);
      });

      it('refuses a customer without an address and a template that is not for invoices, logging nothing', async () => {
        const res = await h.post<ErrorRow>('billing_mail', { id: ids.noMailInvoice });
        assert.equal(res.status, 400);
        assert.equal(res.body[0].error, BILLING_MESSAGES.noAddress('メールなし商会'));
        const client = await created('mailtemplate', { name: '顧客向けのお知らせ', category: '9', target: 'client', active: '1', subject: '件名', body: '{{顧客名}} 様' });
        const wrongTemplate = await h.post<ErrorRow>('billing_mail', { id: ids.invoice, template: client.ml_id });
        assert.equal(wrongTemplate.status, 400);
        assert.equal(wrongTemplate.body[0].fields?.template, BILLING_MESSAGES.badTemplate);
        assert.deepEqual((await h.post<Row>('billing_send_lst', { bl_id: ids.noMailInvoice })).body, []);
        assert.equal((await h.post('billing_send_lst', { bl_id: 999_999 })).status, 404);
      });

      it('previews a 請求 template with a real invoice typed by its number', async () => {
        const [template] = await h.database.db.selectFrom('mail_template').select('ml_id').where('ml_target', '=', 'billing').execute();
        const res = await h.post<Row>('mailtemplate_preview', { id: Number(template.ml_id), bl_number: numbers.invoice.toLowerCase() });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].subject, `【テスト宅配水株式会社】ご請求書のお届け（請求番号 ${numbers.invoice}）`);
        assert.equal(res.body[0].bl_id, ids.invoice);
        const unknown = await h.post<ErrorRow>('mailtemplate_preview', { id: Number(template.ml_id), bl_number: 'BL-NONE' });
        assert.equal(unknown.status, 404);
      });
    });

    describe('billing_mail_batch', () => {
      const closing = { sime_gp: '20', sime_ym: '202605' };

      it('lists the recipients first: the address each invoice goes to and the customers without one', async () => {
        assert.deepEqual((await h.post<MailStatus>('mail_status')).body[0], { ready: true, problem: '' });
        const res = await h.post<MailBatchPreview>('billing_mail_batch_preview', closing);
        assert.equal(res.status, 200, res.text);
        const [preview] = res.body;
        assert.equal(preview.problem, '');
        assert.deepEqual(preview.rows.map((r) => [r.bl_number, r.name, r.to]), [
          [numbers.invoice, '𠮷田商店', 'yoshida@example.jp'],
          [numbers.largeInvoice, '大口 太郎', 'refuse@example.jp'],
          [numbers.noMailInvoice, 'メールなし商会', ''],
        ]);
        assert.equal(preview.with_address, 2);
        assert.equal(preview.without_address, 1);
        assert.equal(preview.rows[0].total, 8098);
      });

      it('mails each invoice through the one send and answers the result per invoice: sent, failed with the reason, no address', async () => {
        const sentBefore = smtp.received.length;
        const countBefore = Number((await printCount(ids.invoice)).bl_print_count);
        const start = await h.post<{ job_id: number }>('billing_mail_batch', closing);
        assert.equal(start.status, 200, start.text);
        const job = await jobEnded<MailBatchResult>(h, start.body[0].job_id);
        assert.equal(job.state, 'done', JSON.stringify(job));
        const result = job.result!;
        assert.deepEqual([result.sent, result.failed, result.skipped], [1, 1, 1]);
        assert.deepEqual(result.rows.map((r) => [r.bl_id, r.state]), [[ids.invoice, 'sent'], [ids.largeInvoice, 'failed'], [ids.noMailInvoice, 'skipped']]);
        assert.match(result.rows[1].error, /^メールを送信できませんでした（メールサーバーが送信先を受け付けませんでした）/);
        assert.equal(result.rows[2].error, BILLING_MESSAGES.noAddress('メールなし商会'));
        // One mail per invoice sent, its own PDF attached.
        const received = smtp.received.slice(sentBefore);
        assert.equal(received.length, 1);
        assert.deepEqual(received[0].envelopeTo, ['yoshida@example.jp']);
        assert.equal(received[0].subject, `【テスト宅配水株式会社】ご請求書のお届け（請求番号 ${numbers.invoice}）`);
        assert.deepEqual(received[0].attachments.map((a) => a.filename), [`請求書_${numbers.invoice}_𠮷田商店.pdf`]);
        // Counted as issued like billing_mail, logged in billing_send and the audit log under the job.
        assert.equal(Number((await printCount(ids.invoice)).bl_print_count), countBefore + 1);
        assert.equal((await h.post<Row>('billing_send_lst', { bl_id: ids.invoice })).body[0].bs_state, 'sent');
        assert.equal((await h.post<Row>('billing_send_lst', { bl_id: ids.largeInvoice })).body[0].bs_state, 'failed');
        assert.deepEqual((await h.post<Row>('billing_send_lst', { bl_id: ids.noMailInvoice })).body, []);
        const audit = await h.database.db.selectFrom('audit_log').selectAll().where('log_call', '=', 'billing_mail_batch').orderBy('log_id').execute();
        assert.deepEqual(audit.map((a) => [Number(a.log_record_id), Number(a.log_job_id)]), [[ids.invoice, job.job_id], [ids.largeInvoice, job.job_id]]);
      });

      it('refuses a closing without invoices or with nobody to mail, and bad parameters, starting nothing', async () => {
        const none = await h.post<ErrorRow>('billing_mail_batch', { sime_gp: '31', sime_ym: '202605' });
        assert.equal(none.status, 400);
        assert.equal(none.body[0].error, BILLING_MESSAGES.noInvoices(closingLabel('31', '202605')));
        const [preview] = (await h.post<MailBatchPreview>('billing_mail_batch_preview', { sime_gp: '31', sime_ym: '202605' })).body;
        assert.deepEqual(preview.rows, []);
        assert.equal(preview.problem, BILLING_MESSAGES.noInvoices(closingLabel('31', '202605')));
        // Group 25 holds only the customer without an address.
        const nobody = await h.post<ErrorRow>('billing_mail_batch', { sime_gp: '25', sime_ym: '202605' });
        assert.equal(nobody.status, 400);
        assert.equal(nobody.body[0].error, BILLING_MESSAGES.noRecipients(closingLabel('25', '202605')));
        const badGroup = await h.post<ErrorRow>('billing_mail_batch', { sime_gp: '7', sime_ym: '202605' });
        assert.equal(badGroup.body[0].fields?.sime_gp, MESSAGES.closingBadGroup);
        const key = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
        assert.equal((await h.post('billing_mail_batch', closing, key)).status, 403);
        assert.equal((await h.post('job_lst', { kind: 'billing_mail_batch' })).body.length, 1, 'only the run above');
      });
    });
  });
}
