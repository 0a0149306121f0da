/**
 * Warehouses (`souko_*`) and their stock (`stock_lst`, `stock_adjust`, `stock_move_lst`), water
 * servers (`server_*`: status rules, next-due derivation, due filters), the bottle ledger
 * (`bottle_*`: running balance, negative refused, `bottle_balance`) and tax rates (`tax_*`: seeded
 * rates, overlap refused, `rateOn` / `taxRateFor` boundaries), on every dialect.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import * as v from 'valibot';
import { addDays, todayJst } from '../../lib/format';
import { MESSAGES, NAMED_MESSAGES } from '../../lib/protocol';
import { bottleResource } from '../../lib/resources/bottle';
import { RESOURCES, type ResourceName } from '../../lib/resources';
import { resourceSchema } from '../../lib/resources/schema';
import { idColumn } from '../../lib/resources/types';
import { serverResource } from '../../lib/resources/water-server';
import { rateOn, taxPeriodOf, type TaxPeriod } from '../../lib/tax';
import { DEMO_ITEMS, DEMO_WAREHOUSES, generateBottles, generateServers } from '../../server/seed/data/stock';
import { DEMO_SERVERS } from '../../server/seed/stock';
import { taxRateFor } from '../../server/tax/rates';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Problem = { error: string; fields?: Record<string, string> };

const today = todayJst();

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    let keys: { sales: string; delivery: string; accounting: string };
    const ids = { water: 0, oneway: 0, rental: 0, tokyo: 0, osaka: 0 };

    const save = (resource: string, postData: Record<string, unknown>, id?: number, key?: string) =>
      h.post<Row>(`${resource}_save`, { id, postData: JSON.stringify(postData) }, key);
    const created = async (resource: string, postData: Record<string, unknown>): Promise<Row> => {
      const res = await save(resource, postData);
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const detail = async (resource: string, id: number): Promise<Row> => (await h.post<Row>(`${resource}_dtl`, { id })).body[0];
    const problem = (res: { body: unknown[] }) => res.body[0] as Problem;
    const adjust = (sk: number, values: Record<string, unknown>, key?: string) =>
      h.post<Row>('stock_adjust', { sk_id: sk, postData: JSON.stringify(values) }, key);
    const quantity = async (sk: number, it: number): Promise<number | undefined> =>
      (await h.post<Row>('stock_lst', { sk_id: sk })).body.find((r) => r.st_it_id === it)?.st_quantity as number | undefined;

    before(async () => {
      const { sales, delivery, accounting } = h.fixtures.users;
      keys = {
        sales: await h.keyOf(sales.email, sales.password),
        delivery: await h.keyOf(delivery.email, delivery.password),
        accounting: await h.keyOf(accounting.email, accounting.password),
      };
      const item = async (code: string, name: string, extra: Record<string, unknown>) =>
        Number((await created('item', { code, name, unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 1, ...extra })).it_id);
      ids.water = await item('T-W12R', 'テスト天然水 12L', { returnable: 1, deposit: 1000 });
      ids.oneway = await item('T-W12O', 'テスト天然水 ワンウェイ', { returnable: 0 });
      ids.rental = await item('T-RENT', 'テストレンタル', { unit: '月', tax_class: 'standard', stock_tracked: 0 });
      ids.tokyo = Number((await created('souko', { code: 'T-TKY', name: 'テスト東京倉庫', pref: '東京都', tel: '03-1111-2222', manager_id: delivery.id, active: 1 })).sk_id);
      ids.osaka = Number((await created('souko', { code: 'T-OSK', name: 'テスト大阪倉庫', pref: '大阪府', active: 1 })).sk_id);
    });

    describe('warehouses (souko)', () => {
      it('souko_dtl answers the record with its manager named; the list sorts, pages and searches', async () => {
        const row = await detail('souko', ids.tokyo);
        assert.equal(row.sk_code, 'T-TKY');
        assert.equal(row.sk_manager_id, h.fixtures.users.delivery.id);
        assert.equal(row.sk_manager_id_label, '配送 次郎');
        const listed = await h.post<Row>('souko_lst', { col: 'sk_code', odr: 'desc', n: 1 });
        assert.deepEqual(listed.body.map((r) => r.sk_code), ['T-TKY']);
        assert.deepEqual((await h.post<Row>('souko_lst', { kw: '大阪' })).body.map((r) => r.sk_id), [ids.osaka]);
        assert.deepEqual((await h.post('souko_cnt', { postData: JSON.stringify({ active: ['1'] }) })).body, [2]);
        assert.equal((await h.post('souko_lst', { col: 'sk_tel' })).status, 400, 'not a sortable column');
      });

      it('refuses a duplicate or malformed code, a stale edit, and writes by 経理; 配送 may write', async () => {
        const dup = await save('souko', { code: 'T-TKY', name: '重複' });
        assert.equal(dup.status, 400);
        assert.match(problem(dup).fields!.code, /倉庫コード「T-TKY」は既に登録されています/);
        const bad = await save('souko', { code: '倉庫 1', name: '形式' });
        assert.match(problem(bad).fields!.code, /半角英数字/);
        const loaded = await detail('souko', ids.osaka);
        assert.equal((await save('souko', { note: '一回目', modified: loaded.modified }, ids.osaka)).status, 200);
        const stale = await save('souko', { note: '二回目', modified: loaded.modified }, ids.osaka);
        assert.deepEqual([stale.status, stale.body], [409, [{ error: MESSAGES.conflict }]]);
        const refused = await save('souko', { code: 'T-KEIRI', name: '経理の倉庫' }, undefined, keys.accounting);
        assert.deepEqual([refused.status, refused.body], [403, [{ error: MESSAGES.forbidden }]]);
        assert.equal((await h.post('souko_dtl', { id: ids.tokyo }, keys.accounting)).status, 200, '経理 reads');
        const byDelivery = await save('souko', { code: 'T-HAISO', name: '配送の倉庫' }, undefined, keys.delivery);
        assert.equal(byDelivery.status, 200, byDelivery.text);
        assert.equal((await h.post('souko_del', { id: byDelivery.body[0].sk_id }, keys.delivery)).status, 200);
      });

      it('mt_warehouse answers the live warehouses in use (value = id); one out of use is not offered', async () => {
        const spare = await created('souko', { code: 'T-OLD', name: 'テスト旧倉庫', active: 0 });
        const options = (await h.post<{ value: string; text: string }>('master_lst', { table: 'mt_warehouse' })).body;
        assert.deepEqual(options.find((o) => o.value === String(ids.tokyo))?.text, 'テスト東京倉庫');
        assert.ok(!options.some((o) => o.value === String(spare.sk_id)), 'a warehouse out of use is not offered');
        await h.post('souko_del', { id: spare.sk_id });
        const after = (await h.post<{ value: string }>('master_lst', { table: 'mt_warehouse' })).body;
        assert.ok(!after.some((o) => o.value === String(spare.sk_id)), 'a deleted warehouse is not offered');
      });
    });

    describe('stock', () => {
      it('adjusts by 入庫, 出庫 and 棚卸調整, each a movement with who and why, audit-logged', async () => {
        const first = await adjust(ids.tokyo, { it_id: ids.water, kind: 'in', quantity: '１２０', reason: '仕入' });
        assert.equal(first.status, 200, first.text);
        assert.equal(first.body[0].st_quantity, 120, 'full-width digits are read');
        assert.equal((await adjust(ids.tokyo, { it_id: ids.water, kind: 'out', quantity: 20, reason: '配送出荷' }, keys.delivery)).body[0].st_quantity, 100);
        assert.equal((await adjust(ids.tokyo, { it_id: ids.water, kind: 'count', quantity: 97, reason: '月末棚卸' })).body[0].st_quantity, 97);
        assert.equal(await quantity(ids.tokyo, ids.water), 97);
        const moves = (await h.post<Row>('stock_move_lst', { sk_id: ids.tokyo })).body;
        assert.deepEqual(moves.map((m) => [m.sm_kind, m.sm_quantity, m.sm_before, m.sm_after, m.sm_reason]), [
          ['count', -3, 100, 97, '月末棚卸'],
          ['out', -20, 120, 100, '配送出荷'],
          ['in', 120, 0, 120, '仕入'],
        ]);
        assert.equal(moves[1].user_name, '配送 次郎');
        assert.equal(moves[0].it_name, 'テスト天然水 12L');
        const paged = (await h.post<Row>('stock_move_lst', { it_id: ids.water, n: 1, p: 2 })).body;
        assert.deepEqual(paged.map((m) => m.sm_kind), ['out']);
        const stockId = first.body[0].st_id as number;
        const log = await h.database.db.selectFrom('audit_log').selectAll().where('log_table', '=', 'stock').where('log_record_id', '=', stockId).orderBy('log_id').execute();
        assert.equal(log.length, 3);
        assert.deepEqual((JSON.parse(log[2].log_changes) as Record<string, unknown>).st_quantity, [100, 97]);
        assert.equal(log[1].log_user_id, h.fixtures.users.delivery.id);
        assert.equal(log[1].log_call, 'stock_adjust');
      });

      it('never goes below zero: the refusal names the shortage and changes nothing', async () => {
        const before = (await h.post<Row>('stock_move_lst', { sk_id: ids.tokyo, n: 100 })).body.length;
        const res = await adjust(ids.tokyo, { it_id: ids.water, kind: 'out', quantity: 98, reason: '出しすぎ' });
        assert.equal(res.status, 400);
        assert.match(problem(res).error, /在庫が足りません（テスト東京倉庫の「テスト天然水 12L」は 97本、出庫 98本）/);
        assert.ok(problem(res).fields!.quantity);
        assert.equal(await quantity(ids.tokyo, ids.water), 97);
        assert.equal((await h.post<Row>('stock_move_lst', { sk_id: ids.tokyo, n: 100 })).body.length, before);
        const none = await adjust(ids.osaka, { it_id: ids.oneway, kind: 'out', quantity: 1, reason: '在庫なし' });
        assert.equal(none.status, 400);
        assert.equal(await quantity(ids.osaka, ids.oneway), undefined, 'no row is left behind');
      });

      it('refuses bad input with Japanese messages naming the field, and 経理 (配送 may)', async () => {
        const cases: [Record<string, unknown>, string, RegExp][] = [
          [{ it_id: ids.water, kind: 'move', quantity: 1, reason: 'x' }, 'kind', /区分の選択肢にない値/],
          [{ it_id: ids.water, kind: 'in', quantity: 0, reason: 'x' }, 'quantity', /入庫の数量は1以上/],
          [{ it_id: ids.water, kind: 'in', quantity: -5, reason: 'x' }, 'quantity', /数量は0以上/],
          [{ it_id: ids.water, kind: 'in', quantity: 1.5, reason: 'x' }, 'quantity', /数量は整数/],
          [{ it_id: ids.water, kind: 'in', quantity: 1 }, 'reason', /理由を入力してください/],
          [{ kind: 'in', quantity: 1, reason: 'x' }, 'it_id', /商品を選択してください/],
          [{ it_id: 999999, kind: 'in', quantity: 1, reason: 'x' }, 'it_id', /商品が見つかりません/],
          [{ it_id: ids.rental, kind: 'in', quantity: 1, reason: 'x' }, 'it_id', /在庫管理しない商品/],
        ];
        for (const [values, field, message] of cases) {
          const res = await adjust(ids.osaka, values);
          assert.equal(res.status, 400, JSON.stringify(values));
          assert.match(problem(res).fields![field], message, res.text);
        }
        assert.equal((await h.post('stock_adjust', { postData: '{}' })).status, 400, 'no warehouse');
        assert.equal((await h.post('stock_adjust', { sk_id: ids.osaka, postData: '{broken' })).status, 400);
        assert.equal((await adjust(999999, { it_id: ids.water, kind: 'in', quantity: 1, reason: 'x' })).status, 404);
        const keiri = await adjust(ids.osaka, { it_id: ids.water, kind: 'in', quantity: 5, reason: '経理' }, keys.accounting);
        assert.deepEqual([keiri.status, keiri.body], [403, [{ error: MESSAGES.forbidden }]]);
        assert.equal((await h.post('stock_lst', { sk_id: ids.osaka }, keys.accounting)).status, 200, '経理 reads stock');
        assert.equal((await h.post('stock_lst', {})).status, 400, 'a warehouse or an item');
        assert.equal((await h.post('stock_lst', { sk_id: ids.osaka, it_id: ids.water })).status, 400, 'not both');
        assert.equal((await h.post('stock_move_lst', { sk_id: ids.osaka, n: 0 })).status, 400);
      });

      it('answers an item\'s stock per warehouse', async () => {
        await adjust(ids.osaka, { it_id: ids.water, kind: 'in', quantity: 40, reason: '移管' });
        const rows = (await h.post<Row>('stock_lst', { it_id: ids.water })).body;
        assert.deepEqual(rows.map((r) => [r.sk_name, r.st_quantity]), [['テスト大阪倉庫', 40], ['テスト東京倉庫', 97]]);
      });

      it('refuses to delete a warehouse or an item with stock on hand, and a warehouse customers ship from', async () => {
        const warehouse = await h.post('souko_del', { id: ids.osaka });
        assert.equal(warehouse.status, 400);
        assert.match(problem(warehouse).error, /この倉庫には在庫が残っているため削除できません（テスト天然水 12L 40本）/);
        const item = await h.post('item_del', { id: ids.water });
        assert.equal(item.status, 400);
        assert.match(problem(item).error, /この商品は在庫が残っているため削除できません（テスト大阪倉庫 40本、テスト東京倉庫 97本）/);
        assert.equal((await detail('item', ids.water)).it_id, ids.water, 'still there');

        const spare = Number((await created('souko', { code: 'T-SPARE', name: 'テスト予備倉庫' })).sk_id);
        const customer = await detail('client', h.fixtures.clients.percent);
        await save('client', { sk_id: String(spare), modified: customer.modified }, h.fixtures.clients.percent);
        const shipping = await h.post('souko_del', { id: spare });
        assert.match(problem(shipping).error, /顧客（1件）の「出荷倉庫」に使われているため削除できません/);
        const again = await detail('client', h.fixtures.clients.percent);
        await save('client', { sk_id: '', modified: again.modified }, h.fixtures.clients.percent);
        assert.equal((await h.post('souko_del', { id: spare })).status, 200);

        const emptied = Number((await created('souko', { code: 'T-EMPTY', name: 'テスト空倉庫' })).sk_id);
        await adjust(emptied, { it_id: ids.oneway, kind: 'in', quantity: 3, reason: '仕入' });
        assert.equal((await h.post('souko_del', { id: emptied })).status, 400);
        await adjust(emptied, { it_id: ids.oneway, kind: 'count', quantity: 0, reason: '棚卸で在庫なし' });
        assert.equal((await h.post('souko_del', { id: emptied })).status, 200, 'no stock left: deletable');
      });
    });

    describe('water servers', () => {
      const base = { model: 'AQ-01', rental_fee: 1100 };

      it('applies the status rules to the form and to a partial update', async () => {
        const cases: [Record<string, unknown>, Record<string, RegExp>][] = [
          [{ status: 'installed' }, { cl_id: /設置中」のときは設置先顧客を選択/, install_date: /設置中」のときは設置日を入力/ }],
          [{ status: 'stock' }, { sk_id: /在庫」のときは保管倉庫を選択/ }],
          [{ status: 'stock', sk_id: ids.tokyo, cl_id: h.fixtures.clients.abc }, { cl_id: /在庫」のサーバーには設置先顧客を設定できません/ }],
          [{ status: 'disposed', cl_id: h.fixtures.clients.abc }, { cl_id: /廃棄したサーバーは設置できません/ }],
          [{ status: 'installed', cl_id: h.fixtures.clients.abc, install_date: '2025-05-01', last_maintenance_date: '2025-04-01' }, { last_maintenance_date: /設置日以降/ }],
        ];
        for (const [values, fields] of cases) {
          const res = await save('server', { ...base, serial_no: 'T-RULE-1', ...values });
          assert.equal(res.status, 400, JSON.stringify(values));
          for (const [field, message] of Object.entries(fields)) assert.match(problem(res).fields![field], message, res.text);
        }
        const installed = await created('server', { ...base, serial_no: 'T-RULE-2', status: 'installed', cl_id: h.fixtures.clients.abc, install_date: '2025-05-01' });
        const id = Number(installed.sv_id);
        const partial = await save('server', { status: 'stock', modified: installed.modified }, id);
        assert.equal(partial.status, 400, 'the stored customer counts');
        assert.match(problem(partial).fields!.cl_id, /在庫」のサーバーには設置先顧客/);
        const dropped = await save('server', { cl_id: '', modified: installed.modified }, id);
        assert.match(problem(dropped).fields!.cl_id, /設置中」のときは設置先顧客を選択/);
        const disposed = await save('server', { status: 'disposed', cl_id: '', modified: installed.modified }, id);
        assert.equal(disposed.status, 200, disposed.text);
        assert.equal(disposed.body[0].sv_next_due_date, '', 'no maintenance due for a disposed server');
        const back = await save('server', { status: 'installed', cl_id: h.fixtures.clients.abc, modified: disposed.body[0].modified }, id);
        assert.equal(back.status, 400);
        assert.match(problem(back).fields!.status, /廃棄したサーバーは在庫・設置・メンテナンスに戻せません/);
        const dup = await save('server', { ...base, serial_no: 'T-RULE-2', status: 'stock', sk_id: ids.tokyo });
        assert.match(problem(dup).fields!.serial_no, /製造番号「T-RULE-2」は既に登録されています/);
      });

      it('derives the next due date a year after the last maintenance or the installation', async () => {
        const installedOnly = await created('server', { ...base, serial_no: 'T-DUE-1', status: 'installed', cl_id: h.fixtures.clients.abc, install_date: '2024-02-29' });
        assert.equal(installedOnly.sv_next_due_date, '2025-02-28', 'a leap day becomes 28 February');
        const id = Number(installedOnly.sv_id);
        const customerDelete = await h.post('client_del', { id: h.fixtures.clients.abc });
        assert.equal(customerDelete.status, 400);
        assert.match(problem(customerDelete).error, /サーバー（1件）の「設置先顧客」(、.+)?に使われているため削除できません/);
        const maintained = await save('server', { last_maintenance_date: '2025-03-10', modified: installedOnly.modified }, id);
        assert.equal(maintained.body[0].sv_next_due_date, '2026-03-10', 'a derived date follows the new maintenance');
        const byHand = await save('server', { next_due_date: '2026-01-15', modified: maintained.body[0].modified }, id);
        assert.equal(byHand.body[0].sv_next_due_date, '2026-01-15');
        const kept = await save('server', { last_maintenance_date: '2025-04-01', modified: byHand.body[0].modified }, id);
        assert.equal(kept.body[0].sv_next_due_date, '2026-01-15', 'a date set by hand stays');
        const cleared = await save('server', { next_due_date: '', modified: kept.body[0].modified }, id);
        assert.equal(cleared.body[0].sv_next_due_date, '2026-04-01', 'emptied: derived again');
        const inStock = await created('server', { ...base, serial_no: 'T-DUE-2', status: 'stock', sk_id: ids.tokyo });
        assert.equal(inStock.sv_next_due_date, '', 'nothing to derive from');
        assert.equal(inStock.sv_sk_id_label, 'テスト東京倉庫');
      });

      it('filters by the メンテ期限 windows relative to today and by a due-date range', async () => {
        const install = (serial: string, due: string) =>
          created('server', { ...base, serial_no: serial, status: 'installed', cl_id: h.fixtures.clients.halfAbc, install_date: '2020-01-01', next_due_date: due });
        const overdue = Number((await install('T-WIN-OVER', addDays(today, -1))).sv_id);
        const dueToday = Number((await install('T-WIN-TODAY', today)).sv_id);
        const soon = Number((await install('T-WIN-30', addDays(today, 30))).sv_id);
        const later = Number((await install('T-WIN-31', addDays(today, 31))).sv_id);
        const pick = async (filters: Record<string, unknown>) => {
          const res = await h.post<Row>('server_lst', { kw: 't-win', n: 100, col: 'sv_next_due_date', odr: 'asc', postData: JSON.stringify(filters) });
          assert.equal(res.status, 200, res.text);
          return res.body.map((r) => Number(r.sv_id));
        };
        assert.deepEqual(await pick({ due: 'overdue' }), [overdue]);
        assert.deepEqual(await pick({ due: 'soon' }), [dueToday, soon]);
        assert.deepEqual(await pick({ due: [addDays(today, 30), addDays(today, 31)] }), [soon, later], 'a range already resolved by the client');
        assert.deepEqual(await pick({ next_due_date: [addDays(today, -1), ''] }), [overdue, dueToday], 'a date range ends today when open');
        assert.deepEqual(await pick({ next_due_date: [addDays(today, 31), addDays(today, 400)] }), [later]);
        assert.deepEqual(await pick({ due: 'soon', status: ['installed'] }), [dueToday, soon]);
        assert.deepEqual((await h.post('server_cnt', { kw: 't-win', postData: JSON.stringify({ due: 'overdue' }) })).body, [1]);
        const bad = await h.post('server_lst', { postData: JSON.stringify({ due: 'someday' }) });
        assert.deepEqual([bad.status, bad.body], [400, [{ error: NAMED_MESSAGES.badFilterValue('メンテ期限') }]]);
        const customer = (await h.post<Row>('server_lst', { cl_id: h.fixtures.clients.halfAbc, n: 100 })).body;
        assert.equal(customer.length, 4, 'a customer\'s servers (the customer detail tab)');
      });

      it('lets 配送 write servers and refuses 経理', async () => {
        assert.equal((await save('server', { ...base, serial_no: 'T-ROLE-1', status: 'stock', sk_id: ids.tokyo }, undefined, keys.delivery)).status, 200);
        assert.equal((await save('server', { ...base, serial_no: 'T-ROLE-2', status: 'stock', sk_id: ids.tokyo }, undefined, keys.accounting)).status, 403);
      });
    });

    describe('bottle ledger', () => {
      const customer = () => h.fixtures.clients.contract;
      const move = (move_date: string, delivered: number, collected: number, extra: Record<string, unknown> = {}) =>
        save('bottle', { cl_id: customer(), it_id: ids.water, move_date, delivered, collected, ...extra });
      const ledger = async () =>
        (await h.post<Row>('bottle_lst', { cl_id: customer(), n: 100, col: 'bt_move_date', odr: 'asc' })).body.map((r) => [r.bt_move_date, r.bt_held]);

      it('computes 預け本数 in date order when movements are added, edited and deleted', async () => {
        const first = await move('2026-04-01', 4, 0, { note: '初回お届け' });
        assert.equal(first.status, 200, first.text);
        assert.equal(first.body[0].bt_held, 4);
        assert.equal(first.body[0].bt_it_id_label, 'テスト天然水 12L');
        const second = await move('2026-05-01', 3, 2);
        assert.equal(second.body[0].bt_held, 5);
        const third = await move('2026-06-01', 2, 3);
        assert.equal(third.body[0].bt_held, 4);
        // An earlier movement, added later, shifts every balance after it.
        const early = await move('2026-03-15', 2, 0);
        assert.equal(early.body[0].bt_held, 2);
        assert.deepEqual(await ledger(), [['2026-03-15', 2], ['2026-04-01', 6], ['2026-05-01', 7], ['2026-06-01', 6]]);
        // Editing it re-computes the later ones (and its own answer).
        const edited = await save('bottle', { delivered: 1, modified: early.body[0].modified }, Number(early.body[0].bt_id));
        assert.equal(edited.body[0].bt_held, 1);
        assert.deepEqual(await ledger(), [['2026-03-15', 1], ['2026-04-01', 5], ['2026-05-01', 6], ['2026-06-01', 5]]);
        // Moving it after the others re-orders the balance.
        const moved = await save('bottle', { move_date: '2026-07-01', modified: edited.body[0].modified }, Number(early.body[0].bt_id));
        assert.equal(moved.body[0].bt_held, 5);
        assert.deepEqual(await ledger(), [['2026-04-01', 4], ['2026-05-01', 5], ['2026-06-01', 4], ['2026-07-01', 5]]);
        // Deleting it re-computes too.
        assert.equal((await h.post('bottle_del', { id: early.body[0].bt_id })).status, 200);
        assert.deepEqual(await ledger(), [['2026-04-01', 4], ['2026-05-01', 5], ['2026-06-01', 4]]);
        const balance = (await h.post<Row>('bottle_balance', { cl_id: customer() })).body;
        assert.deepEqual(balance, [{ bt_it_id: ids.water, it_name: 'テスト天然水 12L', bt_held: 4, deposit_total: 4000, last_date: '2026-06-01' }]);
        const log = await h.database.db.selectFrom('audit_log').selectAll().where('log_table', '=', 'bottle').where('log_record_id', '=', Number(third.body[0].bt_id)).execute();
        assert.ok(log.some((l) => (JSON.parse(l.log_changes) as Record<string, unknown>).bt_held !== undefined), 'balance changes are audit-logged');
      });

      it('refuses a movement that would make any balance negative, changing nothing', async () => {
        const before = await ledger();
        const tooMany = await move('2026-06-15', 0, 5);
        assert.equal(tooMany.status, 400);
        assert.match(problem(tooMany).fields!.collected, /2026-06-15 の時点で預け本数が -1 本になるため/);
        const early = await move('2026-03-01', 0, 1);
        assert.match(problem(early).error, /2026-03-01 の時点で預け本数が -1 本/);
        // Collect every bottle: the balance is 0, so the first delivery can no longer go.
        const all = await move('2026-06-10', 0, 4);
        assert.equal(all.body[0].bt_held, 0, all.text);
        const firstRow = (await h.post<Row>('bottle_lst', { cl_id: customer(), col: 'bt_move_date', odr: 'asc', n: 1 })).body[0];
        const removed = await h.post('bottle_del', { id: firstRow.bt_id });
        assert.equal(removed.status, 400, 'deleting the first delivery would leave a later balance negative');
        assert.match(problem(removed).error, /2026-06-10 の時点で預け本数が -4 本/);
        const lowered = await save('bottle', { delivered: 1, modified: firstRow.modified }, Number(firstRow.bt_id));
        assert.equal(lowered.status, 400);
        assert.match(problem(lowered).error, /2026-06-10 の時点で預け本数が -3 本/);
        assert.equal((await detail('bottle', Number(firstRow.bt_id))).bt_delivered, 4, 'unchanged');
        assert.equal((await h.post('bottle_del', { id: all.body[0].bt_id })).status, 200);
        assert.deepEqual(await ledger(), before);
        assert.equal((await h.post('bottle_cnt', { cl_id: customer() })).body[0], before.length);
      });

      it('keeps each customer × item apart, and re-computes both when a movement changes customer', async () => {
        const other = h.fixtures.clients.underscore;
        const own = await save('bottle', { cl_id: other, it_id: ids.water, move_date: '2026-05-10', delivered: 3, collected: 0 });
        assert.equal(own.body[0].bt_held, 3);
        const last = (await h.post<Row>('bottle_lst', { cl_id: customer(), n: 1 })).body[0];
        assert.equal(last.bt_move_date, '2026-06-01');
        const transferred = await save('bottle', { cl_id: other, modified: last.modified }, Number(last.bt_id));
        assert.equal(transferred.status, 200, transferred.text);
        assert.equal(transferred.body[0].bt_held, 2, 'other: 3, then +2 −3');
        assert.deepEqual((await h.post<Row>('bottle_balance', { cl_id: customer() })).body.map((b) => b.bt_held), [5]);
        assert.deepEqual((await h.post<Row>('bottle_balance', { cl_id: other })).body.map((b) => b.bt_held), [2]);
      });

      it('refuses a non-returnable item, an empty movement, and 経理; 配送 may write', async () => {
        const oneway = await save('bottle', { cl_id: customer(), it_id: ids.oneway, move_date: '2026-06-20', delivered: 1 });
        assert.match(problem(oneway).fields!.it_id, /リターナブルボトルの商品ではありません/);
        const empty = await save('bottle', { cl_id: customer(), it_id: ids.water, move_date: '2026-06-20' });
        assert.match(problem(empty).fields!.delivered, /お届け本数か空ボトル回収本数を入力してください/);
        const missing = await save('bottle', { it_id: ids.water, move_date: '2026-06-20', delivered: 1 });
        assert.match(problem(missing).fields!.cl_id, /顧客を選択してください/);
        const keiri = await save('bottle', { cl_id: customer(), it_id: ids.water, move_date: '2026-06-20', delivered: 1 }, undefined, keys.accounting);
        assert.equal(keiri.status, 403);
        // The deposit is derived (read-only): a sent one is not taken.
        const refund = await save('bottle', { cl_id: customer(), it_id: ids.water, move_date: '2026-06-20', collected: 1, deposit: 5, note: '解約で1本返却' }, undefined, keys.delivery);
        assert.equal(refund.status, 200, refund.text);
        assert.equal(refund.body[0].bt_held, 4);
        assert.equal(refund.body[0].bt_deposit, -1000, '1 bottle back × the item\'s 1,000円');
        const options = (await h.post<{ value: string }>('master_lst', { table: 'mt_returnable_item' })).body.map((o) => o.value);
        assert.deepEqual(options, [String(ids.water)]);
        const held = await h.post('bottle_save', { id: refund.body[0].bt_id, postData: JSON.stringify({ held: 99, note: '預け本数は書けない', modified: refund.body[0].modified }) });
        assert.equal((held.body[0] as Row).bt_held, 4, '預け本数 is the server\'s');
      });
    });

    describe('every resource of the area', () => {
      it('refuses a stale edit (409) and an unknown sort column, and deletes softly', async () => {
        const records: [ResourceName, Record<string, unknown>, Record<string, unknown>][] = [
          ['souko', { code: 'T-CONF', name: '競合テスト倉庫' }, { note: '後から' }],
          ['server', { serial_no: 'T-CONF', model: 'AQ-02', status: 'stock', sk_id: ids.tokyo }, { note: '後から' }],
          ['bottle', { cl_id: h.fixtures.clients.halfAbc, it_id: ids.water, move_date: '2026-01-05', delivered: 2 }, { note: '後から' }],
          ['tax', { tax_class: 'reduced', rate: 3, valid_from: '1970-01-01', valid_to: '1970-12-31', label: '競合テスト' }, { note: '後から' }],
        ];
        for (const [resource, values, change] of records) {
          const row = await created(resource, values);
          const id = Number(row[idColumn(RESOURCES[resource])]);
          assert.equal((await save(resource, { note: '先に', modified: row.modified }, id)).status, 200, resource);
          const stale = await save(resource, { ...change, modified: row.modified }, id);
          assert.deepEqual([stale.status, stale.body], [409, [{ error: MESSAGES.conflict }]], resource);
          assert.equal((await h.post(`${resource}_lst`, { col: 'nope' })).status, 400, resource);
          assert.equal((await h.post(`${resource}_del`, { id })).status, 200, resource);
          assert.equal((await h.post(`${resource}_dtl`, { id })).status, 404, resource);
        }
      });
    });

    describe('tax rates', () => {
      const periods = async (): Promise<TaxPeriod[]> =>
        (await h.post<Row>('tax_lst', { n: 100, col: 'tx_valid_from', odr: 'asc' })).body.flatMap((r) => taxPeriodOf(r) ?? []);

      it('are seeded with the Japanese rates since 1989', async () => {
        assert.deepEqual((await periods()).map((p) => [p.taxClass, p.rate, p.validFrom, p.validTo]), [
          ['standard', 3, '1989-04-01', '1997-03-31'],
          ['standard', 5, '1997-04-01', '2014-03-31'],
          ['standard', 8, '2014-04-01', '2019-09-30'],
          ['standard', 10, '2019-10-01', ''],
          ['reduced', 8, '2019-10-01', ''],
        ]);
        assert.deepEqual((await h.post<Row>('tax_lst', { kw: '軽減' })).body.map((r) => r.tx_rate), [8]);
      });

      it('rateOn and taxRateFor agree on the day before and the day of each change', async () => {
        const rates = await periods();
        const cases: [string, string, number | undefined][] = [
          ['standard', '1989-03-31', undefined], ['standard', '1989-04-01', 3],
          ['standard', '1997-03-31', 3], ['standard', '1997-04-01', 5],
          ['standard', '2014-03-31', 5], ['standard', '2014-04-01', 8],
          ['standard', '2019-09-30', 8], ['standard', '2019-10-01', 10],
          ['reduced', '1997-03-31', 3], ['reduced', '1997-04-01', 5], ['reduced', '2014-03-31', 5],
          ['reduced', '2019-09-30', 8], ['reduced', '2019-10-01', 8], ['reduced', today, 8], ['standard', today, 10],
          ['exempt', '2019-10-01', 0], ['exempt', '1980-01-01', 0],
        ];
        for (const [taxClass, date, expected] of cases) {
          const cls = taxClass as 'standard' | 'reduced' | 'exempt';
          assert.equal(rateOn(rates, cls, date), expected, `rateOn ${taxClass} ${date}`);
          assert.equal(await taxRateFor(h.database.db, cls, date), expected, `taxRateFor ${taxClass} ${date}`);
        }
      });

      it('refuses periods of one class that overlap; a future rate goes in after closing the current one', async () => {
        const overlap = await save('tax', { tax_class: 'standard', rate: 12, valid_from: '2030-04-01', label: '標準税率 12%' });
        assert.equal(overlap.status, 400);
        assert.match(problem(overlap).fields!.valid_from, /登録済みの標準税率「標準税率 10%」（2019-10-01〜）と重なっています/);
        const inside = await save('tax', { tax_class: 'standard', rate: 4, valid_from: '1990-01-01', valid_to: '1990-12-31', label: '重複' });
        assert.match(problem(inside).error, /消費税 3%/);
        const reversed = await save('tax', { tax_class: 'reduced', rate: 6, valid_from: '2031-04-01', valid_to: '2031-03-31', label: '逆順' });
        assert.match(problem(reversed).fields!.valid_to, /適用終了日は適用開始日以降/);

        const current = (await h.post<Row>('tax_lst', { kw: '標準税率 10%' })).body[0];
        const loaded = await detail('tax', Number(current.tx_id));
        const closed = await save('tax', { valid_to: '2030-03-31', modified: loaded.modified }, Number(current.tx_id));
        assert.equal(closed.status, 200, closed.text);
        const future = await save('tax', { tax_class: 'standard', rate: 12, valid_from: '2030-04-01', label: '標準税率 12%' });
        assert.equal(future.status, 200, future.text);
        assert.equal(await taxRateFor(h.database.db, 'standard', '2030-03-31'), 10);
        assert.equal(await taxRateFor(h.database.db, 'standard', '2030-04-01'), 12);
        assert.equal(await taxRateFor(h.database.db, 'reduced', '2030-04-01'), 8, 'the reduced rate runs on');
        const reopen = await save('tax', { valid_to: '', modified: closed.body[0].modified }, Number(current.tx_id));
        assert.equal(reopen.status, 400, 'would overlap the future rate');
        assert.equal((await h.post('tax_del', { id: future.body[0].tx_id })).status, 200);
        assert.equal((await save('tax', { valid_to: '', modified: closed.body[0].modified }, Number(current.tx_id))).status, 200);
        assert.equal(await taxRateFor(h.database.db, 'standard', '2030-04-01'), 10);
      });

      it('are written by the system area only: 経理 and 配送 read', async () => {
        const values = { tax_class: 'reduced', rate: 6, valid_from: '1980-01-01', valid_to: '1980-12-31', label: '架空' };
        assert.equal((await save('tax', values, undefined, keys.accounting)).status, 403);
        assert.equal((await save('tax', values, undefined, keys.delivery)).status, 403);
        assert.equal((await h.post('tax_lst', {}, keys.accounting)).status, 200);
        const bad = await save('tax', { tax_class: 'luxury', rate: 150, valid_from: '2030-02-30', label: '' });
        assert.equal(bad.status, 400);
        const fields = problem(bad).fields!;
        assert.match(fields.tax_class, /選択肢にない/);
        assert.match(fields.rate, /100以下/);
        assert.match(fields.valid_from, /YYYY-MM-DD/);
        assert.match(fields.label, /表示名を入力/);
      });
    });
  });
}

describe('demo data of the stock area', () => {
  const day = '2026-11-22';
  const customers = Array.from({ length: 320 }, (_, i) => ({ id: i + 1, status: i % 6 === 5 ? '9' : '1' }));
  const servers = generateServers(customers, [1, 2, 3], day, DEMO_SERVERS);
  const issues = (schema: ReturnType<typeof resourceSchema>, record: object) =>
    v.safeParse(schema, record).issues?.map((i) => `${String(i.path?.[0]?.key)} ${i.message}`).join(', ');

  it('every generated server passes the server form, with its status rules, and a derived due date', () => {
    const schema = resourceSchema(serverResource);
    for (const server of servers) assert.equal(issues(schema, server), undefined, server.serial_no);
    assert.equal(new Set(servers.map((s) => s.serial_no)).size, servers.length, 'serial numbers are unique');
    const installed = servers.filter((s) => s.status === 'installed');
    assert.ok(installed.length > servers.length * 0.7, 'most are installed');
    assert.ok(installed.every((s) => customers.find((c) => c.id === s.cl_id)?.status === '1'), 'at active customers');
    assert.ok(installed.some((s) => s.next_due_date < day) && installed.some((s) => s.next_due_date >= day && s.next_due_date <= addDays(day, 30)), 'overdue and soon due ones');
    assert.ok(['stock', 'maintenance', 'disposed'].every((status) => servers.some((s) => s.status === status)));
  });

  it('every generated bottle movement passes the bottle form; balances run and never go negative', () => {
    const since = [...new Map(servers.filter((s) => s.status === 'installed').map((s) => [Number(s.cl_id), s.install_date])).entries()];
    const bottles = generateBottles(since.map(([cl_id, date]) => ({ cl_id, since: date })), [{ id: 1, deposit: 1000 }], day);
    assert.ok(bottles.length > 100);
    const schema = resourceSchema(bottleResource);
    const held = new Map<number, number>();
    for (const b of bottles) {
      assert.equal(issues(schema, b), undefined, JSON.stringify(b));
      const next = (held.get(b.cl_id) ?? 0) + b.delivered - b.collected;
      assert.equal(b.held, next, `${b.cl_id} ${b.move_date}`);
      assert.ok(next >= 0);
      if (!held.has(b.cl_id)) assert.equal(b.deposit, b.delivered * 1000, 'the first delivery takes the deposit');
      held.set(b.cl_id, next);
      assert.ok(b.move_date <= day);
    }
  });

  it('demo warehouses and items are valid records', () => {
    for (const w of DEMO_WAREHOUSES) assert.equal(issues(resourceSchema(RESOURCES.souko), w), undefined, w.code);
    for (const i of DEMO_ITEMS) assert.equal(issues(resourceSchema(RESOURCES.item), i), undefined, i.code);
    assert.ok(DEMO_ITEMS.some((i) => i.returnable === 1 && i.tax_class === 'reduced'), 'returnable water at the reduced rate');
  });
});
