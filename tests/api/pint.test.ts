/**
 * JP PINT digital invoices (`billing_pint`, and in the batch's ZIP) for invoices made by real closings, on the real server
 * and both dialects, checked by OpenPeppol's own two rule sets (tests/support/pint-validate.ts): standard and reduced
 * rates together, 外税 per invoice and 内税, a return, a carried balance, a payment, an exempt and an outside-tax line, a
 * 修正 version (BillingReference), an invoice without sales. Any fatal assertion fails the test — except, on a 内税
 * breakdown whose tax the NTA method took from the tax-inclusive total, rule `aligned-ibrp-051-jp`, the one known
 * conflict. The XML is the version's second stored file: asked again, the same bytes.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import type { JobInfo } from '../../lib/jobs';
import { dialects, type Harness, jobEnded, type ParamValue, resourceCalls, useHarness } from './harness';
import { validatePint } from '../support/pint-validate';

type Row = Record<string, string | number | null>;

const COMPANY = {
  name: 'デジタル宅配水株式会社', zipcode: '100-0001', address: '東京都千代田区千代田1-1', tel: '03-1111-2222', email: 'billing@example.jp',
  invoice_no: 'T7000012050002', bank_name: 'みずほ銀行', bank_branch: '本店', bank_type: '1', bank_account: '1234567', bank_holder: 'デジタルタクハイスイ',
};
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
/** The one rule a 内税 breakdown may fail (the NTA's per-rate tax from the tax-inclusive total). */
const NTA_RULE = 'aligned-ibrp-051-jp';

async function download(h: Harness, call: string, params: Record<string, ParamValue>): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const body = new URLSearchParams({ authKey: h.adminKey });
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null) body.set(name, String(value));
  const res = await fetch(`${h.url}${h.config.dbApiPrefix}/${call}`, { method: 'POST', body });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** An amount element's value, e.g. `amount(xml, 'PayableAmount')`. */
const amount = (xml: string, element: string): number => Number(new RegExp(`<cbc:${element} currencyID="JPY">(-?[\\d.]+)<`).exec(xml)?.[1] ?? Number.NaN);

