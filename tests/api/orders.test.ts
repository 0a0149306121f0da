/**
 * Orders (issue 4): the save of an order with its lines in one transaction (prices by the
 * customer's 単価区分/掛率, tax class and rate fixed at the order date, totals per rate with each
 * rounding setting, negative lines, delivery fee, shipping defaults, stale edits), `order_detail_lst`,
 * copy, the status moves of `order_status` (every transition allowed and refused, tracking number,
 * stock out and back, credit-limit hold, bulk per-order answers, audit rows) and the list filters,
 * on every dialect.
 */
import assert from 'node:assert/strict';
import type { Kysely } from 'kysely';
import { before, describe, it } from 'node:test';
import { addDays, todayJst } from '../../lib/format';
import { movedText, TRANSITIONS, type StatusResult } from '../../lib/orders/status';
import { divideRounded } from '../../lib/money/rounding';
import { ORDER_STATUS, type OrderStatus } from '../../lib/resources/order';
import { deliveryFeeFor } from '../../server/system/delivery-fee';
import { addFeeLines } from '../../server/db/migrations/0046-order-fee-line';
import { moneyTermsOf, slipTotals } from '../../lib/money/totals';
import { taxClassOf } from '../../lib/tax';
import { dialects, resourceCalls, useHarness } from './harness';

type Row = Record<string, string | number | null>;

