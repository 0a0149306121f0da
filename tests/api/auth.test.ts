/**
 * Login (DESIGN §3 shapes), failed-login limits per account and per address, the auth key
 * (missing, wrong, expired), logout, and role refusals.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTH_KEY_ERROR, LIMITS, MESSAGES } from '../../lib/protocol';
import { hashKey } from '../../server/auth/auth-key';
import { createUser } from '../../server/auth/users';
import { assertNoInternals, dialects, useHarness } from './harness';

const LOGIN_KEYS = ['auth_key', 'created', 'deleted', 'modified', 'user_email', 'user_id', 'user_kana', 'user_last_login', 'user_name', 'user_role'];

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    /** A login through inject, from a chosen client address. */
    const loginFrom = async (address: string, email: string, password: string) => {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/login/',
        remoteAddress: address,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ userEmail: email, userPassword: password }).toString(),
      });
      assertNoInternals(res.body);
      return { status: res.statusCode, body: res.json() as Record<string, unknown>[] };
    };

    describe('login', () => {
      it('answers the user record with exactly the spec keys', async () => {
        const { admin } = h.fixtures.users;
        const res = await h.login(admin.email, admin.password);
        assert.equal(res.status, 200);
        assert.match(res.headers.get('content-type') ?? '', /application\/json/);
        assert.equal(res.body.length, 1);
        const user = res.body[0];
        assert.deepEqual(Object.keys(user).sort(), LOGIN_KEYS);
        assert.equal(user.user_email, admin.email);
        assert.equal(user.user_id, admin.id);
        assert.equal(user.user_role, '管理');
        assert.equal(user.user_name, '管理 太郎');
        assert.equal(user.deleted, 0);
        assert.match(String(user.auth_key), /^[A-Za-z0-9_-]{43}$/);
        assert.match(String(user.user_last_login), /^\d{4}-\d{2}-\d{2}T/);
        const stored = await h.database.db.selectFrom('auth_key').select('ak_hash').where('ak_hash', '=', String(user.auth_key)).execute();
        assert.equal(stored.length, 0, 'the key itself is never stored');
      });

      it('accepts the e-mail in any case and is the same without the trailing slash', async () => {
        const res = await h.request('/api/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ userEmail: 'ADMIN@example.jp', userPassword: h.fixtures.users.admin.password }),
        });
        assert.equal(res.status, 200);
      });

      it('refuses a wrong password and an unknown account with the same Japanese message', async () => {
        for (const [email, password] of [[h.fixtures.users.sales.email, 'wrong-password'], ['nobody@example.jp', 'whatever']]) {
          const res = await h.login(email, password);
          assert.equal(res.status, 401);
          assert.deepEqual(res.body, [{ errors: [{ message: MESSAGES.loginFailed }] }]);
        }
        await h.database.db.deleteFrom('login_attempt').execute();
      });

      it('asks for both fields when one is missing', async () => {
        const res = await h.login('', 'x');
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, [{ errors: [{ message: MESSAGES.loginMissing }] }]);
      });

      it('locks an account after too many failures, from any address', async () => {
        const email = 'locked@example.jp';
        await createUser(h.database.db, { email, password: 'right-password', name: 'ロック', role: '営業' });
        for (let i = 1; i <= LIMITS.loginMaxFailuresPerAccount; i++) {
          const res = await loginFrom(`10.1.0.${i}`, email, 'bad');
          assert.equal(res.status, 401, `failure ${i}`);
        }
        const locked = await loginFrom('10.1.1.1', email, 'right-password');
        assert.equal(locked.status, 429);
        assert.deepEqual(locked.body, [{ errors: [{ message: MESSAGES.loginLocked }] }]);
        const other = await loginFrom('10.1.1.1', h.fixtures.users.sales.email, h.fixtures.users.sales.password);
        assert.equal(other.status, 200, 'other accounts still log in');
        await h.database.db.updateTable('login_attempt').set({ la_window_start: '2000-01-01T00:00:00.000Z' }).execute();
        const later = await loginFrom('10.1.1.1', email, 'right-password');
        assert.equal(later.status, 200, 'the lock ends with its window');
      });

      it('locks an address after too many failures, for every account', async () => {
        for (let i = 1; i <= LIMITS.loginMaxFailuresPerAddress; i++) {
          const res = await loginFrom('10.2.0.1', `guess${i}@example.jp`, 'bad');
          assert.equal(res.status, 401, `failure ${i}`);
        }
        const { admin } = h.fixtures.users;
        const locked = await loginFrom('10.2.0.1', admin.email, admin.password);
        assert.equal(locked.status, 429);
        assert.equal(locked.body[0].errors instanceof Array, true);
        const elsewhere = await loginFrom('10.2.0.2', admin.email, admin.password);
        assert.equal(elsewhere.status, 200);
      });
    });

    describe('auth key', () => {
      it('refuses a call without, with a wrong and with an expired key (401, the one message)', async () => {
        const missing = await h.post('client_lst', {}, null);
        assert.equal(missing.status, 401);
        assert.deepEqual(missing.body, [{ error: AUTH_KEY_ERROR }]);
        const empty = await h.post('client_lst', {}, '');
        assert.equal(empty.status, 401);
        const wrong = await h.post('client_lst', {}, 'x'.repeat(43));
        assert.deepEqual([wrong.status, wrong.body], [401, [{ error: AUTH_KEY_ERROR }]]);
        const { sales } = h.fixtures.users;
        const key = await h.keyOf(sales.email, sales.password);
        assert.equal((await h.post('client_lst', {}, key)).status, 200);
        await h.database.db.updateTable('auth_key').set({ ak_expires: '2020-01-01T00:00:00.000Z' }).where('ak_hash', '=', hashKey(key)).execute();
        const expired = await h.post('client_lst', {}, key);
        assert.deepEqual([expired.status, expired.body], [401, [{ error: AUTH_KEY_ERROR }]]);
      });

      it('extends the expiry of a key in use', async () => {
        const { sales } = h.fixtures.users;
        const key = await h.keyOf(sales.email, sales.password);
        const soon = new Date(Date.now() + 60 * 60 * 1000).toISOString();
        await h.database.db.updateTable('auth_key').set({ ak_expires: soon }).where('ak_hash', '=', hashKey(key)).execute();
        assert.equal((await h.post('client_cnt', {}, key)).status, 200);
        const row = await h.database.db.selectFrom('auth_key').select('ak_expires').where('ak_hash', '=', hashKey(key)).executeTakeFirstOrThrow();
        assert.ok(row.ak_expires > soon);
      });

      it('logout deletes the key: the next call is refused', async () => {
        const { accounting } = h.fixtures.users;
        const key = await h.keyOf(accounting.email, accounting.password);
        const out = await h.post('logout', {}, key);
        assert.deepEqual([out.status, out.body], [200, [{ ok: true }]]);
        const next = await h.post('client_lst', {}, key);
        assert.deepEqual([next.status, next.body], [401, [{ error: AUTH_KEY_ERROR }]]);
        const audits = await h.database.db.selectFrom('audit_log').select('log_id').where('log_call', '=', 'logout').execute();
        assert.equal(audits.length, 0, 'logout is not a data write');
      });
    });

    describe('roles', () => {
      it('配送 may read customers but not save or delete them (403)', async () => {
        const { delivery } = h.fixtures.users;
        const key = await h.keyOf(delivery.email, delivery.password);
        assert.equal((await h.post('client_lst', {}, key)).status, 200);
        assert.equal((await h.post('client_dtl', { id: h.fixtures.clients.abc }, key)).status, 200);
        const save = await h.post('client_save', { postData: { co_name: '配送が作成', tel_1: '03-1111-2222', status: '1' } }, key);
        assert.deepEqual([save.status, save.body], [403, [{ error: MESSAGES.forbidden }]]);
        const del = await h.post('client_del', { id: h.fixtures.clients.abc }, key);
        assert.equal(del.status, 403);
        const count = await h.database.db.selectFrom('client').select('cl_id').where('cl_co_name', '=', '配送が作成').execute();
        assert.equal(count.length, 0);
      });

      it('営業 may save customers; 経理 may not', async () => {
        const { sales, accounting } = h.fixtures.users;
        const salesKey = await h.keyOf(sales.email, sales.password);
        const ok = await h.post('client_save', { postData: { co_name: '営業が作成', tel_1: '03-1111-2222', status: '1' } }, salesKey);
        assert.equal(ok.status, 200, ok.text);
        await h.post('client_del', { id: Number(ok.body[0].cl_id) });
        const accountingKey = await h.keyOf(accounting.email, accounting.password);
        assert.equal((await h.post('client_save', { postData: { co_name: 'x', tel_1: '03-1111-2222', status: '1' } }, accountingKey)).status, 403);
      });
    });
  });
}
