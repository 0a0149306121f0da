/**
 * 入金伝票 (`payment_*`, issue 12): save with `{ cl_id, date, amount, kind }`, refusals in Japanese that
 * change nothing, a stale edit refused, the list's filters (date range, customer, kind, amount range),
 * keyword, totals and CSV, and who may write. Both dialects.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Problem = { error: string; fields?: Record<string, string> };

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const keys = { sales: '', accounting: '', delivery: '' };

    const save = (postData: Record<string, unknown>, id?: number, key?: string) =>
      h.post<Row>('payment_save', { id, postData: JSON.stringify(postData) }, key);
    const saved = async (postData: Record<string, unknown>): Promise<Row> => {
      const res = await save(postData);
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const list = (filters: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      h.post<Row>('payment_lst', { n: 100, col: 'py_date', odr: 'asc', postData: JSON.stringify(filters), ...extra });

    before(async () => {
      const { sales, accounting, delivery } = h.fixtures.users;
      keys.sales = await h.keyOf(sales.email, sales.password);
      keys.accounting = await h.keyOf(accounting.email, accounting.password);
      keys.delivery = await h.keyOf(delivery.email, delivery.password);
    });

    it('saves a payment from { cl_id, date, amount, kind } and answers it with the customer named', async () => {
      const { abc } = h.fixtures.clients;
      const row = await saved({ cl_id: abc, date: '2026-04-27', amount: '１２,３４０', kind: 'debit', bank: '0005', biko: '3月分' });
      assert.equal(row.py_cl_id, abc);
      assert.equal(row.py_amount, 12340, 'full-width digits and commas are read');
      assert.equal(row.py_kind, 'debit');
      assert.equal(row.py_cl_id_label, '株式会社ABC商事');
      const detail = (await h.post<Row>('payment_dtl', { id: row.py_id })).body[0];
      assert.equal(detail.py_bank_label, '三菱UFJ銀行', 'the bank is named from mt_bank');
      const refund = await saved({ cl_id: abc, date: '2026-04-30', amount: -1300, kind: 'transfer' });
      assert.equal(refund.py_amount, -1300, 'a refund is a negative payment');
      const minimal = await saved({ cl_id: abc, date: '2026-05-01', amount: 500, kind: 'cash' });
      assert.equal(minimal.py_bank, '');
      const edited = await save({ amount: 550, modified: minimal.modified }, Number(minimal.py_id));
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.body[0].py_amount, 550);
      const stale = await save({ amount: 600, modified: minimal.modified }, Number(minimal.py_id));
      assert.equal(stale.status, 409, 'a stale edit is refused');
      assert.equal((await h.post<Row>('payment_dtl', { id: minimal.py_id })).body[0].py_amount, 550);
    });

    it('refuses bad payments in Japanese, naming the field, and saves nothing', async () => {
      const { abc } = h.fixtures.clients;
      const before = (await h.post<number>('payment_cnt', {})).body[0];
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ cl_id: abc, date: '2026-05-01', amount: 0, kind: 'cash' }, 'amount', /0円は入力できません/],
        [{ cl_id: abc, date: '2026-05-01', kind: 'cash' }, 'amount', /金額/],
        [{ cl_id: abc, date: '2026-05-01', amount: 100_000_000, kind: 'cash' }, 'amount', /金額は99999999以下/],
        [{ cl_id: abc, date: '2026-05-01', amount: 100, kind: 'card' }, 'kind', /入金区分の選択肢にない値/],
        [{ cl_id: 999_999, date: '2026-05-01', amount: 100, kind: 'cash' }, 'cl_id', /顧客が見つかりません（ID 999999）/],
        [{ date: '2026-05-01', amount: 100, kind: 'cash' }, 'cl_id', /顧客/],
        [{ cl_id: abc, date: '2026-02-30', amount: 100, kind: 'cash' }, 'date', /入金日は YYYY-MM-DD/],
        [{ cl_id: abc, date: '2026-05-01', amount: 1.5, kind: 'cash' }, 'amount', /整数/],
      ];
      for (const [values, field, message] of cases) {
        const res = await save(values);
        assert.equal(res.status, 400, `${JSON.stringify(values)}: ${res.text}`);
        assert.match((res.body[0] as unknown as Problem).fields?.[field] ?? '', message, JSON.stringify(values));
      }
      assert.equal((await h.post<number>('payment_cnt', {})).body[0], before);
    });

    it('lists by date range, customer, kind and amount range, with the keyword, totals and CSV', async () => {
      const { yamada, percent } = h.fixtures.clients;
      const ids = [
        await saved({ cl_id: yamada, date: '2026-06-05', amount: 3000, kind: 'transfer', bank: '0001', biko: '6月分 振込' }),
        await saved({ cl_id: yamada, date: '2026-06-05', amount: 440, kind: 'fee', biko: '振込手数料' }),
        await saved({ cl_id: yamada, date: '2026-07-27', amount: 5000, kind: 'debit', bank: '0001' }),
        await saved({ cl_id: percent, date: '2026-06-20', amount: 800, kind: 'discount', biko: '端数値引' }),
      ].map((r) => r.py_id);
      const june = await list({ date: ['2026-06-01', '2026-06-30'] });
      assert.deepEqual(june.body.map((r) => r.py_id).sort(), [ids[0], ids[1], ids[3]].sort());
      assert.deepEqual((await list({ cl_id: String(yamada) })).body.map((r) => r.py_id), [ids[0], ids[1], ids[2]]);
      assert.deepEqual((await h.post<Row>('payment_lst', { cl_id: yamada, n: 100 })).body.length, 3, 'the customer\'s 入金 tab');
      assert.deepEqual((await list({ kind: ['fee', 'discount'] })).body.map((r) => r.py_id), [ids[1], ids[3]]);
      assert.deepEqual((await list({ cl_id: String(yamada), amount: [1000, ''] })).body.map((r) => r.py_id), [ids[0], ids[2]]);
      assert.deepEqual((await list({}, { kw: '振込手数料' })).body.map((r) => r.py_id), [ids[1]]);
      const [sum] = (await h.post<Row>('payment_sum', { postData: JSON.stringify({ cl_id: String(yamada) }) })).body;
      assert.equal(sum.py_amount, 8440, 'the totals row of the customer\'s payments');
      assert.equal((await list({ kind: ['gift'] })).status, 400, 'an unknown kind is refused');
      assert.equal((await list({ date: ['2026-07-01', '2026-06-01'] })).status, 400, 'a reversed range is refused');

      const csv = await h.request(`${h.config.dbApiPrefix}/payment_csv`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ authKey: h.adminKey, enc: 'utf8', col: 'py_date', odr: 'asc', postData: JSON.stringify({ cl_id: String(yamada) }) }),
      });
      assert.equal(csv.status, 200);
      const lines = csv.text.replace(/^\uFEFF/, '').trim().split('\r\n');
      assert.equal(lines[0], '入金日,顧客,入金区分,銀行,金額,備考');
      assert.equal(lines[1], '2026-06-05,山田商店,振込,みずほ銀行,3000,6月分 振込');
      assert.equal(lines.length, 4);
    });

    it('lets 営業 read and 経理 write payments; 配送 neither', async () => {
      const { abc } = h.fixtures.clients;
      const values = { cl_id: abc, date: '2026-05-10', amount: 1000, kind: 'cash' };
      assert.equal((await save(values, undefined, keys.accounting)).status, 200);
      assert.equal((await save(values, undefined, keys.sales)).status, 403);
      assert.equal((await h.post('payment_lst', {}, keys.sales)).status, 200);
      assert.equal((await h.post('payment_lst', {}, keys.delivery)).status, 403);
    });
  });
}
