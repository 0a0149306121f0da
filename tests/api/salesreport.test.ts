/**
 * 売上レポート and 売掛金年齢表 (issue 13), both dialects, with hand-worked figures. Two months of slips (April and May 2026)
 * of a 外税 and a 内税 customer, two items at 8% and 10%, a return, a line without an item, two staff members in two
 * teams, and the same months of 2025 to compare with; a slip outside the period and a deleted one that never count.
 * Every grouping, the item filter, the drill-down filters of the sales list (the slips behind a row), the CSV, and the
 * refusals. The aging list over invoices inserted as a closing would write them, on the exact day edges (30/31, 60/61,
 * 90/91 days past due), with a delivery site's unbilled slips rolled up to its 請求先; its sort and paging.
 *
 * Worked figures (外税・伝票単位 and 内税・伝票単位, 切捨て; 天然水 1,000円 8%, カップ 500円 10%):
 * - S1 外税 2026-04-10 担当A: 天然水 ×3 3,000 (税 240), カップ ×1 500 (税 50)                → 3,500 / 290
 * - S2 内税 2026-04-20 担当B: 天然水 ×2 2,160 → 2,000 + 160, カップ ×3 1,650 → 1,500 + 150      → 3,500 / 310
 * - S3 外税 2026-05-15 担当B: 返品 天然水 ×-1 -1,000 (税 -80)                                  → -1,000 / -80
 * - S4 内税 2026-05-20 担当A: カップ ×1 550, 送料 300: bucket 850 → tax 77 (77.27), net 773;
 *   the lines' parts: カップ 550 × 77 / 850 = 49.8 → 50 (the larger remainder), 送料 27.2 → 27  → 773 / 77
 * - Year before: P1 外税 2025-04-05 担当A 天然水 ×1 1,000 / 80; P2 内税 2025-05-10 担当B カップ ×2 1,100 → 1,000 / 100.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import iconv from 'iconv-lite';
import { CSV_HEADERS } from '../../lib/protocol';
import { billingResource } from '../../lib/resources/billing';
import type { AgingList, SalesReport, SalesReportRow } from '../../lib/sales/report';
import { drillFilters } from '../../lib/sales/report';
import { bulkInsert } from '../../server/seed/bulk-insert';
import { parseCsv } from '../csv';
import { dialects, resourceCalls, useHarness } from './harness';

type Row = Record<string, string | number | null>;
/** net, tax, total, quantity — and the year before's. */
type Figures = [number, number, number, number];

