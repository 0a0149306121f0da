/**
 * Closing (締め処理, issue 13) through the real server on both dialects, with hand-worked cases: the period's edges (a
 * slip on the closing day and the day after), 末 in February of a leap year, 5日締め across the year end, 内税 extracted
 * once per rate over the invoice, 伝票単位 summing the slips' tax, a credit balance, a customer with no sales but a
 * balance, a return making a rate's net negative, a delivery site's slips on its 請求先's invoice; the run as a job
 * (invoices, rate rows, stamps, numbers, audit rows), closed-period and billed refusals, the order of months, the
 * restore (exact, and its refusals), the closings list; and two closings of one group started at once on two server
 * processes: one runs, one is refused.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ClosingItems, ClosingListRow, ClosingPreview, ClosingPreviewRow, ClosingRestoreResult, ClosingRunResult } from '../../lib/closing/answers';
import type { JobInfo } from '../../lib/jobs';
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
      // The invoice list's CSV names the month as people say it (2025年04月, not 202504) and the customer by name.
      const csv = (await downloadFile(h, 'billing_csv', { enc: 'utf8', cl_id: ids.p, cols: 'all' })).bytes.toString('utf8');
      const [header, line] = csv.replace(/^\uFEFF/, '').split('\r\n');
      const cells = line.split(',');
      const cell = (label: string) => cells[header.split(',').indexOf(label)];
      assert.equal(cell('締め年月'), '2025年04月');
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

    it('refuses slips and payments in a closed period, and changes of billed ones, naming the closing', async () => {
      const late = await save('sales', { cl_id: ids.p2, date: '2025-04-15', lines: [{ name: '遅れた伝票', quantity: 1, price: 100, tax_class: 'standard' }] });
      assert.equal(late.status, 400, late.text);
      assert.match(problem(late).error, /^2025年04月 20日締めの締め処理済みの期間です（売上日 2025-04-15）/);
      assert.ok(problem(late).fields?.date);
      const pay = await save('payment', { cl_id: ids.p, date: '2025-04-20', amount: 100, kind: 'cash' });
      assert.equal(pay.status, 400, pay.text);
      assert.match(problem(pay).error, /^2025年04月 20日締めの締め処理済みの期間です（入金日 2025-04-20）/);
      // The day after the closing date is open.
      const open = await save('payment', { cl_id: ids.p, date: '2025-04-21', amount: 100, kind: 'cash' });
      assert.equal(open.status, 200, open.text);
      // An open slip may not be moved into the closed period.
      const moved = await save('payment', { date: '2025-04-19', modified: open.body[0].modified }, Number(open.body[0].py_id));
      assert.equal(moved.status, 400, moved.text);
      assert.equal((await h.post('payment_del', { id: open.body[0].py_id })).status, 200);
      const billed = await h.database.db.selectFrom('sales').select(['sl_id', 'modified', 'sl_bli_id']).where('sl_cl_id', '=', ids.p).where('sl_date', '=', '2025-04-20').executeTakeFirstOrThrow();
      assert.ok(billed.sl_bli_id, 'the closed slip is stamped with its invoice');
      const edit = await save('sales', { biko: '請求後の変更', modified: billed.modified }, Number(billed.sl_id));
      assert.equal(edit.status, 400);
      assert.match(problem(edit).error, /請求済みのため変更・削除できません（請求書 BL202504-\d{6}）/);
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
      assert.match(problem(again).error, /^2025年05月 20日締めは締め処理済みです/);
      assert.equal((await h.post('closing_preview', { sime_gp: '20', sime_ym: '202505' })).status, 409);
      const earlier = await h.post('closing_run', { sime_gp: '20', sime_ym: '202503' });
      assert.equal(earlier.status, 409, earlier.text);
      assert.match(problem(earlier).error, /2025年05月 20日締めまで締め処理済みです/);
      const skipped = await h.post('closing_preview', { sime_gp: '20', sime_ym: '202507' });
      assert.equal(skipped.status, 409, skipped.text);
      assert.match(problem(skipped).error, /^2025年06月 20日締めがまだ締め処理されていません（「締め二十日商事」に2025年06月以降の未請求の伝票があります）/);
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
      assert.match(String(list[1].refusal), /あとの 2025年05月 20日締めの締め処理があるため締め戻しできません/);
      assert.equal(list[0].user_name, '管理 太郎');
      const refused = await h.post('closing_restore', { sime_gp: '20', sime_ym: '202504' });
      assert.equal(refused.status, 409, refused.text);
      assert.equal(problem(refused).error, list[1].refusal);

      const [before] = await invoicesOf(list[0].cls_id);
      // What the database held before closing 202505: restore, snapshot, close, restore, compare.
      const restored = await h.post<ClosingRestoreResult>('closing_restore', { sime_gp: '20', sime_ym: '202505' });
      assert.equal(restored.status, 200, restored.text);
      assert.deepEqual(restored.body[0], { cls_id: list[0].cls_id, sime_gp: '20', sime_ym: '202505', invoices: 1, slips: 2, payments: 1 });
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
      assert.match(problem(allocated).error, /入金の消込があるため締め戻しできません（消込 1件）/);
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
        assert.match(String(refused.body[0].error), /締め処理（2025年05月 15日締め）は実行中です|2025年05月 15日締めは締め処理済みです/);
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

    it('slips saved while the month closes are billed by it or refused: none is left open in the closed period', async () => {
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
      for (const save of saves) {
        if (save.status === 200) continue;
        assert.equal(save.status, 400, save.text);
        assert.match(String(save.body[0].error), /^2025年05月 25日締めの締め処理済みの期間です（売上日 2025-05-25）/);
      }
      const saved = saves.filter((a) => a.status === 200).map((a) => Number(a.body[0].sl_id));
      for (const id of saved) {
        const slip = (await call('sales_dtl', { id })).body[0];
        assert.ok(slip.sl_bli_id, `slip ${id} saved during the closing is billed by it: ${JSON.stringify(slip)}`);
      }
      const [closing] = (await call('closing_lst', { sime_gp: '25' })).body;
      assert.equal(closing.invoices, 300);
      assert.equal(closing.total, 300 * 1080 + saved.length * 550);
    });
  });
}
