/**
 * Issue 14's files out, through the real server on both dialects: `export_yayoi` (the 弥生会計 journal) and `download_table`
 * (データダウンロード). Byte-exact golden files for a fixed data set — the journal of a 10% slip, an 8% slip, a mixed slip, a
 * return, a deposit slip, a bank payment and a cash payment; the orders of a period with their lines — and the refusals: a bad
 * period, an unknown table (400 naming it), a non-admin (403), a re-export without the flag (409 naming the earlier export),
 * a re-export with it (marked 再出力), late entries (issue 19) in the next export whatever their date and named, the closing an export covers refusing its restore, the settings table's editable
 * tax classes, the audit rows. Set UPDATE_GOLDEN=1 to rewrite the golden files (then read them before committing).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it, before } from 'node:test';
import iconv from 'iconv-lite';
import { YAYOI_LATE_HEADER, YAYOI_LATE_MEMO } from '../../lib/accounting/yayoi';
import { CSV_HEADERS } from '../../lib/protocol';
import { parseCsv } from '../csv';
import { dialects, downloadFile, type FileReply, jobEnded, resourceCalls, useHarness } from './harness';

const GOLDEN = join(import.meta.dirname, 'golden');

const goldenCheck = (name: string, bytes: Buffer) => {
  const golden = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN || !existsSync(golden)) writeFileSync(golden, bytes);
  assert.ok(bytes.equals(readFileSync(golden)), `differs from ${golden}:\n${iconv.decode(bytes, 'cp932')}`);
};

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created } = resourceCalls(h);
    let accountingKey = '';
    let clsId = 0;

    const download = (call: string, params: Record<string, string | number>, key: string = h.adminKey): Promise<FileReply> => downloadFile(h, call, params, key);
    const errorOf = (reply: FileReply) => (JSON.parse(reply.bytes.toString('utf8')) as { error: string }[])[0].error;

    before(async () => {
      const { users } = h.fixtures;
      accountingKey = await h.keyOf(users.accounting.email, users.accounting.password);
      const client = async (co_name: string, yayoi_id: string) =>
        Number((await created('client', { co_name, status: '1', tel_1: '03-1234-5678', zei_ten: '3', zei_kiri: '0', sime_gp: '31', yayoi_id })).cl_id);
      const a = await client('弥生テスト商事', 'C001');
      const b = await client('ｶﾌﾞｼｷｶﾞｲｼｬ 弥生テスト第二営業所 長い名前の取引先 株式会社', '');
      const slip = async (cl_id: number, date: string, kind: string, lines: { name: string; quantity: number; price: number; tax_class: string }[]) =>
        created('sales', { cl_id, date, kind, lines });
      await slip(a, '2026-04-03', 'sale', [{ name: '天然水 12L', quantity: 2, price: 1000, tax_class: 'standard' }]);
      await slip(a, '2026-04-05', 'sale', [{ name: 'お茶 500ml', quantity: 3, price: 150, tax_class: 'reduced' }]);
      await slip(b, '2026-04-05', 'sale', [
        { name: 'サーバーレンタル', quantity: 1, price: 1200, tax_class: 'standard' },
        { name: '天然水 12L（軽減）', quantity: 4, price: 980, tax_class: 'reduced' },
        { name: '非課税の手数料', quantity: 1, price: 300, tax_class: 'exempt' },
      ]);
      await slip(a, '2026-04-10', 'return', [{ name: '天然水 12L 返品', quantity: -1, price: 1000, tax_class: 'standard' }]);
      await slip(b, '2026-04-12', 'deposit', [{ name: '容器保証金', quantity: 2, price: 500, tax_class: 'outside' }]);
      await created('payment', { cl_id: a, date: '2026-04-27', amount: 3000, kind: 'transfer' });
      await created('payment', { cl_id: b, date: '2026-04-28', amount: 5000, kind: 'cash' });
      // A slip outside the period is not exported.
      await slip(a, '2026-05-01', 'sale', [{ name: '翌月分', quantity: 1, price: 100, tax_class: 'standard' }]);
      // The month closed (末締め): the export covering it stamps it.
      const run = await h.post<{ job_id: number }>('closing_run', { sime_gp: '31', sime_ym: '202604' });
      assert.equal(run.status, 200, run.text);
      const job = await jobEnded<{ cls_id: number }>(h, run.body[0].job_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      clsId = Number(job.result?.cls_id);
    });

    it('refuses a bad period naming the field, and changes nothing', async () => {
      for (const [params, field] of [[{ from: '2026-04-31', to: '2026-05-01' }, 'from'], [{ from: '2026-04-01', to: '' }, 'to'], [{ from: '2026-05-01', to: '2026-04-01' }, 'to'], [{ from: '2025-01-01', to: '2026-04-30' }, 'to']] as const) {
        const reply = await download('export_yayoi', params);
        assert.equal(reply.status, 400, reply.bytes.toString());
        const body = JSON.parse(reply.bytes.toString()) as { error: string; fields: Record<string, string> }[];
        assert.ok(body[0].fields[field], `${JSON.stringify(params)} names ${field}: ${reply.bytes.toString()}`);
      }
      assert.equal((await h.database.db.selectFrom('accounting_export').selectAll().execute()).length, 0);
    });

    it('answers the golden Yayoi journal: 25 columns, cp932, CRLF, no header, returns swapped, tax in the 税金額 column', async () => {
      const reply = await download('export_yayoi', { from: '2026-04-01', to: '2026-04-30' }, accountingKey);
      assert.equal(reply.status, 200, reply.bytes.toString());
      assert.equal(reply.headers['content-type'], 'text/csv; charset=Shift_JIS');
      goldenCheck('yayoi-journal.csv', reply.bytes);
      const text = iconv.decode(reply.bytes, 'cp932');
      assert.ok(text.endsWith('\r\n') && !/[^\r]\n/.test(text), 'CR LF after every record');
      const rows = parseCsv(text);
      assert.equal(reply.headers[CSV_HEADERS.rows], String(rows.length));
      assert.ok(rows.every((r) => r.length === 25), 'every record has 25 columns');
      assert.ok(rows.every((r) => /^\d*$/.test(r[8]) && /^\d*$/.test(r[14])), 'no negative amount');
      // 10% slip: 2,000 + 200 tax, 売掛金 (補助 C001) / 売上高 課税売上内10%.
      assert.deepEqual(rows[0].slice(0, 16), ['2111', '1', '', '2026/04/03', '売掛金', 'C001', '', '対象外', '2200', '0', '売上高', '', '', '課税売上内10%', '2200', '200']);
      // The return: 売上高 on the debit side.
      const ret = rows.find((r) => r[4] === '売上高');
      assert.ok(ret, 'the return is swapped');
      assert.deepEqual([ret[8], ret[9], ret[10], ret[14]], ['1100', '100', '売掛金', '1100']);
      // The deposit: 預り金 対象外; the mixed slip: one 伝票 of three lines.
      assert.ok(rows.some((r) => r[10] === '預り金' && r[13] === '対象外' && r[14] === '1000'));
      assert.deepEqual(rows.filter((r) => r[1] === '3').map((r) => r[0]), ['2110', '2100', '2101']);
      assert.ok(rows.some((r) => r[4] === '普通預金' && r[10] === '売掛金' && r[14] === '3000'));
      assert.ok(rows.some((r) => r[4] === '現金' && r[14] === '5000'));
      assert.ok(rows.every((r) => Buffer.byteLength(iconv.encode(r[16], 'cp932')) <= 64), '摘要 at most 64 bytes');
      const marks = await h.database.db.selectFrom('accounting_export').selectAll().execute();
      assert.equal(marks.length, 1);
      assert.equal(Number(marks[0].ae_reexport), 0);
      assert.equal(Number(marks[0].ae_rows), rows.length);
      const audit = await h.database.db.selectFrom('audit_log').selectAll().where('log_call', '=', 'export_yayoi').execute();
      assert.equal(audit.length, 1);
    });

    it('stamps the closing the export covers, and closing_restore then refuses it', async () => {
      const closing = await h.database.db.selectFrom('closing').selectAll().where('cls_id', '=', clsId).executeTakeFirstOrThrow();
      assert.notEqual(String(closing.cls_export_at), '');
      const restore = await h.post('closing_restore', { sime_gp: '31', sime_ym: '202604' });
      assert.equal(restore.status, 409, restore.text);
      assert.match(restore.text, /会計データを出力済み/);
    });

    it('refuses an overlapping export without reexport=1 naming the earlier export (409), and marks one with it 再出力', async () => {
      const refused = await download('export_yayoi', { from: '2026-04-15', to: '2026-05-31' });
      assert.equal(refused.status, 409);
      assert.match(errorOf(refused), /2026-04-01〜2026-04-30 の仕訳は .*出力済みです（出力番号 \d+）/);
      assert.equal((await h.database.db.selectFrom('accounting_export').selectAll().execute()).length, 1, 'nothing marked');
      const again = await download('export_yayoi', { from: '2026-04-01', to: '2026-04-30', reexport: 1 });
      assert.equal(again.status, 200);
      goldenCheck('yayoi-journal.csv', again.bytes);
      assert.match(decodeURIComponent(String(again.headers['content-disposition']).split("UTF-8''")[1]), /^弥生仕訳_20260401-20260430_再出力\.csv$/);
      const list = await h.post<{ ae_reexport: number; ae_from: string; user_name: string }>('accounting_export_lst', {});
      assert.deepEqual(list.body.map((r) => r.ae_reexport), [1, 0]);
    });

    it('takes late entries into the next export whatever their date, naming them, and never twice', async () => {
      // Issue 19: a slip and a payment dated in April, entered after April was closed and exported.
      const { cl_id: a } = await h.database.db.selectFrom('client').select('cl_id').where('cl_co_name', '=', '弥生テスト商事').executeTakeFirstOrThrow();
      const late = await created('sales', { cl_id: a, date: '2026-04-20', kind: 'sale', lines: [{ name: '遅れて計上', quantity: 1, price: 700, tax_class: 'standard' }] });
      await created('payment', { cl_id: a, date: '2026-04-29', amount: 770, kind: 'transfer' });
      const may = await download('export_yayoi', { from: '2026-05-01', to: '2026-05-31' });
      assert.equal(may.status, 200, may.bytes.toString());
      const rows = parseCsv(iconv.decode(may.bytes, 'cp932'));
      // By date: the late slip and payment first (their real dates), then May's slip; 仕訳メモ names the late ones.
      assert.deepEqual(rows.map((r) => [r[3], r[16].split(' ')[0], r[14], r[21]]), [
        ['2026/04/20', String(late.sl_number), '770', YAYOI_LATE_MEMO], ['2026/04/29', '入金', '770', YAYOI_LATE_MEMO], ['2026/05/01', rows[2][16].split(' ')[0], '110', ''],
      ]);
      assert.match(rows[2][16], /^SL20260501-/);
      assert.equal(may.headers[YAYOI_LATE_HEADER], '2');
      const list = await h.post<{ ae_from: string; ae_late: number; ae_slips: number; ae_payments: number }>('accounting_export_lst', {});
      assert.deepEqual([list.body[0].ae_from, list.body[0].ae_late, list.body[0].ae_slips, list.body[0].ae_payments], ['2026-05-01', 2, 2, 1]);
      // The re-export of April holds what it held (the late ones went with May), and May's re-export holds them again.
      const april = await download('export_yayoi', { from: '2026-04-01', to: '2026-04-30', reexport: 1 });
      goldenCheck('yayoi-journal.csv', april.bytes);
      const mayAgain = await download('export_yayoi', { from: '2026-05-01', to: '2026-05-31', reexport: 1 });
      assert.ok(mayAgain.bytes.equals(may.bytes), 'a re-export of May repeats its late entries');
      // Exported once: the next month's export does not take them again.
      const june = await download('export_yayoi', { from: '2026-06-01', to: '2026-06-30' });
      assert.equal(june.status, 200);
      assert.deepEqual([june.bytes.length, june.headers[YAYOI_LATE_HEADER]], [0, '0']);
    });

    it('writes the tax classes and accounts of the editable settings', async () => {
      const setting = await h.post<Record<string, string>>('yayoisetting_dtl', { id: 1 });
      assert.equal(setting.status, 200, setting.text);
      assert.equal(setting.body[0].ys_tax_10, '課税売上内10%');
      const saved = await h.post('yayoisetting_save', { id: 1, postData: JSON.stringify({ tax_10: '課税売上込10%', acc_bank: '当座預金', modified: setting.body[0].modified }) });
      assert.equal(saved.status, 200, saved.text);
      const reply = await download('export_yayoi', { from: '2026-04-01', to: '2026-04-03', reexport: 1 });
      const rows = parseCsv(iconv.decode(reply.bytes, 'cp932'));
      assert.equal(rows[0][13], '課税売上込10%');
      const denied = await h.post('yayoisetting_save', { id: 1, postData: JSON.stringify({ tax_10: '' }) });
      assert.equal(denied.status, 400, 'a tax class may not be emptied');
    });

    it('answers the golden download of orders with their lines: one row per line, the order repeated', async () => {
      const item = Number((await created('item', { code: 'DL-W12', name: 'DL天然水12L', unit: '本', price: 1200, tax_class: 'standard', stock_tracked: 0 })).it_id);
      const tea = Number((await created('item', { code: 'DL-TEA', name: 'DLお茶', unit: '箱', price: 2400, tax_class: 'reduced', stock_tracked: 0 })).it_id);
      const cl = Number((await created('client', { co_name: 'ダウンロード商店', status: '1', tel_1: '03-9999-0000' })).cl_id);
      const orders = [
        await created('order', { cl_id: cl, date: '2025-12-02', delivery_fee: 0, lines: [{ it_id: item, quantity: 2 }, { it_id: tea, quantity: 1 }] }),
        await created('order', { cl_id: cl, date: '2025-12-05', delivery_fee: 500, biko: '=危険な式', lines: [{ it_id: item, quantity: 1 }] }),
        await created('order', { cl_id: cl, date: '2026-01-02', delivery_fee: 0, lines: [{ it_id: item, quantity: 9 }] }),
      ];
      for (const order of orders) {
        await h.database.db.updateTable('orders').set({ created: '2026-03-01T00:00:00.000Z', modified: '2026-03-01T01:02:03.000Z' }).where('od_id', '=', Number(order.od_id)).execute();
      }
      for (const enc of ['cp932', 'utf8'] as const) {
        const reply = await download('download_table', { table: 'order', from: '2025-12-01', to: '2025-12-31', enc });
        assert.equal(reply.status, 200, reply.bytes.toString());
        goldenCheck(`download-orders-lines-${enc}.csv`, reply.bytes);
        const rows = parseCsv(enc === 'cp932' ? iconv.decode(reply.bytes, 'cp932') : reply.bytes.toString('utf8').replace(/^\ufeff/, ''));
        const at = (label: string) => rows[0].indexOf(label);
        assert.equal(reply.headers[CSV_HEADERS.rows], String(rows.length - 1));
        // Two lines of the first order, one (and the fee line) of the second; the January order is outside the period.
        assert.deepEqual(rows.slice(1).map((r) => r[at('受注日')]), ['2025-12-02', '2025-12-02', '2025-12-05', '2025-12-05']);
        assert.deepEqual(rows.slice(1).map((r) => r[at('明細：商品')]), ['DL天然水12L', 'DLお茶', 'DL天然水12L', '']);
        assert.equal(rows[3][at('備考')], "'=危険な式");
      }
      const audit = await h.database.db.selectFrom('audit_log').selectAll().where('log_call', '=', 'download_table').execute();
      assert.equal(audit.length, 2);
      assert.match(String(audit[0].log_changes), /受注（明細つき）/);
      assert.match(String(audit[0].log_changes), /2025-12-01〜2025-12-31/);
    });

    it('downloads every table of the list in its period (customers by 登録日, the log by 日時)', async () => {
      for (const table of ['client', 'sales', 'payment', 'billing', 'bottle', 'log']) {
        const reply = await download('download_table', { table, from: '2026-01-01', to: '2026-12-31', enc: 'utf8' });
        assert.equal(reply.status, 200, `${table}: ${reply.bytes.toString()}`);
        const rows = parseCsv(reply.bytes.toString('utf8').replace(/^\ufeff/, ''));
        assert.equal(String(rows.length - 1), reply.headers[CSV_HEADERS.rows], table);
      }
      const sales = await download('download_table', { table: 'sales', from: '2026-04-05', to: '2026-04-05', enc: 'utf8' });
      const rows = parseCsv(sales.bytes.toString('utf8').replace(/^\ufeff/, ''));
      assert.equal(rows.length - 1, 4, 'two slips of 4/5: one line and three lines');
    });

    it('downloads the warehouses\' stock movements of a period with the stock after each, named and audited', async () => {
      const item = Number((await created('item', { code: 'DL-STK', name: '=在庫テスト水', unit: '本', price: 1000, tax_class: 'reduced', stock_tracked: 1 })).it_id);
      const sk = Number((await created('souko', { code: 'DL-WH', name: 'ダウンロード倉庫' })).sk_id);
      for (const [kind, quantity] of [['in', 10], ['out', 3], ['count', 5]] as const) {
        const res = await h.post('stock_adjust', { sk_id: sk, postData: JSON.stringify({ it_id: item, kind, quantity, reason: `${kind}の理由` }) });
        assert.equal(res.status, 200, res.text);
      }
      const today = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
      const reply = await download('download_table', { table: 'stock', from: today, to: today, enc: 'cp932' });
      assert.equal(reply.status, 200, reply.bytes.toString());
      const rows = parseCsv(iconv.decode(reply.bytes, 'cp932')).filter((r, i) => i === 0 || r[2] === 'DL-WH');
      const at = (label: string) => rows[0].indexOf(label);
      assert.deepEqual(rows.slice(1).map((r) => [r[at('区分')], r[at('数量')], r[at('変更前の在庫数')], r[at('変更後の在庫数')], r[at('商品')], r[at('倉庫')]]), [
        ['入庫', '10', '0', '10', "'=在庫テスト水", 'ダウンロード倉庫'],
        ['出庫', '-3', '10', '7', "'=在庫テスト水", 'ダウンロード倉庫'],
        ['棚卸調整', '-2', '7', '5', "'=在庫テスト水", 'ダウンロード倉庫'],
      ]);
      const audit = await h.database.db.selectFrom('audit_log').select('log_changes').where('log_call', '=', 'download_table').where('log_table', '=', 'stock_move').executeTakeFirstOrThrow();
      assert.match(String(audit.log_changes), /在庫の入出庫/);
      const yesterday = await download('download_table', { table: 'stock', from: '2020-01-01', to: '2020-01-31', enc: 'utf8' });
      assert.equal(parseCsv(yesterday.bytes.toString('utf8').replace(/^\ufeff/, '')).length, 1, 'only the header outside the period');
    });

    it('refuses an unknown table naming it (400), a bad period (400) and a non-admin (403)', async () => {
      const unknown = await download('download_table', { table: 'user', from: '2026-01-01', to: '2026-01-31' });
      assert.equal(unknown.status, 400);
      assert.match(errorOf(unknown), /「user」はダウンロードできません/);
      const period = await download('download_table', { table: 'order', from: '2026-02-30', to: '2026-03-31' });
      assert.equal(period.status, 400);
      const denied = await download('download_table', { table: 'order', from: '2026-03-01', to: '2026-03-31' }, accountingKey);
      assert.equal(denied.status, 403);
    });
  });
}
