/**
 * The invoice archive (電子帳簿保存法, server/billing/archive.ts), on the real server and both dialects, with invoices made
 * by the real closing of slips entered through their saves:
 * - every way an invoice leaves (print, a second print, mail, the batch's ZIP) hands out the bytes stored at its first
 *   delivery — SHA-256 equal — and each delivery is listed (`archive_delivery_lst`);
 * - the database refuses to change or delete a version, its delivery rows, its stored file and its chunks, whoever asks;
 * - 締め戻し marks the issued versions 取消 (who, when, why) and they stay downloadable; closing again issues a 修正
 *   version that names the one it replaces, on the document too, under a new number;
 * - the search (`archive_lst` / `archive_cnt`): 取引年月日 and 取引金額 as ranges, 取引先 by name, kana or code, combined;
 * - roles: a role without the sales area reads nothing of it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import { sql } from 'kysely';
import type { JobInfo } from '../../lib/jobs';
import { dialects, type Harness, jobEnded, type ParamValue, resourceCalls, useHarness } from './harness';
import { pdfText } from '../support/pdf';
import { startLocalSmtp, type LocalSmtp } from '../support/local-smtp';

type Row = Record<string, string | number | null>;

const COMPANY = {
  name: '保存テスト宅配水株式会社', zipcode: '100-0001', address: '東京都千代田区千代田1-1', tel: '03-1111-2222', email: 'billing@example.jp',
  invoice_no: 'T7000012050002', bank_name: 'みずほ銀行', bank_branch: '本店', bank_type: '1', bank_account: '1234567', bank_holder: 'テストタクハイスイ',
};

const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/** A file answer's bytes. */
async function download(h: Harness, call: string, params: Record<string, ParamValue>, key = h.adminKey): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const body = new URLSearchParams({ authKey: key });
  for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== null) body.set(name, String(value));
  const res = await fetch(`${h.url}${h.config.dbApiPrefix}/${call}`, { method: 'POST', body });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

