/**
 * `{r}_csv` (issue 11): a list as a CSV file. Byte-exact against golden files for a fixed data set (cp932 and
 * UTF-8 with BOM; a character cp932 cannot hold, a formula-looking cell, a line break, a comma and a quote in
 * cells), the `_lst` parameters applied (keyword, filters, sort, across database pages), the role check and
 * error shape of every call, labels instead of codes, the file name and security headers, the audit row.
 * Set UPDATE_GOLDEN=1 to rewrite the golden files (then read them before committing).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { CSV_HEADERS, MESSAGES } from '../../lib/protocol';
import { orderResource } from '../../lib/resources/order';
import { insertMany } from '../../server/db/bulk-write';
import { encodeCsv, neutralise } from '../../server/resources/csv-text';
import { parseCsv } from '../csv';
import { dialects, downloadFile, type FileReply, type Harness, startHarness } from './harness';

const GOLDEN = join(import.meta.dirname, 'golden');

for (const dialect of dialects()) {
  describe(dialect, () => {
    let h: Harness;
    let clientId: number;
    const orderIds: number[] = [];

    const download = (call: string, params: Record<string, string | number>, key: string = h.adminKey): Promise<FileReply> => downloadFile(h, call, params, key);
    const rowsOf = (reply: FileReply, enc: 'cp932' | 'utf8' = 'cp932') => parseCsv(enc === 'cp932' ? iconv.decode(reply.bytes, 'cp932') : reply.bytes.toString('utf8').replace(/^\ufeff/, ''));

    before(async () => {
      h = await startHarness(dialect);
      const customer = await h.post<Record<string, number>>('client_save', {
        postData: { co_name: '𠮷野家, "本店"', co_name_kana: 'ヨシノヤホンテン', name: '髙橋 一郎', status: '1', tel_1: '03-1111-2222', pref: '東京都', city: '港区' },
      });
      assert.equal(customer.status, 200, customer.text);
      clientId = Number(customer.body[0].cl_id);
      const orders = [
        { date: '2026-04-01', delivery_date: '2026-04-03', biko: '1行目\n2行目, "引用"', tracking_no: '=HYPERLINK("http://x")', pm_id: '1' },
        { date: '2026-04-02', delivery_date: '', biko: '-5本 割引', tracking_no: '@SUM(A1)', pm_id: '' },
        { date: '2026-04-03', delivery_date: '2026-04-05', biko: '+追加 𠮷', tracking_no: 'TAB', pm_id: '2' },
      ];
      for (const { tracking_no: tracking, ...values } of orders) {
        const saved = await h.post<Record<string, number>>('order_save', { postData: { cl_id: clientId, status: 'untreated', ...values } });
        assert.equal(saved.status, 200, saved.text);
        orderIds.push(Number(saved.body[0].od_id));
        // Stored as an older version (or a carrier's file) may have kept them: the form now refuses what is no tracking number.
        await h.database.db.updateTable('orders').set({ od_tracking_no: tracking }).where('od_id', '=', Number(saved.body[0].od_id)).execute();
      }
      // Fixed stamps and amounts (one negative) so the files are the same every run.
      const totals = [12345, -500, 0];
      for (const [i, id] of orderIds.entries()) {
        await h.database.db.updateTable('orders').set({ created: '2026-04-01T00:00:00.000Z', modified: '2026-04-01T15:30:05.000Z', od_uriage_total: totals[i] }).where('od_id', '=', id).execute();
      }
    });
    after(async () => {
      await h?.close();
    });

    for (const enc of ['cp932', 'utf8'] as const) {
      it(`answers the golden file in ${enc}: every field, labels, Japan time, plain yen, quoting, neutralised formulas`, async () => {
        const reply = await download('order_csv', { cl_id: clientId, cols: 'all', enc, col: 'od_date', odr: 'asc' });
        assert.equal(reply.status, 200, reply.bytes.toString());
        const golden = join(GOLDEN, `orders-all-${enc}.csv`);
        if (process.env.UPDATE_GOLDEN || !existsSync(golden)) writeFileSync(golden, reply.bytes);
        assert.ok(reply.bytes.equals(readFileSync(golden)), `differs from ${golden}`);
        assert.equal(reply.headers['content-type'], enc === 'cp932' ? 'text/csv; charset=Shift_JIS' : 'text/csv; charset=utf-8');
        assert.equal(reply.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), enc === 'utf8', 'a BOM only in UTF-8');
        // 𠮷 seven times: the customer (顧客) and the shipping company on three rows, the third order's note.
        assert.equal(reply.trailers[CSV_HEADERS.replaced], enc === 'cp932' ? '7' : '0');
        assert.equal(reply.headers[CSV_HEADERS.rows], '3');
        const rows = rowsOf(reply, enc);
        const header = rows[0];
        const at = (label: string) => header.indexOf(label);
        assert.deepEqual(rows.slice(1).map((r) => r[at('受注日')]), ['2026-04-01', '2026-04-02', '2026-04-03']);
        assert.equal(rows[1][at('顧客')], enc === 'cp932' ? '〓野家, "本店"' : '𠮷野家, "本店"');
        assert.equal(rows[1][at('配送先氏名')], '髙橋 一郎', '髙 is in cp932 (IBM extension) and stays');
        assert.equal(rows[1][at('備考')], '1行目\n2行目, "引用"');
        assert.equal(rows[1][at('送り状番号')], `'=HYPERLINK("http://x")`);
        assert.equal(rows[2][at('送り状番号')], `'@SUM(A1)`);
        assert.equal(rows[2][at('備考')], `'-5本 割引`);
        assert.equal(rows[3][at('備考')], enc === 'cp932' ? `'+追加 〓` : `'+追加 𠮷`);
        assert.deepEqual(rows.slice(1).map((r) => r[at('合計金額')]), ['12345', '-500', '0'], 'money as plain integers, a negative one not neutralised');
        assert.deepEqual(rows.slice(1).map((r) => r[at('状態')]), ['未処理', '未処理', '未処理'], 'the option label, not untreated');
        assert.equal(rows[1][at('支払方法')] !== '1' && rows[1][at('支払方法')] !== '', true, `a master label, not its code: ${rows[1][at('支払方法')]}`);
        assert.equal(rows[1][at('配送日')], '2026-04-03');
        assert.equal(rows[2][at('配送日')], '');
        assert.equal(rows[1][at('更新日時')], '2026-04-02 00:30:05', 'Japan time');
      });
    }

    it('answers the list columns only by default, with the file name and the security headers', async () => {
      const reply = await download('order_csv', { cl_id: clientId });
      assert.equal(reply.status, 200);
      const rows = rowsOf(reply);
      assert.deepEqual(rows[0], orderResource.list.columns.map((c) => c.label));
      assert.equal(rows.length, 4);
      const disposition = String(reply.headers['content-disposition']);
      assert.match(disposition, /^attachment; filename="order_\d{8}-\d{4}\.csv"; filename\*=UTF-8''/);
      assert.match(decodeURIComponent(disposition.split("UTF-8''")[1]), /^受注_\d{8}-\d{4}\.csv$/);
      assert.equal(reply.headers['x-content-type-options'], 'nosniff');
      assert.match(String(reply.headers['content-security-policy']), /default-src 'none'/);
      assert.equal(reply.headers['cache-control'], 'no-store');
    });

    it('applies the keyword, the filters and the sort of the list, across database pages and NULLs', async () => {
      // 2,500 more orders (more than two database pages) with repeated and empty delivery dates and missing (NULL) amounts.
      const now = '2026-05-01T00:00:00.000Z';
      const rows = Array.from({ length: 2500 }, (_, i) => ({
        od_cl_id: clientId, od_number: `BULK-${String(i).padStart(5, '0')}`, od_date: '2026-05-01', od_status: i % 3 === 0 ? 'pending' : 'untreated',
        od_delivery_date: i % 4 === 0 ? '' : `2026-05-${String((i % 7) + 1).padStart(2, '0')}`, od_uriage_total: i % 5 === 0 ? null : i % 11, od_search: `bulk${String(i).padStart(5, '0')}`,
        created: now, modified: now, deleted: 0,
      }));
      await insertMany(h.database.db, 'orders', rows);
      for (const [col, odr] of [['od_delivery_date', 'asc'], ['od_delivery_date', 'desc'], ['od_uriage_total', 'asc'], ['od_uriage_total', 'desc']] as const) {
        const params = { cl_id: clientId, col, odr, postData: JSON.stringify({ od_status: ['untreated', 'pending'] }) };
        const listed: string[] = [];
        for (let p = 1; ; p++) {
          const page = await h.post<Record<string, string>>('order_lst', { ...params, n: 1000, p });
          listed.push(...page.body.map((r) => r.od_number));
          if (page.body.length < 1000) break;
        }
        const reply = await download('order_csv', params);
        assert.equal(reply.status, 200);
        assert.deepEqual(rowsOf(reply).slice(1).map((r) => r[0]), listed, `the list's order (${col} ${odr})`);
        assert.equal(listed.length, 2503);
      }
      const filtered = await download('order_csv', { cl_id: clientId, postData: JSON.stringify({ od_status: ['pending'] }) });
      assert.equal(rowsOf(filtered).length - 1, 834);
      const keyword = await download('order_csv', { kw: 'ＢＵＬＫ－01234' });
      assert.deepEqual(rowsOf(keyword).slice(1).map((r) => r[0]), ['BULK-01234']);
    });

    it('walks an order of three columns (a name after its reading) across pages and groups, empty readings and names', async () => {
      // 2,300 customers in few reading and name groups, so a database page ends inside a group; empty readings and names (text columns hold no NULL).
      const now = '2026-05-01T00:00:00.000Z';
      const readings = ['', 'アオキ', 'カトウ'];
      const names = ['', '青木商店', '加藤商会', '𠮷田'];
      const rows = Array.from({ length: 2300 }, (_, i) => ({
        cl_co_name_kana: readings[i % readings.length], cl_co_name: names[(i * 7) % names.length], cl_name: `順序${String(i).padStart(4, '0')}`,
        cl_status: '1', cl_search: `walk${String(i).padStart(4, '0')}`, created: now, modified: now, deleted: 0,
      }));
      await insertMany(h.database.db, 'client', rows);
      for (const odr of ['asc', 'desc'] as const) {
        const params = { col: 'cl_co_name', odr, postData: JSON.stringify({ status: ['1'] }) };
        const listed: string[] = [];
        for (let p = 1; ; p++) {
          const page = await h.post<Record<string, string | number>>('client_lst', { ...params, n: 1000, p });
          listed.push(...page.body.map((r) => String(r.cl_id)));
          if (page.body.length < 1000) break;
        }
        const reply = await download('client_csv', { ...params, cols: 'all' });
        assert.equal(reply.status, 200);
        const exported = rowsOf(reply).slice(1).map((r) => r[0]);
        assert.equal(new Set(exported).size, exported.length, `no row twice (${odr})`);
        assert.deepEqual(exported, listed, `the list's order (cl_co_name ${odr})`);
        assert.ok(listed.length > 2300);
      }
    });

    it('neutralises every formula start (OWASP) and writes same-glyph characters in their cp932 form', () => {
      for (const start of ['=', '+', '-', '@', '\t', '\r']) assert.equal(neutralise(`${start}1`), `'${start}1`);
      assert.equal(neutralise('1-2'), '1-2');
      const { bytes, replaced } = encodeCsv('〜−𠮷\r\n', 'cp932');
      assert.equal(iconv.decode(bytes, 'cp932'), '～－〓\r\n');
      assert.equal(replaced, 1);
    });

    it('refuses a role without the area with 403 JSON, and bad parameters with 400 naming them', async () => {
      const sales = await h.keyOf(h.fixtures.users.sales.email, h.fixtures.users.sales.password);
      const refused = await download('user_csv', {}, sales);
      assert.equal(refused.status, 403);
      assert.match(String(refused.headers['content-type']), /^application\/json/);
      assert.equal(refused.headers['content-disposition'], undefined);
      assert.deepEqual(JSON.parse(refused.bytes.toString()), [{ error: MESSAGES.forbidden }]);
      const badKey = await download('order_csv', {}, 'nope');
      assert.equal(badKey.status, 401);
      for (const [params, message] of [[{ enc: 'sjis' }, MESSAGES.csvBadEncoding], [{ cols: 'some' }, MESSAGES.csvBadCols], [{ col: 'od_biko' }, MESSAGES.badSortColumn]] as const) {
        const bad = await download('order_csv', params);
        assert.equal(bad.status, 400);
        assert.deepEqual(JSON.parse(bad.bytes.toString()), [{ error: message }]);
      }
    });

    it('keeps to the reader\'s row scope and writes one audit row per export', async () => {
      const before = await h.database.db.selectFrom('audit_log').select(['log_id']).where('log_call', '=', 'order_csv').execute();
      await download('order_csv', { cl_id: clientId, kw: '割引' });
      const logged = await h.database.db.selectFrom('audit_log').selectAll().where('log_call', '=', 'order_csv').orderBy('log_id', 'desc').execute();
      assert.equal(logged.length, before.length + 1);
      assert.equal(logged[0].log_table, 'orders');
      assert.equal(logged[0].log_user_id, h.fixtures.users.admin.id);
      assert.deepEqual((JSON.parse(String(logged[0].log_changes)) as Record<string, unknown>).キーワード, [null, '割引']);
      // The audit log's own export: a reader without user management sees only their areas' rows.
      const delivery = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
      const log = await download('log_csv', { cols: 'all' }, delivery);
      assert.equal(log.status, 200);
      const tables = new Set(rowsOf(log).slice(1).map((r) => r[rowsOf(log)[0].indexOf('データ')]));
      assert.ok(!tables.has('ユーザー') && !tables.has('user'), [...tables].join(','));
    });
  });
}
