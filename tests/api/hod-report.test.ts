/**
 * 配送実績 and 配送売上 (issue 4): a round saved with its stops in one transaction, its bottles booked
 * as the customers' bottle movements (balance moving with save, edit and delete; a negative balance
 * refused naming the customer, nothing saved), stale edits, role refusals, bad input, and
 * `hod_uriage`'s sums by team, staff and customer against known orders, on every dialect.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Uriage } from '../../lib/hod/uriage';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Problem = { error: string; fields?: Record<string, string> };

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const ids = { water: 0, plain: 0, yamada: 0, sato: 0, otherClient: 0, driver: 0, driver2: 0 };
    const keys = { accounting: '', delivery: '' };

    const save = (resource: string, postData: Record<string, unknown>, id?: number, key?: string) =>
      h.post<Row>(`${resource}_save`, { id, postData: JSON.stringify(postData) }, key);
    const created = async (resource: string, postData: Record<string, unknown>): Promise<Row> => {
      const res = await save(resource, postData);
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const problem = (res: { body: unknown[] }) => res.body[0] as Problem;
    const held = async (cl: number): Promise<number> =>
      Number((await h.post<Row>('bottle_balance', { cl_id: cl })).body.find((b) => b.bt_it_id === ids.water)?.bt_held ?? 0);
    const stops = async (hr: number): Promise<Row[]> => (await h.post<Row>('hodreport_stop_lst', { hr_id: hr })).body;
    const round = (extra: Record<string, unknown>, stopList: Record<string, unknown>[]) =>
      ({ date: '2026-05-10', usr_id: ids.driver, team: '東ルート班', route: '2号車 東ルート', stops: stopList, ...extra });
    const dtl = async (hr: number): Promise<Row> => (await h.post<Row>('hodreport_dtl', { id: hr })).body[0];
    const liveMovements = async (cl: number) =>
      (await h.database.db.selectFrom('bottle').select(['bt_id', 'bt_delivered', 'bt_collected', 'bt_move_date']).where('bt_cl_id', '=', cl).where('deleted', '=', 0).orderBy('bt_id').execute())
        .map((r) => [String(r.bt_move_date), Number(r.bt_delivered), Number(r.bt_collected)]);

    before(async () => {
      ids.water = Number((await created('item', { code: 'HR-W12', name: '実績テスト天然水 12L', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, returnable: 1 })).it_id);
      ids.plain = Number((await created('item', { code: 'HR-CUP', name: '実績テスト紙コップ', unit: '個', price: 300, tax_class: 'standard', stock_tracked: 0 })).it_id);
      const user = async (email: string, role: string, team: string) => {
        const res = await save('user', { name: `実績 ${email.split('@')[0]}`, kana: 'ジッセキ', email, role, team, active: '1', password: 'pass-word-2026' });
        assert.equal(res.status, 200, res.text);
        return Number(res.body[0].user_id);
      };
      ids.driver = await user('hr-driver@example.jp', '配送', '東ルート班');
      ids.driver2 = await user('hr-driver2@example.jp', '配送', '西ルート班');
      await user('hr-acc@example.jp', '経理', '経理課');
      keys.delivery = await h.keyOf('hr-driver@example.jp', 'pass-word-2026');
      keys.accounting = await h.keyOf('hr-acc@example.jp', 'pass-word-2026');
      const client = async (co_name: string, driver: number) =>
        Number((await created('client', { status: '1', tel_1: '03-1234-5678', co_name, pref: '東京都', zei_kiri: '0', kin_kiri: '0', tanka_type: '1', delivery_usr_id: driver })).cl_id);
      ids.yamada = await client('実績テスト山田商店', ids.driver);
      ids.sato = await client('実績テスト佐藤医院', ids.driver2);
      ids.otherClient = await client('実績テスト対象外', ids.driver2);
    });

    describe('a round with its stops', () => {
      it('saves the round and its stops in one transaction and books the bottles on the customers', async () => {
        const saved = await created('hodreport', round({}, [
          { cl_id: ids.yamada, it_id: ids.water, delivered: 3, collected: 0, cash: 3888, result: 'delivered', note: '' },
          { cl_id: ids.sato, it_id: '', delivered: '', collected: '', cash: 0, result: 'absent', note: '不在票投函' },
        ]));
        const hr = Number(saved.hr_id);
        assert.deepEqual([saved.hr_stop_count, saved.hr_delivered_total, saved.hr_collected_total, saved.hr_cash_total], [2, 3, 0, 3888]);
        const stored = await stops(hr);
        assert.deepEqual(stored.map((s) => [s.hrs_cl_id, s.hrs_it_id, s.hrs_delivered, s.hrs_collected, s.hrs_cash, s.hrs_result, s.hrs_note]), [
          [ids.yamada, ids.water, 3, 0, 3888, 'delivered', ''],
          [ids.sato, null, 0, 0, 0, 'absent', '不在票投函'],
        ]);
        assert.ok(Number(stored[0].hrs_bt_id) > 0);
        assert.equal(stored[1].hrs_bt_id, null);
        assert.equal(await held(ids.yamada), 3);
        assert.deepEqual(await liveMovements(ids.yamada), [['2026-05-10', 3, 0]]);
        assert.deepEqual(await liveMovements(ids.sato), []);
      });

      it('moves the balance with an edit (collected, changed counts, date) and removes it with the delete', async () => {
        const first = await created('hodreport', round({ date: '2026-05-11' }, [{ cl_id: ids.sato, it_id: ids.water, delivered: 4, result: 'delivered' }]));
        const hr = Number(first.hr_id);
        assert.equal(await held(ids.sato), 4);
        // Stale edit: the round changed since it was loaded.
        const ok = await save('hodreport', { modified: first.modified, stops: [{ cl_id: ids.sato, it_id: ids.water, delivered: 4, collected: 1, result: 'delivered' }] }, hr);
        assert.equal(ok.status, 200, ok.text);
        assert.equal(await held(ids.sato), 3);
        const stale = await save('hodreport', { modified: first.modified, note: '古い画面から' }, hr);
        assert.equal(stale.status, 409, stale.text);
        // Changing only the date moves the movement with it (one movement per customer × item).
        const moved = await save('hodreport', { modified: ok.body[0].modified, date: '2026-05-12' }, hr);
        assert.equal(moved.status, 200, moved.text);
        assert.deepEqual(await liveMovements(ids.sato), [['2026-05-12', 4, 1]]);
        // Two stops of the same customer × item become one movement.
        const two = await save('hodreport', { modified: moved.body[0].modified, stops: [
          { cl_id: ids.sato, it_id: ids.water, delivered: 2, result: 'delivered' },
          { cl_id: ids.sato, it_id: ids.water, delivered: 1, collected: 2, result: 'redelivery', note: '午後に再配達' },
        ] }, hr);
        assert.equal(two.status, 200, two.text);
        assert.deepEqual(await liveMovements(ids.sato), [['2026-05-12', 3, 2]]);
        assert.equal(await held(ids.sato), 1);
        const del = await h.post('hodreport_del', { id: hr });
        assert.equal(del.status, 200, del.text);
        assert.equal(await held(ids.sato), 0);
        assert.deepEqual(await liveMovements(ids.sato), []);
        assert.equal((await h.post('hodreport_stop_lst', { hr_id: hr })).status, 404);
      });

      it('refuses a collection that makes the balance negative, naming the customer, and saves nothing', async () => {
        const before = await h.database.db.selectFrom('hod_report').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        const beforeHeld = await held(ids.yamada);
        const res = await save('hodreport', round({ date: '2026-05-20' }, [
          { cl_id: ids.sato, it_id: ids.water, delivered: 2, result: 'delivered' },
          { cl_id: ids.yamada, it_id: ids.water, collected: beforeHeld + 1, result: 'delivered' },
        ]));
        assert.equal(res.status, 400, res.text);
        assert.match(problem(res).error, /実績テスト山田商店/);
        assert.match(problem(res).error, /預け本数が -1 本/);
        const after = await h.database.db.selectFrom('hod_report').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
        assert.equal(Number(after.n), Number(before.n));
        assert.equal(await held(ids.yamada), beforeHeld);
        assert.equal(await held(ids.sato), 0, 'the other stop\'s movement was rolled back too');
        // An edit that would do the same is refused and leaves the round as it was.
        const saved = await created('hodreport', round({ date: '2026-05-21' }, [{ cl_id: ids.yamada, it_id: ids.water, collected: 1, result: 'delivered' }]));
        const edit = await save('hodreport', { modified: saved.modified, stops: [{ cl_id: ids.yamada, it_id: ids.water, collected: beforeHeld + 5, result: 'delivered' }] }, Number(saved.hr_id));
        assert.equal(edit.status, 400);
        assert.match(problem(edit).error, /実績テスト山田商店/);
        assert.deepEqual((await stops(Number(saved.hr_id))).map((s) => s.hrs_collected), [1]);
        assert.equal(await held(ids.yamada), beforeHeld - 1);
        assert.equal((await h.post('hodreport_del', { id: saved.hr_id })).status, 200);
        assert.equal(await held(ids.yamada), beforeHeld);
      });

      it('refuses bad stops with the stop\'s field named, and saves nothing', async () => {
        const cases: [Record<string, unknown>, string][] = [
          [{ cl_id: 99_999_999, result: 'delivered' }, 'stops.0.cl_id'],
          [{ cl_id: ids.yamada, it_id: ids.water, delivered: -1 }, 'stops.0.delivered'],
          [{ cl_id: ids.yamada, it_id: ids.water, collected: 'たくさん' }, 'stops.0.collected'],
          [{ cl_id: ids.yamada, cash: 12.5 }, 'stops.0.cash'],
          [{ cl_id: ids.yamada, delivered: 2 }, 'stops.0.it_id'],
          [{ cl_id: ids.yamada, it_id: ids.plain, delivered: 1 }, 'stops.0.it_id'],
          [{ cl_id: ids.yamada, result: 'lost' }, 'stops.0.result'],
        ];
        for (const [stop, field] of cases) {
          const res = await save('hodreport', round({ date: '2026-06-01' }, [stop]));
          assert.equal(res.status, 400, `${JSON.stringify(stop)}: ${res.text}`);
          assert.ok(problem(res).fields?.[field], `${field}: ${res.text}`);
        }
        const notArray = await save('hodreport', { ...round({ date: '2026-06-01' }, []), stops: 'x' });
        assert.equal(notArray.status, 400);
        const noDate = await save('hodreport', { date: '', stops: [] });
        assert.equal(noDate.status, 400);
        const none = await h.database.db.selectFrom('hod_report').select('hr_id').where('hr_date', '=', '2026-06-01').execute();
        assert.deepEqual(none, []);
      });

      it('lets 経理 read the rounds and the sales but not write; 配送 writes', async () => {
        const mine = await save('hodreport', round({ date: '2026-05-25' }, [{ cl_id: ids.yamada, it_id: ids.water, delivered: 1, result: 'delivered' }]), undefined, keys.delivery);
        assert.equal(mine.status, 200, mine.text);
        const hr = Number(mine.body[0].hr_id);
        assert.equal((await h.post('hodreport_lst', {}, keys.accounting)).status, 200);
        assert.equal((await h.post('hodreport_stop_lst', { hr_id: hr }, keys.accounting)).status, 200);
        assert.equal((await h.post('hod_uriage', { from: '2026-05-01', to: '2026-05-31', group: 'team' }, keys.accounting)).status, 200);
        const refusedSave = await save('hodreport', { modified: mine.body[0].modified, note: '経理' }, hr, keys.accounting);
        assert.equal(refusedSave.status, 403, refusedSave.text);
        assert.equal((await h.post('hodreport_del', { id: hr }, keys.accounting)).status, 403);
        assert.equal((await dtl(hr)).hr_note, '');
        assert.equal((await h.post('hodreport_del', { id: hr }, keys.delivery)).status, 200);
      });

      it('names the 保証金 slips a round\'s bottles made (hodreport_slip_lst), to 配送 who cannot list sales', async () => {
        const deposit = Number((await created('item', { code: 'HR-DEP', name: '実績テスト保証金ボトル', unit: '本', price: 1000, tax_class: 'reduced', stock_tracked: 0, returnable: 1, deposit: 500 })).it_id);
        const mine = await save('hodreport', round({ date: '2026-05-26' }, [
          { cl_id: ids.yamada, it_id: deposit, delivered: 2, result: 'delivered' },
          { cl_id: ids.sato, it_id: ids.water, delivered: 1, result: 'delivered' },
        ]), undefined, keys.delivery);
        assert.equal(mine.status, 200, mine.text);
        const hr = Number(mine.body[0].hr_id);
        const slips = await h.post<Row>('hodreport_slip_lst', { hr_id: hr }, keys.delivery);
        assert.equal(slips.status, 200, slips.text);
        const stored = await h.database.db.selectFrom('sales').select(['sl_id', 'sl_number']).where('sl_cl_id', '=', ids.yamada).where('sl_date', '=', '2026-05-26').where('deleted', '=', 0).execute();
        assert.equal(stored.length, 1);
        // Only the item with a deposit makes a slip: 2 bottles × 500円, the customer named.
        assert.deepEqual(slips.body, [{ sl_id: Number(stored[0].sl_id), sl_number: String(stored[0].sl_number), sl_date: '2026-05-26', sl_total: 1000, cl_id: ids.yamada, cl_name: '実績テスト山田商店' }]);
        assert.equal((await h.post('sales_lst', {}, keys.delivery)).status, 403);
        assert.equal((await h.post('hodreport_slip_lst', { hr_id: hr }, keys.accounting)).status, 200);
        assert.equal((await h.post('hodreport_slip_lst', { hr_id: '' })).status, 400);
        // Taking the bottles back removes the slip with the movement; a deleted round is not found.
        const back = await save('hodreport', { modified: mine.body[0].modified, stops: [{ cl_id: ids.sato, it_id: ids.water, delivered: 1, result: 'delivered' }] }, hr, keys.delivery);
        assert.equal(back.status, 200, back.text);
        assert.deepEqual((await h.post<Row>('hodreport_slip_lst', { hr_id: hr }, keys.delivery)).body, []);
        assert.equal((await h.post('hodreport_del', { id: hr }, keys.delivery)).status, 200);
        assert.equal((await h.post('hodreport_slip_lst', { hr_id: hr }, keys.delivery)).status, 404);
      });
    });

    describe('hod_uriage', () => {
      let uriage: (group: string, key?: string) => Promise<Uriage>;
      before(async () => {
        const order = async (cl: number, quantity: number, deliveryDate: string, status: string) => {
          const o = await created('order', { cl_id: cl, date: '2026-07-01', delivery_date: deliveryDate, delivery_fee: 0, lines: [{ it_id: ids.water, quantity, price: 1000 }] });
          await h.database.db.updateTable('orders').set({ od_status: status }).where('od_id', '=', Number(o.od_id)).execute();
          return o;
        };
        // 8% on 1000 × n: 1080 × n tax-inclusive.
        await order(ids.yamada, 2, '2026-07-05', 'shipped');
        await order(ids.yamada, 1, '2026-07-20', 'processed');
        await order(ids.sato, 5, '2026-07-10', 'processed');
        await order(ids.sato, 9, '2026-07-10', 'untreated');
        await order(ids.otherClient, 7, '2026-08-01', 'processed');
        await created('hodreport', round({ date: '2026-07-05', usr_id: ids.driver, team: '東ルート班' }, [
          { cl_id: ids.yamada, it_id: ids.water, delivered: 2, cash: 2160, result: 'delivered' },
        ]));
        await created('hodreport', round({ date: '2026-07-10', usr_id: ids.driver2, team: '' }, [
          { cl_id: ids.sato, it_id: ids.water, delivered: 5, collected: 0, cash: 5400, result: 'delivered' },
        ]));
        uriage = async (group) => {
          const res = await h.post<Uriage>('hod_uriage', { from: '2026-07-01', to: '2026-07-31', group });
          assert.equal(res.status, 200, res.text);
          return res.body[0];
        };
      });

      it('sums shipped and processed orders delivered in the period by customer, with the rounds', async () => {
        const u = await uriage('customer');
        assert.deepEqual(u.rows.map((r) => [r.label, r.orders, r.net, r.tax, r.total, r.delivered, r.cash]), [
          ['実績テスト佐藤医院', 1, 5000, 400, 5400, 5, 5400],
          ['実績テスト山田商店', 2, 3000, 240, 3240, 2, 2160],
        ]);
        assert.deepEqual([u.total.orders, u.total.total, u.total.delivered, u.total.cash], [3, 8640, 7, 7560]);
      });

      it('groups by staff (the customer\'s 配送担当者 / the round\'s staff) and by team', async () => {
        const staff = await uriage('staff');
        assert.deepEqual(staff.rows.map((r) => [r.label, r.total, r.delivered]), [['実績 hr-driver2', 5400, 5], ['実績 hr-driver', 3240, 2]]);
        const team = await uriage('team');
        // The second round has no team: its staff's team (西ルート班) counts.
        assert.deepEqual(team.rows.map((r) => [r.label, r.total, r.cash]), [['西ルート班', 5400, 5400], ['東ルート班', 3240, 2160]]);
        assert.equal(team.total.total, 8640);
      });

      it('refuses a bad period or grouping', async () => {
        for (const params of [{ from: '2026-07', to: '2026-07-31', group: 'team' }, { from: '2026-07-31', to: '2026-07-01', group: 'team' }, { from: '2026-07-01', to: '2026-07-31', group: 'area' }]) {
          const res = await h.post('hod_uriage', params);
          assert.equal(res.status, 400, JSON.stringify(params));
          assert.ok(problem(res).error);
        }
      });
    });
  });
}
