/**
 * The one write path (server/resources/records.ts), on every dialect: policies write other resources through
 * the writer in their event (no policy imports the pipeline); child rows are one generic list call, check and
 * audit summary; a batch of orders goes through the order's own rules and is refused naming its row, with
 * nothing written; the rows a job writes (orders, their lines, audit rows) carry its id.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { HodGenerateResult } from '../../lib/hod/kinds';
import type { JobInfo, JobStarted } from '../../lib/jobs';
import { orderResource } from '../../lib/resources/order';
import { ApiError } from '../../server/http/api-error';
import { saveBatch } from '../../server/resources/records';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Problem = { error: string; fields?: Record<string, string> };

describe('policies', () => {
  it('never import the pipeline: they write through the writer of their event', () => {
    const server = join(import.meta.dirname, '../../server');
    const files = readdirSync(server, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('-policy.ts'));
    assert.ok(files.length >= 17, files.join(' '));
    for (const file of files) {
      const source = readFileSync(join(server, file), 'utf8');
      assert.doesNotMatch(source, /from '\.\.\/resources\/records'/, `${file} imports records`);
      // Nor the pipeline's entry points through the resources module's index.
      assert.doesNotMatch(source, /\b(saveRecords?|saveBatch|saveInTransaction|deleteRecord|deleteInTransaction)\b/, `${file} calls the pipeline`);
    }
  });
});

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const ids = { water: 0, plain: 0, client: 0 };
    const saved = async (resource: string, values: Record<string, unknown>, id?: number): Promise<Row> => {
      const res = await h.post<Row>(`${resource}_save`, { postData: JSON.stringify(values), ...(id ? { id } : {}) });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const count = async (table: 'orders' | 'order_detail' | 'audit_log', where: (q: ReturnType<typeof counting>) => ReturnType<typeof counting>): Promise<number> =>
      Number((await where(counting(table)).executeTakeFirstOrThrow()).n);
    const counting = (table: 'orders' | 'order_detail' | 'audit_log') =>
      h.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));

    before(async () => {
      ids.water = Number((await saved('item', { code: 'WP-12', name: '書込テスト天然水 12L', unit: '本', price: 1000, tax_class: 'reduced', stock_tracked: 0, returnable: 1 })).it_id);
      ids.plain = Number((await saved('item', { code: 'WP-CUP', name: '書込テスト紙コップ', unit: '本', price: 300, tax_class: 'standard', stock_tracked: 0, returnable: 0 })).it_id);
      ids.client = h.fixtures.clients.yamada;
    });

    describe('child rows', () => {
      it('the round\'s stops: saved with the round, listed in order by the generic call, worded in the round\'s audit row', async () => {
        const round = await saved('hodreport', {
          date: '2026-06-01', route: '書込1号車',
          stops: [
            { cl_id: ids.client, it_id: ids.water, delivered: '２', collected: 1, cash: '1,000' },
            { cl_id: ids.client, result: 'absent', note: '不在' },
          ],
        });
        assert.equal(round.hr_stop_count, 2);
        assert.equal(round.hr_delivered_total, 2, 'a full-width count is converted by the field schema');
        assert.equal(round.hr_cash_total, 1000);
        const stops = (await h.post<Row>('hodreport_stop_lst', { hr_id: round.hr_id })).body;
        assert.deepEqual(stops.map((s) => [s.hrs_sort, s.hrs_result, s.hrs_delivered]), [[1, 'delivered', 2], [2, 'absent', 0]]);
        assert.ok(Number(stops[0].hrs_bt_id) > 0, 'the bottles moved through the bottle resource, written by the policy\'s writer');
        assert.equal(stops[1].hrs_bt_id, null);
        const audit = await h.database.db.selectFrom('audit_log').select('log_changes')
          .where('log_table', '=', 'hod_report').where('log_record_id', '=', Number(round.hr_id)).orderBy('log_id').execute();
        assert.equal(audit.length, 1, 'one audit row: the round and its stops');
        const changes = JSON.parse(String(audit[0].log_changes)) as Record<string, [string, string]>;
        assert.match(changes.stops[1], /書込テスト天然水 12L お届け2本 回収1本 集金1,000円 配達済/);
      });

      it('refuses a bad row naming it, its field keyed {key}.{index}.{field}, and too many rows', async () => {
        const bad = await h.post<Problem>('hodreport_save', { postData: JSON.stringify({ date: '2026-06-02', stops: [{ cl_id: ids.client }, { cl_id: ids.client, it_id: ids.plain, delivered: 1 }] }) });
        assert.equal(bad.status, 400);
        assert.equal(bad.body[0].error, '2件目の訪問先: 「書込テスト紙コップ」はリターナブルボトルの商品ではありません。');
        assert.deepEqual(bad.body[0].fields, { 'stops.1.it_id': '「書込テスト紙コップ」はリターナブルボトルの商品ではありません。' });
        const lines = Array.from({ length: orderResource.children!.max + 1 }, () => ({ it_id: ids.water, quantity: 1 }));
        const many = await h.post<Problem>('order_save', { postData: JSON.stringify({ cl_id: ids.client, date: '2026-06-02', lines }) });
        assert.equal(many.status, 400);
        assert.equal(many.body[0].error, `明細は${orderResource.children!.max}件までです。`);
        const notArray = await h.post<Problem>('order_save', { postData: JSON.stringify({ cl_id: ids.client, date: '2026-06-02', lines: 'x' }) });
        assert.equal(notArray.status, 400);
        assert.match(notArray.body[0].error, /明細（lines）は配列で送ってください/);
      });

      it('the list call: 404 for a deleted record, 400 without its id, the area\'s read level', async () => {
        const round = await saved('hodreport', { date: '2026-06-03', stops: [{ cl_id: ids.client }] });
        assert.equal((await h.post('hodreport_del', { id: round.hr_id })).status, 200);
        assert.equal((await h.post('hodreport_stop_lst', { hr_id: round.hr_id })).status, 404);
        assert.equal((await h.post('hodreport_stop_lst', {})).status, 400);
        assert.ok(h.app.callTable.get('order_detail_lst'), 'registered for every resource with children');
      });
    });

    describe('batch', () => {
      it('a batch of orders is priced by the order\'s rules; a refused row is named and nothing is written', async () => {
        const before = await count('orders', (q) => q);
        const actor = { userId: h.fixtures.users.admin.id, call: 'test_batch' };
        const entry = (itemId: number) => ({ values: { cl_id: ids.client, date: '2026-06-04', lines: [{ it_id: itemId, quantity: 2 }] } });
        const refused = await h.database.db.transaction().execute((trx) => saveBatch(trx, actor, orderResource, [entry(ids.water), entry(ids.water), entry(999_999)], {
          name: (i, error) => (error instanceof ApiError ? new ApiError(error.status, `${i + 1}番目の受注: ${error.message}`, error.extra) : error),
        })).then(() => undefined, (error: unknown) => error);
        assert.ok(refused instanceof ApiError, String(refused));
        assert.equal(refused.status, 400);
        assert.match(refused.message, /^3番目の受注: 1件目の明細: 商品が見つかりません（ID 999999）/);
        assert.deepEqual(Object.keys(refused.extra.fields as object), ['lines.0.it_id']);
        assert.equal(await count('orders', (q) => q), before, 'nothing written');

        const { ids: created } = await h.database.db.transaction().execute((trx) => saveBatch(trx, actor, orderResource, [entry(ids.water), entry(ids.plain)], { answer: false }));
        assert.equal(created.length, 2);
        const hand = await saved('order', { cl_id: ids.client, date: '2026-06-04', lines: [{ it_id: ids.water, quantity: 2 }] });
        const [first] = (await h.post<Row>('order_dtl', { id: created[0] })).body;
        for (const column of ['od_net_total', 'od_tax_total', 'od_uriage_total', 'od_delivery_fee', 'od_ship_city', 'od_status']) assert.equal(first[column], hand[column], column);
        assert.ok(String(first.od_number).length > 0, 'numbered from its id');
        assert.equal(await count('audit_log', (q) => q.where('log_call', '=', 'test_batch')), 2, 'an audit row per order');
      });

      it('a batch that collects its refusals (an import\'s dry run) names every refused row and writes the others through the same rules', async () => {
        const actor = { userId: h.fixtures.users.admin.id, call: 'test_collect' };
        const entries = [
          { values: { cl_id: ids.client, date: '2026-06-05', lines: [{ it_id: ids.water, quantity: 1 }] } },
          { values: { cl_id: ids.client, date: 'きのう', lines: [{ it_id: ids.water, quantity: 1 }] } },
          { values: { cl_id: ids.client, date: '2026-06-05', lines: [{ it_id: 999_999, quantity: 1 }] } },
          { values: { cl_id: 999_999, date: '2026-06-05', lines: [{ it_id: ids.plain, quantity: 3 }] } },
          { values: { cl_id: ids.client, date: '2026-06-05', lines: [{ it_id: ids.plain, quantity: 3 }] } },
        ];
        const refusals: [number, string][] = [];
        const before = await count('orders', (q) => q);
        const written = await h.database.db.transaction().execute((trx) => saveBatch(trx, actor, orderResource, entries, {
          answer: false, refused: (i, error) => refusals.push([i, error instanceof ApiError ? Object.keys(error.extra.fields as object).join(',') : String(error)]),
        }));
        assert.deepEqual(refusals.sort((a, b) => a[0] - b[0]), [[1, 'date'], [2, 'lines.0.it_id'], [3, 'cl_id']], 'each refused row by its index and field');
        assert.deepEqual(written.ids.map((id) => id > 0), [true, false, false, false, true], 'refused rows answer id 0');
        assert.equal(await count('orders', (q) => q), before + 2, 'the other rows are written');
        const [fifth] = (await h.post<Row>('order_dtl', { id: written.ids[4] })).body;
        const hand = await saved('order', { cl_id: ids.client, date: '2026-06-05', lines: [{ it_id: ids.plain, quantity: 3 }] });
        for (const column of ['od_net_total', 'od_tax_total', 'od_uriage_total']) assert.equal(fifth[column], hand[column], column);
        assert.equal(await count('audit_log', (q) => q.where('log_call', '=', 'test_collect')), 2, 'audit rows of the written ones only');
      });

      it('{r}_bulk_save refuses naming its row, nothing saved', async () => {
        const fees = (await h.post<Row>('deliveryfee_lst', { n: 3 })).body;
        const res = await h.post<Problem>('deliveryfee_bulk_save', { postData: JSON.stringify({ rows: [
          { id: fees[0].df_id, fee: 777, modified: fees[0].modified },
          { id: fees[1].df_id, fee: -1, modified: fees[1].modified },
        ] }) });
        assert.equal(res.status, 400, res.text);
        assert.ok(Object.keys(res.body[0].fields ?? {}).some((key) => key.startsWith(`${fees[1].df_id}.`)), JSON.stringify(res.body));
        assert.notEqual((await h.post<Row>('deliveryfee_dtl', { id: fees[0].df_id })).body[0].df_fee, 777);
      });
    });

    describe('jobs', () => {
      it('a generation\'s orders, their lines and its audit rows carry its job id', async () => {
        const cl = Number((await saved('client', {
          co_name: '書込定期商店', status: '1', tel_1: '03-5555-0100', pref: '東京都', city: '千代田区', address: '丸の内2-2',
          haiso_flag: 1, haiso_type: '1', haiso_wks: 1, haiso_dow: '3', haiso_num: 2, haiso_item: ids.water, next_shipping_date: '2026-07-01',
        })).cl_id);
        const started = await h.post<JobStarted>('hod_generate', { from: '2026-07-01', to: '2026-07-14' });
        assert.equal(started.status, 200, started.text);
        const jobId = started.body[0].job_id;
        let job: JobInfo<HodGenerateResult>;
        for (;;) {
          job = (await h.post<JobInfo<HodGenerateResult>>('job_dtl', { id: jobId })).body[0];
          if (job.state !== 'running') break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.equal(job.state, 'done', JSON.stringify(job));
        const result = job.result!;
        assert.ok(result.created >= 2, JSON.stringify(result));
        const stamped = await h.database.db.selectFrom('orders').select('od_id').where('od_job_id', '=', jobId).execute();
        assert.deepEqual(stamped.map((r) => Number(r.od_id)).sort((a, b) => a - b), [...result.orders].sort((a, b) => a - b));
        // Each generated order's typed line and its delivery fee line.
        assert.equal(await count('order_detail', (q) => q.where('odd_job_id', '=', jobId).where('odd_fee', '=', 0)), result.created);
        assert.equal(await count('order_detail', (q) => q.where('odd_job_id', '=', jobId)), await count('order_detail', (q) => q.where('odd_od_id', 'in', result.orders)));
        assert.equal(await count('audit_log', (q) => q.where('log_job_id', '=', jobId).where('log_table', '=', 'orders')), result.created);
        assert.equal(await count('audit_log', (q) => q.where('log_job_id', '=', jobId).where('log_table', '=', 'client').where('log_record_id', '=', cl)), 1);
        assert.equal(await count('orders', (q) => q.where('od_cl_id', '=', cl).where('od_job_id', 'is', null)), 0);
        const hand = await saved('order', { cl_id: cl, date: '2026-07-01', lines: [{ it_id: ids.water, quantity: 1 }] });
        assert.equal((await h.database.db.selectFrom('orders').select('od_job_id').where('od_id', '=', Number(hand.od_id)).executeTakeFirstOrThrow()).od_job_id, null, 'a call\'s write carries none');
      });
    });
  });
}
