/**
 * 送り状取込 (issue 14, server/imports/kinds/waybill.ts) on both dialects: a Yamato B2 Cloud issued-data file (cp932,
 * with and without its header row) written for orders in 出荷待ち ships them with their tracking numbers through the
 * order's own status rule (stock out, audit row); imported again it changes nothing; a bad check digit, an unknown
 * order number or an order in another status refuses the file whole, nothing changed — through `import_preview` and
 * `import_commit`. The Sagawa e飛伝III issued data (kind `waybill_sagawa`, 74 columns, the same handler) likewise: with and
 * without its header row it ships the orders; a bad check digit or an unknown order number refuses the file whole.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { todayJst } from '../../lib/format';
import { dialects, resourceCalls, useHarness } from './harness';
import { b2IssuedFile, validTrackingNo } from '../support/b2-issued';
import { sagawaIssuedFile } from '../support/sagawa-issued';
import { importCalls } from './import-calls';

type Row = Record<string, string | number | null>;

/** A valid tracking number (H2's `validTrackingNo`) written with hyphens, as B2 prints it. */
const tracking = (seed: number): string => {
  const digits = validTrackingNo(seed);
  return `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8)}`;
};
const digitsOf = (value: string): string => value.replaceAll('-', '');

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created } = resourceCalls(h);
    const ids = { water: 0, tokyo: 0, client: 0 };

    /** A B2 issued file (97 columns, cp932, CRLF): one record per [order number, tracking number]. */
    const b2File = (pairs: [string, string][], header: boolean) =>
      b2IssuedFile(pairs.map(([orderNumber, trackingNo]) => ({ orderNumber, trackingNo, shipDate: todayJst() })), { header });
    /** An e飛伝III issued file (74 columns, cp932, CRLF): one record per [order number, tracking number]. */
    const sagawaFile = (pairs: [string, string][], header: boolean) =>
      sagawaIssuedFile(pairs.map(([orderNumber, trackingNo]) => ({ orderNumber, trackingNo, shipDate: todayJst() })), { header });
    const yamato = importCalls(h, 'waybill');
    const sagawa = importCalls(h, 'waybill_sagawa');
    /** The file's dry run, and its commit when it has no error: the preview, and whether it was committed (Yamato B2 unless `carrier` says Sagawa). */
    const run = async (pairs: [string, string][], header = true, carrier: 'yamato' | 'sagawa' = 'yamato') => {
      const { preview, commit } = carrier === 'sagawa' ? sagawa : yamato;
      const answer = await preview(carrier === 'sagawa' ? sagawaFile(pairs, header) : b2File(pairs, header));
      if (answer.errors.length > 0) return { ...answer, committed: false };
      const job = await commit(answer.import_id, { confirm_duplicate: '1' });
      assert.equal(job.state, 'done', JSON.stringify(job));
      return { ...answer, committed: true };
    };
    const detail = async (id: number): Promise<Row> => (await h.post<Row>('order_dtl', { id })).body[0];
    const stock = async (): Promise<number> => Number((await h.post<Row>('stock_lst', { sk_id: ids.tokyo })).body.find((r) => r.st_it_id === ids.water)?.st_quantity ?? 0);
    /** A new order of `quantity` waters moved to 出荷待ち (or left 未処理). */
    const waiting = async (quantity: number, status: 'waitshipping' | 'untreated' = 'waitshipping'): Promise<Row> => {
      const order = await created('order', { cl_id: ids.client, date: todayJst(), sk_id: String(ids.tokyo), delivery_fee: 0, lines: [{ it_id: ids.water, quantity }] });
      if (status === 'waitshipping') {
        const moved = await h.post<Row>('order_status', { od_id: order.od_id, status });
        assert.equal(moved.status, 200, moved.text);
      }
      return order;
    };

    before(async () => {
      ids.water = Number((await created('item', { code: 'WB-W12', name: '送り状テスト天然水', unit: '本', price: 1296, tax_class: 'reduced', stock_tracked: 1 })).it_id);
      ids.tokyo = Number((await created('souko', { code: 'WB-TKY', name: '送り状テスト倉庫', pref: '東京都', active: 1 })).sk_id);
      const stocked = await h.post('stock_adjust', { sk_id: ids.tokyo, postData: JSON.stringify({ it_id: ids.water, kind: 'in', quantity: 100, reason: '初期在庫' }) });
      assert.equal(stocked.status, 200, stocked.text);
      ids.client = Number((await created('client', { status: '1', co_name: '送り状テスト商事', tel_1: '03-5555-0001', pref: '東京都', sk_id: String(ids.tokyo) })).cl_id);
    });

    /** Each carrier's issued file: its kind, the name of its file in the tests' names, and the mapping the preview answers with and without a header row. */
    const carriers = [
      { carrier: 'yamato', kind: 'waybill', file: 'a B2 issued file', seed: 10, named: { order_no: 'お客様管理番号', tracking_no: '伝票番号' }, positions: { order_no: '#1', tracking_no: '#4' } },
      { carrier: 'sagawa', kind: 'waybill_sagawa', file: 'a Sagawa e飛伝III issued file (74 columns)', seed: 40, named: { order_no: 'お客様管理番号', tracking_no: 'お問い合せ送り状No.' }, positions: { order_no: '#10', tracking_no: '#62' } },
    ] as const;
    for (const { carrier, kind, file, seed, named, positions } of carriers) {
      for (const header of [true, false]) {
        it(`${file} ${header ? 'with' : 'without'} its header row ships the 出荷待ち orders with their numbers, stock out, audited; again it changes nothing`, async () => {
          const a = await waiting(2);
          const b = await waiting(3);
          const start = await stock();
          // The second number without its hyphens (as e飛伝 writes it; B2 prints them).
          const numbers: [string, string][] = [[String(a.od_number), tracking(seed + (header ? 1 : 11))], [String(b.od_number), digitsOf(tracking(seed + (header ? 2 : 12)))]];
          const outcome = await run(numbers, header, carrier);
          assert.deepEqual(outcome.errors, []);
          assert.deepEqual([outcome.kind, outcome.encoding, outcome.headers.length > 0, outcome.mapping], [kind, 'cp932', header, header ? named : positions]);
          assert.deepEqual([outcome.updates, outcome.committed], [2, true]);
          for (const [order, [, no]] of [[a, numbers[0]], [b, numbers[1]]] as const) {
            const stored = await detail(Number(order.od_id));
            assert.deepEqual([stored.od_status, stored.od_tracking_no], ['shipped', digitsOf(no)]);
            const audit = await h.database.db.selectFrom('audit_log').select(['log_call', 'log_changes']).where('log_table', '=', 'orders').where('log_record_id', '=', Number(order.od_id)).orderBy('log_id', 'desc').executeTakeFirstOrThrow();
            assert.equal(audit.log_call, 'import_commit');
            assert.deepEqual((JSON.parse(audit.log_changes) as Record<string, unknown>).od_status, ['waitshipping', 'shipped']);
          }
          assert.equal(await stock(), start - 5);
          const again = await run(numbers, header, carrier);
          assert.deepEqual([again.errors, again.updates, again.skips, again.committed], [[], 0, 2, true]);
          assert.equal(await stock(), start - 5);
        });
      }
    }

    it('a bad check digit, an unknown order number and an order in another status are each listed; nothing is imported', async () => {
      const good = await waiting(1);
      const untreated = await waiting(1, 'untreated');
      const start = await stock();
      const bad = digitsOf(tracking(1));
      const wrongDigit = `${bad.slice(0, 11)}${(Number(bad[11]) + 1) % 10}`;
      const outcome = await run([
        [String(good.od_number), tracking(2)],
        [String(good.od_number).replace(/\d$/, '') + 'X', tracking(3)],
        [String(untreated.od_number), tracking(4)],
        [String(good.od_number), wrongDigit],
        [String(good.od_number), '1234-5678'],
      ]);
      assert.equal(outcome.committed, false);
      assert.deepEqual(outcome.errors.map((e) => [e.row, e.column]), [[3, 'お客様管理番号'], [4, 'お客様管理番号'], [5, '伝票番号'], [6, '伝票番号']]);
      assert.match(outcome.errors[0].message, /見つかりません/);
      assert.match(outcome.errors[1].message, /未処理/);
      assert.match(outcome.errors[2].message, /チェックデジット/);
      assert.match(outcome.errors[3].message, /12桁/);
      assert.equal((await detail(Number(good.od_id))).od_status, 'waitshipping');
      assert.equal((await detail(Number(untreated.od_id))).od_status, 'untreated');
      assert.equal(await stock(), start);
    });

    it('each of a bad check digit, an unknown order number and an order in another status refuses its file whole: the commit is refused, nothing changed', async () => {
      const bad = digitsOf(tracking(7));
      const wrongDigit = `${bad.slice(0, 11)}${(Number(bad[11]) + 1) % 10}`;
      const cases: [string, (other: Row) => [string, string], RegExp][] = [
        ['bad check digit', (other) => [String(other.od_number), wrongDigit], /チェックデジット/],
        ['unknown number', () => ['OD-NO-SUCH-1', tracking(8)], /見つかりません/],
        ['another status', (other) => [String(other.od_number), tracking(9)], /未処理/],
      ];
      for (const [i, [name, badRow, message]] of cases.entries()) {
        const good = await waiting(2);
        const other = await waiting(1, name === 'another status' ? 'untreated' : 'waitshipping');
        const start = await stock();
        const outcome = await run([[String(good.od_number), tracking(30 + i)], badRow(other)]);
        assert.deepEqual(outcome.errors.map((e) => e.row), [3], name);
        assert.match(outcome.errors[0].message, message, name);
        const refused = await h.post('import_commit', { import_id: outcome.import_id });
        assert.equal(refused.status, 400, `${name}: ${refused.text}`);
        assert.equal((await detail(Number(good.od_id))).od_status, 'waitshipping', name);
        assert.equal((await detail(Number(other.od_id))).od_tracking_no ?? '', '', name);
        assert.equal(await stock(), start, name);
      }
    });

    it('an order already shipped with another number is listed, not shipped again', async () => {
      const order = await waiting(1);
      assert.deepEqual((await run([[String(order.od_number), tracking(5)]])).errors, []);
      const outcome = await run([[String(order.od_number), tracking(6)]]);
      assert.deepEqual(outcome.errors.map((e) => [e.row, e.column]), [[2, '伝票番号']]);
      assert.match(outcome.errors[0].message, /別の伝票番号.*出荷済/);
      assert.equal((await detail(Number(order.od_id))).od_tracking_no, digitsOf(tracking(5)));
    });

    it('a Sagawa e飛伝 file with a bad check digit or an unknown order number is refused whole, naming e飛伝\'s columns: the commit is refused, nothing changed', async () => {
      const bad = digitsOf(tracking(60));
      const wrongDigit = `${bad.slice(0, 11)}${(Number(bad[11]) + 1) % 10}`;
      const cases: [string, (other: Row) => [string, string], string, RegExp][] = [
        ['bad check digit', (other) => [String(other.od_number), wrongDigit], 'お問い合せ送り状No.', /お問い合せ送り状No\.「\d{12}」のチェックデジット/],
        ['unknown number', () => ['OD-NO-SUCH-2', tracking(61)], 'お客様管理番号', /受注番号「OD-NO-SUCH-2」の受注が見つかりません/],
      ];
      for (const [i, [name, badRow, column, message]] of cases.entries()) {
        for (const header of [true, false]) {
          const good = await waiting(2);
          const other = await waiting(1);
          const start = await stock();
          const outcome = await run([[String(good.od_number), tracking(62 + i * 2 + (header ? 0 : 1))], badRow(other)], header, 'sagawa');
          const what = `${name}, ${header ? 'with' : 'without'} header`;
          assert.deepEqual(outcome.errors.map((e) => [e.row, e.column]), [[header ? 3 : 2, column]], what);
          assert.match(outcome.errors[0].message, message, what);
          const refused = await h.post('import_commit', { import_id: outcome.import_id });
          assert.equal(refused.status, 400, `${what}: ${refused.text}`);
          for (const order of [good, other]) {
            const stored = await detail(Number(order.od_id));
            assert.deepEqual([stored.od_status, stored.od_tracking_no ?? ''], ['waitshipping', ''], what);
          }
          assert.equal(await stock(), start, what);
        }
      }
    });

    it('an order without a 出荷倉庫 ships from 受注設定’s default warehouse; without one the error names the fix', async () => {
      const setDefault = async (skId: string) => {
        const [setting] = (await h.post<Row>('ordersetting_dtl', { id: 1 })).body;
        const saved = await h.post('ordersetting_save', { id: 1, postData: JSON.stringify({ sk_id: skId, modified: setting.modified }) });
        assert.equal(saved.status, 200, saved.text);
      };
      await setDefault('');
      const bare = Number((await created('client', { status: '1', co_name: '倉庫なし商事', tel_1: '03-5555-0077', pref: '東京都' })).cl_id);
      const order = await created('order', { cl_id: bare, date: todayJst(), delivery_fee: 0, lines: [{ it_id: ids.water, quantity: 2 }] });
      assert.equal(order.od_sk_id ?? '', '', 'neither the order, its customer nor 受注設定 names a warehouse');
      assert.equal((await h.post('order_status', { od_id: order.od_id, status: 'waitshipping' })).status, 200);
      const refused = await run([[String(order.od_number), tracking(80)]]);
      assert.deepEqual(refused.errors.map((e) => [e.row, e.column]), [[2, 'お客様管理番号']]);
      assert.equal(refused.errors[0].message, `受注番号「${String(order.od_number)}」に出荷倉庫がありません（在庫を動かす倉庫です）。受注の出荷倉庫を選ぶか、システム > 受注設定の「既定の出荷倉庫」を選んでから取り込み直してください。`);
      await setDefault(String(ids.tokyo));
      const start = await stock();
      const outcome = await run([[String(order.od_number), tracking(80)]]);
      assert.deepEqual([outcome.errors, outcome.updates, outcome.committed], [[], 1, true]);
      const stored = await detail(Number(order.od_id));
      assert.deepEqual([stored.od_status, Number(stored.od_sk_id)], ['shipped', ids.tokyo], 'the default warehouse is stored on the order');
      assert.equal(await stock(), start - 2, 'its stock went out of the default warehouse');
    });
  });
}