for (const dialect of dialects()) {
  describe(`JP PINT (${dialect})`, () => {
    const h = useHarness(dialect);
    const { save, created } = resourceCalls(h);
    const ids = { soto: 0, uchi: 0, quiet: 0 };
    const invoiceOf = async (cl_id: number) =>
      h.database.db.selectFrom('billing').selectAll().where('bl_cl_id', '=', cl_id).where('deleted', '=', 0).orderBy('bl_id', 'desc').executeTakeFirstOrThrow();
    const close = async () => {
      const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: '20', sime_ym: '202605' });
      assert.equal(run.status, 200, run.text);
      const job: JobInfo = await jobEnded(h, run.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
    };
    /** The XML of an invoice, validated: no fatal assertion but those `allowed`. */
    const valid = async (xml: string, allowed: readonly string[] = []) => {
      const report = await validatePint(xml);
      const unexpected = report.fatal.filter((f) => !allowed.includes(f.id));
      assert.deepEqual(unexpected, [], xml);
      return report;
    };

    before(async () => {
      const [company] = (await h.post<Row>('company_dtl', { id: 1 })).body;
      assert.equal((await save('company', { ...COMPANY, modified: company.modified }, 1)).status, 200);
      const item = async (code: string, name: string, price: number, tax_class: string) =>
        Number((await created('item', { code, name, unit: '本', price, tax_class, stock_tracked: 0 })).it_id);
      const water = await item('P-W12', '天然水 12L', 1200, 'reduced');
      const rental = await item('P-RENT', 'サーバーレンタル', 1100, 'standard');
      const deposit = await item('P-DEP', '容器保証金', 1000, 'outside');
      const stamp = await item('P-EX', '収入印紙代', 200, 'exempt');
      const client = async (values: Record<string, unknown>) => Number((await created('client', {
        status: '1', tel_1: '03-1234-5678', zei_kiri: '0', sime_gp: '20', collect_cycle: '1', collect_day: 27, pref: '東京都', city: '千代田区', address: '丸の内1-1',
        invoice_delivery: '4', ...values,
      })).cl_id);
      ids.soto = await client({ code: 'P-001', co_name: '外税商事', zei_ten: '3', peppol_id: '0188:1234567890123', opening_balance: 5000, opening_balance_date: '2026-04-01' });
      ids.uchi = await client({ code: 'P-002', co_name: '内税商店', zei_ten: '5', peppol_id: '0221:T1180301018771' });
      ids.quiet = await client({ code: 'P-003', co_name: '取引なし工業', zei_ten: '3', peppol_id: '0188:7000012050002', opening_balance: 2000, opening_balance_date: '2026-04-01' });
      await created('sales', { cl_id: ids.soto, date: '2026-05-01', lines: [{ it_id: water, quantity: 3 }, { it_id: rental, quantity: 1 }, { it_id: deposit, quantity: 1 }, { it_id: stamp, quantity: 1 }] });
      await created('sales', { cl_id: ids.soto, date: '2026-05-09', kind: 'return', lines: [{ it_id: water, quantity: -1, name: '天然水 12L 返品' }] });
      await created('payment', { cl_id: ids.soto, date: '2026-05-10', amount: 3000, kind: 'transfer' });
      await created('sales', { cl_id: ids.uchi, date: '2026-05-03', lines: [{ it_id: water, quantity: 5 }, { it_id: rental, quantity: 2 }] });
      await created('sales', { cl_id: ids.uchi, date: '2026-05-15', lines: [{ it_id: water, quantity: 1, price: 1360 }] });
      await close();
    });

    it('a 外税 invoice with both rates, a return, exempt and outside lines, a carried balance and a payment passes both rule sets', async () => {
      const invoice = await invoiceOf(ids.soto);
      const res = await download(h, 'billing_pint', { id: invoice.bl_id });
      assert.equal(res.status, 200, res.bytes.toString('utf8', 0, 400));
      assert.match(res.headers.get('content-type') ?? '', /^application\/xml/);
      const xml = res.bytes.toString('utf8');
      await valid(xml);
      assert.ok(xml.includes(`<cbc:ID>${String(invoice.bl_number)}</cbc:ID>`));
      assert.ok(xml.includes('T7000012050002') && xml.includes('1234567890123'));
      assert.equal(amount(xml, 'PayableAmount'), Number(invoice.bl_total), 'the payable amount is the 今回請求額');
      for (const category of ['S', 'AA', 'E', 'O']) assert.ok(xml.includes(`<cbc:ID>${category}</cbc:ID>`), `category ${category}`);
      const rates = await h.database.db.selectFrom('billing_rate').selectAll().where('blr_bl_id', '=', invoice.bl_id).execute();
      const taxOf = (key: string) => Number(rates.find((r) => r.blr_key === key)?.blr_tax ?? 0);
      assert.ok(xml.includes(`<cbc:TaxAmount currencyID="JPY">${taxOf('8')}</cbc:TaxAmount>`) && xml.includes(`<cbc:TaxAmount currencyID="JPY">${taxOf('10')}</cbc:TaxAmount>`), xml);

      // The XML is the version's second stored file: asked again, the same bytes; both deliveries listed.
      const again = await download(h, 'billing_pint', { id: invoice.bl_id });
      assert.equal(sha(again.bytes), sha(res.bytes));
      const [version] = await h.database.db.selectFrom('invoice_archive').selectAll().where('ar_bl_id', '=', invoice.bl_id).execute();
      assert.ok(version.ar_pint_sf_id, 'the version names its XML');
      assert.ok(version.ar_sf_id, 'and its PDF, stored first');
      const deliveries = await h.post<Row>('archive_delivery_lst', { ar_id: version.ar_id });
      assert.deepEqual(deliveries.body.map((d) => d.ad_how), ['pint', 'pint']);
    });

    it('a 内税 invoice passes but for the one NTA rule on its breakdown', async () => {
      const invoice = await invoiceOf(ids.uchi);
      const res = await download(h, 'billing_pint', { id: invoice.bl_id });
      assert.equal(res.status, 200, res.bytes.toString('utf8', 0, 400));
      const xml = res.bytes.toString('utf8');
      const report = await valid(xml, [NTA_RULE]);
      assert.ok(report.fatal.every((f) => f.id === NTA_RULE));
      assert.equal(amount(xml, 'PayableAmount'), Number(invoice.bl_total));
    });

    it('the batch ZIP carries each digital customer\'s XML beside its PDF, the stored one when it has one; an invoice without sales passes', async () => {
      const batch = await h.post<{ job_id: number }>('billing_pdf_batch', { sime_gp: '20', sime_ym: '202605' });
      assert.equal(batch.status, 200, batch.text);
      const job = await jobEnded(h, batch.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      assert.equal((job.result as { pint: number }).pint, 3);
      const zip = await download(h, 'billing_pdf_batch_file', { job_id: batch.body[0].job_id, format: 'zip' });
      const entries = unzipSync(new Uint8Array(zip.bytes));
      const xmlOf = async (cl_id: number) => {
        const invoice = await invoiceOf(cl_id);
        const found = Object.entries(entries).find(([name]) => name.includes(String(invoice.bl_number)) && name.endsWith('.xml'));
        assert.ok(found, `the XML of ${String(invoice.bl_number)} in ${Object.keys(entries).join(', ')}`);
        return { invoice, bytes: Buffer.from(found[1]) };
      };
      const soto = await xmlOf(ids.soto);
      const [sotoVersion] = await h.database.db.selectFrom('invoice_archive').selectAll().where('ar_bl_id', '=', soto.invoice.bl_id).execute();
      const stored = await download(h, 'archive_file', { id: sotoVersion.ar_id });
      assert.equal(stored.status, 200);
      const quiet = await xmlOf(ids.quiet);
      const xml = quiet.bytes.toString('utf8');
      await valid(xml);
      assert.equal(amount(xml, 'PayableAmount'), Number(quiet.invoice.bl_total));
      assert.equal(Number(quiet.invoice.bl_sales_net), 0, 'no sales in its period');
      const pdfOfSoto = await download(h, 'billing_pint', { id: soto.invoice.bl_id });
      assert.equal(sha(soto.bytes), sha(pdfOfSoto.bytes), 'the ZIP\'s XML is the stored one');
    });

    it('a 修正 version references the invoice it corrects', async () => {
      const old = await invoiceOf(ids.soto);
      assert.equal((await h.post('closing_restore', { sime_gp: '20', sime_ym: '202605', reason: '返品の訂正' })).status, 200);
      await close();
      const corrected = await invoiceOf(ids.soto);
      const res = await download(h, 'billing_pint', { id: corrected.bl_id });
      assert.equal(res.status, 200);
      const xml = res.bytes.toString('utf8');
      await valid(xml);
      assert.match(xml, new RegExp(`<cac:BillingReference>\\s*<cac:InvoiceDocumentReference>\\s*<cbc:ID>${String(old.bl_number)}</cbc:ID>`));
    });

    it('refuses a customer without a Peppol ID, naming it, and storing nothing', async () => {
      const invoice = await invoiceOf(ids.quiet);
      await h.database.db.updateTable('client').set({ cl_peppol_id: '' }).where('cl_id', '=', ids.quiet).execute();
      const before = await h.database.db.selectFrom('invoice_archive').select('ar_id').execute();
      const res = await h.post('billing_pint', { id: invoice.bl_id });
      assert.equal(res.status, 400);
      assert.match(res.text, /取引なし工業 の Peppol ID が登録されていない/);
      assert.equal((await h.database.db.selectFrom('invoice_archive').select('ar_id').execute()).length, before.length);
      const bad = await save('client', { peppol_id: '1234', modified: (await h.post<Row>('client_dtl', { id: ids.quiet })).body[0].modified }, ids.quiet);
      assert.equal(bad.status, 400);
      assert.match(bad.text, /Peppol ID は「0188:1234567890123」のように/);
    });
  });
}
