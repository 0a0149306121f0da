/**
 * The list query of every `_lst`/`_cnt`/`_pagination` call: n, p, col, odr, kw (width- and
 * case-insensitive, `%` and `_` literal), the date-range rules of spec §5, other filters,
 * cl_id and the last-order lookup.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { filterProblemMessage } from '../../lib/filters';
import { todayJst } from '../../lib/format';
import { MESSAGES } from '../../lib/protocol';
import { clientResource } from '../../lib/resources/client';
import { dialects, startHarness, type Harness } from './harness';

type Row = Record<string, string | number | null>;

for (const dialect of dialects()) {
  describe(dialect, () => {
    let h: Harness;
    const ids = (rows: Row[]) => rows.map((r) => Number(r.cl_id));
    const list = async (params: Record<string, unknown>) => {
      const res = await h.post<Row>('client_lst', params as Record<string, string>);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const kwIds = async (kw: string) => ids(await list({ kw, n: 100 })).sort((a, b) => a - b);

    before(async () => {
      h = await startHarness(dialect);
      const { contract, yamada } = h.fixtures.clients;
      // JST 2020-01-01 09:00 and JST 2019-12-31 23:59:59.999: the day boundary is Japan's.
      await h.database.db.updateTable('client').set({ created: '2020-01-01T00:00:00.000Z' }).where('cl_id', '=', contract).execute();
      await h.database.db.updateTable('client').set({ created: '2019-12-31T14:59:59.999Z' }).where('cl_id', '=', yamada).execute();
    });
    after(async () => {
      await h?.close();
    });

    describe('paging and sorting', () => {
      it('answers 10 rows of the newest first by default, prefixed names plus created/modified', async () => {
        const rows = await list({});
        const all = Object.values(h.fixtures.clients).sort((a, b) => b - a);
        assert.deepEqual(ids(rows), all);
        const row = rows[0];
        const declared = clientResource.list;
        for (const key of [...declared.columns.map((c) => c.name), ...declared.sortable, 'cl_email', 'cl_shipping_co_name', 'created', 'modified']) {
          assert.ok(key in row, key);
        }
        for (const key of ['cl_search', 'deleted', 'cl_pw', 'cl_image', 'co_name', 'cl_memo']) assert.ok(!(key in row), key);
        const detail = await h.post<Row>('client_dtl', { id: row.cl_id });
        for (const key of ['cl_area', 'cl_atm_type', 'cl_shipping_usr', 'cl_memo', 'cl_image', 'cl_pw']) assert.ok(key in detail.body[0], key);
      });

      it('pages with n and p', async () => {
        const all = ids(await list({ n: 100 }));
        assert.deepEqual(ids(await list({ n: 2, p: 1 })), all.slice(0, 2));
        assert.deepEqual(ids(await list({ n: 2, p: 2 })), all.slice(2, 4));
        assert.deepEqual(await list({ n: 2, p: 50 }), []);
      });

      it('sorts by a whitelisted column both ways, the id breaking ties', async () => {
        const asc = await list({ col: 'cl_co_name_kana', odr: 'asc', n: 100 });
        const kana = asc.map((r) => String(r.cl_co_name_kana));
        assert.deepEqual(kana, [...kana].sort());
        const desc = await list({ col: 'cl_co_name_kana', odr: 'desc', n: 100 });
        assert.deepEqual(ids(desc), ids(asc).reverse());
        const byPref = await list({ col: 'cl_pref', odr: 'DESC', n: 100 });
        assert.deepEqual(byPref.map((r) => r.cl_pref), [...byPref.map((r) => String(r.cl_pref))].sort().reverse());
      });

      it('sorts a reading like its name: by the reading, then the name, then the id', async () => {
        const save = async (co_name: string) => {
          const res = await h.post<Row>('client_save', { postData: JSON.stringify({ co_name, co_name_kana: 'ドウメイショウジ', tel_1: '03-5555-0101', status: '1' }) });
          assert.equal(res.status, 200, res.text);
          return Number(res.body[0].cl_id);
        };
        // The later id has the earlier name.
        const [b, a] = [await save('同名商事Ｂ'), await save('同名商事Ａ')];
        try {
          const mine = (rows: Row[]) => ids(rows).filter((id) => id === a || id === b);
          assert.deepEqual(mine(await list({ col: 'cl_co_name_kana', odr: 'asc', n: 100 })), [a, b]);
          assert.deepEqual(mine(await list({ col: 'cl_co_name_kana', odr: 'desc', n: 100 })), [b, a]);
          assert.deepEqual(mine(await list({ col: 'cl_co_name', odr: 'asc', n: 100 })), [a, b]);
        } finally {
          for (const id of [a, b]) await h.post('client_del', { id });
        }
      });

      it('counts (_cnt) and paginates (_pagination) with the same conditions', async () => {
        const count = await h.post('client_cnt', {});
        assert.deepEqual([count.status, count.body], [200, [6]]);
        assert.deepEqual((await h.post('client_cnt', { kw: 'ａｂｃ' })).body, [2]);
        const pages = await h.post('client_pagination', { n: 4, p: 2 });
        assert.deepEqual(pages.body, [{ total: 6, pages: 2, page: 2, n: 4 }]);
        const none = await h.post('client_pagination', { kw: '該当なしのキーワード' });
        assert.deepEqual(none.body, [{ total: 0, pages: 0, page: 1, n: 10 }]);
      });
    });

    describe('keyword', () => {
      it('matches full-width stored text with half-width, full-width and upper/lower case keywords', async () => {
        const { abc, halfAbc } = h.fixtures.clients;
        const both = [abc, halfAbc].sort((a, b) => a - b);
        assert.deepEqual(await kwIds('abc'), both);
        assert.deepEqual(await kwIds('ＡＢＣ'), both);
        assert.deepEqual(await kwIds('ａｂｃ'), both);
        assert.deepEqual(await kwIds('AbC'), both);
        assert.deepEqual(await kwIds('ＡＢＣ商事'), [abc]);
        assert.deepEqual(await kwIds('abc商事'), [abc]);
      });

      it('matches half-width kana both ways', async () => {
        const { abc, yamada } = h.fixtures.clients;
        assert.deepEqual(await kwIds('ﾔﾏﾀﾞｼｮｳﾃﾝ'), [yamada]);
        assert.deepEqual(await kwIds('ヤマダショウテン'), [yamada]);
        assert.deepEqual(await kwIds('ｶﾌﾞｼｷｶﾞｲｼｬｴｰﾋﾞｰｼｰ'), [abc]);
      });

      it('treats % and _ literally', async () => {
        const { percent, underscore } = h.fixtures.clients;
        assert.deepEqual(await kwIds('%'), [percent]);
        assert.deepEqual(await kwIds('100%'), [percent]);
        assert.deepEqual(await kwIds('_'), [underscore]);
        assert.deepEqual(await kwIds('r_s'), [underscore]);
        assert.deepEqual(await kwIds('\\'), []);
        assert.deepEqual(await kwIds("' OR 1=1 --"), []);
      });

      it('needs every space-separated term (AND), short and long terms alike', async () => {
        const { halfAbc, yamada } = h.fixtures.clients;
        assert.deepEqual(await kwIds('abc 大阪'), [halfAbc]);
        assert.deepEqual(await kwIds('abc　大阪市北区'), [halfAbc]);
        assert.deepEqual(await kwIds('山田'), [yamada]);
        assert.deepEqual(await kwIds('山田 札幌市'), [yamada]);
        assert.deepEqual(await kwIds('山田 大阪'), []);
        assert.deepEqual(await kwIds('   '), (await kwIds('')).sort((a, b) => a - b));
      });

      it('sorts and pages keyword results like any list (indexed and short terms)', async () => {
        for (const kw of ['03-1234', '03']) {
          const all = await list({ kw, col: 'cl_co_name_kana', odr: 'desc', n: 100 });
          const kana = all.map((r) => String(r.cl_co_name_kana));
          assert.deepEqual(kana, [...kana].sort().reverse(), kw);
          assert.deepEqual(ids(await list({ kw, col: 'cl_co_name_kana', odr: 'desc', n: 2, p: 2 })), ids(all).slice(2, 4), kw);
        }
      });

      it('searches phone numbers and prefectures', async () => {
        assert.equal((await kwIds('03-1234')).length, 6);
        assert.deepEqual(await kwIds('北海道'), [h.fixtures.clients.yamada]);
      });
    });

    describe('date ranges (spec §5)', () => {
      const created = async (range: [string, string]) => ids(await list({ n: 100, postData: JSON.stringify({ created: range }) })).sort((a, b) => a - b);
      const total = async () => (await kwIds('')).length;

      it('both ends: Japan days, inclusive', async () => {
        assert.deepEqual(await created(['2020-01-01', '2020-01-01']), [h.fixtures.clients.contract]);
        assert.deepEqual(await created(['2019-12-31', '2019-12-31']), [h.fixtures.clients.yamada]);
        assert.deepEqual(await created(['2019-12-31', '2020-01-01']), [h.fixtures.clients.contract, h.fixtures.clients.yamada].sort((a, b) => a - b));
      });

      it('only from: up to today; only to: from 1970-01-01; created with neither: everything', async () => {
        assert.equal((await created(['2020-01-01', ''])).length, (await total()) - 1);
        assert.deepEqual(await created(['', '2019-12-31']), [h.fixtures.clients.yamada]);
        assert.equal((await created(['', ''])).length, await total());
        assert.equal((await created([todayJst(), ''])).length, (await total()) - 2);
        const modified = await list({ n: 100, postData: JSON.stringify({ modified: ['', ''] }) });
        assert.equal(modified.length, await total(), 'an empty modified range does not apply');
      });

      it('a date column compares its YYYY-MM-DD text inclusively', async () => {
        const byContract = await list({ postData: JSON.stringify({ contract_date: ['2026-03-15', '2026-03-15'] }) });
        assert.deepEqual(ids(byContract), [h.fixtures.clients.contract]);
        const byNext = await list({ postData: JSON.stringify({ next_shipping_date: ['', '2026-04-01'] }) });
        assert.deepEqual(ids(byNext), [h.fixtures.clients.contract]);
        assert.deepEqual(await list({ postData: JSON.stringify({ contract_date: ['2026-03-16', ''] }) }), []);
      });

      it('refuses bad dates and from > to (400)', async () => {
        for (const range of [['2026-13-01', ''], ['2026-02-30', '2026-03-01'], ['2026/01/01', ''], ['2026-03-02', '2026-03-01']]) {
          const res = await h.post('client_lst', { postData: JSON.stringify({ created: range }) });
          assert.deepEqual([res.status, res.body], [400, [{ error: filterProblemMessage(clientResource.list.filters, 'range', 'created') }]], JSON.stringify(range));
        }
        const notArray = await h.post('client_lst', { postData: JSON.stringify({ created: '2026-01-01' }) });
        assert.equal(notArray.status, 400);
      });
    });

    describe('other filters', () => {
      it('in, unknown names and empty values', async () => {
        assert.equal((await list({ postData: JSON.stringify({ status: ['1'] }) })).length, 6);
        assert.deepEqual(await list({ postData: JSON.stringify({ status: ['9'] }) }), []);
        assert.equal((await list({ postData: JSON.stringify({ status: [] }) })).length, 6, 'empty values are dropped');
        const unknown = await h.post('client_lst', { postData: JSON.stringify({ cl_secret: ['x'] }) });
        assert.deepEqual([unknown.status, unknown.body], [400, [{ error: MESSAGES.badFilter }]]);
      });

      it('order status (in) and total (numberRange, either end optional)', async () => {
        await h.database.db.updateTable('orders').set({ od_uriage_total: 5000 }).where('od_id', '=', h.fixtures.orders[0]).execute();
        const pending = await h.post<Row>('order_lst', { postData: JSON.stringify({ od_status: ['pending'] }) });
        assert.equal(pending.body.length, 1);
        const big = await h.post<Row>('order_lst', { postData: JSON.stringify({ uriage_total: [4000, ''] }) });
        assert.deepEqual(big.body.map((r) => r.od_id), [h.fixtures.orders[0]]);
        const others = (await h.database.db.updateTable('orders').set({ od_uriage_total: 4001 }).where('od_id', '<>', h.fixtures.orders[0]).where('deleted', '=', 0).returning('od_id').execute()).map((r) => Number(r.od_id));
        const small = await h.post<Row>('order_lst', { postData: JSON.stringify({ uriage_total: ['', 4000] }) });
        assert.deepEqual(small.body, []);
        const upTo = await h.post<Row>('order_lst', { postData: JSON.stringify({ uriage_total: ['', 4001] }) });
        assert.deepEqual(upTo.body.map((r) => Number(r.od_id)).sort(), others.sort());
        assert.ok(others.length >= 2);
        const bad = await h.post('order_lst', { postData: JSON.stringify({ od_status: ['flying'] }) });
        assert.equal(bad.status, 400);
      });
    });

    describe('cl_id and the last-order lookup', () => {
      it('order_lst with cl_id lists that customer’s orders; n=1, p=1 is the latest', async () => {
        const { abc, yamada } = h.fixtures.clients;
        const all = await h.post<Row>('order_lst', { cl_id: abc, n: 10, p: 1 });
        assert.deepEqual(all.body.map((r) => r.od_id), [...h.fixtures.orders].reverse());
        assert.ok(all.body.every((r) => r.od_cl_id === abc));
        const last = await h.post<Row>('order_lst', { cl_id: abc, n: 1, p: 1 });
        assert.deepEqual(last.body.map((r) => r.od_id), [h.fixtures.orders[2]]);
        assert.deepEqual((await h.post('order_lst', { cl_id: yamada, n: 1, p: 1 })).body, []);
        assert.deepEqual((await h.post('order_cnt', { cl_id: abc })).body, [3]);
        assert.equal((await h.post('order_lst', { cl_id: 'abc' })).status, 400);
      });
    });
  });
}
