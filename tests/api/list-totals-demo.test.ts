/**
 * Daily use (issue 10): the money total of a filtered list (`{r}_sum`, the same WHERE as `_cnt`) and a
 * demo company that agrees with itself — every seeded order has its lines and its totals are theirs, the
 * drivers' 配送売上 are what their rounds delivered, a driver's round stays in one prefecture, and this
 * week's regular deliveries are in the 配送リスト on the first start. On every dialect.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addDays, todayJst } from '../../lib/format';
import { URIAGE_STATUSES } from '../../lib/hod/uriage';
import { RESOURCE_LIST } from '../../lib/resources';
import { lineAmount, moneyTermsOf, slipTotals } from '../../lib/money/totals';
import { feeLine } from '../../lib/orders/totals';
import type { TaxClass } from '../../lib/tax';
import { hodList } from '../../server/hod/list';
import { hodUriage } from '../../server/hod/uriage';
import { seedIfEmpty } from '../../server/seed/seed';
import { rateOn } from '../../lib/tax';
import { taxPeriods } from '../../server/tax/rates';
import { dialects, freshDatabase, useHarness, type FreshDatabase, type ParamValue } from './harness';

type Row = Record<string, string | number | null>;

describe('money totals are declared on money columns', () => {
  it('names only list columns of format money', () => {
    const declared = RESOURCE_LIST.filter((def) => def.list.totals?.length);
    assert.ok(declared.some((def) => def.name === 'order'));
    for (const def of declared) {
      for (const column of def.list.totals ?? []) {
        assert.equal(def.list.columns.find((c) => c.name === column)?.format, 'money', `${def.name}: ${column}`);
      }
    }
  });
});

for (const dialect of dialects()) {
  describe(`${dialect}: the total row of a list (_sum)`, () => {
    const h = useHarness(dialect);
    const ids = { water: 0, cup: 0 };

    const created = async (resource: string, postData: Record<string, unknown>): Promise<Row> => {
      const res = await h.post<Row>(`${resource}_save`, { postData: JSON.stringify(postData) });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const listed = async (params: Record<string, ParamValue>): Promise<Row[]> => {
      const res = await h.post<Row>('order_lst', { n: 1000, p: 1, ...params });
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const summed = async (params: Record<string, ParamValue>): Promise<Row> => {
      const res = await h.post<Row>('order_sum', params);
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const total = (rows: Row[]) => rows.reduce((sum, r) => sum + Number(r.od_uriage_total ?? 0), 0);

    before(async () => {
      ids.water = Number((await created('item', { code: 'SUM-W', name: '合計テスト天然水', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0 })).it_id);
      ids.cup = Number((await created('item', { code: 'SUM-C', name: '合計テスト紙コップ', unit: '箱', price: 330, tax_class: 'standard', stock_tracked: 0 })).it_id);
      const { abc, halfAbc } = h.fixtures.clients;
      for (const [cl_id, quantity, biko] of [[abc, 2, '合計テスト 午前'], [abc, 5, '合計テスト 午後'], [halfAbc, 3, '合計テスト 夕方'], [halfAbc, 1, '別件']] as const) {
        await created('order', { cl_id, date: '2026-06-01', delivery_fee: 0, biko, lines: [{ it_id: ids.water, quantity }, { it_id: ids.cup, quantity: 1 }] });
      }
    });

    it('sums the declared money column over exactly the rows the filters, keyword and customer select', async () => {
      const cases: Record<string, ParamValue>[] = [
        {},
        { kw: '合計テスト' },
        { cl_id: h.fixtures.clients.halfAbc },
        { postData: JSON.stringify({ uriage_total: [3000, ''] }) },
        { kw: '合計テスト', postData: JSON.stringify({ od_status: ['untreated'], created: ['2026-01-01', ''] }) },
      ];
      for (const params of cases) {
        const rows = await listed(params);
        const sum = await summed(params);
        assert.equal(Number(sum.od_uriage_total), total(rows), JSON.stringify(params));
        assert.equal(Number(sum.count), rows.length, JSON.stringify(params));
      }
      // 1,200 × 7 + 330 × 2 = 9,060 net: the three 合計テスト orders, not the 別件 one.
      const three = await listed({ kw: '合計テスト' });
      assert.equal(three.length, 3);
      assert.ok(total(three) > 9060);
    });

    it('refuses what the list refuses, and exists only where a resource declares money totals', async () => {
      const bad = await h.post<{ error: string }>('order_sum', { postData: JSON.stringify({ uriage_total: ['abc', ''] }) });
      assert.equal(bad.status, 400);
      assert.match(bad.body[0].error, /合計金額/);
      const none = await h.post<{ error: string }>('client_sum', {});
      assert.notEqual(none.status, 200);
      const serverSum = await h.post<Row>('server_sum', {});
      assert.equal(serverSum.status, 200, serverSum.text);
      assert.ok('sv_rental_fee' in serverSum.body[0]);
    });

    it('answers only to a role that may read the area', async () => {
      const res = await h.post('order_sum', {}, 'not-a-key');
      assert.equal(res.status, 401);
    });
  });

  describe(`${dialect}: the demo company`, () => {
    let fresh: FreshDatabase;
    const today = todayJst();
    let seconds = 0;

    before(async () => {
      fresh = await freshDatabase(dialect);
      const started = performance.now();
      await seedIfEmpty(fresh.database, { adminEmail: '', adminPassword: 'demo-pass-2026', seed: true }, () => undefined);
      seconds = (performance.now() - started) / 1000;
    });
    after(async () => {
      await fresh?.close();
    });

    it('seeds quickly', () => {
      assert.ok(seconds < 20, `seeding took ${seconds.toFixed(1)} s`);
    });

    it('gives every seeded order its lines, and its totals are the lines’ totals', async () => {
      const { db } = fresh.database;
      const periods = await taxPeriods(db);
      const orders = await db.selectFrom('orders').innerJoin('client', 'client.cl_id', 'orders.od_cl_id')
        .select(['od_id', 'od_date', 'od_delivery_date', 'od_status', 'od_delivery_fee', 'od_net_total', 'od_tax_total', 'od_uriage_total', 'od_number', 'cl_zei_kiri', 'cl_zei_ten', 'cl_kin_kiri'])
        .where('orders.deleted', '=', 0).execute();
      const lines = await db.selectFrom('order_detail').select(['odd_od_id', 'odd_it_id', 'odd_name', 'odd_amount', 'odd_quantity', 'odd_price', 'odd_tax_class', 'odd_tax_rate', 'odd_fee']).orderBy('odd_od_id').orderBy('odd_sort').execute();
      const byOrder = new Map<number, typeof lines>();
      for (const line of lines) byOrder.set(Number(line.odd_od_id), [...(byOrder.get(Number(line.odd_od_id)) ?? []), line]);
      assert.ok(orders.length >= 1000, `${orders.length} orders`);
      for (const o of orders) {
        const own = byOrder.get(Number(o.od_id)) ?? [];
        assert.ok(own.some((l) => l.odd_fee === 0), `order ${o.od_number} has no lines`);
        const fee = Number(o.od_delivery_fee ?? 0);
        const terms = moneyTermsOf(o);
        // The fee is the order's last line, the one its save derives (none without a fee).
        const expectedFee = fee === 0 ? [] : [feeLine(fee, rateOn(periods, 'standard', String(o.od_date)) ?? 0, terms)].map((l) => [null, l.name, l.quantity, l.price, l.amount, l.taxClass, l.taxRate]);
        assert.deepEqual(own.filter((l) => l.odd_fee === 1).map((l) => [l.odd_it_id, l.odd_name, l.odd_quantity, l.odd_price, l.odd_amount, l.odd_tax_class, l.odd_tax_rate]), expectedFee, `order ${o.od_number}'s fee line`);
        if (fee !== 0) assert.equal(own.at(-1)?.odd_fee, 1, `order ${o.od_number}'s fee line comes last`);
        const amounts = own.map((l) => ({ amount: Number(l.odd_amount), taxClass: String(l.odd_tax_class) as TaxClass, taxRate: Number(l.odd_tax_rate) }));
        for (const l of own) assert.equal(Number(l.odd_amount), lineAmount(Number(l.odd_quantity), Number(l.odd_price), terms.kinKiri));
        const expected = slipTotals(amounts, terms);
        assert.deepEqual([Number(o.od_net_total), Number(o.od_tax_total), Number(o.od_uriage_total)], [expected.net, expected.tax, expected.total], `order ${o.od_number}`);
        assert.ok(String(o.od_delivery_date) >= String(o.od_date), `order ${o.od_number} delivered before it was ordered`);
        if ((URIAGE_STATUSES as readonly string[]).includes(String(o.od_status))) assert.ok(String(o.od_delivery_date) <= today, `order ${o.od_number} shipped in the future`);
      }
    });

    it('makes each driver’s 配送売上 what their rounds delivered, one prefecture per driver', async () => {
      const { db } = fresh.database;
      const rounds = await db.selectFrom('hod_report').select(['hr_date']).where('deleted', '=', 0).orderBy('hr_date').execute();
      assert.ok(rounds.length > 0);
      const from = String(rounds[0].hr_date);
      const uriage = await hodUriage(db, from, addDays(today, -1), 'staff');
      const drivers = await db.selectFrom('user').select(['user_id', 'user_name']).where('user_role', '=', '配送').where('deleted', '=', 0).execute();
      for (const driver of drivers) {
        const row = uriage.rows.find((r) => r.key === `u${driver.user_id}`);
        assert.ok(row, `${driver.user_name} has 配送売上`);
        const stops = await db.selectFrom('hod_report_stop').innerJoin('hod_report', 'hod_report.hr_id', 'hod_report_stop.hrs_hr_id')
          .select(['hrs_cl_id', 'hrs_delivered', 'hrs_cash', 'hr_date']).where('hod_report.deleted', '=', 0).where('hr_usr_id', '=', Number(driver.user_id))
          .where('hrs_result', '=', 'delivered').execute();
        assert.ok(row.orders > 0 && row.total > 0, `${driver.user_name}: ${row.orders}件 ${row.total}円 next to ${row.delivered}本`);
        assert.equal(row.orders, stops.length, `${driver.user_name}: one delivered order per delivered stop`);
        assert.equal(row.delivered, stops.reduce((s, x) => s + Number(x.hrs_delivered), 0));
        // The bottles of the delivered orders are the bottles the stops delivered.
        const bottles = await db.selectFrom('order_detail').innerJoin('orders', 'orders.od_id', 'order_detail.odd_od_id').innerJoin('client', 'client.cl_id', 'orders.od_cl_id')
          .innerJoin('item', 'item.it_id', 'order_detail.odd_it_id')
          .select((eb) => eb.fn.sum<number>('odd_quantity').as('n'))
          .where('orders.deleted', '=', 0).where('od_status', 'in', [...URIAGE_STATUSES]).where('cl_delivery_usr_id', '=', Number(driver.user_id))
          .where('od_delivery_date', '>=', from).where('od_delivery_date', '<=', addDays(today, -1)).where('it_returnable', '=', 1)
          .executeTakeFirstOrThrow();
        assert.equal(Number(bottles.n), row.delivered, `${driver.user_name}: bottles ordered = bottles delivered`);
        // Cash is collected for the orders paid on delivery, their whole total.
        assert.ok(row.cash <= row.total);
        // One region: all of the driver's stops (past rounds and this week's list) are in one prefecture.
        const prefs = await db.selectFrom('orders').innerJoin('client', 'client.cl_id', 'orders.od_cl_id').select('od_ship_pref').distinct()
          .where('orders.deleted', '=', 0).where('cl_delivery_usr_id', '=', Number(driver.user_id)).execute();
        assert.equal(prefs.length, 1, `${driver.user_name} drives to ${prefs.map((p) => p.od_ship_pref).join('・')}`);
      }
    });

    it('has this week’s regular deliveries in the 配送リスト, generated by the generation run', async () => {
      const rows = await hodList(fresh.database.db, { fromDate: today, toDate: addDays(today, 6), team: '', userId: '', clientId: '', coName: '' });
      const regular = rows.filter((r) => r.od_hod_date !== '');
      assert.ok(regular.length >= 20, `${regular.length} regular deliveries this week`);
      assert.ok(regular.some((r) => r.user_id !== null), 'some are a driver’s');
      for (const r of rows) assert.ok(r.od_delivery_date >= today && r.od_delivery_date <= addDays(today, 6));
      const audit = await fresh.database.db.selectFrom('audit_log').select('log_call').where('log_call', '=', 'hod_generate').limit(1).execute();
      assert.equal(audit.length, 1, 'generated through hod_generate’s path (audit-logged under its call)');
    });
  });
}