const today = todayJst();

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const ids = { water: 0, odd: 0, rental: 0, deposit: 0, discount: 0, tokyo: 0, plain: 0, kake: 0, credit: 0 };

    const { save, created, problem } = resourceCalls(h);
    const detail = async (id: number): Promise<Row> => (await h.post<Row>('order_dtl', { id })).body[0];
    const lines = async (id: number): Promise<Row[]> => (await h.post<Row>('order_detail_lst', { od_id: id })).body;
    const quantity = async (it: number): Promise<number> =>
      Number((await h.post<Row>('stock_lst', { sk_id: ids.tokyo })).body.find((r) => r.st_it_id === it)?.st_quantity ?? 0);
    const move = (id: number, status: OrderStatus, tracking = '') => h.post<Row>('order_status', { od_id: id, status, tracking_no: tracking, reason: status === 'pending' ? '確認待ち' : '' });
    const newOrder = async (cl: number, orderLines: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
      created('order', { cl_id: cl, date: today, sk_id: String(ids.tokyo), delivery_fee: 0, lines: orderLines, ...extra });
    /** Walks an order to a status by allowed moves. */
    const walk = async (id: number, path: OrderStatus[]) => {
      for (const status of path) {
        const res = await move(id, status, '4321-0000-1115');
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].status, status, JSON.stringify(res.body));
      }
    };

    before(async () => {
      const item = async (code: string, name: string, extra: Record<string, unknown>) =>
        Number((await created('item', { code, name, unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, ...extra })).it_id);
      ids.water = await item('O-W12', '受注テスト天然水 12L', { stock_tracked: 1 });
      ids.odd = await item('O-ODD', '受注テスト端数水', { price: 1199 });
      ids.rental = await item('O-RENT', '受注テストレンタル', { price: 1100, tax_class: 'standard', unit: '月' });
      ids.deposit = await item('O-DEP', '受注テスト保証金', { price: 1000, tax_class: 'exempt', unit: '個' });
      ids.discount = await item('O-DISC', '受注テスト値引き', { price: -333, tax_class: 'standard', unit: '式' });
      ids.tokyo = Number((await created('souko', { code: 'O-TKY', name: '受注テスト倉庫', pref: '東京都', active: 1 })).sk_id);
      const stocked = await h.post('stock_adjust', { sk_id: ids.tokyo, postData: JSON.stringify({ it_id: ids.water, kind: 'in', quantity: 10, reason: '初期在庫' }) });
      assert.equal(stocked.status, 200, stocked.text);
      const client = async (values: Record<string, unknown>) =>
        Number((await created('client', { status: '1', tel_1: '03-1234-5678', ...values })).cl_id);
      ids.plain = await client({
        co_name: '受注テスト商事', name: '受注 一郎', zipcode: '100-0001', pref: '東京都', city: '千代田区', address: '千代田1-1',
        kin_kiri: '0', zei_kiri: '0', tanka_type: '1', sk_id: String(ids.tokyo), pm_id: '1',
      });
      ids.kake = await client({
        co_name: '掛率テスト商店', name: '掛率 花子', pref: '東京都', city: '港区',
        shipping_co_name: '掛率テスト 大阪支店', shipping_name: '配送 太郎', shipping_pref: '大阪府', shipping_city: '大阪市北区', shipping_address: '梅田1-1', shipping_tel: '06-1111-2222',
        tanka_type: '2', kake_ritu: 85, kin_kiri: '1', zei_kiri: '2',
      });
      ids.credit = await client({ co_name: '与信テスト株式会社', pref: '東京都', yoshin_gendo: 10000 });
      await h.database.db.updateTable('client').set({ cl_uri_zan: 8000 }).where('cl_id', '=', ids.credit).execute();
    });

    describe('save with lines', () => {
      it('stores the lines with names, prices, classes and rates, and the totals per rate', async () => {
        const order = await newOrder(ids.plain, [
          { it_id: ids.water, quantity: 3, price: 1015 },
          { it_id: ids.rental, quantity: 1, price: 1105 },
          { it_id: ids.discount, quantity: 1 },
          { it_id: ids.deposit, quantity: 1 },
        ]);
        assert.equal(order.od_status, 'untreated');
        assert.match(String(order.od_number), /^OD\d{8}-\d{6}$/);
        assert.ok(String(order.od_number).endsWith(String(order.od_id).padStart(6, '0')));
        const found = await h.post<Row>('order_lst', { kw: String(order.od_number) });
        assert.deepEqual(found.body.map((r) => r.od_id), [order.od_id]);
        const stored = await lines(Number(order.od_id));
        assert.deepEqual(stored.map((l) => [l.odd_it_id, l.odd_name, l.odd_quantity, l.odd_price, l.odd_amount, l.odd_tax_class, l.odd_tax_rate]), [
          [ids.water, '受注テスト天然水 12L', 3, 1015, 3045, 'reduced', 8],
          [ids.rental, '受注テストレンタル', 1, 1105, 1105, 'standard', 10],
          [ids.discount, '受注テスト値引き', 1, -333, -333, 'standard', 10],
          [ids.deposit, '受注テスト保証金', 1, 1000, 1000, 'exempt', 0],
        ]);
        // 10%: 772 → 77.2; 8%: 3045 → 243.6; exempt 1000. 切捨て: 77 + 243.
        assert.deepEqual([order.od_net_total, order.od_tax_total, order.od_uriage_total], [4817, 320, 5137]);
      });

      it('rounds the tax per rate with each zei_kiri setting (切捨て, 切上げ, 四捨五入)', async () => {
        const expected: Record<string, [number, number]> = { '0': [320, 5137], '1': [322, 5139], '2': [321, 5138] };
        for (const [code, [tax, total]] of Object.entries(expected)) {
          const cl = Number((await created('client', { status: '1', tel_1: '03-0000-0000', co_name: `端数${code}`, pref: '東京都', zei_kiri: code })).cl_id);
          const order = await newOrder(cl, [
            { it_id: ids.water, quantity: 3, price: 1015 }, { it_id: ids.rental, quantity: 1, price: 1105 },
            { it_id: ids.discount, quantity: 1 }, { it_id: ids.deposit, quantity: 1 },
          ]);
          assert.deepEqual([order.od_tax_total, order.od_uriage_total], [tax, total], `zei_kiri ${code}`);
        }
      });

      it('rounds a negative net (値引き) symmetrically: -333 at 10% is -33 / -34 / -33', async () => {
        const expected: Record<string, number> = { '0': -33, '1': -34, '2': -33 };
        for (const [code, tax] of Object.entries(expected)) {
          const cl = Number((await created('client', { status: '1', tel_1: '03-0000-0000', co_name: `値引き${code}`, pref: '東京都', zei_kiri: code })).cl_id);
          const order = await newOrder(cl, [{ it_id: ids.discount, quantity: 1 }]);
          assert.deepEqual([order.od_net_total, order.od_tax_total, order.od_uriage_total], [-333, tax, -333 + tax], `zei_kiri ${code}`);
        }
      });

      it('prices by 掛率 with kin_kiri, ships to the customer’s shipping address and charges its prefecture’s fee', async () => {
        const order = await created('order', { cl_id: ids.kake, date: today, lines: [{ it_id: ids.odd, quantity: 2 }] });
        const [line] = await lines(Number(order.od_id));
        assert.equal(line.odd_price, 1019.15); // 1199 × 85%, a unit price of two decimals
        assert.equal(line.odd_amount, 2039); // 2 × 1019.15 = 2038.30, 切上げ (kin_kiri)
        assert.deepEqual([order.od_ship_co_name, order.od_ship_name, order.od_ship_pref, order.od_ship_city, order.od_ship_address, order.od_ship_tel],
          ['掛率テスト 大阪支店', '配送 太郎', '大阪府', '大阪市北区', '梅田1-1', '06-1111-2222']);
        const fee = (await deliveryFeeFor(h.database.db, '大阪府'))?.fee ?? 0;
        assert.ok(fee > 0);
        assert.equal(order.od_delivery_fee, fee);
        const tax = divideRounded(2039 * 8, 100, '2') + divideRounded(fee * 10, 100, '2');
        assert.deepEqual([order.od_net_total, order.od_tax_total, order.od_uriage_total], [2039 + fee, tax, 2039 + fee + tax]);
      });

      it('defaults the shipping address, warehouse and payment method from the customer’s main record', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        assert.deepEqual([order.od_ship_co_name, order.od_ship_zipcode, order.od_ship_pref, order.od_ship_address, order.od_ship_tel, order.od_pm_id],
          ['受注テスト商事', '100-0001', '東京都', '千代田1-1', '03-1234-5678', '1']);
        const noWarehouse = await created('order', { cl_id: ids.plain, date: today, lines: [{ it_id: ids.rental, quantity: 1 }] });
        assert.equal(noWarehouse.od_sk_id, String(ids.tokyo));
      });

      it('fixes the tax rate at the order date (2019-09-30: standard 8%; 2019-10-01: standard 10%)', async () => {
        const before = await created('order', { cl_id: ids.plain, date: '2019-09-30', delivery_fee: 0, lines: [{ it_id: ids.rental, quantity: 1 }, { it_id: ids.water, quantity: 1 }] });
        assert.deepEqual((await lines(Number(before.od_id))).map((l) => l.odd_tax_rate), [8, 8]);
        assert.equal(before.od_tax_total, divideRounded(2300 * 8, 100, '0'));
        const after = await created('order', { cl_id: ids.plain, date: '2019-10-01', delivery_fee: 0, lines: [{ it_id: ids.rental, quantity: 1 }, { it_id: ids.water, quantity: 1 }] });
        assert.deepEqual((await lines(Number(after.od_id))).map((l) => l.odd_tax_rate), [10, 8]);
        assert.equal(after.od_tax_total, 110 + 96);
      });

      it('an order whose slip would not agree (the rate changes between 受注日 and 配送日) is refused on 配送日, not 受注日', async () => {
        const order = await created('order', { cl_id: ids.plain, date: '2019-09-30', delivery_date: '2019-10-01', sk_id: String(ids.tokyo), delivery_fee: 0, lines: [{ it_id: ids.rental, quantity: 1 }] });
        const id = Number(order.od_id);
        await walk(id, ['waitshipping', 'shipped']);
        const refused = await move(id, 'processed');
        assert.equal(refused.status, 400, refused.text);
        assert.match(problem(refused).error, /受注日と配送日の間で税率が変わっていないか/);
        assert.deepEqual(Object.keys(problem(refused).fields ?? {}), ['delivery_date']);
        assert.equal((await detail(id)).od_status, 'shipped');
      });

      it('replaces the lines on an edit, refuses a stale edit (409) and a status change through the save', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        const id = Number(order.od_id);
        const edited = await save('order', { modified: order.modified, lines: [{ it_id: ids.rental, quantity: 2 }, { it_id: ids.deposit, quantity: 1 }] }, id);
        assert.equal(edited.status, 200, edited.text);
        assert.deepEqual((await lines(id)).map((l) => [l.odd_it_id, l.odd_quantity]), [[ids.rental, 2], [ids.deposit, 1]]);
        assert.equal(edited.body[0].od_uriage_total, 2200 + 220 + 1000);
        const stale = await save('order', { modified: order.modified, lines: [{ it_id: ids.rental, quantity: 5 }] }, id);
        assert.equal(stale.status, 409);
        assert.equal((await lines(id)).length, 2);
        const status = await save('order', { modified: edited.body[0].modified, status: 'shipped' }, id);
        assert.equal(status.status, 400);
        assert.equal((await detail(id)).od_status, 'untreated');
        const audit = await h.database.db.selectFrom('audit_log').select('log_changes').where('log_table', '=', 'orders').where('log_record_id', '=', id).orderBy('log_id').execute();
        assert.ok(audit.some((a) => String((JSON.parse(a.log_changes) as { lines?: unknown[] }).lines?.[1] ?? '').includes('受注テスト保証金 ×1')));
      });

      it('checks a typed 送り状番号 with 送り状取込’s check-digit rule: a field error naming it, nothing saved; a right number is kept', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        for (const [typed, message] of [
          ['4444-1375-8704', '送り状番号「4444-1375-8704」のチェックデジット（最後の桁）が正しくありません。番号を確かめてください。'],
          ['1234-5678', '送り状番号「1234-5678」は12桁の数字ではありません。'],
        ] as const) {
          const res = await save('order', { tracking_no: typed, modified: order.modified }, Number(order.od_id));
          assert.equal(res.status, 400, res.text);
          assert.equal(problem(res).fields?.tracking_no, message);
        }
        assert.equal((await detail(Number(order.od_id))).od_tracking_no ?? '', '', 'nothing saved');
        const ok = await save('order', { tracking_no: '４４４４－１３７５－８７０３', modified: order.modified }, Number(order.od_id));
        assert.equal(ok.status, 200, ok.text);
        assert.equal(ok.body[0].od_tracking_no, '4444-1375-8703');
      });

      it('refuses a bad line with nothing saved (one transaction)', async () => {
        const count = async () => Number((await h.post<number>('order_cnt', {})).body[0]);
        const before = await count();
        const unknown = await save('order', { cl_id: ids.plain, date: today, lines: [{ it_id: ids.rental, quantity: 1 }, { it_id: 999999, quantity: 1 }] });
        assert.equal(unknown.status, 400);
        assert.match(problem(unknown).error, /^2件目の明細: 商品が見つかりません/);
        assert.ok(problem(unknown).fields?.['lines.1.it_id']);
        const zero = await save('order', { cl_id: ids.plain, date: today, lines: [{ it_id: ids.rental, quantity: 0 }] });
        assert.equal(zero.status, 400);
        assert.ok(problem(zero).fields?.['lines.0.quantity']);
        assert.equal(await count(), before);
      });

      it('order_detail_lst answers 404 for a missing order and 400 without an id', async () => {
        assert.equal((await h.post('order_detail_lst', { od_id: 999999 })).status, 404);
        assert.equal((await h.post('order_detail_lst', {})).status, 400);
      });

      it('copies an order: a new order with the same customer and lines', async () => {
        const original = await newOrder(ids.kake, [{ it_id: ids.odd, quantity: 2 }, { it_id: ids.rental, quantity: 1, price: 900 }]);
        const source = await detail(Number(original.od_id));
        const sourceLines = await lines(Number(original.od_id));
        const copy = await created('order', {
          cl_id: source.od_cl_id, date: today, sk_id: source.od_sk_id, delivery_fee: source.od_delivery_fee,
          lines: sourceLines.map((l) => ({ it_id: l.odd_it_id, quantity: l.odd_quantity, price: l.odd_price, name: l.odd_name })),
        });
        assert.notEqual(copy.od_id, original.od_id);
        assert.notEqual(copy.od_number, original.od_number);
        assert.equal(copy.od_cl_id, ids.kake);
        const strip = (rows: Row[]) => rows.map((l) => [l.odd_it_id, l.odd_name, l.odd_quantity, l.odd_price, l.odd_amount, l.odd_tax_rate]);
        assert.deepEqual(strip(await lines(Number(copy.od_id))), strip(sourceLines));
        assert.equal(copy.od_uriage_total, original.od_uriage_total);
      });
    });

    describe('the delivery fee line', () => {
      /** The stored lines as [item, name, quantity, price, amount, class, rate, fee flag]. */
      const shape = async (id: number) => (await lines(id)).map((l) => [l.odd_it_id, l.odd_name, l.odd_quantity, l.odd_price, l.odd_amount, l.odd_tax_class, l.odd_tax_rate, l.odd_fee]);
      /** The totals of the stored lines by the one money computation, in the customer's terms. */
      const linesTotal = async (id: number, clientId: number) => {
        const client = (await h.post<Row>('client_dtl', { id: clientId })).body[0];
        return slipTotals((await lines(id)).map((l) => ({ amount: Number(l.odd_amount), taxClass: taxClassOf(l.odd_tax_class), taxRate: Number(l.odd_tax_rate) })), moneyTermsOf(client)).total;
      };

      it('stores the fee as the last line (no item, 送料, standard rate) and totals the lines alone', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.water, quantity: 2, price: 1000 }], { delivery_fee: 550 });
        const id = Number(order.od_id);
        assert.deepEqual(await shape(id), [
          [ids.water, '受注テスト天然水 12L', 2, 1000, 2000, 'reduced', 8, 0],
          [null, '送料', 1, 550, 550, 'standard', 10, 1],
        ]);
        // 8%: 2000 → 160; 10%: 550 → 55.
        assert.deepEqual([order.od_net_total, order.od_tax_total, order.od_uriage_total], [2550, 215, 2765]);
        assert.equal(await linesTotal(id, ids.plain), order.od_uriage_total);
      });

      it('prices a 内税 customer’s fee line tax-inclusive, like every line', async () => {
        const inside = Number((await created('client', { status: '1', tel_1: '03-0000-0000', co_name: '内税送料テスト', pref: '東京都', zei_ten: '5' })).cl_id);
        const order = await newOrder(inside, [{ it_id: ids.rental, quantity: 1, price: 1100 }], { delivery_fee: 555 });
        const fee = (await shape(Number(order.od_id)))[1];
        assert.deepEqual(fee, [null, '送料', 1, 610.5, 610, 'standard', 10, 1]); // 555 × 1.1 = 610.50 (sen), 610 yen (切捨て)
        // 内税: 10% bucket 1100 + 610 = 1710 → tax 155 (切捨て), net 1555.
        assert.deepEqual([order.od_net_total, order.od_tax_total, order.od_uriage_total], [1555, 155, 1710]);
      });

      it('follows the fee when only the order changes (no lines sent): typed lines kept, fee line rewritten or removed', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1, price: 1000 }], { delivery_fee: 300 });
        const id = Number(order.od_id);
        const raised = await save('order', { modified: order.modified, delivery_fee: 800 }, id);
        assert.equal(raised.status, 200, raised.text);
        assert.deepEqual(await shape(id), [[ids.rental, '受注テストレンタル', 1, 1000, 1000, 'standard', 10, 0], [null, '送料', 1, 800, 800, 'standard', 10, 1]]);
        assert.equal(raised.body[0].od_uriage_total, 1980);
        const relined = await save('order', { modified: raised.body[0].modified, lines: [{ it_id: ids.rental, quantity: 2, price: 1000 }] }, id);
        assert.equal(relined.status, 200, relined.text);
        assert.deepEqual((await shape(id)).map((l) => [l[0], l[2], l[4], l[7]]), [[ids.rental, 2, 2000, 0], [null, 1, 800, 1]]);
        const free = await save('order', { modified: relined.body[0].modified, delivery_fee: 0 }, id);
        assert.equal(free.status, 200, free.text);
        assert.deepEqual((await shape(id)).map((l) => l[7]), [0]);
        assert.equal(free.body[0].od_uriage_total, 2200);
        const untouched = await save('order', { modified: free.body[0].modified, biko: '送料なし' }, id);
        assert.equal(untouched.status, 200, untouched.text);
        assert.equal((await lines(id)).length, 1);
      });

      it('never takes a fee line from the form: a sent row without an item is refused, a sent flag is ignored', async () => {
        const noItem = await save('order', { cl_id: ids.plain, date: today, delivery_fee: 0, lines: [{ name: '送料', quantity: 1, price: 550 }] });
        assert.equal(noItem.status, 400);
        assert.ok(problem(noItem).fields?.['lines.0.it_id']);
        const flagged = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1, price: 1000, fee: 1 }]);
        assert.deepEqual((await shape(Number(flagged.od_id))).map((l) => l[7]), [0]);
        // The database refuses a typed line without an item too.
        await assert.rejects(h.database.db.insertInto('order_detail').values({
          odd_od_id: Number(flagged.od_id), odd_sort: 9, odd_it_id: null, odd_name: 'x', odd_quantity: 1, odd_price: 1, odd_amount: 1, odd_tax_class: 'standard', odd_tax_rate: 10, created: today, odd_job_id: null, odd_fee: 0,
        }).execute());
      });

      it('puts the fee line on the processed order’s slip: same lines, same total; its fee is then fixed until moved back', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.water, quantity: 1, price: 1000 }, { it_id: ids.rental, quantity: 1, price: 1000 }], { delivery_fee: 660 });
        const id = Number(order.od_id);
        await walk(id, ['waitshipping', 'shipped', 'processed']);
        const [slip] = await h.database.db.selectFrom('sales').select(['sl_id', 'sl_total']).where('sl_od_id', '=', id).where('deleted', '=', 0).execute();
        const slipLines = (await h.post<Row>('sales_detail_lst', { sl_id: slip.sl_id })).body;
        assert.deepEqual(slipLines.map((l) => [l.sld_it_id, l.sld_name, l.sld_quantity, l.sld_price, l.sld_amount, l.sld_tax_class, l.sld_tax_rate]),
          (await shape(id)).map((l) => l.slice(0, 7)));
        assert.equal(slip.sl_total, order.od_uriage_total);
        const processed = await detail(id);
        const refused = await save('order', { modified: processed.modified, delivery_fee: 700 }, id);
        assert.equal(refused.status, 400);
        assert.match(problem(refused).error, /「処理済」の受注の送料は変更できません/);
        assert.ok(problem(refused).fields?.delivery_fee);
        assert.equal((await detail(id)).od_delivery_fee, 660);
        const kept = await save('order', { modified: processed.modified, biko: '請求前の確認済み' }, id);
        assert.equal(kept.status, 200, kept.text);
        await walk(id, ['shipped']);
        const changed = await save('order', { modified: (await detail(id)).modified, delivery_fee: 700 }, id);
        assert.equal(changed.status, 200, changed.text);
        assert.equal((await shape(id)).at(-1)?.[4], 700);
      });

      it('a warehouse out of use is no new order’s warehouse: passed over as the customer’s default, refused when chosen, kept where stored', async () => {
        const old = Number((await created('souko', { code: 'O-OLD', name: '受注テスト旧倉庫', pref: '東京都', active: 1 })).sk_id);
        const stays = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1, price: 1000 }], { sk_id: String(old) });
        const client = Number((await created('client', { co_name: '旧倉庫の顧客', status: '1', tel_1: '03-1234-5678', sk_id: String(old) })).cl_id);
        const loaded = (await h.post<Row>('souko_dtl', { id: old })).body[0];
        assert.equal((await save('souko', { active: 0, modified: loaded.modified }, old)).status, 200);
        assert.ok(!(await h.post<{ value: string }>('master_lst', { table: 'mt_warehouse' })).body.some((o) => o.value === String(old)));
        const fresh = await created('order', { cl_id: client, date: today, delivery_fee: 0, lines: [{ it_id: ids.rental, quantity: 1, price: 1000 }] });
        assert.notEqual(String(fresh.od_sk_id), String(old), 'the customer’s retired warehouse is passed over');
        const chosen = await save('order', { cl_id: ids.plain, date: today, sk_id: String(old), delivery_fee: 0, lines: [{ it_id: ids.rental, quantity: 1, price: 1000 }] });
        assert.equal(chosen.status, 400, chosen.text);
        assert.match(problem(chosen).error, /出荷倉庫「受注テスト旧倉庫」は使用停止です/);
        assert.ok(problem(chosen).fields?.sk_id);
        const kept = await save('order', { modified: (await detail(Number(stays.od_id))).modified, biko: '旧倉庫のまま' }, Number(stays.od_id));
        assert.equal(kept.status, 200, kept.text);
        assert.equal(String((await detail(Number(stays.od_id))).od_sk_id), String(old));
      });

      it('processing an order answers the sales slip it made (id and number), worded 「処理済にしました（売上伝票 SL… を作成）」', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1, price: 1000 }]);
        const id = Number(order.od_id);
        await walk(id, ['waitshipping', 'shipped']);
        const shipped = await move(id, 'waitshipping');
        assert.equal(shipped.body[0].slip, undefined);
        await walk(id, ['shipped']);
        const res = await move(id, 'processed');
        assert.equal(res.status, 200, res.text);
        const [slip] = await h.database.db.selectFrom('sales').select(['sl_id', 'sl_number']).where('sl_od_id', '=', id).where('deleted', '=', 0).execute();
        const answer = res.body[0] as unknown as StatusResult;
        assert.deepEqual(answer.slip, { sl_id: Number(slip.sl_id), sl_number: String(slip.sl_number) });
        assert.match(String(slip.sl_number), /^SL/);
        assert.equal(movedText(answer), `処理済にしました（売上伝票 ${String(slip.sl_number)} を作成）。`);
        // Moved back, the slip is gone and the answer names none.
        const back = await move(id, 'shipped');
        assert.equal((back.body[0] as unknown as StatusResult).slip, undefined);
      });

      it('migration 0046 gives an order without its fee line the line its save derives, and a processed one its slip’s', async () => {
        const db = h.database.db;
        const plainOrder = await newOrder(ids.kake, [{ it_id: ids.odd, quantity: 1 }], { delivery_fee: 777 });
        const billedOrder = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1, price: 1000 }], { delivery_fee: 555 });
        await walk(Number(billedOrder.od_id), ['waitshipping', 'shipped', 'processed']);
        const ordersIds = [Number(plainOrder.od_id), Number(billedOrder.od_id)];
        const before = await Promise.all(ordersIds.map(shape));
        // Orders as they were before the migration: the fee on the order only. The slip was priced when the customer was 外税.
        await db.deleteFrom('order_detail').where('odd_od_id', 'in', ordersIds).where('odd_fee', '=', 1).execute();
        await db.updateTable('client').set({ cl_zei_ten: '5' }).where('cl_id', '=', ids.plain).execute();
        try {
          await addFeeLines(db as unknown as Kysely<unknown>);
          await addFeeLines(db as unknown as Kysely<unknown>); // idempotent
          assert.deepEqual(await Promise.all(ordersIds.map(shape)), before);
          assert.equal(await linesTotal(Number(plainOrder.od_id), ids.kake), plainOrder.od_uriage_total);
        } finally {
          await db.updateTable('client').set({ cl_zei_ten: '3' }).where('cl_id', '=', ids.plain).execute();
        }
      });
    });

    describe('status moves', () => {
      it('allows exactly the declared transitions from every status', async () => {
        const paths: Record<OrderStatus, OrderStatus[]> = {
          untreated: [], pending: ['pending'], waitshipping: ['waitshipping'], shipped: ['waitshipping', 'shipped'],
          processed: ['waitshipping', 'shipped', 'processed'], cancelled: ['cancelled'],
        };
        for (const from of ORDER_STATUS.map((s) => s.value)) {
          for (const to of ORDER_STATUS.map((s) => s.value)) {
            if (to === from) continue;
            const order = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
            const id = Number(order.od_id);
            await walk(id, paths[from]);
            const res = await move(id, to, '4321-0000-2224');
            if (TRANSITIONS[from].includes(to)) {
              assert.equal(res.status, 200, `${from} → ${to}: ${res.text}`);
              assert.equal((await detail(id)).od_status, to, `${from} → ${to}`);
            } else {
              assert.equal(res.status, 400, `${from} → ${to} should be refused`);
              assert.match(problem(res).error, /にできません/);
              assert.equal((await detail(id)).od_status, from);
            }
          }
        }
      });

      it('ships only with a tracking number; shipping takes stock out, going back puts it back; each move is audited', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.water, quantity: 4 }, { it_id: ids.rental, quantity: 1 }]);
        const id = Number(order.od_id);
        await walk(id, ['waitshipping']);
        const start = await quantity(ids.water);
        const noTracking = await move(id, 'shipped');
        assert.equal(noTracking.status, 400);
        assert.match(problem(noTracking).error, /送り状番号/);
        assert.equal(await quantity(ids.water), start);
        // A number typed with the move is checked as the order's field and 送り状取込 check it.
        for (const [typed, said] of [['1234-5678-9012', /送り状番号「1234-5678-9012」のチェックデジット/], ['TRK-1', /送り状番号「TRK-1」は12桁の数字ではありません/]] as const) {
          const wrong = await move(id, 'shipped', typed);
          assert.equal(wrong.status, 400, wrong.text);
          assert.match(problem(wrong).fields?.tracking_no ?? problem(wrong).error, said);
          assert.equal((await detail(id)).od_status, 'waitshipping');
        }
        assert.equal(await quantity(ids.water), start);
        const shipped = await move(id, 'shipped', '1234-5678-9013');
        assert.equal(shipped.status, 200, shipped.text);
        assert.equal((await detail(id)).od_tracking_no, '1234-5678-9013');
        // The number typed with the move finds the order by keyword, as one saved on the form does (system-write.ts).
        assert.deepEqual((await h.post<Row>('order_lst', { kw: '1234-5678-9013' })).body.map((r) => r.od_id), [id]);
        assert.equal(await quantity(ids.water), start - 4);
        await walk(id, ['waitshipping']);
        assert.equal(await quantity(ids.water), start);
        await walk(id, ['shipped', 'processed']);
        assert.equal(await quantity(ids.water), start - 4);
        const audit = await h.database.db.selectFrom('audit_log').select(['log_changes', 'log_call']).where('log_table', '=', 'orders').where('log_record_id', '=', id).orderBy('log_id').execute();
        const moves = audit.map((a) => (JSON.parse(a.log_changes) as Record<string, unknown>).od_status).filter(Boolean);
        assert.deepEqual(moves, [[null, 'untreated'], ['untreated', 'waitshipping'], ['waitshipping', 'shipped'], ['shipped', 'waitshipping'], ['waitshipping', 'shipped'], ['shipped', 'processed']]);
        assert.ok(audit.every((a) => a.log_call === 'order_save' || a.log_call === 'order_status'));
        const moved = await h.database.db.selectFrom('stock_move').select(['sm_kind', 'sm_quantity']).where('sm_reason', 'like', `受注 ${String(order.od_number)}%`).orderBy('sm_id').execute();
        assert.deepEqual(moved.map((m) => [m.sm_kind, m.sm_quantity]), [['out', -4], ['in', 4], ['out', -4]]);
      });

      it('refuses shipping beyond the stock, with the warehouse’s quantity named and nothing changed', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.water, quantity: 500 }]);
        const id = Number(order.od_id);
        await walk(id, ['waitshipping']);
        const start = await quantity(ids.water);
        const res = await move(id, 'shipped', '4444-1375-8703');
        assert.equal(res.status, 400);
        assert.match(problem(res).error, /在庫が足りません/);
        assert.equal(await quantity(ids.water), start);
        const row = await detail(id);
        assert.deepEqual([row.od_status, row.od_tracking_no], ['waitshipping', '']);
      });

      it('cancels before shipping and keeps the order; a shipped order cannot be cancelled or deleted', async () => {
        const order = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        const id = Number(order.od_id);
        assert.equal((await move(id, 'cancelled')).status, 200);
        assert.equal((await detail(id)).od_status, 'cancelled');
        assert.equal((await lines(id)).length, 1);
        const shipped = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        await walk(Number(shipped.od_id), ['waitshipping', 'shipped']);
        assert.equal((await move(Number(shipped.od_id), 'cancelled')).status, 400);
        assert.equal((await h.post('order_del', { id: shipped.od_id })).status, 400);
      });

      it('holds an order over the credit limit on 保留 with the reason', async () => {
        const small = await newOrder(ids.credit, [{ it_id: ids.rental, quantity: 1 }]); // 1,210円: 8,000 + 1,210 ≤ 10,000
        assert.equal((await move(Number(small.od_id), 'waitshipping')).body[0].status, 'waitshipping');
        const big = await newOrder(ids.credit, [{ it_id: ids.rental, quantity: 2 }]); // 2,420円: over
        const res = await move(Number(big.od_id), 'waitshipping');
        assert.equal(res.status, 200);
        assert.equal(res.body[0].ok, false);
        assert.equal(res.body[0].status, 'pending');
        assert.match(String(res.body[0].message), /与信限度額/);
        const row = await detail(Number(big.od_id));
        assert.equal(row.od_status, 'pending');
        assert.match(String(row.od_hold_reason), /限度額 10,000円、売掛残高 8,000円＋この受注 2,420円/);
        await h.database.db.updateTable('client').set({ cl_uri_zan: 0 }).where('cl_id', '=', ids.credit).execute();
        assert.equal((await move(Number(big.od_id), 'waitshipping')).body[0].status, 'waitshipping');
        assert.equal((await detail(Number(big.od_id))).od_hold_reason, '');
      });

      it('moves many orders at once and answers per order which failed and why', async () => {
        const ok = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        const done = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        await walk(Number(done.od_id), ['cancelled']);
        const res = await h.post<Row>('order_status', { ids: JSON.stringify([ok.od_id, done.od_id, 999999]), status: 'waitshipping' });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.map((r) => [r.od_id, r.ok, r.status]), [[ok.od_id, true, 'waitshipping'], [done.od_id, false, 'cancelled'], [999999, false, '']]);
        assert.match(String(res.body[1].message), /「キャンセル」の受注は「出荷待ち」にできません/);
        assert.equal((await h.post('order_status', { ids: '[]', status: 'shipped' })).status, 400);
        assert.equal((await h.post('order_status', { od_id: ok.od_id, status: 'flying' })).status, 400);
      });
    });

    describe('出荷倉庫の一括変更 (order_warehouse)', () => {
      it('gives the chosen orders a warehouse in one transaction, audited; a shipped order refuses it and then nothing changes', async () => {
        const osaka = Number((await created('souko', { code: 'O-OSK', name: '受注テスト大阪倉庫', pref: '大阪府', active: 1 })).sk_id);
        const a = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        const b = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 2 }], { sk_id: '' });
        const res = await h.post<Row>('order_warehouse', { ids: JSON.stringify([a.od_id, b.od_id]), sk_id: osaka });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.map((r) => [r.od_id, r.od_sk_id]), [[a.od_id, osaka], [b.od_id, osaka]]);
        for (const order of [a, b]) {
          assert.equal(Number((await detail(Number(order.od_id))).od_sk_id), osaka);
          const audit = await h.database.db.selectFrom('audit_log').select(['log_call', 'log_changes']).where('log_table', '=', 'orders').where('log_record_id', '=', Number(order.od_id)).orderBy('log_id', 'desc').executeTakeFirstOrThrow();
          assert.equal(audit.log_call, 'order_warehouse');
          assert.ok('od_sk_id' in (JSON.parse(audit.log_changes) as Record<string, unknown>), audit.log_changes);
        }
        const shipped = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        await walk(Number(shipped.od_id), ['waitshipping', 'shipped']);
        const other = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 1 }]);
        const refused = await h.post<Row>('order_warehouse', { ids: JSON.stringify([other.od_id, shipped.od_id]), sk_id: osaka });
        assert.equal(refused.status, 400, refused.text);
        assert.match(String((problem(refused) as { error: string }).error), /^OD\S*：「出荷済」の受注の出荷倉庫は変更できません（在庫を出した倉庫です）。/);
        assert.equal(Number((await detail(Number(other.od_id))).od_sk_id), ids.tokyo, 'one transaction: the other order is unchanged too');
        assert.equal((await h.post('order_warehouse', { ids: JSON.stringify([a.od_id]) })).status, 400, 'no warehouse');
        assert.equal((await h.post('order_warehouse', { ids: JSON.stringify([999999]), sk_id: osaka })).status, 404);
        const delivery = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
        assert.equal((await h.post('order_warehouse', { ids: JSON.stringify([a.od_id]), sk_id: ids.tokyo }, delivery)).status, 403, '配送 reads orders only');
      });
    });

    describe('order settings (/system/orders)', () => {
      it('number format, default warehouse and time slot, and the same-day cut-off apply to new orders', async () => {
        const [setting] = (await h.post<Row>('ordersetting_dtl', { id: 1 })).body;
        assert.deepEqual([setting.os_number_format, setting.os_cutoff_time], ['OD{yyyy}{mm}{dd}-{id:6}', '12:00']);
        const bad = await save('ordersetting', { number_format: 'OD{yyyy}', modified: setting.modified }, 1);
        assert.equal(bad.status, 400);
        assert.ok(problem(bad).fields?.number_format);
        const badTime = await save('ordersetting', { cutoff_time: '25:00', modified: setting.modified }, 1);
        assert.ok(problem(badTime).fields?.cutoff_time);
        const saved = await save('ordersetting', { number_format: 'J{yy}{mm}-{id:4}', sk_id: String(ids.tokyo), ht_id: '2', cutoff_time: '00:00', modified: setting.modified }, 1);
        assert.equal(saved.status, 200, saved.text);
        const noDefaults = Number((await created('client', { status: '1', tel_1: '03-0000-0000', co_name: '既定値テスト', pref: '東京都' })).cl_id);
        const order = await created('order', { cl_id: noDefaults, date: today, lines: [{ it_id: ids.rental, quantity: 1 }] });
        assert.equal(order.od_number, `J${today.slice(2, 4)}${today.slice(5, 7)}-${String(order.od_id).padStart(4, '0')}`);
        assert.deepEqual([order.od_sk_id, order.od_ht_id], [String(ids.tokyo), '2']);
        // Cut-off 00:00: every order of today is past it, so it is delivered tomorrow.
        assert.equal(order.od_delivery_date, addDays(today, 1));
        const [now] = (await h.post<Row>('ordersetting_dtl', { id: 1 })).body;
        assert.equal((await save('ordersetting', { cutoff_time: '24:00', modified: now.modified }, 1)).status, 200);
        assert.equal((await created('order', { cl_id: noDefaults, date: today, lines: [] })).od_delivery_date, today);
        assert.equal((await created('order', { cl_id: noDefaults, date: '2026-01-05', lines: [] })).od_delivery_date, '');
        const [last] = (await h.post<Row>('ordersetting_dtl', { id: 1 })).body;
        assert.equal((await save('ordersetting', { number_format: 'OD{yyyy}{mm}{dd}-{id:6}', cutoff_time: '12:00', sk_id: '', ht_id: '', modified: last.modified }, 1)).status, 200);
        assert.notEqual((await h.post('ordersetting_del', { id: 1 })).status, 200);
        assert.equal((await h.post<Row>('ordersetting_dtl', { id: 1 })).body[0].os_number_format, 'OD{yyyy}{mm}{dd}-{id:6}');
      });
    });

    describe('list filters', () => {
      it('created, modified (date ranges), od_status and uriage_total (arrays)', async () => {
        const a = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 50 }]); // 60,500円
        const b = await newOrder(ids.plain, [{ it_id: ids.rental, quantity: 60 }]); // 72,600円
        await walk(Number(b.od_id), ['pending']);
        const list = (postData: Record<string, unknown>) => h.post<Row>('order_lst', { n: 100, postData: JSON.stringify(postData) });
        const range = await list({ uriage_total: [60000, 70000] });
        assert.deepEqual(range.body.map((r) => r.od_id), [a.od_id]);
        const statuses = await list({ od_status: ['pending'], uriage_total: [60000, 80000] });
        assert.deepEqual(statuses.body.map((r) => r.od_id), [b.od_id]);
        const both = await list({ od_status: ['pending', 'untreated'], uriage_total: [60000, 80000] });
        assert.deepEqual(both.body.map((r) => r.od_id).sort(), [a.od_id, b.od_id].sort());
        const created = await list({ created: [today, today], uriage_total: [60000, 80000] });
        assert.equal(created.body.length, 2);
        assert.equal((await list({ created: ['2000-01-01', '2000-01-02'], uriage_total: [60000, 80000] })).body.length, 0);
        const modified = await list({ modified: [today, ''], uriage_total: [60000, 80000] });
        assert.equal(modified.body.length, 2);
        assert.equal((await list({ uriage_total: ['2026-01-01', ''] })).status, 400);
      });
    });
  });
}