for (const dialect of dialects()) {
  describe(`invoice archive (${dialect})`, () => {
    let smtp: LocalSmtp;
    before(async () => {
      smtp = await startLocalSmtp();
    });
    after(async () => {
      await smtp.close();
    });
    const h = useHarness(dialect, () => ({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), MAIL_FROM: 'noreply@example.jp' }));
    const { save, created } = resourceCalls(h);
    const ids = { aoba: 0, kita: 0, water: 0 };
    const invoiceOf = async (cl_id: number) =>
      h.database.db.selectFrom('billing').select(['bl_id', 'bl_number', 'bl_total']).where('bl_cl_id', '=', cl_id).where('deleted', '=', 0).executeTakeFirstOrThrow();
    const versionsOf = async (cl_id: number) =>
      h.database.db.selectFrom('invoice_archive').selectAll().where('ar_cl_id', '=', cl_id).orderBy('ar_id').execute();
    const close = async () => {
      const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: '20', sime_ym: '202605' });
      assert.equal(run.status, 200, run.text);
      const job: JobInfo = await jobEnded(h, run.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
    };
    const refused = async (statement: ReturnType<typeof sql>, what: string) =>
      assert.rejects(statement.execute(h.database.db), /invoice_archive|archive_delivery|stored_file|file_chunk/, what);

    before(async () => {
      const [company] = (await h.post<Row>('company_dtl', { id: 1 })).body;
      assert.equal((await save('company', { ...COMPANY, modified: company.modified }, 1)).status, 200);
      ids.water = Number((await created('item', { code: 'AR-W12', name: '天然水 12L', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0 })).it_id);
      const client = async (values: Record<string, unknown>) =>
        Number((await created('client', { status: '1', tel_1: '03-1234-5678', zei_ten: '3', zei_kiri: '0', sime_gp: '20', collect_cycle: '1', collect_day: 27, pref: '東京都', ...values })).cl_id);
      ids.aoba = await client({ code: 'AR-001', co_name: '青葉商事', co_name_kana: 'アオバショウジ', email: 'aoba@example.jp', invoice_delivery: '2' });
      ids.kita = await client({ code: 'AR-002', co_name: '北山工業', co_name_kana: 'キタヤマコウギョウ' });
      await created('sales', { cl_id: ids.aoba, date: '2026-05-01', lines: [{ it_id: ids.water, quantity: 2 }] });
      await created('sales', { cl_id: ids.kita, date: '2026-05-08', lines: [{ it_id: ids.water, quantity: 10 }] });
      await close();
    });

    it('stores an invoice once at its first delivery; prints, mail and the batch ZIP hand out those bytes, each delivery listed', async () => {
      const invoice = await invoiceOf(ids.aoba);
      const first = await download(h, 'billing_pdf', { id: invoice.bl_id });
      assert.equal(first.status, 200, first.bytes.toString('utf8', 0, 300));
      const [version] = await versionsOf(ids.aoba);
      assert.equal(version.ar_sha256, sha(first.bytes));
      assert.equal(Number(version.ar_size), first.bytes.length);
      assert.equal(version.ar_number, invoice.bl_number);
      assert.equal(version.ar_state, '1');
      assert.equal(version.ar_date, '2026-05-20');
      assert.equal(Number(version.ar_amount), Number(invoice.bl_total));
      assert.deepEqual([version.ar_cl_code, version.ar_cl_name, version.ar_cl_kana], ['AR-001', '青葉商事', 'アオバショウジ']);
      assert.equal(version.ar_keep_until, '2033-05-20', 'kept seven years from the closing');

      const again = await download(h, 'billing_pdf', { id: invoice.bl_id });
      assert.equal(sha(again.bytes), sha(first.bytes), 'a reprint is the stored document');
      const mailed = await h.post<Row>('billing_mail', { id: invoice.bl_id });
      assert.equal(mailed.status, 200, mailed.text);
      assert.equal(sha(smtp.received.at(-1)!.attachments[0].content), sha(first.bytes), 'the mail carries the stored bytes');

      const batch = await h.post<{ job_id: number }>('billing_pdf_batch', { sime_gp: '20', sime_ym: '202605' });
      assert.equal(batch.status, 200, batch.text);
      assert.equal((await jobEnded(h, batch.body[0].job_id)).state, 'done');
      const zip = await download(h, 'billing_pdf_batch_file', { job_id: batch.body[0].job_id, format: 'zip' });
      const entries = unzipSync(new Uint8Array(zip.bytes));
      const entryOf = (number: unknown) => Buffer.from(Object.entries(entries).find(([name]) => name.includes(String(number)))![1]);
      assert.equal(sha(entryOf(invoice.bl_number)), sha(first.bytes), 'the ZIP entry of an invoice that left before is its stored version');
      // The other invoice left for the first time in the batch: stored then, and its ZIP entry is what was stored.
      const kita = await invoiceOf(ids.kita);
      const [kitaVersion] = await versionsOf(ids.kita);
      const kitaFile = await download(h, 'archive_file', { id: kitaVersion.ar_id });
      assert.equal(kitaFile.status, 200);
      assert.equal(sha(kitaFile.bytes), kitaVersion.ar_sha256);
      assert.equal(sha(entryOf(kita.bl_number)), kitaVersion.ar_sha256);
      assert.equal(kitaFile.headers.get('x-invoice-sha256'), kitaVersion.ar_sha256);

      assert.equal((await versionsOf(ids.aoba)).length, 1, 'one version however often it left');
      const deliveries = await h.post<Row>('archive_delivery_lst', { ar_id: version.ar_id });
      assert.equal(deliveries.status, 200, deliveries.text);
      assert.deepEqual(deliveries.body.map((d) => [d.ad_how, d.ad_to]), [['batch', ''], ['mail', 'aoba@example.jp'], ['print', ''], ['print', '']]);
      assert.ok(deliveries.body.every((d) => d.user_name === '管理 太郎'));
    });

    it('refuses at the database any change or deletion of a version, its deliveries, its file and its chunks', async () => {
      const [version] = await versionsOf(ids.aoba);
      const id = version.ar_id;
      await refused(sql`UPDATE invoice_archive SET ar_amount = 1 WHERE ar_id = ${id}`, 'the amount');
      await refused(sql`UPDATE invoice_archive SET ar_sha256 = 'x', ar_state = '2', ar_cancelled_at = 'now', ar_cancelled_by = 1 WHERE ar_id = ${id}`, 'a cancel that alters the bytes');
      await refused(sql`UPDATE invoice_archive SET ar_state = '2' WHERE ar_id = ${id}`, 'a cancel without who and when');
      await refused(sql`DELETE FROM invoice_archive WHERE ar_id = ${id}`, 'the version');
      await refused(sql`UPDATE archive_delivery SET ad_to = 'x' WHERE ad_ar_id = ${id}`, 'a delivery');
      await refused(sql`DELETE FROM archive_delivery WHERE ad_ar_id = ${id}`, 'the deliveries');
      await refused(sql`UPDATE stored_file SET sf_sha256 = 'x' WHERE sf_id = ${version.ar_sf_id}`, 'the file row');
      await refused(sql`DELETE FROM stored_file WHERE sf_id = ${version.ar_sf_id}`, 'the file');
      await refused(sql`UPDATE file_chunk SET fc_seq = 9 WHERE fc_sf_id = ${version.ar_sf_id}`, 'a chunk');
      await refused(sql`DELETE FROM file_chunk WHERE fc_sf_id = ${version.ar_sf_id}`, 'the chunks');
      const file = await download(h, 'archive_file', { id });
      assert.equal(sha(file.bytes), version.ar_sha256, 'the bytes are as they left');
      assert.equal((await h.post<Row>('archive_delivery_lst', { ar_id: id })).body.length, 4);
      // No call writes it either: the resource has no save or delete call.
      assert.equal((await h.post('archive_del', { id })).status, 404);
      assert.equal((await h.post('archive_save', { id, postData: JSON.stringify({ amount: 1, modified: version.modified }) })).status, 404);
    });

    it('締め戻し marks issued versions 取消 and keeps them; closing again issues a 修正 version naming the one it replaces', async () => {
      const old = await invoiceOf(ids.aoba);
      const [oldVersion] = await versionsOf(ids.aoba);
      const restored = await h.post<Row>('closing_restore', { sime_gp: '20', sime_ym: '202605', reason: '単価の訂正' });
      assert.equal(restored.status, 200, restored.text);
      assert.equal(restored.body[0].cancelled, 2);
      const [cancelled] = await versionsOf(ids.aoba);
      assert.equal(cancelled.ar_state, '2');
      assert.equal(cancelled.ar_cancel_reason, '単価の訂正');
      assert.equal(Number(cancelled.ar_cancelled_by), h.fixtures.users.admin.id);
      assert.match(String(cancelled.ar_cancelled_at), /^\d{4}-\d{2}-\d{2}T/);
      assert.equal(sha((await download(h, 'archive_file', { id: oldVersion.ar_id })).bytes), oldVersion.ar_sha256, 'a cancelled version stays downloadable');
      await refused(sql`UPDATE invoice_archive SET ar_state = '1', ar_cancelled_at = '' WHERE ar_id = ${oldVersion.ar_id}`, 'a cancelled version back to issued');

      await created('sales', { cl_id: ids.aoba, date: '2026-05-12', lines: [{ it_id: ids.water, quantity: 1 }] });
      await close();
      const corrected = await invoiceOf(ids.aoba);
      assert.notEqual(corrected.bl_number, old.bl_number, 'numbers stay unique');
      const pdf = await download(h, 'billing_pdf', { id: corrected.bl_id });
      assert.equal(pdf.status, 200);
      const text = pdfText(pdf.bytes);
      assert.ok(text.includes('修正') && text.includes(String(old.bl_number)), text);
      const versions = await versionsOf(ids.aoba);
      assert.equal(versions.length, 2);
      assert.deepEqual([versions[1].ar_version, versions[1].ar_replaces, versions[1].ar_replaces_number, versions[1].ar_state].map(String),
        ['2', String(oldVersion.ar_id), String(old.bl_number), '1']);
      assert.equal(Number(versions[1].ar_amount), Number(corrected.bl_total));
      // The corrected version lists its correction.
      const related = await h.post<Row>('archive_lst', { postData: JSON.stringify({ replaces: oldVersion.ar_id }) });
      assert.equal(related.status, 200, related.text);
      // An invoice never issued disappears with its closing: 北山's second invoice is restored away without a trace.
      const kitaNew = await invoiceOf(ids.kita);
      const again = await h.post<Row>('closing_restore', { sime_gp: '20', sime_ym: '202605' });
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body[0].cancelled, 1, 'only the printed 修正 version is cancelled');
      assert.equal((await h.database.db.selectFrom('invoice_archive').select('ar_id').where('ar_bl_id', '=', kitaNew.bl_id).execute()).length, 0);
      assert.match(String((await versionsOf(ids.aoba))[1].ar_cancel_reason), /2026年5月.*20日締め.*締め戻し/);
      await close();
    });

    it('searches by 取引年月日 and 取引金額 ranges and 取引先 name, kana or code, combined, with an exact total', async () => {
      const list = async (params: Record<string, ParamValue>) => {
        const res = await h.post<Row>('archive_lst', params);
        assert.equal(res.status, 200, res.text);
        const count = await h.post<number>('archive_cnt', params);
        assert.equal(count.status, 200, count.text);
        assert.equal(Number(count.body[0]), res.body.length);
        return res.body.map((r) => `${String(r.ar_cl_code)}:${String(r.ar_version)}:${String(r.ar_state)}`).sort();
      };
      const all = await list({});
      assert.deepEqual(all, ['AR-001:1:2', 'AR-001:2:2', 'AR-002:1:2']);
      assert.deepEqual(await list({ kw: 'キタヤマ' }), ['AR-002:1:2']);
      assert.deepEqual(await list({ kw: 'ar-001' }), ['AR-001:1:2', 'AR-001:2:2']);
      assert.deepEqual(await list({ kw: '青葉' }), ['AR-001:1:2', 'AR-001:2:2']);
      const [aobaFirst, aobaSecond] = await versionsOf(ids.aoba);
      const [kita] = await versionsOf(ids.kita);
      assert.ok(Number(aobaFirst.ar_amount) < Number(aobaSecond.ar_amount) && Number(aobaSecond.ar_amount) < Number(kita.ar_amount));
      assert.deepEqual(await list({ postData: JSON.stringify({ ar_amount: [Number(aobaSecond.ar_amount), ''] }) }), ['AR-001:2:2', 'AR-002:1:2']);
      assert.deepEqual(await list({ postData: JSON.stringify({ ar_amount: ['', Number(aobaSecond.ar_amount)] }) }), ['AR-001:1:2', 'AR-001:2:2']);
      assert.deepEqual(await list({ postData: JSON.stringify({ ar_date: ['2026-05-20', '2026-05-20'] }) }), all);
      assert.deepEqual(await list({ postData: JSON.stringify({ ar_date: ['2026-06-01', ''] }) }), []);
      assert.deepEqual(await list({ kw: '青葉', postData: JSON.stringify({ ar_amount: [Number(aobaSecond.ar_amount), ''], ar_date: ['2026-05-01', '2026-05-31'] }) }), ['AR-001:2:2']);
      const bad = await h.post('archive_lst', { postData: JSON.stringify({ ar_amount: ['たくさん', ''] }) });
      assert.equal(bad.status, 400);
      const csv = await download(h, 'archive_csv', { kw: '青葉' });
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    });

    it('mails a download link to a メール（ダウンロード） customer; the page lists its invoices and serves their stored bytes, recorded', async () => {
      const [saved] = (await h.post<Row>('client_dtl', { id: ids.kita })).body;
      assert.equal((await save('client', { invoice_delivery: '3', email: 'kita@example.jp', modified: saved.modified }, ids.kita)).status, 200);
      const invoice = await invoiceOf(ids.kita);
      const mailed = await h.post<Row>('billing_mail', { id: invoice.bl_id });
      assert.equal(mailed.status, 200, mailed.text);
      const mail = smtp.received.at(-1)!;
      assert.equal(mail.attachments.length, 0, 'a link instead of the attachment');
      const url = /(http:\/\/\S+\/invoices\/[\w-]{43})/.exec(mail.text)?.[1];
      assert.ok(url, mail.text);
      const token = url.slice(url.lastIndexOf('/') + 1);
      const stored = await h.database.db.selectFrom('invoice_link').selectAll().where('il_cl_id', '=', ids.kita).execute();
      assert.equal(stored.length, 1);
      assert.notEqual(stored[0].il_token_hash, token, 'only the hash is kept');

      const pageUrl = `${h.url}/invoices/${token}`;
      const page = await fetch(pageUrl);
      assert.equal(page.status, 200);
      const html = await page.text();
      assert.ok(html.includes('北山工業') && html.includes(String(invoice.bl_number)), html);
      assert.match(page.headers.get('content-security-policy') ?? '', /default-src 'none'; style-src 'sha256-/);
      assert.doesNotMatch(page.headers.get('content-security-policy') ?? '', /script-src|unsafe-inline/);
      const versions = await versionsOf(ids.kita);
      const live = versions.find((v) => v.ar_state === '1')!;
      const file = await fetch(`${pageUrl}/${live.ar_id}`);
      assert.equal(file.status, 200);
      assert.equal(sha(Buffer.from(await file.arrayBuffer())), live.ar_sha256, 'the page hands out the stored bytes');
      const deliveries = await h.post<Row>('archive_delivery_lst', { ar_id: live.ar_id });
      assert.equal(deliveries.body[0].ad_how, 'page');
      assert.equal(deliveries.body[1].ad_how, 'mail');
      assert.equal(deliveries.body[1].ad_to, 'kita@example.jp');

      // Another customer's invoice through this link: refused.
      const [aoba] = await versionsOf(ids.aoba);
      const other = await fetch(`${pageUrl}/${aoba.ar_id}`);
      assert.equal(other.status, 404);
      assert.match(await other.text(), /この請求書はこのリンクからは開けません/);
      // An unknown token, an expired link, a revoked one: each says so in Japanese and nothing else.
      const unknown = await fetch(`${h.url}/invoices/${'A'.repeat(43)}`);
      assert.equal(unknown.status, 404);
      assert.match(await unknown.text(), /このリンクは無効です/);
      const staff = await h.post<{ url: string; expires: string }>('billing_link', { cl_id: ids.kita });
      assert.equal(staff.status, 200, staff.text);
      assert.match(staff.body[0].url, /\/invoices\/[\w-]{43}$/);
      assert.match(staff.body[0].expires, /^\d{4}-\d{2}-\d{2}$/);
      const staffToken = staff.body[0].url.slice(staff.body[0].url.lastIndexOf('/') + 1);
      await h.database.db.updateTable('invoice_link').set({ il_expires: '2020-01-01' }).where('il_token_hash', '=', sha(Buffer.from(staffToken))).execute();
      const expired = await fetch(`${h.url}/invoices/${staffToken}`);
      assert.equal(expired.status, 410);
      const expiredText = await expired.text();
      assert.match(expiredText, /有効期限が切れています/);
      assert.ok(!expiredText.includes('北山工業'), 'nothing of the customer');
      const revoked = await h.post<{ revoked: number }>('billing_link_revoke', { cl_id: ids.kita });
      assert.equal(revoked.status, 200, revoked.text);
      assert.equal(revoked.body[0].revoked, 2);
      // Each link made (by the mail, by staff) and their end are in the customer's audit log.
      const audited = await h.database.db.selectFrom('audit_log').select('log_call').where('log_table', '=', 'client').where('log_record_id', '=', ids.kita)
        .where('log_call', 'in', ['billing_mail', 'billing_link', 'billing_link_revoke']).orderBy('log_id').execute();
      assert.deepEqual(audited.map((a) => a.log_call), ['billing_mail', 'billing_link', 'billing_link_revoke']);
      const gone = await fetch(pageUrl);
      assert.equal(gone.status, 410);
      assert.match(await gone.text(), /このリンクは無効になりました/);
      assert.equal((await fetch(`${pageUrl}/${live.ar_id}`)).status, 410);
      assert.equal((await h.post('billing_link', { cl_id: 999_999 })).status, 404);
      assert.equal((await h.post('billing_link', {})).status, 400);

      // The page's own rate limit: past 60 answers a minute to one address, 429 in Japanese (200 tries span two minutes at most).
      let limited: Response | undefined;
      for (let i = 0; i < 200 && !limited; i++) {
        const res = await fetch(`${h.url}/invoices/${'B'.repeat(43)}`);
        if (res.status === 429) limited = res;
        else await res.arrayBuffer();
      }
      assert.ok(limited, 'the page limits one address');
      assert.match(await limited.text(), /アクセスが集中しています/);
    });

    it('is read by the sales area only: a role without it gets nothing', async () => {
      const [version] = await versionsOf(ids.aoba);
      const delivery = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
      assert.equal((await h.post('archive_lst', {}, delivery)).status, 403);
      assert.equal((await download(h, 'archive_file', { id: version.ar_id }, delivery)).status, 403);
      assert.equal((await h.post('archive_delivery_lst', { ar_id: version.ar_id }, delivery)).status, 403);
      const accounting = await h.keyOf(h.fixtures.users.accounting.email, h.fixtures.users.accounting.password);
      assert.equal((await download(h, 'archive_file', { id: version.ar_id }, accounting)).status, 200);
      assert.equal((await h.post('archive_file', { id: 999_999 })).status, 404);
      assert.equal((await h.post('archive_file', { id: 'x' })).status, 400);
    });
  });
}
