/**
 * Saved searches per user and table (`search_save/lst/dtl/sync`) and `master_lst`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { MESSAGES } from '../../lib/protocol';
import { up as searchNameUnique } from '../../server/db/migrations/0015-search-name-unique';
import { dialects, startHarness, type Harness } from './harness';

type Saved = { srch_id: number; srch_name: string; srch_tbl: string; srch_kw: string; srch_col: string; srch_odr: string; postData: string };

for (const dialect of dialects()) {
  describe(dialect, () => {
    let h: Harness;
    let otherKey: string;
    before(async () => {
      h = await startHarness(dialect);
      otherKey = await h.keyOf(h.fixtures.users.sales.email, h.fixtures.users.sales.password);
    });
    after(async () => {
      await h?.close();
    });

    const saveSearch = (params: Record<string, unknown>, key?: string) =>
      h.post<Saved>('search_save', { srch_tbl: 'client', srch_kw: '', srch_col: 'cl_id', srch_odr: 'desc', postData: '{}', ...params }, key);

    describe('saved searches', () => {
      it('saves, lists, reads and deletes my search', async () => {
        const filters = { created: ['2026-01-01', ''], status: ['1'] };
        const saved = await saveSearch({ srch_name: '東京の契約中', srch_kw: '東京', srch_col: 'cl_co_name_kana', srch_odr: 'asc', postData: JSON.stringify(filters) });
        assert.equal(saved.status, 200, saved.text);
        const search = saved.body[0];
        assert.deepEqual(Object.keys(search).sort(), ['postData', 'srch_col', 'srch_id', 'srch_kw', 'srch_name', 'srch_odr', 'srch_tbl']);
        assert.deepEqual(JSON.parse(search.postData), filters);

        const list = await h.post('search_lst', { srch_tbl: 'client' });
        assert.deepEqual(list.body, [{ srch_id: search.srch_id, srch_name: '東京の契約中' }]);
        assert.deepEqual((await h.post('search_lst', { srch_tbl: 'order' })).body, []);

        const detail = await h.post<Saved>('search_dtl', { srch_id: search.srch_id });
        assert.deepEqual(detail.body[0], search);

        const renamed = await saveSearch({ srch_id: search.srch_id, srch_name: '東京（改）', srch_kw: '東京都' });
        assert.equal(renamed.body[0].srch_id, search.srch_id);
        assert.equal(renamed.body[0].srch_kw, '東京都');

        const sync = await h.post('search_sync', { srch_id: search.srch_id });
        assert.deepEqual(sync.body, [{ srch_id: search.srch_id }]);
        assert.deepEqual((await h.post('search_lst', { srch_tbl: 'client' })).body, []);
        assert.equal((await h.post('search_dtl', { srch_id: search.srch_id })).status, 404);
        const log = await h.database.db.selectFrom('audit_log').select('log_call').where('log_table', '=', 'search').orderBy('log_id').execute();
        assert.deepEqual(log.map((l) => l.log_call), ['search_save', 'search_save', 'search_sync']);
      });

      it('saving the same name again replaces it', async () => {
        const first = await saveSearch({ srch_name: '同じ名前', srch_kw: 'a' });
        const second = await saveSearch({ srch_name: '同じ名前', srch_kw: 'b' });
        assert.equal(second.body[0].srch_id, first.body[0].srch_id);
        assert.equal((await h.post('search_lst', { srch_tbl: 'client' })).body.length, 1);
        await h.post('search_sync', { srch_id: first.body[0].srch_id });
      });

      it('refuses renaming a search to a name another of mine has', async () => {
        const first = (await saveSearch({ srch_name: '名前その1' })).body[0];
        const second = (await saveSearch({ srch_name: '名前その2' })).body[0];
        const clash = await saveSearch({ srch_id: second.srch_id, srch_name: '名前その1' });
        assert.equal(clash.status, 400);
        assert.deepEqual(clash.body, [{ error: MESSAGES.searchNameTaken, fields: { srch_name: MESSAGES.searchNameTaken } }]);
        assert.equal((await h.post<Saved>('search_dtl', { srch_id: second.srch_id })).body[0].srch_name, '名前その2');
        for (const s of [first, second]) await h.post('search_sync', { srch_id: s.srch_id });
      });

      it('migration 0015 keeps the newest of each duplicated name, then one live search per name', async () => {
        const { db } = h.database;
        const at = new Date().toISOString();
        const row = (srch_name: string, deleted = 0) => ({
          srch_usr_id: h.fixtures.users.admin.id, srch_tbl: 'order', srch_name, srch_kw: '', srch_col: '', srch_odr: '', srch_post_data: '{}', created: at, modified: at, deleted,
        });
        await sql`DROP INDEX search_srch_usr_id_srch_tbl_srch_name_live_uq`.execute(db);
        const inserted = await db.insertInto('search').values([row('重複'), row('重複'), row('重複', 1), row('重複'), row('ひとつ')]).returning('srch_id').execute();
        await searchNameUnique(db as unknown as Kysely<unknown>);
        const live = await db.selectFrom('search').select(['srch_id', 'srch_name']).where('srch_tbl', '=', 'order').where('deleted', '=', 0).orderBy('srch_id').execute();
        assert.deepEqual(live.map((r) => r.srch_id), [inserted[3].srch_id, inserted[4].srch_id]);
        await assert.rejects(db.insertInto('search').values(row('ひとつ')).execute());
        await db.insertInto('search').values(row('ひとつ', 1)).execute();
        await db.updateTable('search').set({ deleted: 1 }).where('srch_tbl', '=', 'order').execute();
      });

      it('another user can neither see, read, change nor delete my search', async () => {
        const mine = (await saveSearch({ srch_name: '私の検索' })).body[0];
        assert.deepEqual((await h.post('search_lst', { srch_tbl: 'client' }, otherKey)).body, []);
        assert.deepEqual((await h.post('search_dtl', { srch_id: mine.srch_id }, otherKey)).body, [{ error: MESSAGES.notFound }]);
        assert.equal((await saveSearch({ srch_id: mine.srch_id, srch_name: '乗っ取り' }, otherKey)).status, 404);
        assert.equal((await h.post('search_sync', { srch_id: mine.srch_id }, otherKey)).status, 404);
        assert.equal((await h.post<Saved>('search_dtl', { srch_id: mine.srch_id })).body[0].srch_name, '私の検索');
        const theirs = (await saveSearch({ srch_name: '私の検索' }, otherKey)).body[0];
        assert.notEqual(theirs.srch_id, mine.srch_id, 'the same name is per user');
      });

      it('refuses bad input', async () => {
        assert.deepEqual((await saveSearch({ srch_name: '' })).body, [{ error: MESSAGES.searchName }]);
        assert.deepEqual((await saveSearch({ srch_name: 'x'.repeat(101) })).body, [{ error: MESSAGES.searchName }]);
        assert.deepEqual((await saveSearch({ srch_name: 'x', srch_tbl: 'Client; DROP' })).body, [{ error: MESSAGES.badRequest }]);
        assert.deepEqual((await saveSearch({ srch_name: 'x', postData: '{oops' })).body, [{ error: MESSAGES.badJson }]);
        assert.deepEqual((await saveSearch({ srch_name: 'x', srch_odr: 'up' })).body, [{ error: MESSAGES.badSortOrder }]);
        assert.equal((await h.post('search_lst', {})).status, 400);
        assert.deepEqual((await h.post('search_dtl', { srch_id: 'x' })).body, [{ error: MESSAGES.badId }]);
      });
    });

    describe('master_lst', () => {
      it('answers the options of an mt_ table in order', async () => {
        const res = await h.post<{ value: string; text: string; id: number; flg: number; checked: boolean }>('master_lst', { table: 'mt_pmt_method' });
        assert.equal(res.status, 200);
        assert.deepEqual(res.body.map((o) => [o.value, o.text]).slice(0, 2), [['1', '口座振替'], ['2', '銀行振込']]);
        assert.deepEqual(Object.keys(res.body[0]).sort(), ['checked', 'flg', 'id', 'text', 'value']);
        assert.ok((await h.post('master_lst', { table: 'mt_bank' })).body.length > 10);
        assert.deepEqual((await h.post('master_lst', { table: 'mt_nothing' })).body, []);
      });
    });
  });
}
