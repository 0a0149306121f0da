/**
 * 月次サーバーレンタル (`rental_preview`, `rental_generate` a job, issue 12): the month's rental slips from the live
 * agreements and the servers installed with a monthly fee, pro-rata for a start, an installation or a cancel inside
 * the month (rounded with the customer's `kin_kiri`), through the sales save (numbered, priced, 売掛残高), stamped with
 * the job's id; a second run creates nothing twice, a concurrent start of the same month is refused. Both dialects.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { JobInfo } from '../../lib/jobs';
import { agreementResource } from '../../lib/resources/agreement';
import { clientResource } from '../../lib/resources/client';
import type { RentalGenerateResult, RentalPreview } from '../../lib/sales/rental';
import { bulkInsert } from '../../server/seed/bulk-insert';
import { dialects, jobEnded, resourceCalls, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Job = JobInfo<RentalGenerateResult>;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created, problem } = resourceCalls(h);
    const ids = { whole: 0, started: 0, cancelled: 0, naizei: 0, wholeAg: 0, startedAg: 0, cancelledAg: 0, naizeiAg: 0, stock: 0 };
    const preview = async (ym: string): Promise<RentalPreview> => {
      const res = await h.post<RentalPreview>('rental_preview', { ym, n: 1000 });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const finished = (jobId: number): Promise<Job> => jobEnded<RentalGenerateResult>(h, jobId);
    const generate = async (ym: string): Promise<Job> => {
      const res = await h.post<{ job_id: number }>('rental_generate', { ym });
      assert.equal(res.status, 200, res.text);
      const job = await finished(res.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      return job;
    };
    const slipsOf = (agreements: number[], ym: string) => h.database.db.selectFrom('sales')
      .select(['sl_id', 'sl_ag_id', 'sl_cl_id', 'sl_kind', 'sl_date', 'sl_number', 'sl_net_total', 'sl_tax_total', 'sl_total', 'sl_job_id'])
      .where('sl_ag_id', 'in', agreements).where('sl_ym', '=', ym).where('deleted', '=', 0).orderBy('sl_ag_id').execute();

    before(async () => {
      ids.stock = Number((await created('souko', { code: 'R-TKY', name: 'レンタルテスト倉庫', active: 1 })).sk_id);
      const client = async (co_name: string, extra: Record<string, unknown> = {}) =>
        Number((await created('client', { co_name, status: '1', tel_1: '03-5555-0000', zei_ten: '2', kin_kiri: '0', ...extra })).cl_id);
      const agreement = async (cl_id: number, agreement_no: string, extra: Record<string, unknown>) =>
        Number((await created('agreement', { cl_id, agreement_no, contract_type: '1', status: '1', contract_date: '2026-01-10', ...extra })).ag_id);
      const installed = async (cl_id: number, serial_no: string, install_date: string, rental_fee: number) =>
        created('server', { serial_no, model: 'AQ-01', status: 'installed', cl_id, install_date, rental_fee });

      ids.whole = await client('レンタル通年商事');
      ids.wholeAg = await agreement(ids.whole, 'R-AG-1', { rental_fee: 9999 });
      await installed(ids.whole, 'R-0001', '2026-01-10', 1100);
      await installed(ids.whole, 'R-0002', '2026-05-10', 3000);
      await created('server', { serial_no: 'R-0009', model: 'AQ-01', status: 'stock', sk_id: ids.stock, rental_fee: 5000 });

      ids.started = await client('レンタル月途中開始', { kin_kiri: '2' });
      ids.startedAg = await agreement(ids.started, 'R-AG-2', { contract_date: '2026-05-01', start_date: '2026-05-21', rental_fee: 3000 });

      ids.cancelled = await client('レンタル月途中解約', { kin_kiri: '1' });
      ids.cancelledAg = await agreement(ids.cancelled, 'R-AG-3', { status: '9', cancel_date: '2026-05-10', rental_fee: 3000 });

      ids.naizei = await client('レンタル内税', { zei_ten: '4', zei_kiri: '0' });
      ids.naizeiAg = await agreement(ids.naizei, 'R-AG-4', { rental_fee: 1000 });
      // Not billed: cancelled before the month, starting after it.
      await agreement(ids.naizei, 'R-AG-5', { status: '9', cancel_date: '2026-04-30', rental_fee: 1000 });
      await agreement(await client('レンタル来月開始'), 'R-AG-6', { contract_date: '2026-06-01', rental_fee: 1000 });
    });

    it('previews the month: servers on the newest agreement, pro-rata starts, installations and cancels', async () => {
      const bad = await h.post('rental_preview', { ym: '2026-05' });
      assert.equal(bad.status, 400);
      assert.match(problem(bad).error, /YYYYMM/);
      const view = await preview('202605');
      const mine = view.rows.filter((r) => [ids.wholeAg, ids.startedAg, ids.cancelledAg, ids.naizeiAg].includes(r.ag_id));
      assert.deepEqual(mine.map((r) => [r.agreement_no, r.server, r.from, r.to, r.days, r.fee, r.amount, r.existed]), [
        ['R-AG-1', 'R-0001', '2026-05-01', '2026-05-31', 31, 1100, 1100, false],
        // 3,000 × 22 / 31 = 2,129.03 → 切捨て 2,129
        ['R-AG-1', 'R-0002', '2026-05-10', '2026-05-31', 22, 3000, 2129, false],
        // 3,000 × 11 / 31 = 1,064.5 → 四捨五入 (kin_kiri 2) 1,065
        ['R-AG-2', '', '2026-05-21', '2026-05-31', 11, 3000, 1065, false],
        // 3,000 × 10 / 31 = 967.7 → 切上げ (kin_kiri 1) 968
        ['R-AG-3', '', '2026-05-01', '2026-05-10', 10, 3000, 968, false],
        ['R-AG-4', '', '2026-05-01', '2026-05-31', 31, 1000, 1000, false],
      ]);
      assert.equal(view.rows.some((r) => ['R-AG-5', 'R-AG-6'].includes(r.agreement_no)), false, 'agreements not live in the month are not billed');
      assert.equal(view.rows.some((r) => r.server === 'R-0009'), false, 'a server in stock is not billed');
    });

    it('creates one slip per agreement through the sales save, stamped with the job; a second run creates nothing', async () => {
      const before = await preview('202605');
      const zanBefore = Number((await h.post<Row>('client_dtl', { id: ids.whole })).body[0].cl_uri_zan);
      const job = await generate('202605');
      assert.equal(job.result!.created, before.slips);
      assert.equal(job.result!.amount, before.amount);
      assert.equal(job.done, job.total);
      const agreements = [ids.wholeAg, ids.startedAg, ids.cancelledAg, ids.naizeiAg];
      const slips = await slipsOf(agreements, '202605');
      assert.deepEqual(slips.map((s) => [s.sl_ag_id, s.sl_kind, s.sl_date, s.sl_net_total, s.sl_tax_total, s.sl_total, s.sl_job_id]), [
        [ids.wholeAg, 'rental', '2026-05-31', 3229, 322, 3551, job.job_id],
        [ids.startedAg, 'rental', '2026-05-31', 1065, 106, 1171, job.job_id],
        [ids.cancelledAg, 'rental', '2026-05-31', 968, 96, 1064, job.job_id],
        // 内税: the fee 1,000 is tax-exclusive, the line 1,100 tax-inclusive: net 1,000, tax 100.
        [ids.naizeiAg, 'rental', '2026-05-31', 1000, 100, 1100, job.job_id],
      ]);
      assert.match(String(slips[0].sl_number), /^SL20260531-/);
      const lines = (await h.post<Row>('sales_detail_lst', { sl_id: slips[0].sl_id })).body;
      assert.deepEqual(lines.map((l) => [l.sld_name, l.sld_quantity, l.sld_price, l.sld_amount, l.sld_tax_class, l.sld_tax_rate]), [
        ['サーバーレンタル料 R-0001（2026年5月分）', 1, 1100, 1100, 'standard', 10],
        ['サーバーレンタル料 R-0002（2026年5月分 5/10〜5/31 22日/31日）', 1, 2129, 2129, 'standard', 10],
      ]);
      const stamped = await h.database.db.selectFrom('sales_detail').select('sld_job_id').where('sld_sl_id', '=', Number(slips[0].sl_id)).execute();
      assert.deepEqual(stamped.map((l) => l.sld_job_id), [job.job_id, job.job_id], 'the lines carry the job id');
      const audits = await h.database.db.selectFrom('audit_log').select(['log_call', 'log_job_id']).where('log_table', '=', 'sales').where('log_record_id', '=', Number(slips[0].sl_id)).execute();
      assert.deepEqual(audits.map((a) => [a.log_call, a.log_job_id]), [['rental_generate', job.job_id]]);
      assert.equal(Number((await h.post<Row>('client_dtl', { id: ids.whole })).body[0].cl_uri_zan), zanBefore + 3551, 'the receivable moved');

      const after = await preview('202605');
      assert.equal(after.slips, 0);
      assert.ok(after.rows.filter((r) => agreements.includes(r.ag_id)).every((r) => r.existed));
      const again = await generate('202605');
      assert.deepEqual([again.result!.created, again.result!.existed], [0, before.agreements]);
      assert.equal((await slipsOf(agreements, '202605')).length, 4, 'nothing twice');

      // A rental slip is the run's: neither deleted nor edited by hand (the refusal names the run and its month), nothing changes.
      const gone = await h.post('sales_del', { id: slips[1].sl_id });
      assert.equal(gone.status, 400, gone.text);
      assert.match(problem(gone).error, /^売上伝票 SL\d{8}-\d{6} は月次サーバーレンタル（2026年5月分）で作られた伝票のため、手で変更・削除できません。訂正は値引・返品の伝票を登録してください。$/);
      const stored = (await h.post<Row>('sales_dtl', { id: slips[1].sl_id })).body[0];
      assert.deepEqual([stored.sl_ag_id, stored.sl_ym], [slips[1].sl_ag_id, '202605'], 'the detail answers where it came from');
      const edited = await h.post('sales_save', { id: slips[1].sl_id, postData: JSON.stringify({ biko: '手で直す', modified: stored.modified }) });
      assert.equal(edited.status, 400, edited.text);
      assert.match(problem(edited).error, /月次サーバーレンタル（2026年5月分）で作られた伝票のため/);
      assert.deepEqual((await h.post<Row>('sales_dtl', { id: slips[1].sl_id })).body[0], stored, 'nothing changed');
      assert.equal((await generate('202605')).result!.created, 0);
      assert.equal((await slipsOf(agreements, '202605')).length, 4);
    });

    it('refuses a second start of a month while it runs, naming who started it', async () => {
      const clients = await bulkInsert(h.database.db, clientResource, Array.from({ length: 2500 }, (_, i) => ({ co_name: `レンタル一括${i}`, status: '1', tel_1: '03-0000-0000', zei_ten: '3' })));
      await bulkInsert(h.database.db, agreementResource, clients.map((cl_id, i) => ({ cl_id, agreement_no: `R-BULK-${i}`, contract_type: '1', status: '1', contract_date: '2026-01-01', rental_fee: 1000 })));
      const [a, b] = await Promise.all([h.post<Row>('rental_generate', { ym: '202606' }), h.post<Row>('rental_generate', { ym: '202606' })]);
      assert.deepEqual([a.status, b.status].sort(), [200, 409], `${a.text} ${b.text}`);
      const [won, refused] = a.status === 200 ? [a, b] : [b, a];
      assert.match(problem(refused).error, /^月次サーバーレンタルの売上作成（2026年6月）は実行中です/);
      const job = await finished(Number(won.body[0].job_id));
      assert.equal(job.state, 'done', JSON.stringify(job));
      assert.ok(job.result!.created >= 2500);
      const count = await h.database.db.selectFrom('sales').select((eb) => eb.fn.countAll<number>().as('n')).where('sl_ym', '=', '202606').where('deleted', '=', 0).executeTakeFirstOrThrow();
      assert.equal(Number(count.n), job.result!.created);
    });

    it('refuses a bad month and a role without the sales write', async () => {
      const bad = await h.post('rental_generate', { ym: '202613' });
      assert.equal(bad.status, 400);
      const { delivery } = h.fixtures.users;
      const key = await h.keyOf(delivery.email, delivery.password);
      const denied = await h.post('rental_generate', { ym: '202607' }, key);
      assert.equal(denied.status, 403, denied.text);
    });
  });
}
