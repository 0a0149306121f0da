/**
 * Row scopes (a resource policy's `scope`): the audit log belongs to everyone who reads the system area,
 * but its rows about a table only to those who may read that table's area — user and role rows to 管理,
 * a saved search's rows to its owner — in the list, the count, the pagination and the detail alike; the
 * log's filter masters and `mt_role` offer only what the caller may read.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ADMIN_ROLE } from '../../lib/permissions';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    /** The default roles without user management, and a role that reads the system area only. */
    const keys: Record<string, string> = {};
    const ids: Record<string, number> = {};
    let narrowId = 0;
    let userLogId = 0;

    const ok = async (call: string, params: Record<string, unknown>, key?: string): Promise<Row[]> => {
      const res = await h.post<Row>(call, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'object' ? JSON.stringify(v) : v])), key);
      assert.equal(res.status, 200, `${call}: ${res.text}`);
      return res.body;
    };
    const logs = (postData: Record<string, unknown>, key?: string) => ok('log_lst', { n: 1000, postData }, key);
    const count = async (postData: Record<string, unknown>, key?: string) => Number((await ok('log_cnt', { postData }, key))[0]);
    const total = async (postData: Record<string, unknown>, key?: string) => Number((await ok('log_pagination', { n: 10, postData }, key))[0].total);

    before(async () => {
      const { sales, delivery, accounting } = h.fixtures.users;
      keys.営業 = await h.keyOf(sales.email, sales.password);
      keys.配送 = await h.keyOf(delivery.email, delivery.password);
      keys.経理 = await h.keyOf(accounting.email, accounting.password);
      Object.assign(ids, { 営業: sales.id, 配送: delivery.id, 経理: accounting.id });
      // User and role rows in the log: a new role, and a user given it.
      await ok('role_save', { postData: { name: '閲覧のみ', areas: JSON.stringify({ system: 'read' }) } });
      const [narrow] = await ok('user_save', { postData: { name: '閲覧 五郎', email: 'etsuran@example.jp', role: '閲覧のみ', active: '1', password: 'etsuran-pass-2026' } });
      narrowId = Number(narrow.user_id);
      keys.閲覧のみ = await h.keyOf('etsuran@example.jp', 'etsuran-pass-2026');
      ids.閲覧のみ = narrowId;
      // A customer edit, a master row, and a saved search by the admin and by each user.
      const [client] = await ok('client_dtl', { id: h.fixtures.clients.yamada });
      await ok('client_save', { id: h.fixtures.clients.yamada, postData: { memo: '記録の範囲', modified: client.modified } });
      await ok('master_option_save', { postData: { table: 'mt_rank', value: 'Z', text: '範囲確認' } });
      await ok('search_save', { srch_name: '管理者の検索', srch_tbl: 'client', postData: '{}' });
      for (const [role, key] of Object.entries(keys)) await ok('search_save', { srch_name: `${role}の検索`, srch_tbl: 'client', postData: '{}' }, key);
      const [userLog] = await logs({ table: 'user', record_id: narrowId });
      userLogId = Number(userLog.log_id);
    });

    it('answers the user and role rows to 管理, and to nobody else — list, count, pagination, detail', async () => {
      for (const table of ['user', 'role']) {
        assert.ok((await logs({ table })).length > 0, `管理 reads the ${table} rows`);
        assert.ok((await count({ table })) > 0);
        for (const [role, key] of Object.entries(keys)) {
          assert.deepEqual(await logs({ table }, key), [], `${role} must not read the ${table} rows`);
          assert.equal(await count({ table }, key), 0, role);
          assert.equal(await total({ table }, key), 0, role);
        }
      }
      assert.equal((await h.post('log_dtl', { id: userLogId })).status, 200);
      for (const [role, key] of Object.entries(keys)) {
        const detail = await h.post('log_dtl', { id: userLogId }, key);
        assert.equal(detail.status, 404, `${role}: ${detail.text}`);
        const all = await logs({}, key);
        assert.ok(all.every((r) => r.log_table !== 'user' && r.log_table !== 'role'), role);
        assert.ok(!JSON.stringify(all).includes('etsuran@example.jp'), `${role} sees no e-mail address of a user`);
        // The keyword finds nothing outside the scope either.
        assert.deepEqual(await ok('log_lst', { n: 100, kw: 'etsuran@example.jp' }, key), [], role);
      }
    });

    it('answers the rows of a table to those who read its area: a role without 顧客 sees no customer rows', async () => {
      for (const role of ['営業', '配送', '経理']) assert.ok((await logs({ table: 'client' }, keys[role])).length > 0, role);
      assert.deepEqual(await logs({ table: 'client' }, keys.閲覧のみ), []);
      assert.equal(await count({ table: 'orders' }, keys.閲覧のみ), 0);
      const systemRows = await logs({ table: 'master_option' }, keys.閲覧のみ);
      assert.ok(systemRows.length > 0, 'the system area’s own rows stay readable');
      const tables = new Set((await logs({}, keys.閲覧のみ)).map((r) => r.log_table));
      assert.deepEqual([...tables].filter((t) => !['master_option', 'search'].includes(String(t))), [], [...tables].join());
    });

    it('answers a saved search’s rows to its owner only, every row to 管理', async () => {
      for (const [role, key] of Object.entries(keys)) {
        const rows = await logs({ table: 'search' }, key);
        assert.deepEqual(rows.map((r) => r.log_user_id), [ids[role]], role);
      }
      const all = await logs({ table: 'search' });
      assert.equal(new Set(all.map((r) => r.log_user_id)).size, Object.keys(keys).length + 1);
    });

    it('offers as the log’s filters, and as mt_role, only what the caller may read', async () => {
      const values = async (table: string, key?: string) => (await ok('master_lst', { table }, key)).map((o) => String(o.value));
      assert.ok((await values('mt_log_table')).includes('user'));
      assert.ok((await values('mt_log_call')).includes('role_save'));
      assert.deepEqual(await values('mt_role'), [ADMIN_ROLE, '営業', '配送', '経理', '閲覧のみ']);
      for (const [role, key] of Object.entries(keys)) {
        const tables = await values('mt_log_table', key);
        assert.ok(!tables.includes('user') && !tables.includes('role') && tables.includes('search'), `${role}: ${tables.join()}`);
        assert.ok(!(await values('mt_log_call', key)).some((c) => c.startsWith('user_') || c.startsWith('role_')), role);
        assert.deepEqual(await values('mt_role', key), [role], `${role} sees only their own role`);
      }
      assert.ok(!(await values('mt_log_table', keys.閲覧のみ)).includes('client'));
    });
  });
}
