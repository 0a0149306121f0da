/**
 * 消込 (`allocation_lst`, `payment_allocate`, `allocation_del`; server/sales/allocation.ts): automatic oldest first,
 * by hand, partial, an over-payment left as credit, a delivery site's payment on its 請求先's invoices, un-allocating
 * one allocation, a refund on a credit invoice; every refusal in Japanese naming the line and changing nothing; a stale
 * edit refused; an allocated payment keeps its amount and customer and is not deleted; the invoices' 消込済額 and 残額
 * follow in the same transaction; audit rows; who may call; two payments racing for one invoice. Both dialects.
 * The invoices are inserted by the test (as a closing would write them), so the rules are tested alone.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { AllocationRow, PaymentAllocation } from '../../lib/sales/allocation';
import { dialects, resourceCalls, useHarness, type ResourceAnswer } from './harness';

for (const dialect of dialects()) {
  describe(`allocation (${dialect})`, () => {
    const h = useHarness(dialect);
    const { created, save, problem } = resourceCalls(h);
    const keys = { sales: '', accounting: '', delivery: '' };
    const inv = { april: 0, may: 0, june: 0, other: 0, credit: 0 };
    let site = 0;

    /** An invoice as the closing writes one (total = open, nothing allocated). */
    async function invoice(clientId: number, ym: string, total: number): Promise<number> {
      const stamp = new Date().toISOString();
      const closing = `${ym.slice(0, 4)}-${ym.slice(4)}-${ym.slice(4) === '02' ? '28' : '30'}`;
      const row = await h.database.db.insertInto('billing').values({
        bl_number: `B${ym}-${String(clientId).padStart(6, '0')}`, bl_cl_id: clientId, bl_sime_gp: '31', bl_sime_ym: ym, bl_closing_date: closing,
        bl_period_from: `${ym.slice(0, 4)}-${ym.slice(4)}-01`, bl_period_to: closing, bl_due_date: '', bl_name: '', bl_reissued: '', bl_search: '',
        bl_prev_total: 0, bl_paid: 0, bl_carry: 0, bl_sales_net: total, bl_tax_total: 0, bl_total: total, bl_allocated: 0, bl_open: total, bl_print_count: 0,
        created: stamp, modified: stamp,
      }).returning('bl_id').executeTakeFirstOrThrow();
      return Number(row.bl_id);
    }
    const bill = async (id: number) => (await h.post<ResourceAnswer>('billing_dtl', { id })).body[0];
    const payment = (postData: Record<string, unknown>) => created('payment', { kind: 'transfer', date: '2026-06-10', ...postData });
    const allocate = (py: ResourceAnswer | PaymentAllocation, params: Record<string, unknown>, key?: string) =>
      h.post<PaymentAllocation>('payment_allocate', { py_id: py.py_id, modified: py.modified, ...params }, key);
    const byHand = (py: ResourceAnswer | PaymentAllocation, lines: unknown[]) => allocate(py, { postData: JSON.stringify({ lines }) });
    const ok = async (answer: Promise<{ status: number; text: string; body: PaymentAllocation[] }>) => {
      const res = await answer;
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const opens = async (): Promise<Record<string, number>> => Object.fromEntries(await Promise.all(Object.entries(inv).map(async ([k, id]): Promise<[string, number]> => [k, Number((await bill(id)).bl_open)])));

    before(async () => {
      const { abc, yamada } = h.fixtures.clients;
      site = Number((await created('client', { co_name: 'ＡＢＣ商事 渋谷営業所', status: '1', tel_1: '03-5555-0000', parent_id: abc })).cl_id);
      inv.april = await invoice(abc, '202604', 5000);
      inv.may = await invoice(abc, '202605', 3000);
      inv.june = await invoice(abc, '202606', 2000);
      inv.other = await invoice(yamada, '202605', 9000);
      inv.credit = await invoice(abc, '202603', -800);
      const { sales, accounting, delivery } = h.fixtures.users;
      keys.sales = await h.keyOf(sales.email, sales.password);
      keys.accounting = await h.keyOf(accounting.email, accounting.password);
      keys.delivery = await h.keyOf(delivery.email, delivery.password);
    });

    it('allocates automatically to the oldest open invoices first and lowers their 残額 in the same call', async () => {
      const py = await payment({ cl_id: h.fixtures.clients.abc, amount: 6000 });
      const answer = await ok(allocate(py, { auto: 1 }));
      assert.deepEqual(answer.allocations.map((a) => [a.al_bl_id, a.al_amount]), [[inv.april, 5000], [inv.may, 1000]], 'April in full, then May');
      assert.deepEqual([answer.allocated, answer.unallocated], [6000, 0]);
      assert.notEqual(answer.modified, py.modified, 'the payment\'s version moved');
      const april = await bill(inv.april);
      assert.deepEqual([april.bl_allocated, april.bl_open], [5000, 0]);
      assert.deepEqual([(await bill(inv.may)).bl_open, (await bill(inv.june)).bl_open], [2000, 2000]);
      const again = await allocate(answer, { auto: 1 });
      assert.equal(again.status, 400);
      assert.match(problem(again).error, /全額消込済み/);
      const listed = (await h.post<AllocationRow>('allocation_lst', { bl_id: inv.may })).body;
      assert.deepEqual(listed.map((a) => [a.al_py_id, a.al_amount, a.py_amount]), [[py.py_id, 1000, 6000]], 'the invoice lists its payments');
      assert.equal(listed[0].user_name, '管理 太郎');
    });

    it('allocates by hand and partially; what is left stays on the payment as credit; a site\'s payment goes to its 請求先\'s invoices', async () => {
      const py = await payment({ cl_id: site, amount: 4500 });
      const answer = await ok(byHand(py, [{ bl_id: inv.may, amount: '１,５００' }, { bl_id: inv.june, amount: 2000 }]));
      assert.deepEqual(answer.allocations.map((a) => [a.al_bl_id, a.al_amount]), [[inv.may, 1500], [inv.june, 2000]], 'full-width digits and commas are read');
      assert.deepEqual([answer.allocated, answer.unallocated], [3500, 1000], 'the over-payment stays unallocated (credit)');
      assert.deepEqual([(await bill(inv.may)).bl_open, (await bill(inv.june)).bl_open], [500, 0]);
      // Auto fills the rest on top of what is there: May's last 500.
      const filled = await ok(allocate(answer, { auto: 1 }));
      assert.deepEqual(filled.allocations.map((a) => [a.al_bl_id, a.al_amount]), [[inv.may, 2000], [inv.june, 2000]]);
      assert.equal(filled.unallocated, 500);
      // Replacing with fewer lines moves the money back; an empty list removes every allocation.
      const fewer = await ok(byHand(filled, [{ bl_id: inv.june, amount: 1200 }]));
      assert.deepEqual(fewer.allocations.map((a) => [a.al_bl_id, a.al_amount]), [[inv.june, 1200]]);
      assert.deepEqual([(await bill(inv.may)).bl_open, (await bill(inv.june)).bl_open], [2000, 800]);
      const none = await ok(byHand(fewer, []));
      assert.deepEqual([none.allocations.length, none.allocated, none.unallocated], [0, 0, 4500]);
      assert.deepEqual([(await bill(inv.may)).bl_open, (await bill(inv.june)).bl_open], [2000, 2000]);
    });

    it('refuses bad allocations in Japanese, naming the line, and changes nothing', async () => {
      const py = await payment({ cl_id: h.fixtures.clients.abc, amount: 3000 });
      const before = await opens();
      const cases: [unknown[], string, RegExp][] = [
        [[{ bl_id: inv.other, amount: 1000 }], 'lines.0.bl_id', /別の請求先の請求書です。入金の請求先「株式会社ABC商事」/],
        [[{ bl_id: inv.may, amount: 2500 }], 'lines.0.amount', /残額 2,000円 を超えて消込できません/],
        [[{ bl_id: inv.may, amount: 2000 }, { bl_id: inv.june, amount: 2000 }], 'lines', /消込額の合計 4,000円 が入金額 3,000円 を超えています/],
        [[{ bl_id: inv.may, amount: '12.5' }], 'lines.0.amount', /1行目：消込額は整数で入力してください/],
        [[{ bl_id: inv.may, amount: 0 }], 'lines.0.amount', /0円は指定できません/],
        [[{ bl_id: inv.may, amount: -100 }], 'lines.0.amount', /入金額と同じ符号/],
        [[{ bl_id: inv.may, amount: 100 }, { bl_id: inv.may, amount: 100 }], 'lines.1.bl_id', /2行目：同じ請求書が2回/],
        [[{ bl_id: 999_999, amount: 100 }], 'lines.0.bl_id', /請求書が見つかりません（ID 999999）/],
        [[{ bl_id: inv.credit, amount: 100 }], 'lines.0.amount', /残額 -800円 を超えて/],
        [[{ amount: 100 }], 'lines.0.bl_id', /請求書を選んでください/],
      ];
      for (const [lines, field, message] of cases) {
        const res = await byHand(py, lines);
        assert.equal(res.status, 400, `${JSON.stringify(lines)}: ${res.text}`);
        assert.match((problem(res)).fields?.[field] ?? '', message, JSON.stringify(lines));
      }
      assert.equal((await allocate(py, { postData: JSON.stringify({ lines: 'x' }) })).status, 400);
      assert.equal((await allocate(py, {})).status, 400, 'neither lines nor auto');
      assert.equal((await h.post('allocation_lst', {})).status, 400, 'neither py_id nor bl_id');
      const stale = await allocate({ ...py, modified: '2020-01-01T00:00:00.000Z' }, { auto: 1 });
      assert.equal(stale.status, 409, 'a stale edit is refused');
      assert.equal((await h.post('payment_allocate', { py_id: 999_999, modified: 'x', auto: 1 })).status, 404);
      assert.deepEqual(await opens(), before, 'no invoice moved');
      assert.equal((await h.post<AllocationRow>('allocation_lst', { py_id: py.py_id })).body.length, 0);
      assert.equal((await h.post<ResourceAnswer>('payment_dtl', { id: py.py_id })).body[0].modified, py.modified, 'nor the payment');
    });

    it('keeps an allocated payment\'s amount and customer, refuses its delete naming the invoices, and un-allocates one allocation only', async () => {
      const py = await payment({ cl_id: h.fixtures.clients.abc, amount: 2500 });
      const answer = await ok(byHand(py, [{ bl_id: inv.may, amount: 1500 }, { bl_id: inv.june, amount: 1000 }]));
      const amount = await save('payment', { amount: 3000, modified: answer.modified }, Number(py.py_id));
      assert.equal(amount.status, 400);
      assert.match(problem(amount).fields?.amount ?? '', /この入金は請求書 B202605-\d+、B202606-\d+ に消込済みのため金額・顧客を変更できません。先に消込を取り消してください。/);
      const customer = await save('payment', { cl_id: h.fixtures.clients.yamada, modified: answer.modified }, Number(py.py_id));
      assert.equal(customer.status, 400);
      assert.ok(problem(customer).fields?.cl_id, 'the refusal names the customer field');
      const deleted = await h.post('payment_del', { id: py.py_id });
      assert.equal(deleted.status, 400);
      assert.match(problem(deleted).error, /消込済みのため削除できません/);
      const note = await save('payment', { biko: '5月・6月分', modified: answer.modified }, Number(py.py_id));
      assert.equal(note.status, 200, `other fields may change: ${note.text}`);

      const [may] = answer.allocations;
      const removed = await h.post<PaymentAllocation>('allocation_del', { al_id: may.al_id });
      assert.equal(removed.status, 200, removed.text);
      assert.deepEqual(removed.body[0].allocations.map((a) => [a.al_bl_id, a.al_amount]), [[inv.june, 1000]], 'only the chosen allocation goes');
      assert.deepEqual([removed.body[0].allocated, removed.body[0].unallocated], [1000, 1500]);
      assert.deepEqual([(await bill(inv.may)).bl_open, (await bill(inv.june)).bl_open], [2000, 1000]);
      const twice = await h.post('allocation_del', { al_id: may.al_id });
      assert.equal(twice.status, 404);
      assert.match(problem(twice).error, /すでに取り消された/);
      await ok(byHand(removed.body[0], []));
      assert.equal((await h.post('payment_del', { id: py.py_id })).status, 200, 'without allocations it is deleted');
    });

    it('allocates a refund (a negative payment) to a credit invoice, never past zero', async () => {
      const py = await payment({ cl_id: h.fixtures.clients.abc, amount: -1000 });
      const answer = await ok(allocate(py, { auto: 1 }));
      assert.deepEqual(answer.allocations.map((a) => [a.al_bl_id, a.al_amount]), [[inv.credit, -800]]);
      assert.deepEqual([answer.allocated, answer.unallocated], [-800, -200]);
      assert.deepEqual([(await bill(inv.credit)).bl_allocated, (await bill(inv.credit)).bl_open], [-800, 0]);
      await ok(byHand(answer, []));
    });

    it('writes an audit row per allocation added, changed and removed', async () => {
      const count = async (call: string) => Number((await h.database.db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('log_table', '=', 'allocation').where('log_call', '=', call).executeTakeFirstOrThrow()).n);
      const before = { allocate: await count('payment_allocate'), del: await count('allocation_del') };
      const py = await payment({ cl_id: h.fixtures.clients.abc, amount: 1000 });
      const a = await ok(byHand(py, [{ bl_id: inv.june, amount: 400 }, { bl_id: inv.may, amount: 100 }]));
      const b = await ok(byHand(a, [{ bl_id: inv.june, amount: 500 }, { bl_id: inv.may, amount: 100 }]));
      assert.equal((await h.post('allocation_del', { al_id: b.allocations.find((x) => x.al_bl_id === inv.june)!.al_id })).status, 200);
      assert.equal(await count('payment_allocate'), before.allocate + 3, 'two added, one changed (the unchanged line is not logged)');
      assert.equal(await count('allocation_del'), before.del + 1);
      const [row] = await h.database.db.selectFrom('audit_log').select(['log_changes', 'log_user_id']).where('log_call', '=', 'allocation_del').orderBy('log_id', 'desc').limit(1).execute();
      assert.deepEqual(JSON.parse(String(row.log_changes)), { al_bl_id: [inv.june, null], al_py_id: [py.py_id, null], al_amount: [500, null] });
      const rest = (await h.post<AllocationRow>('allocation_lst', { py_id: py.py_id })).body;
      await ok(byHand({ py_id: py.py_id, modified: (await h.post<ResourceAnswer>('payment_dtl', { id: py.py_id })).body[0].modified }, []));
      assert.equal(rest.length, 1);
    });

    it('lets 経理 allocate and 営業 only read; 配送 neither', async () => {
      const py = await payment({ cl_id: h.fixtures.clients.abc, amount: 100 });
      assert.equal((await allocate(py, { auto: 1 }, keys.sales)).status, 403);
      assert.equal((await h.post('allocation_lst', { py_id: py.py_id }, keys.sales)).status, 200);
      assert.equal((await h.post('allocation_lst', { py_id: py.py_id }, keys.delivery)).status, 403);
      const answer = await ok(allocate(py, { auto: 1 }, keys.accounting));
      assert.equal(answer.allocated, 100);
      assert.equal((await h.post('allocation_del', { al_id: answer.allocations[0].al_id }, keys.sales)).status, 403);
      assert.equal((await h.post('allocation_del', { al_id: answer.allocations[0].al_id }, keys.accounting)).status, 200);
    });

    it('two payments allocated to one invoice at once never take more than its total', async () => {
      const target = await invoice(h.fixtures.clients.halfAbc, '202605', 5000);
      const a = await payment({ cl_id: h.fixtures.clients.halfAbc, amount: 4000 });
      const b = await payment({ cl_id: h.fixtures.clients.halfAbc, amount: 4000 });
      const answers = await Promise.all([byHand(a, [{ bl_id: target, amount: 4000 }]), byHand(b, [{ bl_id: target, amount: 4000 }])]);
      assert.deepEqual(answers.map((r) => r.status).sort(), [200, 400], answers.map((r) => r.text).join(' / '));
      assert.match(problem(answers.find((r) => r.status === 400)!).error, /残額 1,000円 を超えて/);
      const row = await bill(target);
      assert.deepEqual([row.bl_allocated, row.bl_open], [4000, 1000]);
    });
  });
}
