/**
 * 送り状出力 (issue 14): `export_b2` and `export_b2_preview` on the real server and both dialects. The Yamato B2 Cloud CSV of a
 * fixed data set byte for byte against golden files (cp932 and UTF-8): 97 columns with the header row, 発払い and コレクト,
 * dates YYYY/MM/DD, the time slot code, the address split to B2's widths, half-width kana, characters outside JIS X 0208
 * as 〓; the preview's replaced characters before the download and the export mark after; the refusals (an order not
 * 出荷待ち, an unknown id, a missing postcode, 自社情報 without the B2 codes) that write nothing; 401 and 403.
 * Set UPDATE_GOLDEN=1 to rewrite the golden files (then read them before committing).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import type { B2Preview } from '../../lib/orders/b2';
import { CSV_HEADERS } from '../../lib/protocol';
import { B2_COLUMNS } from '../../server/exports/b2-layout';
import { parseCsv } from '../csv';
import { dialects, downloadFile, type FileReply, type Harness, resourceCalls, useHarness } from './harness';

const GOLDEN = join(import.meta.dirname, 'golden');
const SHIP_DATE = '2026-05-01';

type Row = Record<string, string | number | null>;

const download = (h: Harness, call: string, params: Record<string, string>, key: string | null = h.adminKey): Promise<FileReply> => downloadFile(h, call, params, key);

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created, save } = resourceCalls(h);
    const ids = { plain: 0, collect: 0, untreated: 0, noZip: 0 };
    const exportMarks = async (orderIds: number[]) =>
      (await h.database.db.selectFrom('orders').select(['od_id', 'od_b2_exported_at']).where('od_id', 'in', orderIds).orderBy('od_id').execute()).map((r) => r.od_b2_exported_at);
    const exportAudits = async () => (await h.database.db.selectFrom('audit_log').select('log_id').where('log_call', '=', 'export_b2').execute()).length;
    const setCompany = async (values: Record<string, string>) => {
      const [company] = (await h.post<Row>('company_dtl', { id: 1 })).body;
      const saved = await save('company', { ...values, modified: company.modified }, 1);
      assert.equal(saved.status, 200, saved.text);
    };

    before(async () => {
      await setCompany({ name: 'アクア宅配株式会社', zipcode: '100-0001', address: '東京都千代田区千代田1-1 アクアビル3F', tel: '03-0000-1111', b2_billing_code: '012345678901', b2_freight_no: '01' });
      const item = async (code: string, name: string, price: number, tax_class: string) =>
        Number((await created('item', { code, name, unit: '本', price, tax_class, stock_tracked: 0 })).it_id);
      const water = await item('B2-W12', '天然水 12L', 1200, 'reduced');
      const rental = await item('B2-RENT', 'サーバーレンタル', 1100, 'standard');
      const cup = await item('B2-CUP', '紙コップ', 300, 'standard');
      const client = async (values: Record<string, unknown>) => Number((await created('client', { status: '1', ...values })).cl_id);
      const yamada = await client({
        name: '山田 太郎', name_kana: 'ヤマダ タロウ', tel_1: '03-1234-5678', zipcode: '150-0001', pref: '東京都', city: '渋谷区',
        address: '神宮前1-2-3', building: 'アクアビル101', ht_id: '1416', pm_id: '1',
      });
      const takashima = await client({
        co_name: '株式会社髙島①ウォーターサービス本店', co_name_kana: 'タカシマウォーターサービス', name: '', tel_1: '０６－１１１１－２２２２', zipcode: '5300001',
        pref: '大阪府', city: '大阪市北区', address: '梅田一丁目二番三号梅田センタービルディング北館東側通用口横', building: '二十五階 受付', ht_id: '0812', pm_id: '3',
      });
      const noZip = await client({ name: '𠮷田 花子', name_kana: 'ヨシダ ハナコ', tel_1: '045-111-2222', pref: '神奈川県', city: '横浜市', address: '中区1-1' });
      const order = async (cl_id: number, lines: { it_id: number; quantity: number }[], number: string, status = 'waitshipping') => {
        const saved = await created('order', { cl_id, date: '2026-04-20', delivery_date: '2026-05-02', delivery_fee: 500, lines });
        const id = Number(saved.od_id);
        // Fixed numbers and a status set directly: the file must be the same on every run and dialect.
        await h.database.db.updateTable('orders').set({ od_number: number, od_status: status }).where('od_id', '=', id).execute();
        return id;
      };
      ids.plain = await order(yamada, [{ it_id: water, quantity: 2 }], 'B2-0001');
      ids.collect = await order(takashima, [{ it_id: water, quantity: 4 }, { it_id: rental, quantity: 1 }, { it_id: cup, quantity: 3 }], 'B2-0002');
      ids.untreated = await order(yamada, [{ it_id: water, quantity: 1 }], 'B2-0003', 'untreated');
      ids.noZip = await order(noZip, [{ it_id: water, quantity: 1 }], 'B2-0004');
    });

    it('previews the rows before the download: key fields, the characters to be replaced, nothing exported yet', async () => {
      const res = await h.post<B2Preview>('export_b2_preview', { ids: JSON.stringify([ids.plain, ids.collect]), ship_date: SHIP_DATE });
      assert.equal(res.status, 200, res.text);
      const [preview] = res.body;
      assert.equal(preview.ok, true);
      assert.deepEqual(preview.sender_problems, []);
      const [plain, collect] = preview.rows;
      assert.deepEqual(
        [plain.od_number, plain.type, plain.ship_date, plain.delivery_date, plain.time_slot, plain.name, plain.zipcode, plain.tel, plain.address, plain.building, plain.item],
        ['B2-0001', '発払い', '2026/05/01', '2026/05/02', '1416 14〜16時', '山田 太郎', '150-0001', '03-1234-5678', '東京都渋谷区神宮前1-2-3', 'アクアビル101', '天然水 12L ×2'],
      );
      assert.deepEqual(plain.replaced, []);
      assert.equal(plain.exported_at, '');
      const total = await h.database.db.selectFrom('orders').select('od_uriage_total').where('od_id', '=', ids.collect).executeTakeFirstOrThrow();
      assert.ok(Number(total.od_uriage_total) > 0);
      assert.deepEqual([collect.type, collect.name, collect.time_slot, collect.collect], ['コレクト', 'ご担当者', '0812 午前中', String(total.od_uriage_total)], 'the order total is collected');
      assert.deepEqual(collect.replaced, [{ field: '配送先会社名', char: '髙', to: '〓' }, { field: '配送先会社名', char: '①', to: '〓' }]);
      assert.deepEqual(await exportMarks([ids.plain, ids.collect]), [null, null], 'a preview writes nothing');
    });

    it('previews the problems of orders the export would refuse: status, missing id, missing postcode', async () => {
      const res = await h.post<B2Preview>('export_b2_preview', { ids: JSON.stringify([ids.untreated, ids.noZip, 999999]), ship_date: SHIP_DATE });
      assert.equal(res.status, 200, res.text);
      const [preview] = res.body;
      assert.equal(preview.ok, false);
      assert.deepEqual(preview.rows.map((r) => [r.od_number, r.problems.map((p) => p.field)]), [['B2-0003', ['状態']], ['B2-0004', ['配送先郵便番号']], ['', ['受注']]]);
      assert.deepEqual(preview.rows[1].replaced, [{ field: '配送先氏名', char: '𠮷', to: '吉' }]);
    });

    for (const enc of ['cp932', 'utf8'] as const) {
      it(`answers the golden B2 file in ${enc}: 97 columns, header row, order numbers in お客様管理番号, and marks the orders exported`, async () => {
        const reply = await download(h, 'export_b2', { ids: JSON.stringify([ids.plain, ids.collect]), ship_date: SHIP_DATE, enc });
        assert.equal(reply.status, 200, reply.bytes.toString());
        const golden = join(GOLDEN, `b2-export-${enc}.csv`);
        if (process.env.UPDATE_GOLDEN || !existsSync(golden)) writeFileSync(golden, reply.bytes);
        assert.ok(reply.bytes.equals(readFileSync(golden)), `differs from ${golden}`);
        assert.equal(reply.headers['content-type'], enc === 'cp932' ? 'text/csv; charset=Shift_JIS' : 'text/csv; charset=utf-8');
        assert.equal(reply.headers[CSV_HEADERS.rows.toLowerCase()], '2');
        assert.match(decodeURIComponent(String(reply.headers['content-disposition'])), /B2送り状_20260501_\d{8}-\d{4}\.csv/);
        const text = enc === 'cp932' ? iconv.decode(reply.bytes, 'cp932') : reply.bytes.toString('utf8').replace(/^\ufeff/, '');
        assert.ok(text.endsWith('\r\n') && !/[^\r]\n/.test(text), 'CRLF after every record');
        const rows = parseCsv(text);
        assert.deepEqual(rows[0], [...B2_COLUMNS]);
        assert.ok(rows.every((r) => r.length === 97), 'every row 97 cells');
        assert.deepEqual(rows.slice(1).map((r) => r[0]), ['B2-0001', 'B2-0002']);
        assert.deepEqual(rows.slice(1).map((r) => r[1]), ['0', '2'], '発払い, then コレクト');
        const collect = rows[2];
        assert.equal(collect[15], 'ご担当者');
        assert.equal(collect[13], '株式会社〓島〓ウォーターサービス本店');
        assert.equal(collect[16], 'ﾀｶｼﾏｳｫｰﾀｰｻｰﾋﾞｽ', 'the reading, half-width');
        const marks = await exportMarks([ids.plain, ids.collect]);
        assert.ok(marks.every((m) => typeof m === 'string' && m.length > 0), 'both orders marked exported');
      });
    }

    it('shows the export mark and who exported in the preview afterwards, and audits each export per order', async () => {
      const res = await h.post<B2Preview>('export_b2_preview', { ids: JSON.stringify([ids.plain]), ship_date: SHIP_DATE });
      const [row] = res.body[0].rows;
      assert.ok(row.exported_at, 'exported');
      assert.equal(row.exported_by, '管理 太郎');
      assert.equal(await exportAudits(), 4, 'two exports of two orders');
      assert.equal(res.body[0].ok, true, 're-export is allowed');
    });

    it('refuses orders not 出荷待ち and unknown ids, naming them, and writes nothing', async () => {
      const audits = await exportAudits();
      await h.database.db.updateTable('orders').set({ od_b2_exported_at: null }).where('od_id', '=', ids.plain).execute();
      const res = await h.post<{ error: string; orders: string[] }>('export_b2', { ids: JSON.stringify([ids.plain, ids.untreated, 999999]), ship_date: SHIP_DATE });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body[0].error, /出荷待ちではない受注があります: B2-0003（未処理）/);
      assert.match(res.body[0].error, /見つからないか削除された受注があります: ID 999999/);
      assert.deepEqual(res.body[0].orders, ['B2-0003', '999999']);
      assert.deepEqual(await exportMarks([ids.plain]), [null], 'the good order is not marked');
      assert.equal(await exportAudits(), audits);
      await h.database.db.updateTable('orders').set({ deleted: 1 }).where('od_id', '=', ids.untreated).execute();
      const deleted = await h.post<{ error: string }>('export_b2', { ids: JSON.stringify([ids.untreated]) });
      assert.equal(deleted.status, 400);
      assert.match(deleted.body[0].error, /見つからないか削除された受注があります: ID /);
      await h.database.db.updateTable('orders').set({ deleted: 0 }).where('od_id', '=', ids.untreated).execute();
    });

    it('refuses an order lacking what B2 requires, naming the order and the field', async () => {
      const res = await h.post<{ error: string; problems: { od_number: string; field: string }[] }>('export_b2', { ids: JSON.stringify([ids.plain, ids.noZip]), ship_date: SHIP_DATE });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body[0].error, /B2-0004 の配送先郵便番号: 配送先郵便番号がありません。/);
      assert.deepEqual(res.body[0].problems.map((p) => [p.od_number, p.field]), [['B2-0004', '配送先郵便番号']]);
      assert.deepEqual(await exportMarks([ids.plain]), [null]);
    });

    it('refuses while 自社情報 lacks the B2 contract codes, and a bad 出荷予定日', async () => {
      await setCompany({ b2_billing_code: '' });
      const res = await h.post<{ error: string }>('export_b2', { ids: JSON.stringify([ids.plain]), ship_date: SHIP_DATE });
      assert.equal(res.status, 400, res.text);
      assert.match(res.body[0].error, /B2 ご請求先顧客コード/);
      await setCompany({ b2_billing_code: '012345678901' });
      const badCode = await save('company', { b2_billing_code: '12-34', modified: (await h.post<Row>('company_dtl', { id: 1 })).body[0].modified }, 1);
      assert.equal(badCode.status, 400);
      const badDate = await h.post<{ error: string }>('export_b2', { ids: JSON.stringify([ids.plain]), ship_date: '2026-13-01' });
      assert.equal(badDate.status, 400);
      assert.equal(badDate.body[0].error, '出荷予定日を YYYY-MM-DD の日付で入力してください。');
      const badIds = await h.post<{ error: string }>('export_b2', { ids: '[]' });
      assert.equal(badIds.status, 400);
    });

    it('answers 401 without a session and 403 to a role without データ取込・出力 write (配送 reads only)', async () => {
      const none = await download(h, 'export_b2', { ids: JSON.stringify([ids.plain]) }, null);
      assert.equal(none.status, 401);
      const delivery = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
      const refused = await h.post('export_b2', { ids: JSON.stringify([ids.plain]) }, delivery);
      assert.equal(refused.status, 403);
      const preview = await h.post('export_b2_preview', { ids: JSON.stringify([ids.plain]) }, delivery);
      assert.equal(preview.status, 200, 'reading the preview needs the read level only');
      assert.deepEqual(await exportMarks([ids.plain]), [null]);
    });
  });
}