const PERIOD = { from: '2026-04-01', to: '2026-05-31' };
const figures = (r: Pick<SalesReportRow, 'net' | 'tax' | 'total' | 'quantity'>): Figures => [r.net, r.tax, r.total, r.quantity];

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { created, save } = resourceCalls(h);
    const id = { water: 0, cup: 0, outer: 0, inner: 0, staffA: 0, staffB: 0, head: 0, site: 0, own: 0 };
    const slips: Record<string, Row> = {};

    const report = async (params: Record<string, string | number>): Promise<SalesReport> => {
      const res = await h.post<SalesReport>('salesreport', { ...PERIOD, ...params });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    /** The slips the sales list shows for a report row's drill-down filters. */
    const drilled = async (answer: SalesReport, key: string): Promise<string[]> => {
      const filters = drillFilters(answer, key);
      assert.ok(filters, `row ${key} has no drill-down`);
      const res = await h.post<Row>('sales_lst', { n: 100, postData: JSON.stringify(filters) });
      assert.equal(res.status, 200, res.text);
      return res.body.map((r) => String(r.sl_number)).sort();
    };
    const numbers = (...names: string[]) => names.map((n) => String(slips[n].sl_number)).sort();

    before(async () => {
      id.water = Number((await created('item', { code: 'SR-W', name: 'レポート天然水', unit: '本', price: 1000, tax_class: 'reduced', stock_tracked: 0 })).it_id);
      id.cup = Number((await created('item', { code: 'SR-C', name: 'レポートカップ', unit: '個', price: 500, tax_class: 'standard', stock_tracked: 0 })).it_id);
      const user = async (name: string, team: string, email: string) =>
        Number((await created('user', { name, email, role: '営業', team, password: 'report-pass-2026' })).user_id);
      id.staffA = await user('担当 東京', '東京', 'tokyo@example.jp');
      id.staffB = await user('担当 大阪', '大阪', 'osaka@example.jp');
      const client = async (values: Record<string, unknown>) =>
        Number((await created('client', { status: '1', tel_1: '03-1234-5678', pref: '東京都', zei_kiri: '0', ...values })).cl_id);
      id.outer = await client({ co_name: 'レポート外税商事', co_name_kana: 'レポートソトゼイ', zei_ten: '2' });
      id.inner = await client({ co_name: 'レポート内税商店', co_name_kana: 'レポートウチゼイ', zei_ten: '4' });
      const slip = async (name: string, cl: number, date: string, usr: number, lines: Record<string, unknown>[], kind = 'sale') => {
        slips[name] = await created('sales', { cl_id: cl, date, usr_id: usr, kind, lines });
      };
      await slip('S1', id.outer, '2026-04-10', id.staffA, [{ it_id: id.water, quantity: 3 }, { it_id: id.cup, quantity: 1 }]);
      await slip('S2', id.inner, '2026-04-20', id.staffB, [{ it_id: id.water, quantity: 2 }, { it_id: id.cup, quantity: 3 }]);
      await slip('S3', id.outer, '2026-05-15', id.staffB, [{ it_id: id.water, quantity: -1 }], 'return');
      await slip('S4', id.inner, '2026-05-20', id.staffA, [{ it_id: id.cup, quantity: 1 }, { name: '送料', quantity: 1, price: 300, tax_class: 'standard' }]);
      await slip('P1', id.outer, '2025-04-05', id.staffA, [{ it_id: id.water, quantity: 1 }]);
      await slip('P2', id.inner, '2025-05-10', id.staffB, [{ it_id: id.cup, quantity: 2 }]);
      // Never counted: the day after the period, and a deleted slip inside it.
      await slip('after', id.outer, '2026-06-01', id.staffA, [{ it_id: id.water, quantity: 5 }]);
      await slip('deleted', id.outer, '2026-05-31', id.staffA, [{ it_id: id.water, quantity: 7 }]);
      assert.equal((await h.post('sales_del', { id: slips.deleted.sl_id })).status, 200);
    });

    it('the slips are priced as worked out (the figures every report below adds up)', () => {
      assert.deepEqual(['S1', 'S2', 'S3', 'S4', 'P1', 'P2'].map((n) => [slips[n].sl_net_total, slips[n].sl_tax_total, slips[n].sl_total]),
        [[3500, 290, 3790], [3500, 310, 3810], [-1000, -80, -1080], [773, 77, 850], [1000, 80, 1080], [1000, 100, 1100]]);
    });

    it('by month: the period\'s months with the same months of the year before, and the total', async () => {
      const answer = await report({ group: 'month' });
      assert.deepEqual([answer.prev_from, answer.prev_to], ['2025-04-01', '2025-05-31']);
      assert.deepEqual(answer.rows.map((r) => [r.key, r.label, figures(r), figures(r.prev)]), [
        ['2026-04', '2026年4月', [7000, 600, 7600, 9], [1000, 80, 1080, 1]],
        ['2026-05', '2026年5月', [-227, -3, -230, 0], [1000, 100, 1100, 2]],
      ]);
      assert.deepEqual([figures(answer.total), figures(answer.total.prev)], [[6773, 597, 7370, 9], [2000, 180, 2180, 3]]);
      assert.equal(answer.row_count, 2);
    });

    it('by customer, staff and team: slips kept whole, largest first', async () => {
      const brief = (answer: SalesReport) => answer.rows.map((r) => [r.label, figures(r), figures(r.prev)]);
      assert.deepEqual(brief(await report({ group: 'client' })), [
        ['レポート内税商店', [4273, 387, 4660, 6], [1000, 100, 1100, 2]],
        ['レポート外税商事', [2500, 210, 2710, 3], [1000, 80, 1080, 1]],
      ]);
      assert.deepEqual(brief(await report({ group: 'staff' })), [
        ['担当 東京', [4273, 367, 4640, 5], [1000, 80, 1080, 1]],
        ['担当 大阪', [2500, 230, 2730, 4], [1000, 100, 1100, 2]],
      ]);
      assert.deepEqual(brief(await report({ group: 'team' })), [
        ['東京', [4273, 367, 4640, 5], [1000, 80, 1080, 1]],
        ['大阪', [2500, 230, 2730, 4], [1000, 100, 1100, 2]],
      ]);
    });

    it('by item: the lines\' parts of their buckets (内税 converted to net), the lines without an item last, adding up to the slips', async () => {
      const answer = await report({ group: 'item' });
      assert.deepEqual(answer.rows.map((r) => [r.key, r.label, figures(r), figures(r.prev)]), [
        [String(id.water), 'レポート天然水', [4000, 320, 4320, 4], [1000, 80, 1080, 1]],
        [String(id.cup), 'レポートカップ', [2500, 250, 2750, 5], [1000, 100, 1100, 2]],
        ['', '（商品なし：送料・レンタル・保証金など）', [273, 27, 300, 0], [0, 0, 0, 0]],
      ]);
      assert.deepEqual(figures(answer.total), [6773, 597, 7370, 9]);
    });

    it('by tax rate: each bucket with its label; the chart stacks the months by bucket and by the largest groups', async () => {
      const answer = await report({ group: 'rate' });
      assert.deepEqual(answer.rows.map((r) => [r.key, r.label, figures(r), figures(r.prev)]), [
        ['10', '10%対象', [2773, 277, 3050, 5], [1000, 100, 1100, 2]],
        ['8', '8%対象（軽減税率）', [4000, 320, 4320, 4], [1000, 80, 1080, 1]],
      ]);
      assert.deepEqual(answer.chart.months, ['2026-04', '2026-05']);
      assert.deepEqual(answer.chart.rates.map((s) => [s.key, s.values]), [['10', [2000, 773]], ['8', [5000, -1000]]]);
      const byStaff = await report({ group: 'staff' });
      assert.deepEqual(byStaff.chart.groups.map((s) => [s.label, s.values]), [['担当 東京', [3500, 773]], ['担当 大阪', [3500, -1000]]]);
      assert.deepEqual((await report({ group: 'month' })).chart.groups, [], 'months are the bars already');
    });

    it('filtered by an item: that item\'s parts of the slips, by month; by a customer or a staff member', async () => {
      const cup = await report({ group: 'month', it_id: id.cup });
      assert.deepEqual(cup.rows.map((r) => [r.key, figures(r), figures(r.prev)]), [['2026-04', [2000, 200, 2200, 4], [0, 0, 0, 0]], ['2026-05', [500, 50, 550, 1], [1000, 100, 1100, 2]]]);
      assert.deepEqual(cup.filters, { it_id: id.cup });
      assert.deepEqual(figures((await report({ group: 'item', cl_id: id.inner })).total), [4273, 387, 4660, 6]);
      assert.deepEqual(figures((await report({ group: 'rate', usr_id: id.staffB })).total), [2500, 230, 2730, 4]);
    });

    it('each row links to exactly the slips behind it on the sales list (drill-down filters)', async () => {
      const month = await report({ group: 'month' });
      assert.deepEqual(await drilled(month, '2026-05'), numbers('S3', 'S4'));
      assert.deepEqual(await drilled(month, 'total'), numbers('S1', 'S2', 'S3', 'S4'));
      assert.deepEqual(await drilled(await report({ group: 'client' }), String(id.outer)), numbers('S1', 'S3'));
      assert.deepEqual(await drilled(await report({ group: 'staff' }), String(id.staffA)), numbers('S1', 'S4'));
      assert.deepEqual(await drilled(await report({ group: 'team' }), '大阪'), numbers('S2', 'S3'));
      const items = await report({ group: 'item' });
      assert.deepEqual(await drilled(items, String(id.water)), numbers('S1', 'S2', 'S3'));
      assert.equal(drillFilters(items, ''), undefined, 'the lines without an item have no filter');
      assert.deepEqual(await drilled(await report({ group: 'rate' }), '10'), numbers('S1', 'S2', 'S4'));
      assert.deepEqual(await drilled(await report({ group: 'month', it_id: id.cup }), '2026-04'), numbers('S1', 'S2'));
    });

    it('salesreport_csv: every row, the total and the year before as a cp932 file (UTF-8 with a BOM on asking), audit-logged', async () => {
      const download = async (params: Record<string, string>) => {
        const res = await fetch(`${h.url}${h.config.dbApiPrefix}/salesreport_csv`, { method: 'POST', body: new URLSearchParams({ authKey: h.adminKey, ...PERIOD, ...params }) });
        return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
      };
      const file = await download({ group: 'item' });
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'text/csv; charset=Shift_JIS');
      assert.match(decodeURIComponent((file.headers.get('content-disposition') ?? '').split("UTF-8''")[1]), /^売上レポート_商品別_20260401-20260531_\d{8}-\d{4}\.csv$/);
      assert.equal(file.headers.get(CSV_HEADERS.rows), '4');
      const rows = parseCsv(iconv.decode(file.bytes, 'cp932'));
      assert.deepEqual(rows, [
        ['商品ID', '商品', '税抜金額', '消費税', '税込金額', '数量', '前年税抜金額', '前年消費税', '前年税込金額', '前年数量', '前年差（税抜）', '前年比（%）'],
        [String(id.water), 'レポート天然水', '4000', '320', '4320', '4', '1000', '80', '1080', '1', '3000', '400.0'],
        [String(id.cup), 'レポートカップ', '2500', '250', '2750', '5', '1000', '100', '1100', '2', '1500', '250.0'],
        ['', '（商品なし：送料・レンタル・保証金など）', '273', '27', '300', '0', '0', '0', '0', '0', '273', ''],
        ['', '合計', '6773', '597', '7370', '9', '2000', '180', '2180', '3', '4773', '338.7'],
      ]);
      const utf8 = await download({ group: 'month', enc: 'utf8' });
      assert.equal(utf8.bytes.subarray(0, 3).toString('hex'), 'efbbbf');
      assert.deepEqual(parseCsv(utf8.bytes.toString('utf8').replace(/^\ufeff/, '')).map((r) => r.slice(0, 3)), [['月', '税抜金額', '消費税'], ['2026年4月', '7000', '600'], ['2026年5月', '-227', '-3'], ['合計', '6773', '597']]);
      const log = await h.post<Row>('log_lst', { n: 5, postData: JSON.stringify({ call: 'salesreport_csv' }) });
      assert.equal(log.status, 200, log.text);
      assert.ok(log.body.length >= 2, 'one audit row per export');
    });

    it('a slip saved with another date (its lines not sent) moves in the report; a deleted slip leaves it', async () => {
      const moved = await save('sales', { date: '2026-04-30', modified: slips.S3.modified }, Number(slips.S3.sl_id));
      assert.equal(moved.status, 200, moved.text);
      const byMonth = async () => (await report({ group: 'month' })).rows.map((r) => [r.key, r.net]);
      assert.deepEqual(await byMonth(), [['2026-04', 6000], ['2026-05', 773]]);
      const back = await save('sales', { date: '2026-05-15', modified: moved.body[0].modified }, Number(slips.S3.sl_id));
      assert.equal(back.status, 200, back.text);
      assert.deepEqual(await byMonth(), [['2026-04', 7000], ['2026-05', -227]]);
      const extra = await created('sales', { cl_id: id.inner, date: '2026-04-02', usr_id: id.staffA, lines: [{ it_id: id.water, quantity: 10 }] });
      assert.deepEqual((await byMonth())[0], ['2026-04', 17000]);
      assert.equal((await h.post('sales_del', { id: extra.sl_id })).status, 200);
      assert.deepEqual(await byMonth(), [['2026-04', 7000], ['2026-05', -227]]);
    });

    it('refuses a bad period, grouping, id or encoding with a Japanese message naming it, and a role without 売上', async () => {
      const refusal = async (call: string, params: Record<string, string | number>, status = 400) => {
        const res = await h.post<{ error: string; fields?: Record<string, string> }>(call, params);
        assert.equal(res.status, status, res.text);
        return res.body[0];
      };
      assert.deepEqual((await refusal('salesreport', { from: '2026-05-01', to: '2026-04-01' })).fields, { to: '終了日は開始日以降の日付を入力してください。' });
      assert.deepEqual((await refusal('salesreport', { from: '2025-01-01', to: '2026-01-31' })).fields, { to: '期間は 366 日以内で指定してください。' });
      assert.deepEqual((await refusal('salesreport', { ...PERIOD, group: 'weekday' })).fields, { group: '集計の単位（月別・顧客別・商品別・担当者別・チーム別・税率別）を選んでください。' });
      assert.deepEqual((await refusal('salesreport', { ...PERIOD, it_id: 'abc' })).fields, { it_id: '商品の指定が正しくありません。' });
      assert.equal((await refusal('salesreport_csv', { ...PERIOD, enc: 'latin1' })).error, 'CSV の文字コードは cp932 または utf8 で指定してください。');
      assert.deepEqual((await refusal('aging_lst', { as_of: '2026-02-30' })).fields, { as_of: '基準日を YYYY-MM-DD の日付で入力してください。' });
      assert.equal((await refusal('aging_lst', { col: 'cl_uri_zan' })).error.length > 0, true);
      const driver = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
      for (const call of ['salesreport', 'salesreport_csv', 'aging_lst']) {
        assert.equal((await h.post(call, PERIOD, driver)).status, 403, call);
      }
    });

    describe('売掛金年齢表', () => {
      const AS_OF = '2026-06-30';
      let billedSlip: Row;
      let siteSlip: Row;
      const aging = async (params: Record<string, string | number> = {}): Promise<AgingList> => {
        const res = await h.post<AgingList>('aging_lst', { as_of: AS_OF, ...params });
        assert.equal(res.status, 200, res.text);
        return res.body[0];
      };

      before(async () => {
        const client = async (values: Record<string, unknown>) =>
          Number((await created('client', { status: '1', tel_1: '03-1234-5678', pref: '東京都', zei_ten: '2', ...values })).cl_id);
        id.head = await client({ co_name: '年齢表本社', co_name_kana: 'ネンレイヒョウホンシャ' });
        id.site = await client({ co_name: '年齢表支店', co_name_kana: 'ネンレイヒョウシテン', parent_id: id.head });
        id.own = await client({ co_name: '年齢表単独', co_name_kana: 'ネンレイヒョウタンドク' });
        siteSlip = await created('sales', { cl_id: id.site, date: '2026-06-10', lines: [{ it_id: id.cup, quantity: 2 }] });
        billedSlip = await created('sales', { cl_id: id.own, date: '2026-06-11', lines: [{ it_id: id.cup, quantity: 4 }] });
        await created('sales', { cl_id: id.head, date: '2026-07-01', lines: [{ it_id: id.cup, quantity: 9 }] });
        // Invoices as a closing writes them; days past due counted to 2026-06-30.
        const invoice = (cl: number, due: string, open: number, extra: Record<string, unknown> = {}) => ({
          number: `AG-${cl}-${due}-${open}`, cl_id: cl, name: '', sime_gp: '31', sime_ym: '202603', closing_date: '2026-03-31', period_from: '2026-03-01', period_to: '2026-03-31',
          total: open, allocated: 0, open, due_date: due, ...extra,
        });
        await bulkInsert(h.database.db, billingResource, [
          invoice(id.head, '2026-06-30', 1000), // 0 days: not due yet
          invoice(id.head, '2026-07-10', 500), // due later
          invoice(id.head, '2026-05-31', 2000), // 30 days
          invoice(id.head, '2026-05-30', 3000), // 31 days
          invoice(id.own, '2026-05-01', 4000), // 60 days
          invoice(id.own, '2026-04-30', 5000), // 61 days
          invoice(id.own, '2026-04-01', 6000), // 90 days
          invoice(id.own, '2026-03-31', 7000), // 91 days
          invoice(id.own, '', 800, { closing_date: '2026-06-20' }), // no due date: due on its closing date (10 days)
          invoice(id.own, '2026-03-31', 0, { total: 9999, allocated: 9999 }), // paid
          invoice(id.own, '2026-03-31', 9999, { closing_date: '2026-07-05' }), // closed after the day
          invoice(id.own, '2026-03-31', 9999, { number: 'AG-deleted' }),
        ]);
        await h.database.db.updateTable('billing').set({ deleted: 1 }).where('bl_number', '=', 'AG-deleted').execute();
        const bill = Number((await h.database.db.selectFrom('billing').select('bl_id').where('bl_cl_id', '=', id.own).orderBy('bl_id').executeTakeFirstOrThrow()).bl_id);
        await h.database.db.updateTable('sales').set({ sl_bli_id: bill }).where('sl_id', '=', Number(billedSlip.sl_id)).execute();
      });

      it('buckets open invoices by days past due on the exact edges; a site\'s unbilled slips count at its 請求先', async () => {
        const answer = await aging({ n: 100 });
        const row = (cl: number) => {
          const found = answer.rows.find((r) => r.cl_id === cl);
          assert.ok(found, `no row for ${cl}`);
          return [found.name, found.unbilled, found.current, found.d30, found.d60, found.d90, found.over90, found.total];
        };
        assert.equal(siteSlip.sl_total, 1100);
        assert.deepEqual(row(id.head), ['年齢表本社', 1100, 1500, 2000, 3000, 0, 0, 7600]);
        assert.deepEqual(row(id.own), ['年齢表単独', 0, 0, 800, 4000, 11000, 7000, 22800]);
        assert.equal(answer.rows.some((r) => r.cl_id === id.site), false, 'the site is billed to its head office');
        // The report's customers: their unbilled slips up to the day — S1 3,790, S3 -1,080, P1 1,080 and 2026-06-01's 5,400 (not the deleted one).
        assert.deepEqual(row(id.outer), ['レポート外税商事', 9190, 0, 0, 0, 0, 0, 9190]);
        const sum = (key: keyof AgingList['total']) => answer.rows.reduce((s, r) => s + r[key], 0);
        assert.deepEqual(answer.total, { unbilled: sum('unbilled'), current: 1500, d30: 2800, d60: 7000, d90: 11000, over90: 7000, unallocated: sum('unallocated'), total: sum('total') });
        assert.equal(answer.row_count, answer.rows.length);
      });

      it('as of another day the same invoices age differently; sorts by any column and pages', async () => {
        const later = await aging({ as_of: '2026-07-01' });
        const own = later.rows.find((r) => r.cl_id === id.own)!;
        assert.deepEqual([own.d30, own.d60, own.d90, own.over90], [800, 0, 4000 + 5000, 6000 + 7000]);
        const byOverdue = await aging({ col: 'over90', odr: 'desc', n: 1 });
        assert.deepEqual(byOverdue.rows.map((r) => r.cl_id), [id.own]);
        const byName = await aging({ col: 'name', n: 2, p: 1 });
        assert.deepEqual(byName.rows.map((r) => r.name), ['年齢表単独', '年齢表本社'], 'ネンレイヒョウタ… before ネンレイヒョウホ…');
        const second = await aging({ col: 'name', n: 2, p: 2 });
        assert.deepEqual(second.rows.map((r) => r.name), ['レポート内税商店', 'レポート外税商事'], 'by their readings レポートウチゼイ, レポートソトゼイ');
        assert.equal(second.row_count, byName.row_count);
      });
    });
  });
}
