/**
 * 受注取込 (issue 14, server/imports/kinds/order.ts) on both dialects: orders from the template equal the same orders
 * entered by `order_save` (names, prices, tax classes and rates, the fee line, totals to the yen); the same file twice
 * creates nothing twice; every problem named by the row of its line and the column's label, nothing written — all
 * through `import_preview` (the dry run) and `import_commit` (the job).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { orderImportKind } from '../../lib/imports/columns/order';
import type { ImportCommitResult } from '../../lib/imports/runs';
import { todayJst } from '../../lib/format';
import { csvRecords, encodeCsv } from '../../server/resources/csv-text';
import { dialects, resourceCalls, useHarness } from './harness';
import { importCalls } from './import-calls';

type Row = Record<string, string | number | null>;

const today = todayJst();
const HEADER = orderImportKind.columns.map((c) => c.label);

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created } = resourceCalls(h);
    const ids = { water: 0, rental: 0, plain: 0, other: 0, twinA: 0 };
    /** The label of time slot 1416 (the file names it by its label). */
    let slotText = '';

    /** The file of the records, each padded to the header's columns (出荷倉庫 last). */
    const file = (records: string[][]) => encodeCsv(csvRecords([HEADER, ...records.map((r) => [...r, ...Array<string>(HEADER.length - r.length).fill('')])]), 'cp932').bytes;
    const { preview, commit } = importCalls(h, 'order');
    /** The file's dry run, and its commit when it has no error (unless `dryRun`): the preview, and the job's state. */
    const run = async (records: string[][], dryRun = false) => {
      const answer = await preview(file(records));
      if (dryRun || answer.errors.length > 0) return { ...answer, committed: false, result: undefined as ImportCommitResult | undefined };
      const job = await commit(answer.import_id, { confirm_duplicate: '1' });
      assert.equal(job.state, 'done', JSON.stringify(job));
      return { ...answer, committed: true, result: job.result };
    };
    const orderCount = async () => Number((await h.database.db.selectFrom('orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const linesOf = async (id: number) => (await h.post<Row>('order_detail_lst', { od_id: id })).body
      .map((l) => [l.odd_it_id, l.odd_name, l.odd_quantity, l.odd_price, l.odd_amount, l.odd_tax_class, l.odd_tax_rate]);
    const byKey = async (key: string) => {
      const row = await h.database.db.selectFrom('orders').select('od_id').where('od_import_key', '=', key).where('deleted', '=', 0).executeTakeFirst();
      assert.ok(row, `no order of key ${key}`);
      return (await h.post<Row>('order_dtl', { id: Number(row.od_id) })).body[0];
    };

    before(async () => {
      const item = async (code: string, name: string, extra: Record<string, unknown>) =>
        Number((await created('item', { code, name, unit: '本', price: 1200, stock_tracked: 0, ...extra })).it_id);
      ids.water = await item('IMP-W12', '取込テスト天然水 12L', { price: 1296, tax_class: 'reduced' });
      ids.rental = await item('IMP-RENT', '取込テストサーバーレンタル', { price: 1100, tax_class: 'standard', unit: '月' });
      const client = async (values: Record<string, unknown>) => Number((await created('client', { status: '1', pref: '東京都', city: '千代田区', ...values })).cl_id);
      ids.plain = await client({ code: 'IMP-C1', co_name: '取込テスト商事', tel_1: '03-5555-0001', kin_kiri: '0', zei_kiri: '0', tanka_type: '1' });
      ids.other = await client({ co_name: '取込テスト大阪', tel_1: '06-5555-0002', pref: '大阪府', city: '大阪市北区', zei_kiri: '2' });
      ids.twinA = await client({ co_name: '同番号テストA', tel_1: '03-5555-0099' });
      await client({ co_name: '同番号テストB', tel_1: '03-5555-0010', tel_2: '0355550099' });
      const slot = await h.database.db.selectFrom('master_option').select('mo_text').where('mo_table', '=', 'mt_delivery_time').where('mo_value', '=', '1416').executeTakeFirstOrThrow();
      slotText = slot.mo_text;
    });

    it('an order file of two orders with lines of two tax rates makes the orders order_save makes, totals to the yen', async () => {
      const outcome = await run([
        ['T-1', 'IMP-C1', '', today, today, slotText, 'IMP-W12', '3', '', '玄関前'],
        ['T-1', '', '', '', '', '', 'IMP-RENT', '1', '1105.50', ''],
        ['T-2', '', '06-5555-0002', today, '', '', 'IMP-W12', '2', '1015', ''],
        ['T-2', '', '', '', '', '', 'IMP-RENT', '-1', '', ''],
      ]);
      assert.deepEqual(outcome.errors, []);
      assert.ok(outcome.committed);
      assert.deepEqual([outcome.rows, outcome.inserts, outcome.skips], [4, 4, 0]);
      assert.deepEqual(outcome.groups, { inserts: 2, updates: 0, skips: 0 }, 'orders counted apart from their lines');
      assert.equal(outcome.summary, '受注 2件（明細 4行）を取り込みます。');
      assert.deepEqual([outcome.result?.groups, outcome.result?.summary], [{ inserts: 2, updates: 0, skips: 0 }, '受注 2件（明細 4行）を取り込みました。']);
      const hand = [
        await created('order', { cl_id: ids.plain, date: today, delivery_date: today, ht_id: '1416', biko: '玄関前', lines: [{ it_id: ids.water, quantity: 3 }, { it_id: ids.rental, quantity: 1, price: 1105.5 }] }),
        await created('order', { cl_id: ids.other, date: today, lines: [{ it_id: ids.water, quantity: 2, price: 1015 }, { it_id: ids.rental, quantity: -1 }] }),
      ];
      for (const [i, key] of ['T-1', 'T-2'].entries()) {
        const imported = await byKey(key);
        const entered = hand[i];
        for (const column of ['od_cl_id', 'od_date', 'od_delivery_date', 'od_ht_id', 'od_biko', 'od_status', 'od_delivery_fee', 'od_net_total', 'od_tax_total', 'od_uriage_total', 'od_ship_pref', 'od_sk_id']) {
          assert.equal(imported[column], entered[column], `${key} ${column}`);
        }
        assert.deepEqual(await linesOf(Number(imported.od_id)), await linesOf(Number(entered.od_id)), key);
      }
      // T-1 by hand: 1296 × 3 = 3888 at 8% (311.04 → 311), 1105.50 → 1105 at 10% with the fee line.
      const first = await byKey('T-1');
      assert.deepEqual((await linesOf(Number(first.od_id))).slice(0, 2).map((l) => [l[4], l[5], l[6]]), [[3888, 'reduced', 8], [1105, 'standard', 10]]);
      assert.ok(Number(first.od_uriage_total) > 3888 + 1105);
    });

    it('the same file imported twice creates nothing twice: warned, then its 受注キー skipped', async () => {
      const records = [
        ['TWICE-1', '', '03-5555-0001', today, '', '', 'IMP-W12', '1', '', ''],
        ['TWICE-1', '', '', '', '', '', 'IMP-RENT', '1', '', ''],
      ];
      const first = await run(records);
      assert.deepEqual([first.errors, first.inserts, first.committed], [[], 2, true]);
      const count = await orderCount();
      const again = await preview(file(records));
      assert.deepEqual([again.errors, again.inserts, again.skips], [[], 0, 2]);
      assert.equal(again.summary, '受注 0件（明細 0行）を取り込みます（スキップ 受注 1件・明細 2行）。');
      assert.equal(again.imported_before?.import_id, first.import_id);
      const warned = await h.post('import_commit', { import_id: again.import_id });
      assert.equal(warned.status, 409, warned.text);
      const job = await commit(again.import_id, { confirm_duplicate: '1' });
      assert.deepEqual([job.state, job.result?.inserts, job.result?.skips], ['done', 0, 2]);
      assert.equal(await orderCount(), count);
    });

    it('the dry run names the rows it would insert and writes nothing', async () => {
      const count = await orderCount();
      const outcome = await run([['DRY-1', '', '03-5555-0001', today, '', '', 'IMP-W12', '1', '', '']], true);
      assert.deepEqual([outcome.errors, outcome.inserts, outcome.committed], [[], 1, false]);
      assert.equal(await orderCount(), count);
    });

    it('an unknown customer, an unknown item and a bad quantity are named by row and column; nothing is imported', async () => {
      const count = await orderCount();
      const outcome = await run([
        ['BAD-1', '', '03-9999-9999', today, '', '', 'IMP-W12', '1', '', ''],
        ['BAD-0', 'NO-CODE', '', today, '', '', 'IMP-W12', '1', '', ''],
        ['BAD-2', '', '03-5555-0001', today, '', '', 'IMP-W12', '1', '', ''],
        ['BAD-2', '', '', '', '', '', 'IMP-RENT', '1', '', ''],
        ['BAD-2', '', '', '', '', '', 'NO-SUCH', '1', '', ''],
        ['BAD-3', '', '03-5555-0001', today, '', '', 'IMP-W12', 'たくさん', '', ''],
        ['BAD-3', '', '', '', '', '', 'IMP-RENT', '0', '', ''],
        ['BAD-3', '', '', '', '', '', 'IMP-RENT', '1', '12.345', ''],
        ['OK-4', '', '03-5555-0001', today, '', '', 'IMP-W12', '1', '', ''],
      ]);
      assert.equal(outcome.committed, false);
      assert.deepEqual(outcome.errors.map((e) => [e.row, e.column]), [
        [2, '電話番号'], [3, '顧客コード'], [6, '商品コード'], [7, '数量'], [8, '数量'], [9, '単価'],
      ]);
      assert.match(outcome.errors[0].message, /03-9999-9999.*見つかりません/);
      assert.match(outcome.errors[1].message, /NO-CODE.*見つかりません/);
      assert.match(outcome.errors[2].message, /NO-SUCH/);
      const refused = await h.post('import_commit', { import_id: outcome.import_id });
      assert.equal(refused.status, 400, refused.text);
      assert.equal(await orderCount(), count);
    });

    it('a phone number two customers share is refused naming it; a key whose rows are apart is refused', async () => {
      const outcome = await run([
        ['AMB-1', '', '03-5555-0099', today, '', '', 'IMP-W12', '1', '', ''],
        ['SPLIT', '', '03-5555-0001', today, '', '', 'IMP-W12', '1', '', ''],
        ['OTHER', '', '03-5555-0001', today, '', '', 'IMP-W12', '1', '', ''],
        ['SPLIT', '', '', '', '', '', 'IMP-RENT', '1', '', ''],
      ]);
      assert.deepEqual(outcome.errors.map((e) => [e.row, e.column]), [[2, '電話番号'], [5, '受注キー']]);
      assert.match(outcome.errors[0].message, /03-5555-0099.*2件/);
      assert.equal(outcome.committed, false);
    });

    it('出荷倉庫 by code or name; without the column 受注設定’s default warehouse; an unknown or stopped warehouse is named', async () => {
      const warehouse = async (code: string, name: string, active = 1) => Number((await created('souko', { code, name, active })).sk_id);
      const main = await warehouse('IMP-SK1', '取込第一倉庫');
      const second = await warehouse('IMP-SK2', '取込第二倉庫');
      await warehouse('IMP-SK9', '取込停止倉庫', 0);
      const [setting] = (await h.post<Row>('ordersetting_dtl', { id: 1 })).body;
      const saved = await h.post('ordersetting_save', { id: 1, postData: JSON.stringify({ sk_id: String(main), modified: setting.modified }) });
      assert.equal(saved.status, 200, saved.text);
      const outcome = await run([
        ['WH-1', '', '06-5555-0002', today, '', '', 'IMP-W12', '1', '', '', 'IMP-SK2'],
        ['WH-1', '', '', '', '', '', 'IMP-RENT', '1', '', '', ''],
        ['WH-2', '', '06-5555-0002', today, '', '', 'IMP-W12', '1', '', '', '取込第二倉庫'],
        ['WH-3', '', '06-5555-0002', today, '', '', 'IMP-W12', '1', '', ''],
      ]);
      assert.deepEqual(outcome.errors, []);
      assert.equal(outcome.summary, '受注 3件（明細 4行）を取り込みます。');
      assert.deepEqual([Number((await byKey('WH-1')).od_sk_id), Number((await byKey('WH-2')).od_sk_id), Number((await byKey('WH-3')).od_sk_id)], [second, second, main],
        'by code, by name, and the default of 受注設定 (the customer has none)');
      const bad = await run([
        ['WH-BAD1', '', '06-5555-0002', today, '', '', 'IMP-W12', '1', '', '', 'どこにもない倉庫'],
        ['WH-BAD2', '', '06-5555-0002', today, '', '', 'IMP-W12', '1', '', '', 'IMP-SK9'],
      ]);
      assert.deepEqual(bad.errors.map((e) => [e.row, e.column, e.message]), [
        [2, '出荷倉庫', '出荷倉庫「どこにもない倉庫」が見つかりません（倉庫の倉庫コードか倉庫名で入力してください）。'],
        [3, '出荷倉庫', '出荷倉庫「取込停止倉庫」は使用停止です。使用中の倉庫を入力してください。'],
      ]);
      assert.equal(bad.committed, false);
    });

    it('a refusal of the order’s own rules (a bad date) is named on its row and column', async () => {
      const outcome = await run([['DATE-1', '', '03-5555-0001', '2026-02-30', '', '', 'IMP-W12', '1', '', '']]);
      assert.deepEqual(outcome.errors.map((e) => [e.row, e.column]), [[2, '受注日']]);
      assert.match(outcome.errors[0].message, /受注日/);
    });
  });
}
