/**
 * The billing customer's receivable (issue 12): a delivery site's slips are billed to the top of its 請求親顧客 chain,
 * where the payments are entered, so `sales_receivable` answers the billing group's balance (its own + its sites')
 * and its open slips, oldest first, paid in part by the group's payments; the credit-limit hold of a site's order
 * reads the 請求先's 与信限度額 against the group's balance and names it. Both dialects.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { OpenItem, ReceivableSummary } from '../../lib/resources/sales';
import { todayJst } from '../../lib/format';
import { dialects, jobEnded, resourceCalls, useHarness } from './harness';

type Row = Record<string, string | number | null>;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created } = resourceCalls(h);
    const ids = { water: 0, head: 0, siteA: 0, siteB: 0, lone: 0 };
    const slips: Row[] = [];
    const receivable = async (cl: number): Promise<ReceivableSummary> => {
      const res = await h.post<ReceivableSummary>('sales_receivable', { cl_id: cl });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const brief = (items: readonly OpenItem[]) => items.map((i) => [i.kind === 'slip' ? i.sl_id : `請求 ${i.number}`, i.cl_id, i.total, i.unpaid]);

    before(async () => {
      ids.water = Number((await created('item', { code: 'R-W12', name: '売掛テスト天然水', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0 })).it_id);
      const client = async (values: Record<string, unknown>) =>
        Number((await created('client', { status: '1', tel_1: '03-1234-5678', pref: '東京都', zei_ten: '2', ...values })).cl_id);
      ids.head = await client({ co_name: '売掛本社', yoshin_gendo: 10000 });
      ids.siteA = await client({ co_name: '売掛渋谷営業所', parent_id: ids.head });
      ids.siteB = await client({ co_name: '売掛渋谷出張所', parent_id: ids.siteA });
      ids.lone = await client({ co_name: '売掛単独顧客', yoshin_gendo: 10000 });
      // 外税・伝票単位 切捨て, 8%: 2 × 1,200 = 2,592円; 1 × 1,200 = 1,296円.
      slips.push(await created('sales', { cl_id: ids.siteA, date: '2026-05-01', lines: [{ it_id: ids.water, quantity: 2 }] }));
      slips.push(await created('sales', { cl_id: ids.siteB, date: '2026-05-03', lines: [{ it_id: ids.water, quantity: 1 }] }));
      slips.push(await created('sales', { cl_id: ids.head, date: '2026-05-05', lines: [{ it_id: ids.water, quantity: 1 }] }));
      await created('payment', { cl_id: ids.head, date: '2026-05-20', amount: 3000, kind: 'transfer' });
    });

    it('answers the billing group\'s balance and open slips at the 請求先 and at each site', async () => {
      assert.deepEqual(slips.map((s) => s.sl_total), [2592, 1296, 1296]);
      const head = await receivable(ids.head);
      assert.equal(head.balance, 1296 - 3000, 'its own: its slip less the payment');
      assert.deepEqual(head.billing, { cl_id: ids.head, name: '売掛本社', balance: 2592 + 1296 + 1296 - 3000, sites: 2 });
      // The payment covers the oldest slip (2,592) and 408 of the next.
      assert.deepEqual(brief(head.open_items), [[slips[1].sl_id, ids.siteB, 1296, 888], [slips[2].sl_id, ids.head, 1296, 1296]]);
      assert.deepEqual(head.oldest_unpaid, head.open_items[0]);
      assert.equal(head.open_items[0].client_name, '売掛渋谷出張所');
      assert.equal(head.last_payment?.amount, 3000);
      const site = await receivable(ids.siteB);
      assert.equal(site.balance, 1296, 'a site\'s own balance: its slips');
      assert.deepEqual(site.billing, head.billing, 'two levels down: the top of the chain');
      assert.deepEqual(brief(site.open_items), brief(head.open_items));
      const lone = await receivable(ids.lone);
      assert.deepEqual([lone.balance, lone.billing, lone.open_items, lone.last_payment], [0, null, [], null]);
    });

    it('a paid slip leaves the open items; a deleted payment brings it back', async () => {
      const pay = await created('payment', { cl_id: ids.head, date: '2026-05-25', amount: 888, kind: 'cash' });
      assert.deepEqual(brief((await receivable(ids.siteA)).open_items), [[slips[2].sl_id, ids.head, 1296, 1296]]);
      assert.equal((await h.post('payment_del', { id: pay.py_id })).status, 200);
      assert.equal((await receivable(ids.siteA)).open_items.length, 2);
    });

    it('a site\'s order is held against its 請求先\'s credit limit and the group\'s balance, naming them', async () => {
      const order = async (cl: number, quantity: number) =>
        Number((await created('order', { cl_id: cl, date: todayJst(), delivery_fee: 0, lines: [{ it_id: ids.water, quantity }] })).od_id);
      const status = async (id: number) => (await h.post<Row>('order_status', { od_id: id, status: 'waitshipping' })).body[0];
      // Group balance 2,184円 + 9,072円 (7 × 1,296) passes 10,000円; the site itself has no limit of its own.
      const big = await status(await order(ids.siteB, 7));
      assert.equal(big.status, 'pending', JSON.stringify(big));
      const held = (await h.post<Row>('order_dtl', { id: big.od_id })).body[0];
      assert.equal(held.od_hold_reason, '与信限度額を超えるため保留にしました（請求先「売掛本社」の限度額 10,000円、売掛残高 2,184円（納品先 2件を含む）＋この受注 9,072円）。');
      const small = await status(await order(ids.siteB, 1));
      assert.equal(small.status, 'waitshipping', JSON.stringify(small));
      // The same order for a customer billed on its own passes: its balance is 0.
      assert.equal((await status(await order(ids.lone, 7))).status, 'waitshipping');
      const lone = await status(await order(ids.lone, 8));
      assert.equal(lone.status, 'pending');
      assert.equal((await h.post<Row>('order_dtl', { id: lone.od_id })).body[0].od_hold_reason, '与信限度額を超えるため保留にしました（限度額 10,000円、売掛残高 0円＋この受注 10,368円）。');
    });

    it('once billed, the open items are the latest invoice (carrying the earlier ones) and the slips since, less the payments since', async () => {
      const cl = Number((await created('client', { co_name: '売掛請求済み商店', status: '1', tel_1: '03-1234-5678', zei_ten: '2', sime_gp: '25' })).cl_id);
      const sale = async (date: string, quantity: number) => created('sales', { cl_id: cl, date, lines: [{ it_id: ids.water, quantity }] });
      await sale('2026-04-03', 2);
      await sale('2026-04-10', 1);
      await created('payment', { cl_id: cl, date: '2026-04-20', amount: 1000, kind: 'transfer' });
      const close = async (ym: string) => {
        const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: '25', sime_ym: ym });
        assert.equal(run.status, 200, run.text);
        assert.equal((await jobEnded(h, run.body[0].job_id)).state, 'done');
        return (await h.post<Row>('billing_lst', { postData: JSON.stringify({ cl_id: cl }) })).body[0];
      };
      // 25日締め 2026-04: 前回 0 − 入金 1,000 + 3,600 + 消費税 288 = 2,888円.
      const april = await close('202604');
      assert.equal(april.bl_total, 2888);
      const may = await sale('2026-05-02', 1);
      await created('payment', { cl_id: cl, date: '2026-05-10', amount: 2000, kind: 'transfer' });
      const summary = await receivable(cl);
      assert.equal(summary.balance, 2592 + 1296 + 1296 - 3000);
      // The payment since pays 2,000 of the invoice; the May slip is open whole. The billed slips are not listed again.
      assert.deepEqual(brief(summary.open_items), [[`請求 ${String(april.bl_number)}`, cl, 2888, 888], [may.sl_id, cl, 1296, 1296]]);
      assert.equal(summary.open_items.reduce((sum, i) => sum + i.unpaid, 0), summary.balance, 'the open items add up to the balance');
      assert.deepEqual(summary.oldest_unpaid, summary.open_items[0]);
      // The next closing carries the invoice's unpaid part: only the newer invoice stands for both.
      const next = await close('202605');
      assert.equal(next.bl_prev_total, 2888);
      const after = await receivable(cl);
      assert.deepEqual(brief(after.open_items), [[`請求 ${String(next.bl_number)}`, cl, 2184, 2184]]);

      // The April invoice is carried by May's (繰越): 残額 0, and 消込 goes to the latest only — a payment matched to April
      // is allocated to May's, which carries it (issue 19).
      const carried = (await h.post<Row>('billing_dtl', { id: april.bl_id })).body[0];
      assert.deepEqual([carried.bl_open, carried.bl_carried_by], [0, next.bl_id]);
      const pay = await created('payment', { cl_id: cl, date: '2026-06-01', amount: 500, kind: 'transfer' });
      const moved = await h.post<{ allocations: Row[]; modified: string }>('payment_allocate', { py_id: pay.py_id, modified: pay.modified, postData: JSON.stringify({ lines: [{ bl_id: april.bl_id, amount: 500 }] }) });
      assert.equal(moved.status, 200, moved.text);
      assert.deepEqual(moved.body[0].allocations.map((a) => [a.al_bl_id, a.al_amount]), [[next.bl_id, 500]], 'allocated to the invoice that carries April');
      const cleared = await h.post<{ modified: string }>('payment_allocate', { py_id: pay.py_id, modified: moved.body[0].modified, postData: JSON.stringify({ lines: [] }) });
      assert.equal(cleared.status, 200, cleared.text);
      const auto = await h.post<{ allocations: Row[] }>('payment_allocate', { py_id: pay.py_id, modified: cleared.body[0].modified, auto: 1 });
      assert.equal(auto.status, 200, auto.text);
      assert.deepEqual(auto.body[0].allocations.map((a) => [a.al_bl_id, a.al_amount]), [[next.bl_id, 500]], 'auto 消込 pays the latest invoice');
      const removed = await h.post<Row>('allocation_del', { al_id: auto.body[0].allocations[0].al_id });
      assert.equal(removed.status, 200, removed.text);
      // 締め戻し of May: April is the latest again, open by what it lacks.
      assert.equal((await h.post('closing_restore', { sime_gp: '25', sime_ym: '202605' })).status, 200);
      const back = (await h.post<Row>('billing_dtl', { id: april.bl_id })).body[0];
      assert.deepEqual([back.bl_open, back.bl_carried_by], [2888, null]);
    });

    it('the aging list (売掛金年齢表) adds up to 売掛残高: the opening balance, unbilled slips and payments not 消込 (前受・未消込) count', async () => {
      const head = Number((await created('client', { co_name: '年齢表残高商事', status: '1', tel_1: '03-1234-5678', zei_ten: '2', sime_gp: '15', opening_balance: 5000, opening_balance_date: '2026-01-01' })).cl_id);
      const site = Number((await created('client', { co_name: '年齢表残高商事 営業所', status: '1', tel_1: '03-1234-5678', zei_ten: '2', sime_gp: '15', parent_id: head })).cl_id);
      const agingRow = async () => {
        const res = await h.post<{ rows: Row[] }>('aging_lst', { n: 1000 });
        assert.equal(res.status, 200, res.text);
        const row = res.body[0].rows.find((r) => Number(r.cl_id) === head);
        assert.ok(row, 'the 請求先 has a row');
        return row;
      };
      const owed = async () => {
        const summary = await receivable(head);
        return summary.billing?.balance ?? summary.balance;
      };
      await created('sales', { cl_id: head, date: '2026-03-05', lines: [{ it_id: ids.water, quantity: 2 }] });
      await created('payment', { cl_id: head, date: '2026-03-10', amount: 1000, kind: 'transfer' });
      // Before any invoice: 開始売掛残高 5,000 + 2,592 unbilled, the payment 1,000 not 消込.
      let row = await agingRow();
      assert.deepEqual([row.unbilled, row.unallocated, row.total], [7592, -1000, 6592]);
      assert.equal(row.total, await owed());

      const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: '15', sime_ym: '202603' });
      assert.equal(run.status, 200, run.text);
      assert.equal((await jobEnded(h, run.body[0].job_id)).state, 'done');
      const [invoice] = (await h.post<Row>('billing_lst', { postData: JSON.stringify({ cl_id: head }) })).body;
      assert.equal(invoice.bl_total, 6592);
      // After it: 3,000 paid, 2,000 of it 消込 to the invoice, 1,000 left over (前受); a site's slip not billed yet.
      const pay = await created('payment', { cl_id: head, date: '2026-03-20', amount: 3000, kind: 'transfer' });
      const allocated = await h.post('payment_allocate', { py_id: pay.py_id, modified: pay.modified, postData: JSON.stringify({ lines: [{ bl_id: invoice.bl_id, amount: 2000 }] }) });
      assert.equal(allocated.status, 200, allocated.text);
      await created('sales', { cl_id: site, date: '2026-03-25', lines: [{ it_id: ids.water, quantity: 1 }] });
      row = await agingRow();
      assert.deepEqual([row.unbilled, row.unallocated, row.total], [1296, -1000, 4592 + 1296 - 1000]);
      assert.equal(row.total, await owed(), 'the aging total is the 売掛残高 of the 請求先 and its site');
      assert.equal(await owed(), 5000 + 2592 + 1296 - 1000 - 3000);
    });
  });
}
