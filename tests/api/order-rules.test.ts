/**
 * Orders in daily use (issue 10): the line rules the form shares with the save (full-width digits
 * converted, bad input named at the line), the delivery fee taxed at the standard rate, 「前回の受注」
 * (`order_previous`: the customer's order before this one, the latest for a new order), order numbers
 * instead of ids (mail template, its preview, bulk status answers), and the status moves: every missing
 * field named at once, 保留 with its reason, own-driver deliveries shipped without a tracking number;
 * on every dialect.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { todayJst } from '../../lib/format';
import { checkLine } from '../../lib/orders/lines';
import { moneyTermsOf } from '../../lib/money/totals';
import { orderTotalsWithFee } from '../../lib/orders/totals';
import { dialects, resourceCalls, useHarness } from './harness';

type Row = Record<string, string | number | null>;

const today = todayJst();

describe('order lines (lib/orders/lines): the same conversion and messages on the form and the save', () => {
  it('converts full-width digits and commas, and names the field of bad input', () => {
    assert.deepEqual(checkLine({ quantity: '２', price: '' }), { ok: true, quantity: 2, price: null });
    assert.deepEqual(checkLine({ quantity: '１，２００', price: '１２０円' }), { ok: true, quantity: 1200, price: 120 });
    assert.deepEqual(checkLine({ quantity: 'ab', price: '' }), { ok: false, fields: { quantity: '数量は整数で入力してください。' } });
    assert.equal(checkLine({ quantity: '0' }).ok, false);
    assert.deepEqual(checkLine({ quantity: '1', price: '８６．４０' }), { ok: true, quantity: 1, price: 86.4 });
    assert.deepEqual(checkLine({ quantity: '1', price: '1.555' }), { ok: false, fields: { price: '単価は小数第2位までの数値で入力してください。' } });
  });
  it('taxes the delivery fee at the standard rate, in the standard rate’s group', () => {
    const totals = orderTotalsWithFee([{ amount: 2600, taxClass: 'reduced', taxRate: 8 }, { amount: 1100, taxClass: 'standard', taxRate: 10 }], 550, 10, moneyTermsOf(undefined));
    assert.deepEqual(totals.rates.map((r) => [r.key, r.net, r.tax]), [['10', 1650, 165], ['8', 2600, 208]]);
    assert.equal(totals.total, 4623);
  });
});

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const ids = { water: 0, rental: 0, tokyo: 0, carrier: 0, own: 0, driver: 0 };

    const { save, created, problem } = resourceCalls(h);
    const detail = async (id: number): Promise<Row> => (await h.post<Row>('order_dtl', { id })).body[0];
    const order = (cl: number, lines: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
      created('order', { cl_id: cl, date: today, delivery_fee: 0, lines, ...extra });

    before(async () => {
      const item = async (code: string, name: string, extra: Record<string, unknown>) =>
        Number((await created('item', { code, name, unit: '本', price: 1300, tax_class: 'reduced', stock_tracked: 0, ...extra })).it_id);
      ids.water = await item('D-W12', '日常テスト天然水', { stock_tracked: 1 });
      ids.rental = await item('D-RENT', '日常テストレンタル', { price: 1100, tax_class: 'standard', unit: '月' });
      ids.tokyo = Number((await created('souko', { code: 'D-TKY', name: '日常テスト倉庫', pref: '東京都', active: 1 })).sk_id);
      assert.equal((await h.post('stock_adjust', { sk_id: ids.tokyo, postData: JSON.stringify({ it_id: ids.water, kind: 'in', quantity: 50, reason: '初期在庫' }) })).status, 200);
      ids.driver = h.fixtures.users.delivery.id;
      const client = async (values: Record<string, unknown>) =>
        Number((await created('client', { status: '1', tel_1: '03-1234-5678', pref: '東京都', city: '千代田区', ...values })).cl_id);
      ids.carrier = await client({ co_name: '宅配便テスト商事' });
      ids.own = await client({ co_name: '自社配送テスト商店', delivery_usr_id: ids.driver, sk_id: String(ids.tokyo) });
    });

    describe('order lines in the save', () => {
      it('counts a full-width quantity like the form does, and refuses 「ab」 naming the line’s field', async () => {
        const saved = await order(ids.carrier, [{ it_id: ids.rental, quantity: '２' }]);
        assert.equal(saved.od_uriage_total, 2420);
        const bad = await save('order', { cl_id: ids.carrier, date: today, lines: [{ it_id: ids.rental, quantity: '1' }, { it_id: ids.rental, quantity: 'ab' }] });
        assert.equal(bad.status, 400);
        assert.equal(problem(bad).error, '2件目の明細: 数量は整数で入力してください。');
        assert.deepEqual(problem(bad).fields, { 'lines.1.quantity': '数量は整数で入力してください。' });
      });

      it('adds the prefecture’s tax-exclusive fee and taxes it at the standard rate', async () => {
        const saved = await created('order', { cl_id: ids.carrier, date: today, lines: [{ it_id: ids.water, quantity: 2 }] });
        const fee = Number(saved.od_delivery_fee);
        assert.ok(fee > 0);
        // 8%: 2,600 → 208; 10%: the fee.
        assert.equal(saved.od_tax_total, 208 + Math.floor(fee * 0.1));
        assert.equal(saved.od_uriage_total, 2600 + fee + 208 + Math.floor(fee * 0.1));
      });
    });

    describe('order_previous (「前回の受注」)', () => {
      it('answers the customer’s order before this one by order date then number, and the latest for a new order', async () => {
        const [jan, feb, mar] = h.fixtures.orders;
        const previous = async (params: Record<string, number>) => (await h.post<Row>('order_previous', params)).body.map((r) => r.od_id);
        assert.deepEqual(await previous({ od_id: mar }), [feb]);
        assert.deepEqual(await previous({ od_id: feb }), [jan]);
        assert.deepEqual(await previous({ od_id: jan }), []);
        assert.deepEqual(await previous({ cl_id: h.fixtures.clients.abc }), [mar]);
        // Entered later for an earlier day: it sits between by its date, whatever its id.
        const late = Number((await created('order', { cl_id: h.fixtures.clients.abc, date: '2026-02-20', lines: [] })).od_id);
        assert.deepEqual(await previous({ od_id: mar }), [late]);
        assert.deepEqual(await previous({ od_id: late }), [feb]);
        assert.deepEqual(await previous({ cl_id: h.fixtures.clients.abc }), [mar]);
        const sameDay = Number((await created('order', { cl_id: h.fixtures.clients.abc, date: '2026-03-10', lines: [] })).od_id);
        assert.deepEqual(await previous({ od_id: sameDay }), [mar]);
        assert.deepEqual(await previous({ cl_id: h.fixtures.clients.abc }), [sameDay]);
        const [row] = (await h.post<Row>('order_previous', { od_id: mar })).body;
        assert.ok(String(row.od_number).length > 0);
        assert.equal(row.od_date, '2026-02-20');
        assert.equal((await h.post('order_previous', { od_id: 999999 })).status, 404);
        assert.equal((await h.post('order_previous', {})).status, 400);
      });
    });

    describe('order numbers, not ids', () => {
      it('the mail template’s {{受注番号}} is the order number, and its preview finds an order by its number', async () => {
        const saved = await order(ids.carrier, [{ it_id: ids.rental, quantity: 1 }]);
        const number = String(saved.od_number);
        const template = await created('mailtemplate', { name: '受注番号テスト', category: '9', active: '1', target: 'order', subject: '受注番号 {{受注番号}} のご確認', body: '{{顧客名}} 様' });
        const byNumber = await h.post<Row>('mailtemplate_preview', { id: template.ml_id, od_number: number });
        assert.equal(byNumber.status, 200, byNumber.text);
        assert.equal(byNumber.body[0].subject, `受注番号 ${number} のご確認`);
        assert.equal(byNumber.body[0].od_number, number);
        const typed = await h.post<Row>('mailtemplate_preview', { id: template.ml_id, od_number: ` ${number.toLowerCase().replace(/\d/g, (d) => String.fromCharCode(d.charCodeAt(0) + 0xfee0))} ` });
        assert.equal(typed.status, 200, typed.text);
        assert.equal(typed.body[0].subject, `受注番号 ${number} のご確認`);
        const missing = await h.post<Row>('mailtemplate_preview', { id: template.ml_id, od_number: 'OD00000000-999999' });
        assert.equal(missing.status, 404);
        assert.equal(problem(missing).error, '受注番号 OD00000000-999999 の受注が見つかりません。');
        const none = await h.post<Row>('mailtemplate_preview', { id: template.ml_id });
        assert.equal(none.status, 400);
        assert.equal(problem(none).fields?.od_number, '受注番号を入力してください。');
      });

      it('bulk status answers name each order by its number', async () => {
        const a = await order(ids.carrier, [{ it_id: ids.rental, quantity: 1 }]);
        const res = await h.post<Row>('order_status', { ids: JSON.stringify([a.od_id, 999999]), status: 'waitshipping' });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.body.map((r) => [r.od_id, r.od_number]), [[a.od_id, a.od_number], [999999, '']]);
      });
    });

    describe('status moves', () => {
      it('names every missing field at once when shipping by a carrier', async () => {
        const saved = await order(ids.carrier, [{ it_id: ids.water, quantity: 1 }], { sk_id: '' });
        const id = Number(saved.od_id);
        await h.database.db.updateTable('orders').set({ od_sk_id: '' }).where('od_id', '=', id).execute();
        assert.equal((await h.post('order_status', { od_id: id, status: 'waitshipping' })).status, 200);
        const res = await h.post<Row>('order_status', { od_id: id, status: 'shipped' });
        assert.equal(res.status, 400);
        assert.deepEqual(Object.keys(problem(res).fields ?? {}).sort(), ['sk_id', 'tracking_no']);
        assert.match(problem(res).error, /送り状番号.*出荷倉庫|出荷倉庫.*送り状番号/);
        assert.equal((await detail(id)).od_status, 'waitshipping');
      });

      it('ships an order delivered by the company’s own driver without a tracking number', async () => {
        const saved = await order(ids.own, [{ it_id: ids.water, quantity: 1 }]);
        const id = Number(saved.od_id);
        assert.equal((await h.post('order_status', { od_id: id, status: 'waitshipping' })).status, 200);
        const res = await h.post<Row>('order_status', { od_id: id, status: 'shipped' });
        assert.equal(res.status, 200, res.text);
        const row = await detail(id);
        assert.deepEqual([row.od_status, row.od_tracking_no], ['shipped', '']);
      });

      it('puts an order on 保留 only with a reason, and keeps the reason', async () => {
        const saved = await order(ids.carrier, [{ it_id: ids.rental, quantity: 1 }]);
        const id = Number(saved.od_id);
        const none = await h.post<Row>('order_status', { od_id: id, status: 'pending' });
        assert.equal(none.status, 400);
        assert.equal(problem(none).fields?.hold_reason, '保留理由を入力してください。');
        assert.equal((await detail(id)).od_status, 'untreated');
        const held = await h.post<Row>('order_status', { od_id: id, status: 'pending', reason: ' 在庫確認待ち ' });
        assert.equal(held.status, 200, held.text);
        const row = await detail(id);
        assert.deepEqual([row.od_status, row.od_hold_reason], ['pending', '在庫確認待ち']);
        assert.equal((await h.post('order_status', { od_id: id, status: 'untreated' })).status, 200);
        assert.equal((await detail(id)).od_hold_reason, '');
      });
    });
  });
}
