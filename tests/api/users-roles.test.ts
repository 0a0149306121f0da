/**
 * Users and roles: the `role` table and its rules (管理 fixed, roles in use, renaming), the server
 * checking every call against the role's stored areas (a change applies to the next call), the
 * user list and save, the user rules (last admin, oneself, sessions, soft delete), what non-admins
 * may do (their own profile only, with the current password to change it) and bad input.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN_ROLE, ALL_WRITE, AREA_KEYS, ROLE_TABLE, normalizeAreas } from '../../lib/permissions';
import { AUTH_KEY_ERROR, MESSAGES, type RoleMine } from '../../lib/protocol';
import { verifyPassword } from '../../server/auth/password';
import { ROLE_MESSAGES } from '../../server/auth/role-policy';
import { USER_MESSAGES } from '../../server/auth/user-policy';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
interface Refusal {
  error: string;
  fields?: Record<string, string>;
}

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    const roles = async (key?: string) => {
      const res = await h.post<Row>('role_lst', { n: 100 }, key);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const roleNamed = async (name: string) => {
      const row = (await roles()).find((r) => r.role_name === name);
      assert.ok(row, `role ${name} is listed`);
      return row;
    };
    const saveRole = (postData: Record<string, unknown>, id?: number | string | null, key?: string) =>
      h.post<Row>('role_save', { id: id ?? undefined, postData: JSON.stringify(postData) }, key);
    /** Sets some areas of a role (the rest stay as stored). */
    const setAreas = async (name: string, areas: Record<string, string>) => {
      const row = await roleNamed(name);
      const res = await saveRole({ areas: JSON.stringify({ ...normalizeAreas(row.role_areas), ...areas }), modified: row.modified }, row.role_id);
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const saveUser = (postData: Record<string, unknown>, id?: number, key?: string) =>
      h.post<Row>('user_save', { id, postData: JSON.stringify(postData) }, key);
    const userRow = async (id: number) => (await h.post<Row>('user_dtl', { id })).body[0];
    const refusal = (body: unknown): Refusal => (body as Refusal[])[0];
    /** A new active user through user_save; answers its id and a fresh auth key. */
    const staff = async (email: string, role: string, password = 'pass-word-2026') => {
      const res = await saveUser({ name: `テスト ${email.split('@')[0]}`, kana: 'テスト', email, role, team: '検証班', active: '1', password });
      assert.equal(res.status, 200, res.text);
      const id = Number(res.body[0].user_id);
      return { id, email, password, key: await h.keyOf(email, password) };
    };

    describe('the role table', () => {
      it('holds the four default roles of lib/permissions, 管理 with every area at write', async () => {
        const rows = await roles();
        assert.deepEqual(rows.map((r) => r.role_name), Object.keys(ROLE_TABLE));
        for (const row of rows) {
          assert.deepEqual(normalizeAreas(row.role_areas), normalizeAreas(ROLE_TABLE[String(row.role_name)]));
        }
        assert.deepEqual(normalizeAreas((await roleNamed(ADMIN_ROLE)).role_areas), ALL_WRITE);
      });

      it('answers the caller their own role and areas (role_mine), for any role', async () => {
        const { delivery } = h.fixtures.users;
        const res = await h.post<RoleMine>('role_mine', {}, await h.keyOf(delivery.email, delivery.password));
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].user_role, '配送');
        assert.equal(res.body[0].user_id, delivery.id);
        assert.deepEqual(res.body[0].areas, normalizeAreas(ROLE_TABLE['配送']));
        assert.deepEqual((await h.post<RoleMine>('role_mine')).body[0].areas, ALL_WRITE);
      });

      it('offers the live roles as the mt_role master', async () => {
        const created = await saveRole({ name: '受付', areas: JSON.stringify({ client: 'read' }) });
        assert.equal(created.status, 200, created.text);
        const options = (await h.post<{ value: string; text: string }>('master_lst', { table: 'mt_role' })).body;
        assert.deepEqual(options.map((o) => o.value), [...Object.keys(ROLE_TABLE), '受付']);
        assert.equal((await h.post('role_del', { id: created.body[0].role_id })).status, 200);
        const after = (await h.post<{ value: string }>('master_lst', { table: 'mt_role' })).body;
        assert.ok(!after.some((o) => o.value === '受付'), 'a deleted role is no longer offered');
      });

      it('creates a role with its areas stored for every area, refusing a taken name and bad areas', async () => {
        const res = await saveRole({ name: '倉庫係', areas: JSON.stringify({ stock: 'write', client: 'read' }) });
        assert.equal(res.status, 200, res.text);
        const areas = JSON.parse(String(res.body[0].role_areas)) as Record<string, string>;
        assert.deepEqual(Object.keys(areas).sort(), [...AREA_KEYS].sort());
        assert.equal(areas.stock, 'write');
        assert.equal(areas.order, 'none');

        const taken = await saveRole({ name: '営業', areas: '{}' });
        assert.equal(taken.status, 400);
        assert.equal(refusal(taken.body).fields?.name, '権限名「営業」は既に登録されています。');
        const badJson = await saveRole({ name: '壊れた', areas: 'not json' });
        assert.equal(badJson.status, 400);
        assert.match(String(refusal(badJson.body).fields?.areas), /形式が正しくありません/);
        const badLevel = await saveRole({ name: '壊れた', areas: JSON.stringify({ client: 'admin' }) });
        assert.equal(badLevel.status, 400);
        const badArea = await saveRole({ name: '壊れた', areas: JSON.stringify({ spaceship: 'read' }) });
        assert.match(refusal(badArea.body).error, /業務「spaceship」はありません/);
        const noName = await saveRole({ name: '', areas: '{}' });
        assert.equal(refusal(noName.body).fields?.name, '権限名を入力してください。');
        const adminOnly = await saveRole({ name: '副管理', areas: JSON.stringify({ user_admin: 'write' }) });
        assert.equal(adminOnly.status, 400);
        assert.equal(refusal(adminOnly.body).error, ROLE_MESSAGES.adminOnly('ユーザー・権限管理'));
        const names = (await roles()).map((r) => r.role_name);
        assert.ok(!names.includes('壊れた') && !names.includes('副管理'), 'nothing refused was stored');
      });

      it('keeps 管理 at write everywhere, with its name, and never deletes it', async () => {
        const admin = await roleNamed(ADMIN_ROLE);
        const reduce = await saveRole({ areas: JSON.stringify({ ...ALL_WRITE, sales: 'read' }), modified: admin.modified }, admin.role_id);
        assert.deepEqual([reduce.status, refusal(reduce.body).error], [400, ROLE_MESSAGES.adminAreas]);
        const rename = await saveRole({ name: '管理者', modified: admin.modified }, admin.role_id);
        assert.deepEqual([rename.status, refusal(rename.body).error], [400, ROLE_MESSAGES.adminRename]);
        const del = await h.post('role_del', { id: admin.role_id });
        assert.deepEqual([del.status, refusal(del.body).error], [400, ROLE_MESSAGES.adminDelete]);
        const unchanged = await roleNamed(ADMIN_ROLE);
        assert.equal(unchanged.modified, admin.modified);
        assert.deepEqual(normalizeAreas(unchanged.role_areas), ALL_WRITE);
      });

      it('refuses to delete a role a user holds, and soft-deletes an unused one', async () => {
        const inUse = await roleNamed('配送');
        const del = await h.post('role_del', { id: inUse.role_id });
        assert.equal(del.status, 400);
        assert.equal(refusal(del.body).error, ROLE_MESSAGES.inUse('配送', 1));
        const spare = await saveRole({ name: '臨時', areas: '{}' });
        const id = Number(spare.body[0].role_id);
        assert.equal((await h.post('role_del', { id })).status, 200);
        const stored = await h.database.db.selectFrom('role').select(['deleted', 'role_name']).where('role_id', '=', id).executeTakeFirstOrThrow();
        assert.deepEqual([stored.deleted, stored.role_name], [1, '臨時']);
        assert.equal((await h.post('role_dtl', { id })).status, 404);
      });

      it('renames a role on its users in the same save, and they keep their areas', async () => {
        const { accounting } = h.fixtures.users;
        const key = await h.keyOf(accounting.email, accounting.password);
        const row = await roleNamed('経理');
        const res = await saveRole({ name: '経理部', modified: row.modified }, row.role_id);
        assert.equal(res.status, 200, res.text);
        assert.equal((await userRow(accounting.id)).user_role, '経理部');
        const mine = (await h.post<RoleMine>('role_mine', {}, key)).body[0];
        assert.equal(mine.user_role, '経理部');
        assert.deepEqual(mine.areas, normalizeAreas(ROLE_TABLE['経理']));
        assert.equal((await h.post('order_lst', {}, key)).status, 200);
        const audit = await h.database.db.selectFrom('audit_log').select('log_changes').where('log_table', '=', 'user').where('log_record_id', '=', accounting.id).orderBy('log_id', 'desc').executeTakeFirstOrThrow();
        assert.deepEqual((JSON.parse(audit.log_changes) as Record<string, unknown>).user_role, ['経理', '経理部']);
        const back = await saveRole({ name: '経理', modified: res.body[0].modified }, row.role_id);
        assert.equal(back.status, 200, back.text);
        assert.equal((await userRow(accounting.id)).user_role, '経理');
      });

      it('refuses a stale edit of a role (409) and changes nothing', async () => {
        const row = await roleNamed('営業');
        const first = await saveRole({ areas: JSON.stringify({ ...normalizeAreas(row.role_areas), download: 'read' }), modified: row.modified }, row.role_id);
        assert.equal(first.status, 200, first.text);
        const stale = await saveRole({ areas: JSON.stringify({ ...normalizeAreas(row.role_areas), download: 'write' }), modified: row.modified }, row.role_id);
        assert.deepEqual([stale.status, refusal(stale.body).error], [409, MESSAGES.conflict]);
        assert.equal(normalizeAreas((await roleNamed('営業')).role_areas).download, 'read');
        await setAreas('営業', { download: 'none' });
      });

      it('lets only admins read and change roles', async () => {
        const { sales } = h.fixtures.users;
        const key = await h.keyOf(sales.email, sales.password);
        assert.equal((await h.post('role_lst', {}, key)).status, 403);
        const row = await roleNamed('営業');
        const res = await saveRole({ areas: JSON.stringify(ALL_WRITE), modified: row.modified }, row.role_id, key);
        assert.deepEqual([res.status, refusal(res.body).error], [403, MESSAGES.forbidden]);
      });
    });

    describe('a role change applies to the next call', () => {
      it('配送 with write on customers may save them; without 対応履歴 it may not list contacts', async () => {
        const { delivery } = h.fixtures.users;
        const key = await h.keyOf(delivery.email, delivery.password);
        const customer = { co_name: '配送が作成', tel_1: '03-1111-2222', status: '1' };
        assert.equal((await h.post('client_save', { postData: customer }, key)).status, 403);
        assert.equal((await h.post('contact_lst', {}, key)).status, 200);

        await setAreas('配送', { client: 'write', crm: 'none' });
        const saved = await h.post<Row>('client_save', { postData: customer }, key);
        assert.equal(saved.status, 200, saved.text);
        const contacts = await h.post('contact_lst', {}, key);
        assert.deepEqual([contacts.status, contacts.body], [403, [{ error: MESSAGES.forbidden }]]);
        assert.deepEqual((await h.post<RoleMine>('role_mine', {}, key)).body[0].areas.crm, 'none');

        await setAreas('配送', { client: 'read', crm: 'write' });
        assert.equal((await h.post('client_del', { id: saved.body[0].cl_id }, key)).status, 403);
        assert.equal((await h.post('contact_lst', {}, key)).status, 200);
        assert.equal((await h.post('client_del', { id: saved.body[0].cl_id })).status, 200);
      });

      it('a user whose role label has no live role may call nothing that needs an area', async () => {
        const lone = await staff('lone@example.jp', '倉庫係');
        assert.equal((await h.post('item_lst', {}, lone.key)).status, 200);
        const row = await roleNamed('倉庫係');
        await h.database.db.updateTable('role').set({ deleted: 1 }).where('role_id', '=', Number(row.role_id)).execute();
        assert.equal((await h.post('item_lst', {}, lone.key)).status, 403);
        assert.deepEqual((await h.post<RoleMine>('role_mine', {}, lone.key)).body[0].areas.stock, 'none');
        await h.database.db.updateTable('role').set({ deleted: 0 }).where('role_id', '=', Number(row.role_id)).execute();
      });
    });

    describe('the user list', () => {
      it('searches by keyword, sorts, pages and never answers passwords', async () => {
        const byKeyword = await h.post<Row>('user_lst', { kw: 'HAISO' });
        assert.equal(byKeyword.status, 200, byKeyword.text);
        assert.deepEqual(byKeyword.body.map((r) => r.user_id), [h.fixtures.users.delivery.id]);
        const byName = (await h.post<Row>('user_lst', { kw: '営業 花子' })).body;
        assert.deepEqual(byName.map((r) => r.user_email), ['sales@example.jp']);
        for (const row of (await h.post<Row>('user_lst', { n: 100 })).body) assert.ok(!('user_password' in row), 'no password column');

        const sorted = (await h.post<Row>('user_lst', { col: 'user_email', odr: 'desc', n: 100 })).body.map((r) => String(r.user_email));
        assert.deepEqual(sorted, [...sorted].sort().reverse());
        const page2 = (await h.post<Row>('user_lst', { col: 'user_id', odr: 'asc', n: 2, p: 2 })).body.map((r) => Number(r.user_id));
        const all = (await h.post<Row>('user_lst', { col: 'user_id', odr: 'asc', n: 100 })).body.map((r) => Number(r.user_id));
        assert.deepEqual(page2, all.slice(2, 4));
        const count = await h.post<number>('user_cnt', {});
        assert.equal(count.body[0], all.length);
        const inactive = await h.post<Row>('user_lst', { postData: JSON.stringify({ active: ['0'] }) });
        assert.ok(inactive.body.every((r) => Number(r.user_active) === 0));
        assert.equal((await h.post('user_lst', { col: 'user_password' })).status, 400);
      });

      it('refuses the list and other users to non-admins (403), but not their own record', async () => {
        const { sales, delivery } = h.fixtures.users;
        const key = await h.keyOf(sales.email, sales.password);
        assert.equal((await h.post('user_lst', {}, key)).status, 403);
        assert.equal((await h.post('user_cnt', {}, key)).status, 403);
        assert.equal((await h.post('user_dtl', { id: delivery.id }, key)).status, 403);
        const other = await saveUser({ name: '乗っ取り', modified: (await userRow(delivery.id)).modified }, delivery.id, key);
        assert.deepEqual([other.status, refusal(other.body).error], [403, MESSAGES.forbidden]);
        assert.equal((await h.post('user_save', { postData: JSON.stringify({ name: '新人', email: 'new@example.jp', role: '営業', password: 'abcdefgh' }) }, key)).status, 403);
        assert.equal((await h.post('user_del', { id: delivery.id }, key)).status, 403);
        const own = await h.post<Row>('user_dtl', { id: sales.id }, key);
        assert.equal(own.status, 200, own.text);
        assert.equal(own.body[0].user_email, sales.email);
        assert.equal(own.body[0].user_password, '', 'the hash is never answered');
      });
    });

    describe('saving users', () => {
      it('creates a user with a lower-cased e-mail and a hashed password, who can log in', async () => {
        const res = await saveUser({ name: '新人 一郎', kana: 'シンジン イチロウ', email: 'ＮＥＷ.Staff@Example.JP', role: '営業', team: '営業チーム', active: '1', password: 'first-pass-1' });
        assert.equal(res.status, 200, res.text);
        const row = res.body[0];
        assert.equal(row.user_email, 'new.staff@example.jp');
        assert.equal(row.user_password, '');
        const stored = await h.database.db.selectFrom('user').select('user_password').where('user_id', '=', Number(row.user_id)).executeTakeFirstOrThrow();
        assert.ok(await verifyPassword('first-pass-1', stored.user_password));
        const login = await h.login<Row>('New.Staff@example.jp', 'first-pass-1');
        assert.equal(login.status, 200, login.text);
        assert.equal(login.body[0].user_role, '営業');
      });

      it('refuses bad input with messages naming the field, storing nothing', async () => {
        const base = { name: '入力 検証', email: 'check@example.jp', role: '営業', password: 'long-enough' };
        const cases: [Record<string, unknown>, string, string][] = [
          [{ password: '' }, 'password', USER_MESSAGES.passwordRequired],
          [{ password: '1234567' }, 'password', 'パスワードは8文字以上で入力してください。'],
          [{ email: 'not-an-email' }, 'email', 'メールアドレスの形式が正しくありません（例: info@example.jp）。'],
          [{ email: 'SALES@example.jp' }, 'email', 'メールアドレス「sales@example.jp」は既に登録されています。'],
          [{ role: '社長' }, 'role', USER_MESSAGES.unknownRole('社長')],
          [{ role: '' }, 'role', '権限を選択してください。'],
          [{ name: '' }, 'name', '氏名を入力してください。'],
          [{ active: '2' }, 'active', '有効は 0 か 1 で指定してください。'],
        ];
        for (const [values, field, message] of cases) {
          const res = await saveUser({ ...base, ...values });
          assert.equal(res.status, 400, JSON.stringify(values));
          assert.equal(refusal(res.body).fields?.[field], message, JSON.stringify(res.body));
        }
        const stored = await h.database.db.selectFrom('user').select('user_id').where('user_email', '=', 'check@example.jp').execute();
        assert.equal(stored.length, 0);
      });

      it('keeps the password when an edit sends none, and refuses a stale edit (409)', async () => {
        const user = await staff('keep@example.jp', '営業', 'keep-pass-2026');
        const before = await userRow(user.id);
        const res = await saveUser({ team: '第二営業', password: '', modified: before.modified }, user.id);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.body[0].user_team, '第二営業');
        assert.equal((await h.login('keep@example.jp', 'keep-pass-2026')).status, 200);
        const stale = await saveUser({ team: '第三営業', modified: before.modified }, user.id);
        assert.deepEqual([stale.status, refusal(stale.body).error], [409, MESSAGES.conflict]);
        assert.equal((await userRow(user.id)).user_team, '第二営業');
        const byAdmin = await saveUser({ password: 'reset-by-admin', modified: res.body[0].modified }, user.id);
        assert.equal(byAdmin.status, 200, 'an admin sets another user\'s password without theirs');
        assert.equal((await h.login('keep@example.jp', 'reset-by-admin')).status, 200);
      });
    });

    describe('user rules', () => {
      it('never lets the last active 管理 user be demoted or deactivated, nor anyone delete themselves', async () => {
        const { admin } = h.fixtures.users;
        const current = await userRow(admin.id);
        const demote = await saveUser({ role: '営業', modified: current.modified }, admin.id);
        assert.deepEqual([demote.status, refusal(demote.body).error], [400, USER_MESSAGES.lastAdmin]);
        const deactivate = await saveUser({ active: '0', modified: current.modified }, admin.id);
        assert.deepEqual([deactivate.status, refusal(deactivate.body).error], [400, USER_MESSAGES.lastAdmin]);
        const self = await h.post('user_del', { id: admin.id });
        assert.deepEqual([self.status, refusal(self.body).error], [400, USER_MESSAGES.deleteSelf]);
        assert.deepEqual([(await userRow(admin.id)).user_role, (await userRow(admin.id)).user_active], [ADMIN_ROLE, 1]);

        // An inactive 管理 does not count as another admin.
        const dormant = await staff('dormant@example.jp', ADMIN_ROLE);
        const off = await saveUser({ active: '0', modified: (await userRow(dormant.id)).modified }, dormant.id);
        assert.equal(off.status, 200, off.text);
        assert.equal((await saveUser({ role: '営業', modified: current.modified }, admin.id)).status, 400);

        // With a second active admin, the second may be demoted and the first may delete them.
        const second = await staff('second-admin@example.jp', ADMIN_ROLE);
        const selfDelete = await h.post('user_del', { id: second.id }, second.key);
        assert.deepEqual([selfDelete.status, refusal(selfDelete.body).error], [400, USER_MESSAGES.deleteSelf]);
        const demoted = await saveUser({ role: '経理', modified: (await userRow(second.id)).modified }, second.id);
        assert.equal(demoted.status, 200, demoted.text);
        assert.equal((await h.post<RoleMine>('role_mine', {}, second.key)).body[0].user_role, '経理');
        assert.equal((await h.post('user_lst', {}, second.key)).status, 403, 'the demotion applies to the next call');
      });

      it('ends the sessions of a deactivated user, who can no longer log in', async () => {
        const user = await staff('leaver@example.jp', '配送');
        assert.equal((await h.post('client_lst', {}, user.key)).status, 200);
        const res = await saveUser({ active: '0', modified: (await userRow(user.id)).modified }, user.id);
        assert.equal(res.status, 200, res.text);
        assert.equal((await h.post('client_lst', {}, user.key)).status, 401);
        assert.equal((await h.login(user.email, user.password)).status, 401);
        const keys = await h.database.db.selectFrom('auth_key').select('ak_hash').where('ak_user_id', '=', user.id).execute();
        assert.equal(keys.length, 0);
      });

      it('ends every session of a user whose password an admin resets; other saves keep them', async () => {
        const user = await staff('reset@example.jp', '営業', 'before-reset-1');
        const second = await h.keyOf(user.email, user.password);
        const kept = await saveUser({ team: '第二営業', password: '', modified: (await userRow(user.id)).modified }, user.id);
        assert.equal(kept.status, 200, kept.text);
        for (const key of [user.key, second]) assert.equal((await h.post('client_lst', {}, key)).status, 200, 'a save without a password keeps the sessions');
        const reset = await saveUser({ password: 'after-reset-1', modified: kept.body[0].modified }, user.id);
        assert.equal(reset.status, 200, reset.text);
        for (const key of [user.key, second]) {
          const res = await h.post('client_lst', {}, key);
          assert.deepEqual([res.status, res.body], [401, [{ error: AUTH_KEY_ERROR }]]);
        }
        assert.equal((await h.post('client_lst')).status, 200, 'the admin who reset it stays logged in');
        assert.equal((await h.login(user.email, 'after-reset-1')).status, 200);
      });

      it('soft-deletes a user: sessions end, login fails, history stays and the e-mail stays taken', async () => {
        const user = await staff('gone@example.jp', '営業');
        const customer = await h.post<Row>('client_save', { postData: { co_name: '削除前に登録', tel_1: '03-1111-2222', status: '1' } }, user.key);
        assert.equal(customer.status, 200, customer.text);
        // Records naming them as staff keep them (tests/api/crm-items.test.ts): such a user is deactivated instead.
        const contact = await h.post<Row>('contact_save', { postData: { cl_id: customer.body[0].cl_id, uketsuke_date: '2026-11-01', channel: '1', subject: '担当の対応', usr_id: user.id, status: '1' } }, user.key);
        assert.equal(contact.status, 200, contact.text);
        const refused = await h.post('user_del', { id: user.id });
        assert.equal(refused.status, 400);
        assert.match(refusal(refused.body).error, /対応履歴（1件）/);
        assert.equal((await h.post('contact_del', { id: contact.body[0].ct_id })).status, 200);
        assert.equal((await h.post('user_del', { id: user.id })).status, 200);
        assert.equal((await h.post('client_lst', {}, user.key)).status, 401);
        assert.equal((await h.login(user.email, user.password)).status, 401);
        assert.equal((await h.post('user_dtl', { id: user.id })).status, 404);
        const stored = await h.database.db.selectFrom('user').select(['deleted', 'user_name']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
        assert.equal(stored.deleted, 1);
        const history = await h.database.db.selectFrom('audit_log').select('log_id').where('log_user_id', '=', user.id).execute();
        assert.ok(history.length > 0, 'their writes stay in the audit log');
        const again = await saveUser({ name: '再登録', email: 'GONE@example.jp', role: '営業', password: 'another-pass' });
        assert.equal(again.status, 400);
        assert.equal(refusal(again.body).fields?.email, USER_MESSAGES.deletedEmail);
        await h.post('client_del', { id: customer.body[0].cl_id });
      });
    });

    describe('one\'s own profile', () => {
      it('lets a non-admin change their name, kana and e-mail, but not their role, team or active flag', async () => {
        const user = await staff('self@example.jp', '配送');
        const row = await h.post<Row>('user_dtl', { id: user.id }, user.key);
        assert.equal(row.status, 200, row.text);
        // The form sends every field; unchanged locked ones are fine.
        const form = { name: '自分 変更', kana: 'ジブン ヘンコウ', email: 'Self.New@example.jp', role: '配送', team: '検証班', active: '1', modified: row.body[0].modified };
        const saved = await saveUser(form, user.id, user.key);
        assert.equal(saved.status, 200, saved.text);
        assert.deepEqual([saved.body[0].user_name, saved.body[0].user_email], ['自分 変更', 'self.new@example.jp']);
        for (const [field, value, label] of [['role', ADMIN_ROLE, '権限'], ['team', '管理チーム', 'チーム'], ['active', '0', '有効']] as const) {
          const res = await saveUser({ [field]: value, modified: saved.body[0].modified }, user.id, user.key);
          assert.deepEqual([res.status, refusal(res.body).error], [403, `${label}を変更する権限がありません。`], field);
        }
        const after = await userRow(user.id);
        assert.deepEqual([after.user_role, after.user_team, after.user_active], ['配送', '検証班', 1]);
        assert.equal((await h.post('user_del', { id: user.id }, user.key)).status, 403);
      });

      it('needs the current password to change one\'s own, then logs in with the new one', async () => {
        const user = await staff('pw@example.jp', '経理', 'old-password-1');
        const modified = (await userRow(user.id)).modified;
        const missing = await saveUser({ password: 'new-password-1', modified }, user.id, user.key);
        assert.equal(missing.status, 400);
        assert.equal(refusal(missing.body).fields?.current_password, '現在のパスワードを入力してください。');
        const wrong = await saveUser({ password: 'new-password-1', current_password: 'not-my-password', modified }, user.id, user.key);
        assert.equal(wrong.status, 400);
        assert.equal(refusal(wrong.body).fields?.current_password, '現在のパスワードが正しくありません。');
        const short = await saveUser({ password: 'short', current_password: 'old-password-1', modified }, user.id, user.key);
        assert.equal(refusal(short.body).fields?.password, 'パスワードは8文字以上で入力してください。');
        assert.equal((await userRow(user.id)).modified, modified, 'nothing was written');

        const ok = await saveUser({ password: 'new-password-1', current_password: 'old-password-1', modified }, user.id, user.key);
        assert.equal(ok.status, 200, ok.text);
        assert.equal((await h.login(user.email, 'old-password-1')).status, 401);
        assert.equal((await h.login(user.email, 'new-password-1')).status, 200);
      });

      it('ends one\'s other sessions on changing one\'s own password, keeping the session that changed it', async () => {
        const user = await staff('own-change@example.jp', '経理', 'own-before-1');
        const other = await h.keyOf(user.email, user.password);
        const modified = (await userRow(user.id)).modified;
        const profile = await saveUser({ kana: 'ジブン', modified }, user.id, user.key);
        assert.equal(profile.status, 200, profile.text);
        assert.equal((await h.post('client_lst', {}, other)).status, 200, 'a profile edit without a password keeps the other session');
        const ok = await saveUser({ password: 'own-after-1', current_password: 'own-before-1', modified: profile.body[0].modified }, user.id, user.key);
        assert.equal(ok.status, 200, ok.text);
        assert.equal((await h.post('client_lst', {}, user.key)).status, 200, 'the session that made the change stays');
        const ended = await h.post('client_lst', {}, other);
        assert.deepEqual([ended.status, ended.body], [401, [{ error: AUTH_KEY_ERROR }]]);
        const keys = await h.database.db.selectFrom('auth_key').select('ak_hash').where('ak_user_id', '=', user.id).execute();
        assert.equal(keys.length, 1);
      });

      it('asks an admin for their current password too when they change their own', async () => {
        const { admin } = h.fixtures.users;
        const modified = (await userRow(admin.id)).modified;
        const wrong = await saveUser({ password: 'admin-pass-2027', current_password: 'nope-nope', modified }, admin.id);
        assert.equal(refusal(wrong.body).fields?.current_password, '現在のパスワードが正しくありません。');
        const ok = await saveUser({ password: 'admin-pass-2027', current_password: admin.password, modified }, admin.id);
        assert.equal(ok.status, 200, ok.text);
        const back = await saveUser({ password: admin.password, current_password: 'admin-pass-2027', modified: ok.body[0].modified }, admin.id);
        assert.equal(back.status, 200, back.text);
      });
    });
  });
}
