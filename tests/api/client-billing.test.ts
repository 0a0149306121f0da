/**
 * The customer's tax and billing fields (issue 12): 請求親顧客 chains never loop and end at the billing customer,
 * 開始売掛残高 and its date, 税転嫁 2–5 only (1 refused; migration 0027 moves old data), and orders priced by
 * the one money computation with those terms (内税, unit prices of two decimals, the order line's price column).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { todayJst } from '../../lib/format';
import { billingCustomerOf, parentChain } from '../../server/clients/billing-chain';
import * as moneyTermsData from '../../server/db/migrations/0027-money-terms-data';
import { dialects, resourceCalls, useHarness, type ResourceAnswer } from './harness';

const today = todayJst();

describe('loops of 請求親顧客 in old data (migration 0027 loopBreakers)', () => {
  it('names the lowest id of every loop once, and nothing for chains', () => {
    assert.deepEqual(moneyTermsData.loopBreakers(new Map([[1, 2], [2, 1], [3, 1]])), [1]);
    assert.deepEqual(moneyTermsData.loopBreakers(new Map([[5, 6], [6, 7], [7, 5], [8, 8], [9, 5], [10, 11]])).sort((a, b) => a - b), [5, 8]);
    assert.deepEqual(moneyTermsData.loopBreakers(new Map([[1, 2], [2, 3], [4, 3]])), []);
  });
});

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { save, created, problem } = resourceCalls(h);
    const customer = async (name: string, values: Record<string, unknown> = {}) =>
      Number((await created('client', { status: '1', tel_1: '03-2222-3333', co_name: name, pref: '東京都', ...values })).cl_id);
    const detail = async (id: number): Promise<ResourceAnswer> => (await h.post<ResourceAnswer>('client_dtl', { id })).body[0];
    const edit = async (id: number, values: Record<string, unknown>) => save('client', { ...values, modified: (await detail(id)).modified }, id);

    describe('請求親顧客', () => {
      const ids = { head: 0, branch: 0, site: 0 };
      before(async () => {
        ids.head = await customer('請求テスト本社');
        ids.branch = await customer('請求テスト支店', { parent_id: ids.head });
        ids.site = await customer('請求テスト営業所', { parent_id: ids.branch });
      });

      it('bills a delivery site to the top of its chain', async () => {
        assert.equal(await billingCustomerOf(h.database.db, ids.site), ids.head);
        assert.equal(await billingCustomerOf(h.database.db, ids.branch), ids.head);
        assert.equal(await billingCustomerOf(h.database.db, ids.head), ids.head);
        assert.deepEqual((await parentChain(h.database.db, ids.site)).map((l) => l.name), ['請求テスト営業所', '請求テスト支店', '請求テスト本社']);
        assert.equal((await detail(ids.site)).cl_parent_id_label, '請求テスト支店');
      });

      it('refuses a parent that would make the chain loop, naming the loop, and changes nothing', async () => {
        const before = await detail(ids.head);
        const refused = await edit(ids.head, { parent_id: ids.site, biko_1: '変わらない' });
        assert.equal(refused.status, 400, refused.text);
        const message = problem(refused).fields?.parent_id ?? '';
        assert.match(message, /請求先が循環します（請求テスト本社 → 請求テスト営業所 → 請求テスト支店 → 請求テスト本社）/);
        assert.equal(problem(refused).error, message);
        const after = await detail(ids.head);
        assert.deepEqual([after.cl_parent_id, after.cl_biko_1, after.modified], [null, before.cl_biko_1, before.modified]);
        const two = await edit(ids.branch, { parent_id: ids.site });
        assert.match(problem(two).fields?.parent_id ?? '', /請求テスト支店 → 請求テスト営業所 → 請求テスト支店/);
      });

      it('takes a parent outside the chain, and a missing one is refused', async () => {
        const other = await customer('請求テスト別会社');
        const moved = await edit(ids.site, { parent_id: other });
        assert.equal(moved.status, 200, moved.text);
        assert.equal(await billingCustomerOf(h.database.db, ids.site), other);
        const missing = await edit(ids.site, { parent_id: 99_999_999 });
        assert.match(problem(missing).fields?.parent_id ?? '', /請求親顧客が見つかりません/);
        assert.equal((await edit(ids.site, { parent_id: ids.branch })).status, 200);
      });
    });

    describe('開始売掛残高 and 税転嫁', () => {
      it('saves an opening balance, negative too, with its date; a balance without a date is refused', async () => {
        const id = await customer('開始残高テスト', { opening_balance: '-12,345', opening_balance_date: '2026-03-31' });
        const row = await detail(id);
        assert.deepEqual([row.cl_opening_balance, row.cl_opening_balance_date], [-12345, '2026-03-31']);
        const refused = await edit(id, { opening_balance: 5000, opening_balance_date: '' });
        assert.equal(refused.status, 400);
        assert.match(problem(refused).fields?.opening_balance_date ?? '', /基準日も入力してください/);
        assert.equal((await detail(id)).cl_opening_balance, -12345);
        assert.equal((await edit(id, { opening_balance: '' , opening_balance_date: '' })).status, 200);
      });

      it('offers 2–5, starts new customers at 3 外税・請求単位 and refuses 1 明細単位', async () => {
        const id = await customer('税転嫁テスト');
        assert.equal((await detail(id)).cl_zei_ten, '3');
        const refused = await edit(id, { zei_ten: '1' });
        assert.equal(refused.status, 400);
        assert.match(problem(refused).fields?.zei_ten ?? '', /税転嫁の選択肢にない値です/);
        assert.equal((await detail(id)).cl_zei_ten, '3');
        for (const code of ['2', '4', '5']) assert.equal((await edit(id, { zei_ten: code })).status, 200);
        assert.equal((await detail(id)).cl_zei_ten, '5');
      });

      it('migrates old data: 1 and empty 税転嫁 to 3, parents naming nobody or themselves cleared, loops broken, deposits 不課税', async () => {
        const { db } = h.database;
        const [a, b, c, d] = [await customer('移行A'), await customer('移行B'), await customer('移行C'), await customer('移行D')];
        await db.updateTable('client').set({ cl_zei_ten: '1', cl_parent_id: 99_999_999 }).where('cl_id', '=', a).execute();
        await db.updateTable('client').set({ cl_zei_ten: '', cl_parent_id: c }).where('cl_id', '=', b).execute();
        await db.updateTable('client').set({ cl_zei_ten: '4', cl_parent_id: b }).where('cl_id', '=', c).execute();
        await db.updateTable('client').set({ cl_parent_id: d }).where('cl_id', '=', d).execute();
        const deposit = Number((await created('item', { code: 'MIG-DEP', name: '移行テスト保証金', unit: '本', price: 1000, tax_class: 'exempt' })).it_id);
        const exempt = Number((await created('item', { code: 'MIG-EX', name: '移行テスト非課税品', unit: '本', price: 1000, tax_class: 'exempt' })).it_id);
        await moneyTermsData.up(db as unknown as Kysely<unknown>, dialect);
        const rows = await db.selectFrom('client').select(['cl_id', 'cl_zei_ten', 'cl_parent_id']).where('cl_id', 'in', [a, b, c, d]).orderBy('cl_id').execute();
        assert.deepEqual(rows.map((r) => [Number(r.cl_id), r.cl_zei_ten, r.cl_parent_id === null ? null : Number(r.cl_parent_id)]),
          [[a, '3', null], [b, '3', null], [c, '4', b], [d, '3', null]]);
        const items = await db.selectFrom('item').select(['it_id', 'it_tax_class']).where('it_id', 'in', [deposit, exempt]).orderBy('it_id').execute();
        assert.deepEqual(items.map((r) => r.it_tax_class), ['outside', 'exempt']);
      });
    });

    describe('入金予定 that cannot happen', () => {
      it('refuses 当月 on a day before the 締日 on save, naming both; an existing one keeps other edits and is listed by the filter', async () => {
        const refused = await save('client', { status: '1', tel_1: '03-2222-3333', co_name: '入金予定テスト商事', sime_gp: '20', collect_cycle: '0', collect_day: 10 });
        assert.equal(refused.status, 400, refused.text);
        const message = '入金予定（当月10日）が締日（20日締め）より前です。締め日より前には請求できないため、回収日を締日以降にするか、回収月を翌月以降にしてください。';
        assert.deepEqual([problem(refused).error, problem(refused).fields?.collect_day], [message, message]);
        const fine = await customer('入金予定テスト商事', { sime_gp: '20', collect_cycle: '0', collect_day: 25 });
        // A change of one of the three fields is checked with the stored others.
        const moved = await edit(fine, { sime_gp: '31' });
        assert.equal(moved.status, 400, moved.text);
        assert.match(problem(moved).error, /^入金予定（当月25日）が締日（末日締め）より前です/);
        assert.equal((await edit(fine, { collect_cycle: '1', sime_gp: '31' })).status, 200);
        // Saved before the rule (written directly): other edits pass, the filter and the home page's item list it.
        const old = await customer('入金予定テスト旧データ', { sime_gp: '20', collect_cycle: '1', collect_day: 10 });
        await h.database.db.updateTable('client').set({ cl_collect_cycle: '0' }).where('cl_id', '=', old).execute();
        assert.equal((await edit(old, { biko_1: '電話番号だけ直す' })).status, 200);
        const filter = JSON.stringify({ payment_terms: ['1'] });
        const listed = await h.post<ResourceAnswer>('client_lst', { postData: filter, n: 100 });
        assert.deepEqual(listed.body.map((r) => Number(r.cl_id)), [old]);
        assert.deepEqual((await h.post('client_cnt', { postData: filter })).body, [1]);
        assert.equal((await edit(old, { collect_day: 20 })).status, 200);
        assert.deepEqual((await h.post('client_cnt', { postData: filter })).body, [0]);
      });
    });

    describe('orders priced by the one money computation', () => {
      const ids = { water: 0, rental: 0, deposit: 0, inside: 0, outside: 0 };
      before(async () => {
        const item = async (code: string, name: string, extra: Record<string, unknown>) =>
          Number((await created('item', { code, name, unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, ...extra })).it_id);
        ids.water = await item('MT-W', '税転嫁テスト水', { price: 96 });
        ids.rental = await item('MT-R', '税転嫁テストレンタル', { price: 1100, tax_class: 'standard', unit: '月' });
        ids.deposit = await item('MT-D', '税転嫁テスト保証金', { price: 1000, tax_class: 'outside' });
        ids.inside = await customer('内税テスト', { zei_ten: '5', zei_kiri: '0', kin_kiri: '0', tanka_type: '2', kake_ritu: 90 });
        ids.outside = await customer('外税テスト', { zei_ten: '2', zei_kiri: '2', kin_kiri: '2' });
      });
      const order = (cl: number, lines: Record<string, unknown>[]) => created('order', { cl_id: cl, date: today, delivery_fee: 0, lines });
      const linesOf = async (id: unknown) => (await h.post<ResourceAnswer>('order_detail_lst', { od_id: Number(id) })).body;

      it('keeps unit prices of two decimals (86.40円) and rounds the line with kin_kiri', async () => {
        const saved = await order(ids.outside, [{ it_id: ids.water, quantity: 3, price: '86.45' }, { it_id: ids.deposit, quantity: 2 }]);
        const [water, deposit] = await linesOf(saved.od_id);
        assert.deepEqual([water.odd_price, water.odd_amount, deposit.odd_tax_class, deposit.odd_tax_rate], [86.45, 259, 'outside', 0]);
        // 8%: 259 × 8% = 20.72 → 21 (四捨五入); 不課税 2000 untaxed.
        assert.deepEqual([saved.od_net_total, saved.od_tax_total, saved.od_uriage_total], [2259, 21, 2280]);
        const refused = await save('order', { cl_id: ids.outside, date: today, lines: [{ it_id: ids.water, quantity: 1, price: '86.455' }] });
        assert.equal(refused.status, 400);
        assert.match(problem(refused).fields?.['lines.0.price'] ?? '', /小数第2位まで/);
      });

      it('prices a 内税 customer tax-inclusive and takes the tax out of each rate’s gross once', async () => {
        const saved = await order(ids.inside, [{ it_id: ids.water, quantity: 3 }, { it_id: ids.rental, quantity: 1 }]);
        const [water, rental] = await linesOf(saved.od_id);
        // 96 × 90% × 1.08 = 93.312 → 93.31 (切捨て); 1100 × 90% × 1.10 = 1089.
        assert.deepEqual([water.odd_price, water.odd_amount, rental.odd_price, rental.odd_amount], [93.31, 279, 1089, 1089]);
        // 8%: 279 × 8/108 = 20.67 → 20; 10%: 1089 × 10/110 = 99. Gross 1368 is the total.
        assert.deepEqual([saved.od_net_total, saved.od_tax_total, saved.od_uriage_total], [1368 - 119, 119, 1368]);
      });
    });
  });
}
