/**
 * Closing (締め処理, issue 13) through the real server on both dialects, with hand-worked cases: the period's edges (a
 * slip on the closing day and the day after), 末 in February of a leap year, 5日締め across the year end, 内税 extracted
 * once per rate over the invoice, 伝票単位 summing the slips' tax, a credit balance, a customer with no sales but a
 * balance, a return making a rate's net negative, a delivery site's slips on its 請求先's invoice; the run as a job
 * (invoices, rate rows, stamps, numbers, audit rows), late entries billed by the next closing and billed refusals, the order of months, the
 * restore (exact, and its refusals), the closings list; and two closings of one group started at once on two server
 * processes: one runs, one is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClosingItems, ClosingListRow, ClosingPreview, ClosingPreviewRow, ClosingRestoreResult, ClosingRunResult, ClosingWarning } from '../../lib/closing/answers';
import { closingDateOf, shiftMonth } from '../../lib/closing/period';
import { todayJst } from '../../lib/format';
import type { JobInfo } from '../../lib/jobs';
import { invoiceDocuments, invoiceProblems } from '../../server/billing/invoice-document';
import { dialects, downloadFile, type Harness, jobEnded, resourceCalls, useHarness } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

type Row = Record<string, string | number | null>;
type Job = JobInfo<ClosingRunResult>;

/** A row's money, in the answer's order. */
const money = (r: ClosingPreviewRow) => [r.prev_total, r.paid, r.carry, r.sales_net, r.tax_total, r.total];
const rates = (r: ClosingPreviewRow) => r.rates.map((x) => [x.key, x.net, x.tax]);

