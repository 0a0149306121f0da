/**
 * 定期配送の受注生成 (`hod_generate`, a job: `[{ job_id }]`, then `job_dtl` until it ends) and the delivery list
 * (`hod_list`), on every dialect: a week of
 * 2026 Golden Week (a holiday moves a Monday delivery), a pause, a credit hold, the customer's regular
 * item, priced exactly like a hand-entered order; a second run creates nothing twice; next_shipping_date
 * advances; roles and bad input; the list's filters.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { HodGenerateResult, HodListRow } from '../../lib/hod/kinds';
import type { JobInfo, JobStarted } from '../../lib/jobs';
import { MESSAGES } from '../../lib/protocol';
import { createUser } from '../../server/auth/users';
import { assertNoInternals, dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Problem = { error: string; fields?: Record<string, string> };

const FROM = '2026-05-04';
const TO = '2026-05-10';

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const ids = { monday: 0, paused: 0, credit: 0, chosen: 0, off: 0, itemA: 0, itemB: 0, staff: 0 };
    let deliveryKey = '';
    let first: HodGenerateResult;

    const created = async (resource: string, values: Record<string, unknown>): Promise<Row> => {
      const res = await h.post<Row>(`${resource}_save`, { postData: JSON.stringify(values) });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const start = (params: Record<string, string>, key?: string) => h.post<JobStarted>('hod_generate', params, key);
    /** Starts the job and reads `job_dtl` until it has ended: the finished job. */
    const generate = async (params: Record<string, string>): Promise<JobInfo<HodGenerateResult>> => {
      const started = await start(params);
      assert.equal(started.status, 200, started.text);
      assert.deepEqual(Object.keys(started.body[0]), ['job_id'], 'the call answers the job at once');
      for (;;) {
        const res = await h.post<JobInfo<HodGenerateResult>>('job_dtl', { id: started.body[0].job_id });
        assert.equal(res.status, 200, res.text);
        if (res.body[0].state !== 'running') return res.body[0];
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const generated = async (params: Record<string, string>): Promise<HodGenerateResult> => {
      const job = await generate(params);
      assert.equal(job.state, 'done', JSON.stringify(job));
      assert.equal(job.done, job.total, 'its progress reached the total');
      return job.result!;
    };
    const list = (params: Record<string, string>, key?: string) => h.post<HodListRow>('hod_list', params, key);
    const ordersOf = async (cl: number): Promise<Row[]> => (await h.post<Row>('order_lst', { cl_id: cl, n: 100 })).body;
    const detail = async (id: number): Promise<Row> => (await h.post<Row>('order_dtl', { id })).body[0];
    const orderCount = async (): Promise<number> => Number((await h.post<number>('order_cnt', {})).body[0]);
    const regular = (values: Record<string, unknown>) =>
      created('client', { status: '1', tel_1: '03-5555-0000', pref: '東京都', city: '千代田区', address: '丸の内1-1', haiso_flag: 1, haiso_type: '1', haiso_wks: 1, ...values });

    before(async () => {
      const { delivery } = h.fixtures.users;
      deliveryKey = await h.keyOf(delivery.email, delivery.password);
      ids.staff = delivery.id;
      await h.database.db.updateTable('user').set({ user_team: '東チーム' }).where('user_id', '=', delivery.id).execute();
      const item = async (code: string, name: string) =>
        Number((await created('item', { code, name, unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, returnable: 1 })).it_id);
      ids.itemA = await item('G-A12', '生成テスト天然水 12L');
      ids.itemB = await item('G-B08', '生成テスト天然水 8L');
      // Monday 2026-05-04 is みどりの日, 5 and 6 are holidays too: the delivery moves to Thursday the 7th.
      ids.monday = Number((await regular({ co_name: '生成月曜商事', haiso_dow: '1', haiso_num: 2, next_shipping_date: FROM, delivery_usr_id: ids.staff })).cl_id);
      ids.paused = Number((await regular({ co_name: '生成休止商店', haiso_dow: '5', haiso_num: 3, next_shipping_date: FROM })).cl_id);
      await created('hodpause', { cl_id: ids.paused, kind: '1', from_date: '2026-05-07', to_date: '2026-05-09', reason: '旅行' });
      ids.credit = Number((await regular({ co_name: '生成与信商会', haiso_dow: '4', haiso_num: 5, next_shipping_date: FROM, yoshin_gendo: 3000 })).cl_id);
      ids.chosen = Number((await regular({ co_name: '生成指定商品店', haiso_dow: '2', haiso_num: 1, next_shipping_date: '2026-05-01', haiso_item: ids.itemB, delivery_usr_id: ids.staff })).cl_id);
      ids.off = Number((await created('client', { status: '1', tel_1: '03-5555-0001', co_name: '生成定期なし', haiso_flag: 0, haiso_type: '1', haiso_dow: '1', haiso_num: 2, next_shipping_date: FROM })).cl_id);
    });

    describe('hod_generate', () => {
      it('creates the week\'s orders: moved off the holiday, none for the pause, the regular item, on hold over the credit limit', async () => {
        first = await generated({ from: FROM, to: TO });
        assert.equal(first.created, 3, JSON.stringify(first));
        assert.equal(first.held, 1);
        assert.equal(first.existed, 0);
        assert.equal(first.skipped, 1, 'the paused Friday');
        assert.equal(first.orders.length, 3);

        const [monday] = await ordersOf(ids.monday);
        const mon = await detail(Number(monday.od_id));
        assert.equal(mon.od_delivery_date, '2026-05-07', 'moved to the next business day');
        assert.equal(mon.od_hod_date, FROM);
        assert.equal(mon.od_status, 'untreated');
        assert.equal(mon.od_ship_city, '千代田区', 'shipping address from the customer');
        const firstReturnable = Number((await h.post<Row>('master_lst', { table: 'mt_returnable_item' })).body[0].value);
        const monLines = (await h.post<Row>('order_detail_lst', { od_id: mon.od_id })).body;
        assert.deepEqual(monLines.map((l) => [l.odd_it_id, l.odd_quantity]), [[firstReturnable, 2], [null, 1]], 'no regular item chosen: the first returnable item, then the fee line');
        assert.deepEqual([monLines[1].odd_fee, monLines[1].odd_name, monLines[1].odd_price], [1, '送料', mon.od_delivery_fee], 'the delivery fee as a line of its own');

        // Priced and taxed exactly like the same order entered by hand.
        const hand = await created('order', { cl_id: ids.monday, date: String(mon.od_date), delivery_date: '2026-05-07', lines: [{ it_id: firstReturnable, quantity: 2 }] });
        for (const column of ['od_net_total', 'od_tax_total', 'od_uriage_total', 'od_delivery_fee', 'od_date', 'od_ship_pref', 'od_ship_city', 'od_ship_address', 'od_ship_tel', 'od_sk_id', 'od_pm_id', 'od_ht_id']) {
          assert.equal(mon[column], hand[column], column);
        }
        assert.match(String(mon.od_number), new RegExp(`-0*${String(mon.od_id)}$`), 'numbered by the order settings\' format');
        assert.equal((await h.post<Row>('order_lst', { kw: String(mon.od_number) })).body.map((r) => r.od_id).join(), String(mon.od_id), 'found by its number');
        assert.equal((await h.post('order_del', { id: hand.od_id })).status, 200);

        assert.deepEqual(await ordersOf(ids.paused), [], 'a paused delivery creates nothing');
        assert.deepEqual(await ordersOf(ids.off), [], 'a customer without regular delivery gets nothing');

        const [held] = await ordersOf(ids.credit);
        const credit = await detail(Number(held.od_id));
        assert.equal(credit.od_status, 'pending');
        assert.match(String(credit.od_hold_reason), /与信限度額を超えるため保留/);
        assert.equal(credit.od_delivery_date, '2026-05-07');

        const [chosen] = await ordersOf(ids.chosen);
        const chosenLines = (await h.post<Row>('order_detail_lst', { od_id: chosen.od_id })).body;
        assert.deepEqual(chosenLines.filter((l) => l.odd_fee === 0).map((l) => [l.odd_it_id, l.odd_quantity]), [[ids.itemB, 1]], 'the customer\'s regular item');
        assert.equal((await detail(Number(chosen.od_id))).od_delivery_date, '2026-05-07', 'Tuesday 5/5 is a holiday, 5/6 a substitute one');

        const log = (await h.post<Row>('log_lst', { n: 200 })).body.filter((r) => r.log_call === 'hod_generate');
        assert.ok(log.some((r) => r.log_table === 'orders' && Number(r.log_record_id) === Number(monday.od_id)), 'audit-logged');
      });

      it('advances next_shipping_date to the first scheduled day after the range', async () => {
        const next = async (id: number) => (await h.post<Row>('client_dtl', { id })).body[0].cl_next_shipping_date;
        assert.equal(await next(ids.monday), '2026-05-11');
        assert.equal(await next(ids.paused), '2026-05-15');
        assert.equal(await next(ids.credit), '2026-05-14');
        assert.equal(await next(ids.off), FROM, 'not a regular customer: unchanged');
      });

      it('creates nothing twice when run again, even with next_shipping_date moved back', async () => {
        const count = await orderCount();
        const again = await generated({ from: FROM, to: TO });
        assert.equal(again.created, 0);
        assert.equal(await orderCount(), count);
        await h.database.db.updateTable('client').set({ cl_next_shipping_date: FROM }).where('cl_id', 'in', [ids.monday, ids.credit]).execute();
        const third = await generated({ from: FROM, to: TO });
        assert.equal(third.created, 0, JSON.stringify(third));
        assert.equal(third.existed, 2);
        assert.equal(await orderCount(), count);
        const duplicate = h.database.db.insertInto('orders').values({
          od_cl_id: ids.monday, od_date: '2026-05-01', od_hod_date: FROM, od_status: 'untreated', created: 'x', modified: 'x', deleted: 0,
        }).execute();
        await assert.rejects(duplicate, 'the unique index refuses a second live generated order of the day');
      });

      it('refuses a role without order write, and bad ranges, changing nothing', async () => {
        const count = await orderCount();
        const refused = await start({ from: '2026-05-11', to: '2026-05-17' }, deliveryKey);
        assert.equal(refused.status, 403, refused.text);
        const cases: [Record<string, string>, string, string][] = [
          [{ from: '2026-02-30', to: '2026-03-01' }, 'from', MESSAGES.hodBadFrom],
          [{ from: '2026-05-11', to: '' }, 'to', MESSAGES.hodBadTo],
          [{ from: '2026-05-11', to: '2026-05-10' }, 'to', MESSAGES.hodToBeforeFrom],
          [{ from: '2026-01-01', to: '2026-12-31' }, 'to', MESSAGES.hodRangeTooLong],
        ];
        for (const [params, field, message] of cases) {
          const res = await start(params);
          assert.equal(res.status, 400, res.text);
          assertNoInternals(res.text);
          const body = res.body[0] as unknown as Problem;
          assert.equal(body.error, message);
          assert.ok(body.fields?.[field], field);
        }
        assert.equal(await orderCount(), count);
      });
    });

    describe('the job of a run', () => {
      it('belongs to the order area: read to see it, write to cancel it; job_lst lists only readable kinds', async () => {
        const [latest] = (await h.post<JobInfo>('job_lst', { kind: 'hod_generate', n: 1 })).body;
        assert.equal(latest.kind, 'hod_generate');
        assert.equal(latest.state, 'done');
        assert.equal(latest.scope, `${FROM}..${TO}`);
        assert.equal((await h.post('job_dtl', { id: latest.job_id }, deliveryKey)).status, 200, '配送 reads orders');
        const cancel = await h.post('job_cancel', { id: latest.job_id }, deliveryKey);
        assert.equal(cancel.status, 403, cancel.text);
        const now = new Date().toISOString();
        await h.database.db.insertInto('role').values({ role_name: '受注なし', role_areas: JSON.stringify({ client: 'read' }), role_search: '', created: now, modified: now, deleted: 0 }).execute();
        await createUser(h.database.db, { email: 'no-orders@example.jp', password: 'no-orders-password-2026', name: '受注なし', role: '受注なし' });
        const noOrders = await h.keyOf('no-orders@example.jp', 'no-orders-password-2026');
        const refused = await h.post('job_dtl', { id: latest.job_id }, noOrders);
        assert.equal(refused.status, 403, refused.text);
        assert.deepEqual((await h.post('job_lst', {}, noOrders)).body, []);
        assert.equal((await h.post('job_lst', { kind: 'hod_generate' }, noOrders)).status, 403);
        const bad = await h.post<Problem>('job_lst', { kind: 'csv', state: 'running' });
        assert.equal(bad.status, 400, bad.text);
        assert.equal(bad.body[0].error, MESSAGES.jobBadKind);
        assert.equal((await h.post<Problem>('job_lst', { state: 'sleeping' })).body[0].error, MESSAGES.jobBadState);
        assert.equal((await h.post('job_dtl', { id: 999_999 })).status, 404);
        assert.equal((await h.post('job_cancel', { id: latest.job_id })).status, 400, 'an ended job cannot be cancelled');
      });
    });

    describe('hod_list', () => {
      it('lists the range\'s orders that are not cancelled, by date and staff, with bottles, address, time slot and phone', async () => {
        const res = await list({ from: FROM, to: TO }, deliveryKey);
        assert.equal(res.status, 200, res.text);
        const ours = res.body.filter((r) => first.orders.includes(r.od_id));
        assert.equal(ours.length, 3);
        const mon = ours.find((r) => r.cl_id === ids.monday)!;
        assert.equal(mon.od_delivery_date, '2026-05-07');
        assert.equal(mon.bottles, 2);
        assert.equal(mon.user_id, ids.staff);
        assert.equal(mon.user_team, '東チーム');
        assert.equal(mon.address, '東京都千代田区丸の内1-1');
        assert.equal(mon.tel, '03-5555-0000');
        assert.equal(typeof mon.time_slot, 'string');
        const keys = res.body.map((r) => r.od_delivery_date);
        assert.deepEqual(keys, [...keys].sort(), 'by date');
        assert.deepEqual((await list({ from: '2026-05-11', to: '2026-05-17' })).body.filter((r) => first.orders.includes(r.od_id)), []);
      });

      it('filters by team, staff, customer and company name, and leaves out cancelled orders', async () => {
        const only = async (params: Record<string, string>) =>
          (await list({ from: FROM, to: TO, ...params })).body.map((r) => r.cl_id).filter((id) => [ids.monday, ids.credit, ids.chosen].includes(id)).sort((a, b) => a - b);
        const both = [ids.monday, ids.chosen].sort((a, b) => a - b);
        assert.deepEqual(await only({ team: '東チーム' }), both);
        assert.deepEqual(await only({ team: '西チーム' }), []);
        assert.deepEqual(await only({ userId: String(ids.staff) }), both);
        assert.deepEqual(await only({ clientId: String(ids.credit) }), [ids.credit]);
        assert.deepEqual(await only({ coName: '与信' }), [ids.credit]);
        assert.deepEqual(await only({ coName: '%' }), [], 'LIKE characters are literal');
        const [held] = await ordersOf(ids.credit);
        const cancelled = await h.post<Row>('order_status', { od_id: held.od_id, status: 'cancelled' });
        assert.equal(cancelled.status, 200, cancelled.text);
        assert.deepEqual(await only({ clientId: String(ids.credit) }), [], 'a cancelled order is not delivered');
        const bad = await list({ from: FROM, to: TO, userId: 'abc' });
        assert.equal(bad.status, 400, bad.text);
        assertNoInternals(bad.text);
      });
    });

    describe('a run that cannot build one order', () => {
      it('creates nothing and advances no date, naming the customer and the delivery', async () => {
        // Two regular customers due in the week of 2026-06-15 (Tuesday, Friday); the second's bottles (set past the
        // form's limit in the database) cannot be an order line, so the whole run is refused.
        const fine = Number((await regular({ co_name: '一括成功商店', haiso_dow: '2', haiso_num: 2, next_shipping_date: '2026-06-15', haiso_item: ids.itemA })).cl_id);
        const broken = Number((await regular({ co_name: '一括失敗商事', haiso_dow: '5', haiso_num: 2, next_shipping_date: '2026-06-15', haiso_item: ids.itemA })).cl_id);
        await h.database.db.updateTable('client').set({ cl_haiso_num: 100_000 }).where('cl_id', '=', broken).execute();
        const count = await orderCount();
        const audits = async () => Number((await h.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
        const auditsBefore = await audits();
        const job = await generate({ from: '2026-06-15', to: '2026-06-21' });
        assert.equal(job.state, 'failed', JSON.stringify(job));
        assert.equal(job.result, null);
        assertNoInternals(job.error);
        const { error } = job;
        assert.match(error, /一括失敗商事（予定日 2026-06-19）の受注を作成できません。.*数量.*受注は1件も作成していません。/);
        assert.equal(await orderCount(), count);
        assert.deepEqual(await ordersOf(fine), []);
        assert.equal(await audits(), auditsBefore, 'no audit row either');
        const next = async (id: number) => (await h.post<Row>('client_dtl', { id })).body[0].cl_next_shipping_date;
        assert.deepEqual([await next(fine), await next(broken)], ['2026-06-15', '2026-06-15']);
        await h.database.db.updateTable('client').set({ cl_haiso_flag: 0 }).where('cl_id', 'in', [fine, broken]).execute();
      });
    });

    describe('credit over a run', () => {
      it('counts the run\'s earlier orders of a customer: the one that passes the limit is held', async () => {
        // Weekly on Wednesdays: 2026-06-03 and 06-10 (no holidays). The limit takes one order, not two.
        const cl = Number((await regular({ co_name: '生成累計与信商事', haiso_dow: '3', haiso_num: 1, next_shipping_date: '2026-06-01', haiso_item: ids.itemA })).cl_id);
        const probe = await created('order', { cl_id: cl, date: '2026-05-25', lines: [{ it_id: ids.itemA, quantity: 1 }] });
        assert.equal((await h.post('order_del', { id: probe.od_id })).status, 200);
        const one = Number(probe.od_uriage_total);
        await h.database.db.updateTable('client').set({ cl_yoshin_gendo: one + Math.floor(one / 2), cl_uri_zan: 0 }).where('cl_id', '=', cl).execute();
        await generated({ from: '2026-06-01', to: '2026-06-14' });
        const mine = (await ordersOf(cl)).sort((a, b) => Number(a.od_id) - Number(b.od_id));
        assert.equal(mine.length, 2);
        const [early, late] = await Promise.all(mine.map((o) => detail(Number(o.od_id))));
        assert.deepEqual([early.od_hod_date, early.od_status, early.od_hold_reason], ['2026-06-03', 'untreated', '']);
        assert.deepEqual([late.od_hod_date, late.od_status], ['2026-06-10', 'pending']);
        assert.match(String(late.od_hold_reason), /同時に作成した受注/);
      });
    });
  });
}
