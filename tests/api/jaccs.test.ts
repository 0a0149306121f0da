/**
 * JACCS direct debit (issue 14) on the real server and both dialects: a closing's 口座振替 customers and their invoices'
 * 残額 (`jaccs_preview`), every problem named before any file is made, the 全銀 種別91 request file byte for byte against
 * a golden file (`jaccs_request`), the request recorded and the closing stamped (締め戻し refused), a second request 409
 * unless 再発行; then the result file written from our own request (tests/support/zengin-result.ts) and read back by the
 * `jaccs_result` import kind in the server's transaction: code 0 → a 口座振替 payment allocated to its invoice (残額 0),
 * other codes → the customer flagged and listed with the meaning; and bad files refused whole with nothing written
 * (a 119-byte record, a trailer that does not add up, an unknown customer, another amount, the same result twice).
 *
 * Set UPDATE_GOLDEN=1 to rewrite the golden file (then read it before committing).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { JaccsFailure, JaccsPreview } from '../../lib/jaccs/contract';
import type { JobInfo } from '../../lib/jobs';
import { filteredListPathOf } from '../../lib/list/resource-paths';
import { clientResource } from '../../lib/resources/client';
import { titleOf } from '../../lib/resources/types';
import type { ImportError, ImportAction, ImportPreview } from '../../lib/imports/kinds';
import type { ImportCommitResult } from '../../lib/imports/runs';
import { jaccsResultImport } from '../../server/imports/kinds/jaccs_result';
import type { ImportRun } from '../../server/imports/kind';
import { type Answer, dialects, type Harness, jobEnded, type ParamValue, resourceCalls, useHarness } from './harness';
import { fileOf, recordsOf, zenginResult } from '../support/zengin-result';

const GOLDEN = join(import.meta.dirname, 'golden', 'jaccs-request.txt');
const code = (n: number): string => String(n).padStart(20, '0');

/** A file answer's bytes (the harness reads answers as text). */
async function download(h: Harness, call: string, params: Record<string, ParamValue>): Promise<{ status: number; headers: Headers; bytes: Buffer; text: string }> {
  const body = new URLSearchParams({ authKey: h.adminKey });
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== null) body.set(key, String(value));
  const res = await fetch(`${h.url}${h.config.dbApiPrefix}/${call}`, { method: 'POST', body });
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: bytes.toString('utf8') };
}

const savedName = (headers: Headers): string => decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(headers.get('content-disposition') ?? '')?.[1] ?? '');

/** Thrown to roll a dry run back. */
class RolledBack extends Error {}