/** The rows a closing writes or reads, for "the restore leaves exactly what was there". */
async function snapshot(h: Harness): Promise<string> {
  const db = h.database.db;
  const [sales, payments, billing, billingRates, closings, clients] = await Promise.all([
    db.selectFrom('sales').selectAll().orderBy('sl_id').execute(),
    db.selectFrom('payment').selectAll().orderBy('py_id').execute(),
    db.selectFrom('billing').selectAll().orderBy('bl_id').execute(),
    db.selectFrom('billing_rate').selectAll().orderBy('blr_id').execute(),
    db.selectFrom('closing').selectAll().orderBy('cls_id').execute(),
    db.selectFrom('client').selectAll().orderBy('cl_id').execute(),
  ]);
  return JSON.stringify({ sales, payments, billing, billingRates, closings, clients });
}

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created, save, problem } = resourceCalls(h);
    const ids = { p: 0, p2: 0, leap: 0, year: 0, naizei: 0, credit: 0, balance: 0, nothing: 0, ret: 0 };
    const slip = async (cl_id: number, date: string, lines: { quantity: number; price: number; tax_class: string }[], kind = 'sale') =>
      created('sales', { cl_id, date, kind, lines: lines.map((l) => ({ name: '締めテスト品', ...l })) });
    const preview = async (gp: string, ym: string): Promise<ClosingPreview> => {
      const res = await h.post<ClosingPreview>('closing_preview', { sime_gp: gp, sime_ym: ym });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const rowOf = (view: ClosingPreview, cl: number): ClosingPreviewRow => {
      const row = view.rows.find((r) => r.cl_id === cl);
      assert.ok(row, `customer ${cl} has an invoice in ${JSON.stringify(view.rows.map((r) => r.cl_id))}`);
      return row;
    };
    const finished = (jobId: number): Promise<Job> => jobEnded<ClosingRunResult>(h, jobId);
    const run = async (gp: string, ym: string): Promise<Job> => {
      const res = await h.post<{ job_id: number }>('closing_run', { sime_gp: gp, sime_ym: ym });
      assert.equal(res.status, 200, res.text);
      const job = await finished(res.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      return job;
    };
    const invoicesOf = (clsId: number) => h.database.db.selectFrom('billing').selectAll().where('bl_cls_id', '=', clsId).orderBy('bl_cl_id').execute();

    before(async () => {
      const client = async (co_name: string, values: Record<string, unknown>) =>
        Number((await created('client', { co_name, status: '1', tel_1: '03-1234-5678', zei_ten: '3', zei_kiri: '0', ...values })).cl_id);
      ids.p = await client('締め二十日商事', { sime_gp: '20', collect_cycle: '1', collect_day: 31 });
      ids.p2 = await client('締め二十日商事 横浜営業所', { sime_gp: '5', parent_id: ids.p });
      ids.leap = await client('締め末日伝票単位', { sime_gp: '31', zei_ten: '2', zei_kiri: '2' });
      ids.year = await client('締め五日年越し', { sime_gp: '5', collect_cycle: '1', collect_day: 11 });
      ids.naizei = await client('締め十日内税', { sime_gp: '10', zei_ten: '5' });
      ids.credit = await client('締め十日過入金', { sime_gp: '10', opening_balance: 1000, opening_balance_date: '2025-01-01' });
      ids.balance = await client('締め十日残高のみ', { sime_gp: '10', opening_balance: 7000, opening_balance_date: '2025-01-01' });
      ids.nothing = await client('締め十日取引なし', { sime_gp: '10' });
      ids.ret = await client('締め十日返品', { sime_gp: '10' });
    });

    it('refuses bad parameters with a message naming the field, writing nothing', async () => {
      for (const [params, field] of [
        [{ sime_gp: '7', sime_ym: '202505' }, 'sime_gp'], [{ sime_ym: '202505' }, 'sime_gp'],
        [{ sime_gp: '20', sime_ym: '2025-05' }, 'sime_ym'], [{ sime_gp: '20', sime_ym: '202513' }, 'sime_ym'], [{ sime_gp: '20' }, 'sime_ym'],
      ] as const) {
        for (const call of ['closing_preview', 'closing_run', 'closing_restore']) {
          const res = await h.post(call, params);
          assert.equal(res.status, 400, `${call} ${JSON.stringify(params)}: ${res.text}`);
          assert.ok(problem(res).fields?.[field], `${call} names ${field}: ${res.text}`);
          assert.match(problem(res).error, field === 'sime_gp' ? /締日/ : /締め年月は YYYYMM/);
        }
      }
      assert.equal(Number((await h.database.db.selectFrom('closing').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n), 0);
    });

    it('20日締め: the closing day is in, the day after is out; a site\'s slips roll up to its 請求先; one rounding per rate', async () => {
      await slip(ids.p, '2025-04-20', [{ quantity: 3, price: 1000, tax_class: 'reduced' }]);
      const first = await preview('20', '202504');
      assert.deepEqual([first.sime_gp, first.sime_ym, first.closing_date], ['20', '202504', '2025-04-20']);
      assert.deepEqual(money(rowOf(first, ids.p)), [0, 0, 0, 3000, 240, 3240]);
      const job = await run('20', '202504');
      assert.deepEqual(job.result, { cls_id: job.result!.cls_id, invoices: 1, total: 3240 });
      assert.equal(job.done, job.total);
      const [invoice] = await invoicesOf(job.result.cls_id);
      // 翌月末 2025-05-31 is a Saturday: the next bank day.
      assert.deepEqual([invoice.bl_cl_id, invoice.bl_period_from, invoice.bl_period_to, invoice.bl_due_date, invoice.bl_total, invoice.bl_open, invoice.bl_allocated, invoice.bl_job_id],
        [ids.p, '2025-03-21', '2025-04-20', '2025-06-02', 3240, 3240, 0, job.job_id]);
      assert.match(String(invoice.bl_number), /^BL202504-\d{6}$/);
      // The invoice list's CSV names the month as people say it (2025年4月, not 202504) and the customer by name.
      const csv = (await downloadFile(h, 'billing_csv', { enc: 'utf8', cl_id: ids.p, cols: 'all' })).bytes.toString('utf8');
      const [header, line] = csv.replace(/^\uFEFF/, '').split('\r\n');
      const cells = line.split(',');
      const cell = (label: string) => cells[header.split(',').indexOf(label)];
      assert.equal(cell('締め年月'), '2025年4月');
      assert.equal(cell('顧客'), '締め二十日商事');
      assert.equal(header.includes('締め処理'), false, 'the closing is named by its 締日 and 締め年月, not by its id');

      await created('payment', { cl_id: ids.p, date: '2025-05-10', amount: 3240, kind: 'transfer' });
      const s1 = await slip(ids.p, '2025-04-21', [{ quantity: 1, price: 1005, tax_class: 'standard' }]);
      const s2 = await slip(ids.p2, '2025-05-20', [{ quantity: 1, price: 1005, tax_class: 'standard' }]);
      await slip(ids.p, '2025-05-21', [{ quantity: 1, price: 500, tax_class: 'standard' }]);
      const view = await preview('20', '202505');
      const row = rowOf(view, ids.p);
      assert.deepEqual([row.name, row.period_from, row.period_to], ['締め二十日商事', '2025-04-21', '2025-05-20']);
      // 2 × 1,005 = 2,010 at 10%: the invoice rounds 201 once (the slips 100 + 100).
      assert.deepEqual(money(row), [3240, 3240, 0, 2010, 201, 2211]);
      assert.deepEqual(rates(row), [['10', 2010, 201]]);
      assert.equal(view.rows.some((r) => r.cl_id === ids.p2), false, 'the site has no invoice of its own');
      const items = (await h.post<ClosingItems>('closing_preview_items', { sime_gp: '20', sime_ym: '202505', cl_id: ids.p })).body[0];
      assert.deepEqual(items.slips.map((s) => [s.sl_id, s.date, s.cl_id, s.client_name, s.net, s.tax, s.total]), [
        [s1.sl_id, '2025-04-21', ids.p, '締め二十日商事', 1005, 100, 1105], [s2.sl_id, '2025-05-20', ids.p2, '締め二十日商事 横浜営業所', 1005, 100, 1105],
      ]);
      assert.deepEqual(items.payments.map((p) => [p.date, p.cl_id, p.kind, p.amount]), [['2025-05-10', ids.p, 'transfer', 3240]]);
      const notTop = await h.post('closing_preview_items', { sime_gp: '20', sime_ym: '202505', cl_id: ids.p2 });
      assert.equal(notTop.status, 400, notTop.text);
    });

    it('accepts slips and payments dated in a closed period (late entries), and refuses changes of billed ones naming the invoice', async () => {
      // Issue 19: a late entry keeps its date and waits for the next closing; until then it may change or go.
      const late = await save('sales', { cl_id: ids.p2, date: '2025-04-15', lines: [{ name: '遅れた伝票', quantity: 1, price: 100, tax_class: 'standard' }] });
      assert.equal(late.status, 200, late.text);
      assert.equal(late.body[0].sl_date, '2025-04-15');
      const notice = await h.post<Row>('closing_late', { cl_id: ids.p2, date: '2025-04-15' });
      assert.deepEqual(notice.body, [{ closed: '2025-04-20', next: '2025-05-20', message: '4月20日締めは締め処理済みです。次回（5月20日締め）の請求に含めます。' }]);
      assert.deepEqual((await h.post('closing_late', { cl_id: ids.p2, date: '2025-04-21' })).body, [], 'the day after the closing date is open');
      assert.equal((await h.post('closing_late', { cl_id: ids.p2, date: '2025-04-31' })).status, 400);
      assert.equal((await h.post('sales_del', { id: late.body[0].sl_id })).status, 200, 'an unbilled late slip may be deleted');
      const pay = await save('payment', { cl_id: ids.p, date: '2025-04-20', amount: 100, kind: 'cash' });
      assert.equal(pay.status, 200, pay.text);
      const moved = await save('payment', { date: '2025-04-19', modified: pay.body[0].modified }, Number(pay.body[0].py_id));
      assert.equal(moved.status, 200, moved.text);
      assert.equal((await h.post('payment_del', { id: pay.body[0].py_id })).status, 200);
      const billed = await h.database.db.selectFrom('sales').select(['sl_id', 'modified', 'sl_bli_id']).where('sl_cl_id', '=', ids.p).where('sl_date', '=', '2025-04-20').executeTakeFirstOrThrow();
      assert.ok(billed.sl_bli_id, 'the closed slip is stamped with its invoice');
      const edit = await save('sales', { biko: '請求後の変更', modified: billed.modified }, Number(billed.sl_id));
      assert.equal(edit.status, 400);
      assert.match(problem(edit).error, /請求済みのため変更・削除できません（請求書 BL202504-\d{6}）。訂正は値引・返品の伝票を登録してください。/);
      assert.equal((await h.post('sales_del', { id: billed.sl_id })).status, 400);
      // Listed under its invoice (`bli_id`, the invoice's related tab).
      const listed = await h.post<Row>('sales_lst', { bli_id: billed.sl_bli_id, n: 10 });
      assert.deepEqual(listed.body.map((r) => r.sl_id), [billed.sl_id]);
      const filtered = await h.post<Row>('sales_cnt', { postData: JSON.stringify({ bli_id: billed.sl_bli_id }) });
      assert.deepEqual(filtered.body, [1]);
    });

    it('closes in order: a month closed twice, an earlier month, or a month skipped is refused', async () => {
      const job = await run('20', '202505');
      const again = await h.post('closing_run', { sime_gp: '20', sime_ym: '202505' });
      assert.equal(again.status, 409, again.text);
      assert.match(problem(again).error, /^2025年5月 20日締めは締め処理済みです/);
      assert.equal((await h.post('closing_preview', { sime_gp: '20', sime_ym: '202505' })).status, 409);
      const earlier = await h.post('closing_run', { sime_gp: '20', sime_ym: '202503' });
      assert.equal(earlier.status, 409, earlier.text);
      assert.match(problem(earlier).error, /2025年5月 20日締めまで締め処理済みです/);
      const skipped = await h.post('closing_preview', { sime_gp: '20', sime_ym: '202507' });
      assert.equal(skipped.status, 409, skipped.text);
      assert.match(problem(skipped).error, /^2025年6月 20日締めがまだ締め処理されていません（「締め二十日商事」に2025年6月以降の未請求の伝票があります）/);
      const [invoice] = await invoicesOf(job.result!.cls_id);
      const rateRows = (await h.post<Row>('billing_rate_lst', { bl_id: invoice.bl_id })).body;
      assert.deepEqual(rateRows.map((r) => [r.blr_key, r.blr_tax_class, r.blr_rate, r.blr_net, r.blr_tax, r.blr_total]), [['10', 'standard', 10, 2010, 201, 2211]]);
      const payments = await h.post<Row>('payment_lst', { bli_id: invoice.bl_id, n: 10 });
      assert.deepEqual(payments.body.map((r) => r.py_amount), [3240]);
      const audits = await h.database.db.selectFrom('audit_log').select(['log_call', 'log_job_id']).where('log_table', '=', 'billing').where('log_record_id', '=', Number(invoice.bl_id)).execute();
      assert.deepEqual(audits.map((a) => [a.log_call, a.log_job_id]), [['closing_run', job.job_id]]);
    });

    it('restores the latest closing exactly, refuses an earlier one, and closing again gives the same invoice', async () => {
      const list = (await h.post<ClosingListRow>('closing_lst', { sime_gp: '20' })).body;
      assert.deepEqual(list.map((c) => [c.sime_ym, c.restorable]), [['202505', true], ['202504', false]]);
      assert.match(String(list[1].refusal), /あとの 2025年5月 20日締めの締め処理があるため締め戻しできません/);
      assert.equal(list[0].user_name, '管理 太郎');
      const refused = await h.post('closing_restore', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(refused.status, 409, refused.text);
      assert.equal(problem(refused).error, list[1].refusal);

      const [before] = await invoicesOf(list[0].cls_id);
      // What the database held before closing 202505: restore, snapshot, close, restore, compare.
      const restored = await h.post<ClosingRestoreResult>('closing_restore', { sime_gp: '20', sime_ym: '202505' });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual(restored.body[0], { cls_id: list[0].cls_id, sime_gp: '20', sime_ym: '202505', invoices: 1, slips: 2, payments: 1, cancelled: 0 });
      const open = await snapshot(h);
      const job = await run('20', '202505');
      const [again] = await invoicesOf(job.result!.cls_id);
      const figures = (b: Row) => [b.bl_cl_id, b.bl_period_from, b.bl_period_to, b.bl_prev_total, b.bl_paid, b.bl_carry, b.bl_sales_net, b.bl_tax_total, b.bl_total, b.bl_due_date];
      assert.deepEqual(figures(again), figures(before), 'the same invoice to the yen');
      assert.notEqual(again.bl_number, before.bl_number);
      assert.equal((await h.post('closing_restore', { sime_gp: '20', sime_ym: '202505' })).status, 200);
      assert.equal(await snapshot(h), open, 'a restore leaves exactly what was there');
      const gone = await h.post('closing_restore', { sime_gp: '20', sime_ym: '202505' });
      assert.equal(gone.status, 400, gone.text);
      const logged = await h.database.db.selectFrom('audit_log').select('log_call').where('log_table', '=', 'closing').where('log_call', '=', 'closing_restore').execute();
      assert.equal(logged.length, 2);
      await run('20', '202505');
    });

    it('refuses a restore when its invoices have allocations or a direct debit or export was made', async () => {
      const [closing] = (await h.post<ClosingListRow>('closing_lst', { sime_gp: '20' })).body;
      const [invoice] = await invoicesOf(closing.cls_id);
      const payment = await h.database.db.selectFrom('payment').select('py_id').where('py_bli_id', '=', Number(invoice.bl_id)).executeTakeFirstOrThrow();
      const db = h.database.db;
      await db.insertInto('allocation').values({ al_bl_id: invoice.bl_id, al_py_id: payment.py_id, al_amount: 1000, al_usr_id: null, created: '2025-06-01T00:00:00.000Z' }).execute();
      const allocated = await h.post('closing_restore', { sime_gp: '20', sime_ym: '202505' });
      assert.equal(allocated.status, 409);
      // Each invoice and payment of the 消込 is named, and linked in the list's blockers.
      assert.equal(problem(allocated).error, `請求書に入金の消込があるため締め戻しできません（請求書 ${String(invoice.bl_number)} ← 入金 2025-05-10 1,000円）。先に消込を取り消してください。`);
      const blocked = (await h.post<ClosingListRow>('closing_lst', { sime_gp: '20' })).body[0];
      assert.deepEqual(blocked.blockers, [
        { kind: 'invoice', label: `請求書 ${String(invoice.bl_number)}`, link: `/billing/detail/${String(invoice.bl_id)}` },
        { kind: 'payment', label: '入金 2025-05-10 1,000円', link: `/payment/detail/${String(payment.py_id)}` },
      ]);
      await db.deleteFrom('allocation').execute();
      for (const [column, reason] of [['cls_jaccs_at', /口座振替の請求データを作成済み/], ['cls_export_at', /会計データを出力済み/]] as const) {
        await db.updateTable('closing').set({ [column]: '2025-06-05T01:00:00.000Z' }).where('cls_id', '=', closing.cls_id).execute();
        const res = await h.post('closing_restore', { sime_gp: '20', sime_ym: '202505' });
        assert.equal(res.status, 409);
        assert.match(problem(res).error, reason);
        const listed = (await h.post<ClosingListRow>('closing_lst', { sime_gp: '20' })).body[0];
        assert.deepEqual([listed.restorable, listed.refusal], [false, problem(res).error]);
        await db.updateTable('closing').set({ [column]: '' }).where('cls_id', '=', closing.cls_id).execute();
      }
      // The files made from it are named: the 口座振替 request file, the 会計連携 export whose period overlaps it.
      const stamp = '2025-06-05T01:00:00.000Z';
      const [request] = await db.insertInto('jaccs_request').values({
        jr_cls_id: closing.cls_id, jr_sime_gp: '20', jr_sime_ym: '202505', jr_debit_date: '2025-06-27', jr_count: 1, jr_total: 2211,
        jr_file_name: '口座振替依頼_202505_20日締め_引落0627.txt', created: stamp,
      }).returning('jr_id').execute();
      const [exported] = await db.insertInto('accounting_export').values({ ae_kind: 'yayoi', ae_from: '2025-05-01', ae_to: '2025-05-31', ae_rows: 3, created: stamp }).returning('ae_id').execute();
      await db.updateTable('closing').set({ cls_jaccs_at: stamp, cls_export_at: stamp }).where('cls_id', '=', closing.cls_id).execute();
      const both = await h.post('closing_restore', { sime_gp: '20', sime_ym: '202505' });
      assert.equal(both.status, 409);
      assert.match(problem(both).error, /口座振替の請求データを作成済み（.+）のため締め戻しできません（口座振替依頼_202505_20日締め_引落0627\.txt）。/);
      assert.match(problem(both).error, new RegExp(`会計データを出力済み（.+）のため締め戻しできません（会計連携（弥生）の出力番号 ${String(exported.ae_id)}（2025-05-01〜2025-05-31）.*）。`));
      const files = (await h.post<ClosingListRow>('closing_lst', { sime_gp: '20' })).body[0].blockers;
      assert.deepEqual(files.map((b) => [b.kind, b.link]), [['file', '/system/jaccs'], ['file', '/system/export?tab=yayoi']]);
      await db.updateTable('closing').set({ cls_jaccs_at: '', cls_export_at: '' }).where('cls_id', '=', closing.cls_id).execute();
      await db.deleteFrom('jaccs_request').where('jr_id', '=', request.jr_id).execute();
      await db.deleteFrom('accounting_export').where('ae_id', '=', exported.ae_id).execute();
    });

    it('refuses a closing before its closing date unless early=1, naming the date; early=1 closes it', async () => {
      const today = todayJst();
      const ym = today.slice(0, 4) + today.slice(5, 7);
      // 末日締め of this month: the last day is after today except on the last day itself, then next month's is.
      const month = closingDateOf('31', ym) > today ? ym : shiftMonth(ym, 1);
      const closingDate = closingDateOf('31', month);
      const early = Number((await created('client', { co_name: '締め日前商事', status: '1', tel_1: '03-1234-5678', sime_gp: '31' })).cl_id);
      await slip(early, today, [{ quantity: 1, price: 1000, tax_class: 'reduced' }]);
      const refused = await h.post('closing_run', { sime_gp: '31', sime_ym: month });
      assert.equal(refused.status, 409, refused.text);
      const md = (day: string) => `${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;
      assert.equal(problem(refused).error, `${md(closingDate)}締めの締め日はまだ来ていません（今日は${md(today)}）。締め日前に締める場合は、締め日までの売上・入金がそろっているか確認してから実行してください。`);
      assert.equal(Number((await h.database.db.selectFrom('closing').select((eb) => eb.fn.countAll<number>().as('n')).where('cls_sime_ym', '=', month).executeTakeFirstOrThrow()).n), 0, 'nothing closed');
      const res = await h.post<{ job_id: number }>('closing_run', { sime_gp: '31', sime_ym: month, early: '1' });
      assert.equal(res.status, 200, res.text);
      const job = await finished(res.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      const [invoice] = (await invoicesOf(job.result!.cls_id)).filter((b) => Number(b.bl_cl_id) === early);
      assert.equal(invoice.bl_total, 1080);
      assert.equal((await h.post('closing_restore', { sime_gp: '31', sime_ym: month })).status, 200);
    });

    it('closing_warnings: the date not come, unprocessed orders, rentals not made and payments not 消込 — each counted, linked to its list, gone once settled', async () => {
      const warnings = async (gp: string, ym: string): Promise<ClosingWarning[]> => {
        const res = await h.post<ClosingWarning>('closing_warnings', { sime_gp: gp, sime_ym: ym });
        assert.equal(res.status, 200, res.text);
        return res.body;
      };
      const top = Number((await created('client', { co_name: '警告二十五日商事', status: '1', tel_1: '03-1234-5678', sime_gp: '25' })).cl_id);
      // A delivery site with a 締日 of its own: its orders are billed by its 請求先's closing (25), not by 5.
      const site = Number((await created('client', { co_name: '警告二十五日商事 支店', status: '1', tel_1: '03-1234-5678', sime_gp: '5', parent_id: top })).cl_id);
      await slip(top, '2025-09-20', [{ quantity: 1, price: 1000, tax_class: 'reduced' }]);
      assert.deepEqual(await warnings('25', '202509'), [], 'nothing to warn about');
      await run('25', '202509');
      const order = async (cl_id: number, delivery_date: string) => Number((await created('order', { cl_id, date: '2025-10-01', delivery_date, delivery_fee: 0, lines: [] })).od_id);
      const waiting = await order(site, '2025-10-10');
      const cancelled = await order(top, '2025-10-12');
      assert.equal((await h.post('order_status', { od_id: cancelled, status: 'cancelled' })).status, 200);
      await order(top, '2025-10-30');
      await created('agreement', { cl_id: top, agreement_no: 'W-25-1', contract_type: '1', status: '1', contract_date: '2025-09-01', rental_fee: 3000 });
      const payment = await created('payment', { cl_id: top, date: '2025-10-01', amount: 1080, kind: 'transfer' });

      const found = await warnings('25', '202510');
      assert.deepEqual(found.map((w) => [w.kind, w.count]), [['unprocessed_orders', 1], ['rental_missing', 1], ['unallocated_payments', 1]]);
      const [orders, rentals, payments] = found;
      assert.match(orders.message, /^25日締めの顧客の受注で、配送日が対象期間（2025-09-26〜2025-10-25）なのに処理済になっていないものが 1件あります/);
      assert.match(rentals.message, /^2025年9月分のサーバーレンタルの売上伝票がまだ作成されていない契約が 1件あります（税抜 3,000円）/);
      assert.equal(rentals.link, '/sales/rental?ym=202509');
      assert.match(payments.message, /請求書への消込が済んでいないものが 1件あります（入金日 2025-10-25 まで）/);
      // Each link opens exactly the rows counted: its filters, sent to the list's count.
      for (const [w, resource, id] of [[orders, 'order', waiting], [payments, 'payment', Number(payment.py_id)]] as const) {
        const filter = new URLSearchParams(w.link!.split('?')[1]).get('filter')!;
        assert.match(w.link!, resource === 'order' ? /^\/orders\/list\/search\?filter=/ : /^\/payment\/list\?filter=/);
        const listed = await h.post<Row>(`${resource}_lst`, { postData: filter, n: 10 });
        assert.deepEqual(listed.body.map((r) => Number(r[resource === 'order' ? 'od_id' : 'py_id'])), [id]);
      }
      assert.equal((await warnings('5', '202510')).some((w) => w.kind === 'unprocessed_orders'), false, 'the site is billed by 25');

      assert.equal((await h.post('order_status', { od_id: waiting, status: 'cancelled' })).status, 200);
      const rental = await h.post<{ job_id: number }>('rental_generate', { ym: '202509' });
      assert.equal((await finished(rental.body[0].job_id)).state, 'done');
      const allocated = await h.post('payment_allocate', { py_id: payment.py_id, modified: payment.modified, auto: 1 });
      assert.equal(allocated.status, 200, allocated.text);
      assert.deepEqual(await warnings('25', '202510'), [], 'settled: nothing to warn about');

      const today = todayJst();
      const ahead = shiftMonth(today.slice(0, 4) + today.slice(5, 7), 1);
      const [future] = await warnings('25', ahead);
      assert.deepEqual([future.kind, future.count, future.link], ['future', 1, null]);
      const md = (day: string) => `${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;
      assert.match(future.message, new RegExp(`^${md(closingDateOf('25', ahead))}締めの締め日はまだ来ていません（今日は${md(today)}）`));
      const bad = await h.post('closing_warnings', { sime_gp: '7', sime_ym: '202510' });
      assert.equal(bad.status, 400, bad.text);
    });

    it('末日締め in February of a leap year, 伝票単位 summing the slips\' tax', async () => {
      await slip(ids.leap, '2024-02-01', [{ quantity: 1, price: 1005, tax_class: 'standard' }]);
      await slip(ids.leap, '2024-02-29', [{ quantity: 1, price: 1005, tax_class: 'standard' }]);
      await slip(ids.leap, '2024-03-01', [{ quantity: 1, price: 9999, tax_class: 'standard' }]);
      const view = await preview('31', '202402');
      assert.equal(view.closing_date, '2024-02-29');
      const row = rowOf(view, ids.leap);
      assert.deepEqual([row.period_from, row.period_to], ['2024-02-01', '2024-02-29']);
      // 四捨五入 per slip: 100.5 → 101, twice (the invoice would round 201 once).
      assert.deepEqual(money(row), [0, 0, 0, 2010, 202, 2212]);
    });

    it('5日締め across the year end, due on the next bank day after a holiday', async () => {
      await slip(ids.year, '2024-12-06', [{ quantity: 1, price: 1000, tax_class: 'reduced' }]);
      await slip(ids.year, '2025-01-05', [{ quantity: 1, price: 2000, tax_class: 'reduced' }]);
      await slip(ids.year, '2025-01-06', [{ quantity: 1, price: 4000, tax_class: 'reduced' }]);
      const view = await preview('5', '202501');
      assert.equal(view.closing_date, '2025-01-05');
      const row = rowOf(view, ids.year);
      assert.deepEqual([row.period_from, row.period_to, ...money(row)], ['2024-12-06', '2025-01-05', 0, 0, 0, 3000, 240, 3240]);
      const job = await run('5', '202501');
      const [invoice] = await invoicesOf(job.result!.cls_id);
      // 翌月11日: 2025-02-11 is 建国記念の日.
      assert.equal(invoice.bl_due_date, '2025-02-12');
    });

    it('10日締め: 内税 extraction, a credit balance, a balance without sales, a negative rate, nothing for a customer without any', async () => {
      for (const date of ['2025-05-01', '2025-05-02', '2025-05-03']) await slip(ids.naizei, date, [{ quantity: 1, price: 1000, tax_class: 'standard' }]);
      await created('payment', { cl_id: ids.credit, date: '2025-05-01', amount: 5000, kind: 'transfer' });
      await slip(ids.credit, '2025-05-02', [{ quantity: 1, price: 1000, tax_class: 'reduced' }]);
      await slip(ids.ret, '2025-05-01', [{ quantity: 2, price: 1000, tax_class: 'reduced' }, { quantity: 1, price: 1000, tax_class: 'standard' }]);
      await slip(ids.ret, '2025-05-02', [{ quantity: -5, price: 1000, tax_class: 'reduced' }], 'return');
      const view = await preview('10', '202505');
      assert.deepEqual([view.closing_date, rowOf(view, ids.naizei).period_from], ['2025-05-10', '2025-04-11']);
      // 内税 3 × 1,000 = 3,000 tax-inclusive: tax ⌊3,000 × 10 / 110⌋ = 272 once (the slips 90 each), net 2,728.
      assert.deepEqual(money(rowOf(view, ids.naizei)), [0, 0, 0, 2728, 272, 3000]);
      // Opening 1,000 − 5,000 paid = −4,000 carried; + 1,000 + 80.
      assert.deepEqual(money(rowOf(view, ids.credit)), [1000, 5000, -4000, 1000, 80, -2920]);
      assert.deepEqual(money(rowOf(view, ids.balance)), [7000, 0, 7000, 0, 0, 7000]);
      // 8%: 2,000 − 5,000 = −3,000, tax −240 (symmetric rounding); 10%: 1,000, 100.
      assert.deepEqual(money(rowOf(view, ids.ret)), [0, 0, 0, -2000, -140, -2140]);
      assert.deepEqual(rates(rowOf(view, ids.ret)), [['10', 1000, 100], ['8', -3000, -240]]);
      assert.equal(view.rows.some((r) => r.cl_id === ids.nothing), false, 'nothing at all: no invoice');
      const sum = (k: keyof ClosingPreviewRow) => view.rows.reduce((s, r) => s + Number(r[k]), 0);
      assert.deepEqual(view.totals, {
        invoices: view.rows.length, prev_total: sum('prev_total'), paid: sum('paid'), carry: sum('carry'),
        sales_net: sum('sales_net'), tax_total: sum('tax_total'), total: sum('total'),
      });
      const job = await run('10', '202505');
      assert.equal(job.result!.total, view.totals.total);
      const next = await preview('10', '202506');
      // The credit and the balance carry into the next month's invoices.
      assert.deepEqual(money(rowOf(next, ids.credit)), [-2920, 0, -2920, 0, 0, -2920]);
      assert.deepEqual(money(rowOf(next, ids.balance)), [7000, 0, 7000, 0, 0, 7000]);
    });

    it('late entries: a slip and a payment dated in a closed period are billed by the next closing to the yen, marked, kept, and given back by its 締め戻し', async () => {
      // 外税・請求単位, 四捨五入: the late 8% slip and the period's one are taxed together (80.4 + 80.4 → 160.8 → 161; apart 80 + 80).
      const cl = Number((await created('client', { co_name: '締め十五日遅れ計上', status: '1', tel_1: '03-1234-5678', sime_gp: '15', zei_ten: '3', zei_kiri: '2' })).cl_id);
      await slip(cl, '2025-04-10', [{ quantity: 1, price: 1000, tax_class: 'standard' }]);
      const first = await run('15', '202504');
      const [april] = await invoicesOf(first.result!.cls_id);
      assert.equal(april.bl_total, 1100);
      const notice = await h.post<Row>('closing_late', { cl_id: cl, date: '2025-04-12' });
      assert.equal(notice.body[0]?.message, '4月15日締めは締め処理済みです。次回（5月15日締め）の請求に含めます。');
      const late = await slip(cl, '2025-04-12', [{ quantity: 1, price: 1005, tax_class: 'reduced' }]);
      const latePay = await created('payment', { cl_id: cl, date: '2025-04-14', amount: 500, kind: 'transfer' });
      assert.deepEqual([late.sl_date, latePay.py_date], ['2025-04-12', '2025-04-14'], 'they keep their real dates');
      await slip(cl, '2025-05-10', [{ quantity: 1, price: 1005, tax_class: 'reduced' }, { quantity: 1, price: 2000, tax_class: 'standard' }]);
      await created('payment', { cl_id: cl, date: '2025-05-14', amount: 300, kind: 'cash' });
      const view = await preview('15', '202505');
      const row = rowOf(view, cl);
      assert.deepEqual([row.period_from, row.period_to], ['2025-04-16', '2025-05-15'], 'the invoice keeps its period');
      // 前回 1,100 − 入金 800 = 繰越 300; 売上 2,010 (8%) + 2,000 (10%) = 4,010; 税 161 + 200 = 361; 今回請求額 4,671.
      assert.deepEqual(money(row), [1100, 800, 300, 4010, 361, 4671]);
      assert.deepEqual(rates(row), [['10', 2000, 200], ['8', 2010, 161]]);
      const items = (await h.post<ClosingItems>('closing_preview_items', { sime_gp: '15', sime_ym: '202505', cl_id: cl })).body[0];
      assert.deepEqual(items.slips.map((x) => [x.date, x.late]), [['2025-04-12', true], ['2025-05-10', false]]);
      assert.deepEqual(items.payments.map((x) => [x.date, x.late]), [['2025-04-14', true], ['2025-05-14', false]]);
      const job = await run('15', '202505');
      const [may] = await invoicesOf(job.result!.cls_id);
      assert.deepEqual([may.bl_prev_total, may.bl_paid, may.bl_carry, may.bl_sales_net, may.bl_tax_total, may.bl_total], [1100, 800, 300, 4010, 361, 4671]);
      const stamped = async () => [
        (await h.database.db.selectFrom('sales').select('sl_bli_id').where('sl_id', '=', Number(late.sl_id)).executeTakeFirstOrThrow()).sl_bli_id,
        (await h.database.db.selectFrom('payment').select('py_bli_id').where('py_id', '=', Number(latePay.py_id)).executeTakeFirstOrThrow()).py_bli_id,
      ];
      assert.deepEqual(await stamped(), [may.bl_id, may.bl_id]);
      // The document lists them with their dates, marked 「前回締め後計上」; the others are not.
      const [company] = (await h.post<Row>('company_dtl', { id: 1 })).body;
      const issuer = await save('company', { name: '締めテスト水道', address: '東京都千代田区千代田1-1', invoice_no: 'T7000012050002', modified: company.modified }, 1);
      assert.equal(issuer.status, 200, issuer.text);
      const [doc] = await invoiceDocuments(h.database.db, [Number(may.bl_id)], { today: '2025-05-26' });
      assert.deepEqual(doc.slips.map((x) => [x.date, x.late]), [['2025-04-12', true], ['2025-05-10', false]]);
      assert.deepEqual(doc.payments.map((x) => [x.date, x.late]), [['2025-04-14', true], ['2025-05-14', false]]);
      assert.deepEqual(invoiceProblems(doc), []);
      // An issued invoice never changes: its slips and payments are refused, naming it.
      const number = String(may.bl_number);
      const slipRow = await h.database.db.selectFrom('sales').select('modified').where('sl_id', '=', Number(late.sl_id)).executeTakeFirstOrThrow();
      for (const res of [
        await save('sales', { biko: '訂正', modified: slipRow.modified }, Number(late.sl_id)), await h.post('sales_del', { id: late.sl_id }),
        await save('payment', { amount: 400, modified: latePay.modified }, Number(latePay.py_id)), await h.post('payment_del', { id: latePay.py_id }),
      ]) {
        assert.equal(res.status, 400, res.text);
        assert.ok(problem(res).error.includes(`請求済みのため変更・削除できません（請求書 ${number}）`), res.text);
      }
      // 締め戻し gives them back to the open state; closing again bills them the same.
      const restored = await h.post<ClosingRestoreResult>('closing_restore', { sime_gp: '15', sime_ym: '202505' });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual([restored.body[0].slips, restored.body[0].payments], [2, 2]);
      assert.deepEqual(await stamped(), [null, null]);
      assert.deepEqual(money(rowOf(await preview('15', '202505'), cl)), [1100, 800, 300, 4010, 361, 4671]);
    });
  });
}

for (const dialect of dialects()) {
  describe(`two closings of one group at once on two server processes (${dialect})`, () => {
    const ADMIN = { email: 'closing-race@example.jp', password: 'closing-race-password-2026' };
    let server: ServerProcess;
    let authKey = '';
    const call = async (name: string, params: Record<string, unknown>) => {
      const form: Record<string, string> = { authKey };
      for (const [k, v] of Object.entries(params)) form[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
      return server.post(`/api/db/${name}`, form);
    };

    before(async () => {
      server = await startServerProcess(dialect, ADMIN, 2);
      const login = await server.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
      assert.equal(login.status, 200, login.text);
      authKey = String(login.body[0].auth_key);
    });

    after(async () => {
      await server?.close();
    });

    it('one runs, the other is refused (409), and the month is closed once', async () => {
      const clients: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await call('client_save', { postData: { co_name: `同時締め商事${i}`, status: '1', tel_1: '03-1234-5678', sime_gp: '15' } });
        assert.equal(res.status, 200, res.text);
        clients.push(Number(res.body[0].cl_id));
        const sale = await call('sales_save', { postData: { cl_id: clients[i], date: '2025-05-15', lines: [{ name: '水', quantity: 1 + i, price: 1000, tax_class: 'reduced' }] } });
        assert.equal(sale.status, 200, sale.text);
      }
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all([call('closing_run', { sime_gp: '15', sime_ym: '202505' }), call('closing_run', { sime_gp: '15', sime_ym: '202505' })]);
        assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409], answers.map((a) => a.text).join('\n'));
        const refused = answers.find((a) => a.status === 409)!;
        assert.match(String(refused.body[0].error), /締め処理（2025年5月 15日締め）は実行中です|2025年5月 15日締めは締め処理済みです/);
        const jobId = Number(answers.find((a) => a.status === 200)!.body[0].job_id);
        for (let state = 'running'; state === 'running';) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          state = String((await call('job_dtl', { id: jobId })).body[0].state);
          assert.ok(state === 'running' || state === 'done', state);
        }
        const list = (await call('closing_lst', { sime_gp: '15' })).body;
        assert.deepEqual(list.map((c) => [c.sime_ym, c.invoices, c.total]), [['202505', 5, 16200]]);
        const restored = await call('closing_restore', { sime_gp: '15', sime_ym: '202505' });
        assert.equal(restored.status, 200, restored.text);
      }
    });

    it('slips saved while the month closes are billed by it or by the next one: never lost', async () => {
      const clients: number[] = [];
      for (let i = 0; i < 300; i++) {
        const res = await call('client_save', { postData: { co_name: `締め中の伝票商事${i}`, status: '1', tel_1: '03-1234-5678', sime_gp: '25' } });
        clients.push(Number(res.body[0].cl_id));
        await call('sales_save', { postData: { cl_id: clients[i], date: '2025-05-20', lines: [{ name: '水', quantity: 1, price: 1000, tax_class: 'reduced' }] } });
      }
      const started = call('closing_run', { sime_gp: '25', sime_ym: '202505' });
      const saves = await Promise.all(clients.slice(0, 20).map((cl_id, i) => new Promise((resolve) => setTimeout(resolve, i * 15))
        .then(() => call('sales_save', { postData: { cl_id, date: '2025-05-25', lines: [{ name: '締め中', quantity: 1, price: 500, tax_class: 'standard' }] } }))));
      const run = await started;
      assert.equal(run.status, 200, run.text);
      for (let state = 'running'; state === 'running';) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        state = String((await call('job_dtl', { id: run.body[0].job_id })).body[0].state);
      }
      // Issue 19: a slip dated in the month is accepted whenever it comes — billed by this closing when saved before
      // it read the month, else left open for the next one (a late entry); never half of each.
      for (const save of saves) assert.equal(save.status, 200, save.text);
      const billed: number[] = [];
      for (const save of saves) {
        const slip = (await call('sales_dtl', { id: Number(save.body[0].sl_id) })).body[0];
        if (slip.sl_bli_id) billed.push(Number(slip.sl_id));
      }
      const [closing] = (await call('closing_lst', { sime_gp: '25' })).body;
      assert.equal(closing.invoices, 300);
      assert.equal(closing.total, 300 * 1080 + billed.length * 550);
      const next = (await call('closing_preview', { sime_gp: '25', sime_ym: '202506' })).body[0];
      assert.equal((next as unknown as ClosingPreview).totals.sales_net, (saves.length - billed.length) * 500, 'the others wait for the next closing');
    });
  });
}
