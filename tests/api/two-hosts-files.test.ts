/**
 * Two application hosts on one PostgreSQL database (issue 21, "any server serves any request"): two server processes,
 * each with a data folder of its own (`startServerProcess(…, { beside })`), a user's requests alternating between them
 * as a load balancer would send them. The files live in the database (server/files), so:
 * - an import's file uploaded and previewed on host A is committed on host B, and the errors of a preview made on B
 *   are answered by A;
 * - a batch invoice PDF started on A is downloaded — the merged PDF and the ZIP — from B;
 * - neither host keeps a file in its data folder.
 * PostgreSQL only (two hosts share a database server; SQLite is one machine's file).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { unzipSync } from 'fflate';
import type { ImportPreview } from '../../lib/imports/kinds';
import { dialects } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'two-hosts-files@example.jp', password: 'two-hosts-files-2026' };
type Row = Record<string, unknown>;

if (dialects().includes('postgres')) {
  describe('two hosts on one PostgreSQL database: files', () => {
    let a: ServerProcess;
    let b: ServerProcess;
    let key = '';
    before(async () => {
      a = await startServerProcess('postgres', ADMIN, 1);
      b = await startServerProcess('postgres', ADMIN, 1, { beside: a });
      const login = await a.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
      assert.equal(login.status, 200, login.text);
      key = String(login.body[0].auth_key);
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    const call = (host: ServerProcess, name: string, params: Record<string, string | number> = {}) =>
      host.post(`/api/db/${name}`, { authKey: key, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
    const created = async (host: ServerProcess, resource: string, values: Row): Promise<Row> => {
      const res = await call(host, `${resource}_save`, { postData: JSON.stringify(values) });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    /** Reads `job_dtl` on `host` until the job has ended (at most two minutes). */
    const ended = async (host: ServerProcess, jobId: unknown): Promise<Row> => {
      for (const deadline = Date.now() + 120_000; ;) {
        const res = await call(host, 'job_dtl', { id: String(jobId) });
        assert.equal(res.status, 200, res.text);
        if (res.body[0].state !== 'running') return res.body[0];
        assert.ok(Date.now() < deadline, `job ${String(jobId)} ends`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const preview = async (host: ServerProcess, csv: string): Promise<{ status: number; text: string; body: ImportPreview[] }> => {
      const form = new FormData();
      form.append('authKey', key);
      form.append('kind', 'client');
      form.append('file', new Blob([Buffer.from(csv, 'utf8')], { type: 'text/csv' }), '顧客.csv');
      const res = await fetch(`${host.url}/api/db/import_preview`, { method: 'POST', body: form });
      const text = await res.text();
      return { status: res.status, text, body: JSON.parse(text) as ImportPreview[] };
    };
    const download = async (host: ServerProcess, name: string, params: Record<string, string | number>) => {
      const res = await fetch(`${host.url}/api/db/${name}`, {
        method: 'POST', body: new URLSearchParams({ authKey: key, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) }),
      });
      return { status: res.status, type: res.headers.get('content-type') ?? '', bytes: Buffer.from(await res.arrayBuffer()) };
    };

    it('commits on host B an import uploaded and previewed on host A; A answers the errors of a preview made on B', async () => {
      const previewed = await preview(a, '顧客コード,会社名,電話番号1\r\nTWO1,二拠点商事,03-8888-0001\r\nTWO2,二拠点物産,03-8888-0002\r\n');
      assert.equal(previewed.status, 200, previewed.text);
      assert.deepEqual([previewed.body[0].rows, previewed.body[0].inserts, previewed.body[0].errors.length], [2, 2, 0]);
      const commit = await call(b, 'import_commit', { import_id: previewed.body[0].import_id });
      assert.equal(commit.status, 200, commit.text);
      // The job runs on B; A reads how it ended.
      const job = await ended(a, commit.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      assert.equal((job.result as Row).inserts, 2);
      const found = await call(a, 'client_lst', { kw: '二拠点' });
      assert.deepEqual(found.body.map((r) => r.cl_code).sort(), ['TWO1', 'TWO2']);

      const errored = await preview(b, '顧客コード,会社名,電話番号1\r\nTWO3,,03-8888-0003\r\n');
      assert.equal(errored.status, 200, errored.text);
      assert.equal(errored.body[0].errors.length, 1);
      const errors = await download(a, 'import_errors_csv', { import_id: errored.body[0].import_id });
      assert.equal(errors.status, 200, errors.bytes.toString());
      assert.match(errors.bytes.toString('utf8'), /TWO3/);
    });

    it('downloads from host B the batch invoice PDF and ZIP a job on host A wrote', async () => {
      const [company] = (await call(b, 'company_dtl', { id: 1 })).body;
      const saved = await call(b, 'company_save', {
        id: 1, postData: JSON.stringify({ name: '二拠点宅配水株式会社', zipcode: '100-0001', address: '東京都千代田区千代田1-1', tel: '03-1111-2222', invoice_no: 'T7000012050002', modified: company.modified }),
      });
      assert.equal(saved.status, 200, saved.text);
      const item = await created(a, 'item', { code: 'TH-W12', name: '天然水 12L', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0 });
      const customer = (co_name: string) => ({ co_name, status: '1', tel_1: '03-1234-5678', zei_ten: '3', zei_kiri: '0', sime_gp: '20', collect_cycle: '1', collect_day: 27, pref: '東京都' });
      const first = await created(b, 'client', customer('二拠点請求商店'));
      const second = await created(a, 'client', customer('二拠点請求商会'));
      await created(b, 'sales', { cl_id: first.cl_id, date: '2026-05-08', lines: [{ it_id: item.it_id, quantity: 2 }] });
      await created(a, 'sales', { cl_id: second.cl_id, date: '2026-05-12', lines: [{ it_id: item.it_id, quantity: 3 }] });
      const closing = await call(b, 'closing_run', { sime_gp: '20', sime_ym: '202605' });
      assert.equal(closing.status, 200, closing.text);
      assert.equal((await ended(a, closing.body[0].job_id)).state, 'done');

      const batch = await call(a, 'billing_pdf_batch', { sime_gp: '20', sime_ym: '202605' });
      assert.equal(batch.status, 200, batch.text);
      const job = await ended(b, batch.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      const result = job.result as Row;
      assert.equal(result.invoices, 2);

      const pdf = await download(b, 'billing_pdf_batch_file', { job_id: String(job.job_id), format: 'pdf' });
      assert.equal(pdf.status, 200, pdf.bytes.toString());
      assert.equal(pdf.type, 'application/pdf');
      assert.equal(pdf.bytes.subarray(0, 5).toString('latin1'), '%PDF-');
      assert.equal(pdf.bytes.length, result.pdf_bytes);
      const zip = await download(b, 'billing_pdf_batch_file', { job_id: String(job.job_id), format: 'zip' });
      assert.equal(zip.status, 200, zip.bytes.toString());
      assert.equal(zip.bytes.length, result.zip_bytes);
      const files = Object.values(unzipSync(new Uint8Array(zip.bytes)));
      assert.equal(files.length, 2);
      for (const file of files) assert.equal(Buffer.from(file).subarray(0, 5).toString('latin1'), '%PDF-');
      // A answers the same bytes.
      assert.ok((await download(a, 'billing_pdf_batch_file', { job_id: String(job.job_id), format: 'pdf' })).bytes.equals(pdf.bytes));
    });

    it('keeps no file in either host’s data folder', () => {
      for (const host of [a, b]) {
        for (const folder of ['imports', 'billing-pdf']) assert.ok(!existsSync(join(host.dataDir, folder)), `${host.dataDir}/${folder}`);
      }
    });
  });
}
