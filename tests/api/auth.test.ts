/**
 * Login (DESIGN §3 shapes), graded failed-login delays (pair, account, address; behind a proxy), the auth key
 * (missing, wrong, expired), logout, and role refusals.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AUTH_KEY_ERROR, LIMITS, MESSAGES } from '../../lib/protocol';
import { hashKey } from '../../server/auth/auth-key';
import { createUser } from '../../server/auth/users';
import { dialects, useHarness } from './harness';

const LOGIN_KEYS = ['auth_key', 'created', 'deleted', 'modified', 'user_email', 'user_id', 'user_kana', 'user_last_login', 'user_name', 'user_role'];

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

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
    });

    describe('graded login limits (behind a proxy: TRUST_PROXY)', () => {
      const p = useHarness(dialect, { TRUST_PROXY: 'on' });
      const X = '198.51.100.10', Y = '198.51.100.20', Z = '198.51.100.30';

      /** A login through the proxy, which says the client is `forwardedFor` (X-Forwarded-For as the proxy wrote it). */
      const loginAt = async (forwardedFor: string, email: string, password: string) => {
        const res = await p.request('/api/login/', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
          body: new URLSearchParams({ userEmail: email, userPassword: password }),
        });
        return { status: res.status, body: res.body, retryAfter: res.headers.get('retry-after') };
      };
      const delayed = (seconds: number) => ({ status: 429, body: [{ errors: [{ message: MESSAGES.loginDelayed(seconds) }] }], retryAfter: String(seconds) });
      const counters = () => p.database.db.selectFrom('login_attempt').selectAll().where('la_key', 'not like', 'known:%').execute();
      /** As if `ms` had gone by since every counter's last attempt (the tests never sleep). */
      const elapse = async (ms: number) => {
        for (const row of await counters()) {
          await p.database.db.updateTable('login_attempt').set({ modified: new Date(Date.parse(row.modified) - ms).toISOString() }).where('la_key', '=', row.la_key).execute();
        }
      };
      /** As if the last counted attempt had happened this instant, so the delay it set is still whole when the next request asks. */
      const justNow = () => p.database.db.updateTable('login_attempt').set({ modified: new Date().toISOString() }).where('la_key', 'not like', 'known:%').where('la_failures', '>', 0).execute();

      it('delays an account at one address with growing waits, never where it logged in before, and not other accounts', async () => {
        const user = { email: 'graded@example.jp', password: 'graded-pass-1' };
        await createUser(p.database.db, { ...user, name: '段階', role: '営業' });
        assert.equal((await loginAt(Y, user.email, user.password)).status, 200, 'Y is an address the account logged in from');

        for (let i = 1; i <= LIMITS.loginFreeFailures.pair; i++) assert.equal((await loginAt(X, user.email, 'wrong')).status, 401, `failure ${i}`);
        await justNow();
        assert.deepEqual(await loginAt(X, user.email, user.password), delayed(1), 'delayed: even the right password is refused, unchecked');
        const { sales } = p.fixtures.users;
        assert.equal((await loginAt(X, sales.email, sales.password)).status, 200, 'another account logs in from the same address');

        for (const seconds of [2, 4]) {
          await elapse((seconds / 2) * 1000);
          assert.equal((await loginAt(X, user.email, 'wrong')).status, 401, 'one attempt after the wait');
          await justNow();
          assert.deepEqual(await loginAt(X, user.email, 'wrong'), delayed(seconds), 'the delay doubles');
        }

        // The account's own counter now delays it from addresses it never logged in from …
        assert.equal(LIMITS.loginFreeFailures.account, 5);
        assert.deepEqual(await loginAt(Z, user.email, user.password), delayed(1));
        // … but not from Y, where it logged in before; X stays delayed.
        assert.equal((await loginAt(Y, user.email, user.password)).status, 200);
        await justNow();
        assert.deepEqual(await loginAt(X, user.email, user.password), delayed(4));
        await elapse(4000);
        assert.equal((await loginAt(X, user.email, user.password)).status, 200, 'the delay ends; nothing is locked');
        assert.ok(!(await counters()).some((row) => row.la_key === `pair:${X} ${user.email}`), 'a success clears its pair');
      });

      it('delays an address only after many failures, and then only for accounts new to it (the admin too)', async () => {
        const office = '203.0.113.50';
        const { admin, sales } = p.fixtures.users;
        assert.equal((await loginAt(office, sales.email, sales.password)).status, 200);
        for (let i = 1; i <= LIMITS.loginFreeFailures.address; i++) {
          assert.equal((await loginAt(office, `guess${i}@example.jp`, 'bad')).status, 401, `failure ${i}`);
        }
        await justNow();
        assert.deepEqual(await loginAt(office, admin.email, admin.password), delayed(1));
        assert.equal((await loginAt(office, sales.email, sales.password)).status, 200, 'a colleague who logged in here before is not slowed');
        assert.equal((await loginAt(Z, admin.email, admin.password)).status, 200, 'the admin logs in from elsewhere');
      });

      it('lets a burst of parallel attempts through no more than the free failures', async () => {
        const email = 'burst@example.jp';
        await createUser(p.database.db, { email, password: 'burst-pass-1', name: '連打', role: '営業' });
        const answers = await Promise.all(Array.from({ length: 10 }, () => loginAt('192.0.2.40', email, 'wrong')));
        const statuses = answers.map((a) => a.status);
        const through = statuses.filter((s) => s === 401).length;
        assert.ok(through >= 1 && through <= LIMITS.loginFreeFailures.pair, `checked passwords: ${statuses.join(' ')}`);
        assert.equal(statuses.filter((s) => s === 429).length, 10 - through);
      });

      it('takes the client address the proxy wrote, not one the client wrote before it', async () => {
        assert.equal((await loginAt('192.0.2.99, 198.51.100.77', 'spoof@example.jp', 'bad')).status, 401);
        const keys = (await counters()).map((row) => row.la_key);
        assert.ok(keys.includes('address:198.51.100.77') && !keys.some((k) => k.includes('192.0.2.99')), keys.join(' '));
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

      it('a key holding a control character or bytes that are no text is a wrong key like any other (401, the one message), also on logout', async () => {
        const { sales } = h.fixtures.users;
        const key = await h.keyOf(sales.email, sales.password);
        for (const bad of [`${key}\u0000`, `\u0007${key}`, 'x\u001b[31m', key.slice(0, 10) + '\u007f' + key.slice(11)]) {
          const res = await h.post('client_lst', {}, bad);
          assert.deepEqual([res.status, res.body], [401, [{ error: AUTH_KEY_ERROR }]], JSON.stringify(bad));
        }
        const halfSurrogate = await h.request(`${h.config.dbApiPrefix}/client_lst`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `authKey=${key}%ED%A0%80` });
        assert.deepEqual([halfSurrogate.status, halfSurrogate.body], [401, [{ error: AUTH_KEY_ERROR }]]);
        const out = await h.post('logout', {}, `${key}\u0001`);
        assert.deepEqual([out.status, out.body], [401, [{ error: AUTH_KEY_ERROR }]]);
        assert.equal((await h.post('client_lst', {}, key)).status, 200, 'the real key still works');
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