interface Outcome {
  actions: ImportAction[];
  errors: ImportError[];
}

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created, save } = resourceCalls(h);
    const ids = { a: 0, b: 0, c: 0, transfer: 0, missing: 0 };
    let request: Buffer = Buffer.alloc(0);

    /** The import kind run as the machinery runs it: records, apply, finish in one transaction (rolled back for a dry run). */
    const runImport = async (bytes: Buffer, dryRun: boolean): Promise<Outcome> => {
      const rows = jaccsResultImport.records!(bytes);
      let outcome: Outcome = { actions: [], errors: [] };
      try {
        await h.database.db.transaction().execute(async (trx) => {
          const run: ImportRun = { trx, actor: { userId: h.fixtures.users.admin.id, call: 'import_commit' }, dryRun, state: new Map() };
          const applied = await jaccsResultImport.apply(run, rows);
          const finished = (await jaccsResultImport.finish?.(run)) ?? [];
          outcome = { actions: applied.actions, errors: [...applied.errors, ...finished] };
          if (dryRun || outcome.errors.length > 0) throw new RolledBack();
        });
      } catch (error) {
        if (!(error instanceof RolledBack)) throw error;
      }
      return outcome;
    };
    const count = async (table: 'payment' | 'allocation' | 'jaccs_request' | 'jaccs_request_row') =>
      Number((await h.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    async function upload(bytes: Uint8Array, name = 'result.txt'): Promise<Answer<ImportPreview[]>> {
      const form = new FormData();
      form.append('authKey', h.adminKey);
      form.append('kind', 'jaccs_result');
      form.append('file', new Blob([bytes as BlobPart], { type: 'text/plain' }), name);
      return (await h.request(`${h.config.dbApiPrefix}/import_preview`, { method: 'POST', body: form })) as Answer<ImportPreview[]>;
    }
    const commit = async (importId: number): Promise<JobInfo<ImportCommitResult>> => {
      const res = await h.post<{ job_id: number }>('import_commit', { import_id: importId });
      assert.equal(res.status, 200, res.text);
      return jobEnded<ImportCommitResult>(h, res.body[0].job_id);
    };
    const preview = async (): Promise<JaccsPreview> => {
      const res = await h.post<JaccsPreview>('jaccs_preview', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };

    before(async () => {
      // The 支払方法 master as installed: 1 口座振替, 2 銀行振込.
      const methods = await h.post<{ value: string; text: string }>('master_lst', { table: 'mt_pmt_method' });
      assert.deepEqual(methods.body.slice(0, 2).map((m) => [m.value, m.text]), [['1', '口座振替'], ['2', '銀行振込']]);
      const company = (await h.post<Record<string, string>>('company_dtl', { id: 1 })).body[0];
      const saved = await save('company', {
        name: 'テスト宅配水株式会社', itaku_code: '1234567890', itaku_name: 'てすとたくはいすい', itaku_bank_code: '0001', itaku_bank_kana: 'みずほ',
        itaku_branch_code: '123', itaku_branch_kana: 'しんじゅく', itaku_account_type: '1', itaku_account_no: '7654321', modified: company.modified,
      }, 1);
      assert.equal(saved.status, 200, saved.text);
      assert.equal(saved.body[0].cs_itaku_name, 'ﾃｽﾄﾀｸﾊｲｽｲ');
      const client = async (co_name: string, values: Record<string, unknown>) =>
        Number((await created('client', { co_name, status: '1', tel_1: '03-1234-5678', sime_gp: '20', zei_ten: '3', zei_kiri: '0', ...values })).cl_id);
      const account = (n: number, kana: string) => ({ bank_code: '0005', branch_code: '0'.repeat(2) + String(n), account_type: '1', account_no: `000000${n}`, account_kana: kana, debit_code: code(n) });
      ids.a = await client('振替一商事', { pm_id: '1', ...account(1, 'かぶしきがいしゃ　ふりかえいち') });
      ids.b = await client('振替二商店', { collect_type: '1', pm_id: '2', ...account(2, 'ｷｯﾁｮｰ ｼｮｳﾃﾝ') });
      ids.c = await client('振替三郎', { pm_id: '1', ...account(3, 'フリカエ　サブロウ') });
      ids.transfer = await client('振込のお客', { pm_id: '2' });
      ids.missing = await client('口座未登録のお客', { pm_id: '1', bank_code: '0009' });
      const slip = (cl_id: number, price: number) => created('sales', { cl_id, date: '2025-04-10', kind: 'sale', lines: [{ name: 'ボトル', quantity: 2, price, tax_class: 'reduced' }] });
      await slip(ids.a, 1250);
      await slip(ids.b, 1500);
      await slip(ids.c, 600);
      await slip(ids.transfer, 1000);
      await slip(ids.missing, 800);
      const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(run.status, 200, run.text);
      const job = await jobEnded(h, run.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
    });

    it('jaccs_preview lists the 口座振替 customers with their invoices\' 残額, and names each customer\'s problems', async () => {
      const view = await preview();
      assert.equal(view.debit_date, '2025-05-27');
      assert.deepEqual(view.rows.map((r) => [r.cl_id, r.amount, r.debit_code]), [
        [ids.missing, 1728, ''], [ids.a, 2700, code(1)], [ids.b, 3240, code(2)], [ids.c, 1296, code(3)],
      ]);
      assert.equal(view.rows.find((r) => r.cl_id === ids.b)?.account_kana, 'ｷﾂﾁﾖ- ｼﾖｳﾃﾝ');
      assert.deepEqual(view.rows.find((r) => r.cl_id === ids.missing)?.problems, ['支店コードがありません', '預金種目がありません', '口座番号がありません', '口座名義カナがありません', '顧客番号がありません']);
      assert.equal(view.problem_rows, 1);
      assert.deepEqual(view.company_problems, []);
      assert.deepEqual(view.requests, []);
    });

    it('jaccs_request refuses (400) naming each customer and what is wrong, and writes nothing', async () => {
      const res = await download(h, 'jaccs_request', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(res.status, 400, res.text);
      const body = JSON.parse(res.text) as [{ error: string; problems: { cl_id: number; problems: string[] }[] }];
      assert.match(body[0].error, /口座振替依頼データを作成できません（1 件の問題）/);
      assert.match(body[0].error, /口座未登録のお客（顧客ID \d+）: 支店コードがありません、預金種目がありません/);
      assert.deepEqual(body[0].problems.map((p) => p.cl_id), [ids.missing]);
      assert.equal(await count('jaccs_request'), 0);
      const closing = await h.database.db.selectFrom('closing').select('cls_jaccs_at').executeTakeFirstOrThrow();
      assert.equal(closing.cls_jaccs_at, '');
      const bad = await download(h, 'jaccs_request', { sime_gp: '20', sime_ym: '202505' });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /2025年5月 20日締めは締め処理されていません/);
    });

    it('jaccs_request answers the golden file byte for byte: 120-byte records, cp932 half-width kana, header/data/trailer/end', async () => {
      // The customer without an account pays by transfer now: it leaves the request.
      const missing = (await h.post<Record<string, string>>('client_dtl', { id: ids.missing })).body[0];
      assert.equal((await save('client', { pm_id: '2', modified: missing.modified }, ids.missing)).status, 200);
      const res = await download(h, 'jaccs_request', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(res.status, 200, res.text);
      assert.equal(savedName(res.headers), '口座振替依頼_202504_20日締め_引落0527.txt');
      assert.equal(res.headers.get('x-jaccs-count'), '3');
      request = res.bytes;
      if (process.env.UPDATE_GOLDEN || !existsSync(GOLDEN)) writeFileSync(GOLDEN, request);
      assert.ok(request.equals(readFileSync(GOLDEN)), 'the request is the golden file byte for byte');
      assert.equal(request.length, 120 * 6);
      assert.ok(!request.includes(0x0d) && !request.includes(0x0a), 'a request file has no line breaks');
      const records = recordsOf(request);
      assert.deepEqual(records.map((r) => r[0]), ['1', '2', '2', '2', '8', '9']);
      assert.equal(records[0].slice(0, 58), `19101234567890${'ﾃｽﾄﾀｸﾊｲｽｲ'.padEnd(40)}0527`);
      assert.equal(records[2].slice(50, 80), 'ｷﾂﾁﾖ- ｼﾖｳﾃﾝ'.padEnd(30));
      assert.equal(records[4].slice(0, 19), '8000003000000007236');
      // The half-width kana are single bytes of JIS X 0201 (ﾃ = 0xC3).
      assert.equal(request[14], 0xc3);
      const closing = await h.database.db.selectFrom('closing').select('cls_jaccs_at').executeTakeFirstOrThrow();
      assert.notEqual(closing.cls_jaccs_at, '');
      assert.deepEqual([await count('jaccs_request'), await count('jaccs_request_row')], [1, 3]);
    });

    it('a second request without reissue is 409 naming the first; with reissue=1 the file is made again, marked 再発行', async () => {
      const again = await download(h, 'jaccs_request', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(again.status, 409, again.text);
      assert.match(again.text, /2025年4月 20日締めの口座振替依頼データは作成済みです（.*3件 7,236円、口座振替依頼_202504_20日締め_引落0527\.txt）/);
      const reissued = await download(h, 'jaccs_request', { sime_gp: '20', sime_ym: '202504', reissue: 1 });
      assert.equal(reissued.status, 200, reissued.text);
      assert.equal(savedName(reissued.headers), '口座振替依頼_202504_20日締め_引落0527_再発行1.txt');
      assert.equal(reissued.headers.get('x-jaccs-reissue'), '1');
      assert.ok(reissued.bytes.equals(request), 'the same data makes the same file');
      const view = await preview();
      assert.deepEqual(view.requests.map((r) => [r.reissue, r.count, r.total]), [[true, 3, 7236], [false, 3, 7236]]);
    });

    it('closing_restore is refused after a request', async () => {
      const res = await h.post('closing_restore', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(res.status, 409, res.text);
      assert.match(res.text, /口座振替の請求データを作成済み/);
    });

    it('bad result files are refused whole by import_preview naming the line, and nothing is written', async () => {
      const before = [await count('payment'), await count('allocation')];
      const records = recordsOf(zenginResult(request));
      const short = [...records];
      short[1] = short[1].slice(0, 119);
      const cut = await upload(fileOf(short));
      assert.equal(cut.status, 400, cut.text);
      assert.match(cut.text, /振替結果ファイルの 2 行目: レコードの長さが 119 バイト/);
      const trailer = [...records];
      trailer[4] = `8000003000000007237${trailer[4].slice(19)}`;
      const sum = await upload(fileOf(trailer));
      assert.equal(sum.status, 400, sum.text);
      assert.match(sum.text, /5 行目: トレーラーレコードの合計金額 7,237円 がデータレコードの集計 7,236円 と合いません/);

      const unknown = await upload(Buffer.from(zenginResult(request).toString('latin1').replace(code(3), code(9)), 'latin1'));
      assert.equal(unknown.status, 200, unknown.text);
      assert.deepEqual(unknown.body[0].errors, [{ row: 4, column: '顧客番号', message: `顧客番号 ${code(9)} は引落日 05/27 の口座振替依頼データにありません。` }]);
      const refused = await h.post('import_commit', { import_id: unknown.body[0].import_id });
      assert.ok(refused.status >= 400, `a preview with errors is not committed: ${refused.text}`);
      const amount = [...records];
      amount[1] = `${amount[1].slice(0, 80)}0000002701${amount[1].slice(90)}`;
      amount[4] = `8000003000000007237000003000000007237${amount[4].slice(37)}`;
      const mismatch = await runImport(fileOf(amount), true);
      assert.deepEqual(mismatch.errors, [{ row: 2, column: '引落金額', message: `引落金額 2,701円 が依頼データの 2,700円 と一致しません（顧客番号 ${code(1)}）。` }]);
      assert.deepEqual([await count('payment'), await count('allocation')], before);
    });

    it('the result round trip through import_preview / import_commit: code 0 → a 口座振替 payment allocated to its invoice (残額 0); other codes flag the customer with the meaning', async () => {
      const result = zenginResult(request, { codes: { [code(2)]: '1' } });
      const dry = await upload(result);
      assert.equal(dry.status, 200, dry.text);
      assert.deepEqual([dry.body[0].rows, dry.body[0].inserts, dry.body[0].updates, dry.body[0].skips, dry.body[0].errors], [3, 2, 0, 1, []]);
      assert.equal(await count('payment'), 0, 'a dry run writes nothing');
      // Every failed debit with its customer, amount and meaning, in the preview and in the result, with the customers' link.
      const nameOfB = titleOf(clientResource, await h.database.db.selectFrom('client').selectAll().where('cl_id', '=', ids.b).executeTakeFirstOrThrow());
      const failedRows = [[ids.b, nameOfB, 3240, '1 資金不足']];
      const flaggedFilters = { debit_result: ['1'], debit_result_date: ['2025-05-27', '2025-05-27'] };
      const link = { label: '振替不能の顧客を顧客一覧で見る', path: filteredListPathOf(clientResource, flaggedFilters) };
      assert.deepEqual(dry.body[0].notices?.map((n) => [n.cl_id, n.name, n.amount, n.message]), failedRows);
      assert.deepEqual(dry.body[0].notice_link, link);
      const job = await commit(dry.body[0].import_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      assert.deepEqual(job.result?.notices?.map((n) => [n.cl_id, n.name, n.amount, n.message]), failedRows);
      assert.deepEqual(job.result?.notice_link, link);
      const linked = await h.post<Record<string, unknown>>('client_lst', { postData: JSON.stringify(flaggedFilters) });
      assert.deepEqual(linked.body.map((r) => r.cl_id), [ids.b], 'the customer list filters on the customers flagged');
      const db = h.database.db;
      const payments = await db.selectFrom('payment').selectAll().orderBy('py_cl_id').execute();
      assert.deepEqual(payments.map((p) => [p.py_cl_id, p.py_date, p.py_amount, p.py_kind]), [[ids.a, '2025-05-27', 2700, 'debit'], [ids.c, '2025-05-27', 1296, 'debit']]);
      const invoices = await db.selectFrom('billing').select(['bl_cl_id', 'bl_open', 'bl_allocated']).orderBy('bl_cl_id').execute();
      const invoiceOf = (cl: number) => invoices.find((r) => r.bl_cl_id === cl);
      assert.deepEqual([invoiceOf(ids.a)?.bl_open, invoiceOf(ids.a)?.bl_allocated, invoiceOf(ids.c)?.bl_open, invoiceOf(ids.b)?.bl_open], [0, 2700, 0, 3240]);
      assert.equal(await count('allocation'), 2);
      const clients = await db.selectFrom('client').select(['cl_id', 'cl_debit_result', 'cl_debit_result_date']).where('cl_id', 'in', [ids.a, ids.b]).orderBy('cl_id').execute();
      assert.deepEqual(clients.map((c) => [c.cl_debit_result, c.cl_debit_result_date]), [['0', '2025-05-27'], ['1', '2025-05-27']]);
      const failures = await h.post<JaccsFailure>('jaccs_failure_lst', {});
      assert.deepEqual(failures.body.map((f) => [f.cl_id, f.code, f.meaning, f.amount]), [[ids.b, '1', '資金不足', 3240]]);
      const flagged = await h.post<Record<string, unknown>>('client_lst', { postData: JSON.stringify({ debit_result: ['1', '2', '3', '4', '8', '9'] }) });
      assert.deepEqual(flagged.body.map((r) => r.cl_id), [ids.b]);
      const view = await preview();
      assert.notEqual(view.requests[0].result_at, '');
    });

    it('the same result imported twice is refused: 「この振替結果は取込済みです」, nothing written twice', async () => {
      const before = await count('payment');
      const again = await upload(zenginResult(request, { codes: { [code(2)]: '1' } }));
      assert.equal(again.status, 200, again.text);
      assert.equal(again.body[0].errors.length, 1);
      assert.match(again.body[0].errors[0].message, /^この振替結果は取込済みです（.*3 件）/);
      assert.notEqual(again.body[0].imported_before, null, 'the machinery knows the file too');
      const direct = await runImport(zenginResult(request, { codes: { [code(2)]: '1' } }), false);
      assert.match(direct.errors[0]?.message ?? '', /^この振替結果は取込済みです/);
      assert.equal(await count('payment'), before);
      const reissue = await download(h, 'jaccs_request', { sime_gp: '20', sime_ym: '202504', reissue: 1 });
      assert.equal(reissue.status, 409);
      assert.match(reissue.text, /振替結果は取込済み/);
    });

    it('a result for an invoice the next closing carried meanwhile is allocated to the invoice that carries it, and counted as 入金額 by the next one', async () => {
      // Issue 19: 25日締め, debited on 5/27; the 5/25 closing has carried April's invoice into May's before the result arrives.
      const cl = Number((await created('client', {
        co_name: '振替繰越商事', status: '1', tel_1: '03-1234-5678', sime_gp: '25', zei_ten: '3', zei_kiri: '0', pm_id: '1',
        bank_code: '0005', branch_code: '077', account_type: '1', account_no: '0000077', account_kana: 'フリカエクリコシ', debit_code: code(77),
      })).cl_id);
      await created('sales', { cl_id: cl, date: '2025-04-10', kind: 'sale', lines: [{ name: 'ボトル', quantity: 2, price: 600, tax_class: 'reduced' }] });
      const close = async (ym: string) => {
        const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: '25', sime_ym: ym });
        assert.equal(run.status, 200, run.text);
        assert.equal((await jobEnded(h, run.body[0].job_id)).state, 'done');
        return h.database.db.selectFrom('billing').selectAll().where('bl_cl_id', '=', cl).orderBy('bl_closing_date', 'desc').executeTakeFirstOrThrow();
      };
      const april = await close('202504');
      const file = await download(h, 'jaccs_request', { sime_gp: '25', sime_ym: '202504' });
      assert.equal(file.status, 200, file.text);
      const may = await close('202505');
      assert.deepEqual([may.bl_prev_total, may.bl_carry, may.bl_total], [1296, 1296, 1296]);
      const carried = await h.database.db.selectFrom('billing').select(['bl_open', 'bl_carried_by']).where('bl_id', '=', Number(april.bl_id)).executeTakeFirstOrThrow();
      assert.deepEqual([carried.bl_open, carried.bl_carried_by], [0, may.bl_id]);
      const dry = await upload(zenginResult(file.bytes));
      assert.equal(dry.status, 200, dry.text);
      assert.deepEqual([dry.body[0].inserts, dry.body[0].errors], [1, []]);
      assert.equal((await commit(dry.body[0].import_id)).state, 'done');
      const payment = await h.database.db.selectFrom('payment').select(['py_id', 'py_amount', 'py_date']).where('py_cl_id', '=', cl).executeTakeFirstOrThrow();
      assert.deepEqual([payment.py_amount, payment.py_date], [1296, '2025-05-27']);
      const allocations = await h.database.db.selectFrom('allocation').select(['al_bl_id', 'al_amount']).where('al_py_id', '=', Number(payment.py_id)).execute();
      assert.deepEqual(allocations.map((a) => [a.al_bl_id, a.al_amount]), [[may.bl_id, 1296]], 'allocated to May, which carries April');
      const open = await h.database.db.selectFrom('billing').select(['bl_id', 'bl_open', 'bl_allocated']).where('bl_cl_id', '=', cl).orderBy('bl_id').execute();
      assert.deepEqual(open.map((b) => [b.bl_open, b.bl_allocated]), [[0, 0], [0, 1296]]);
      const june = (await h.post<{ rows: { cl_id: number; prev_total: number; paid: number; carry: number; total: number }[] }>('closing_preview', { sime_gp: '25', sime_ym: '202506' })).body[0];
      const row = june.rows.find((r) => r.cl_id === cl);
      assert.deepEqual([row?.prev_total, row?.paid, row?.carry, row?.total], [1296, 1296, 0, 0]);
    });
  });
}
