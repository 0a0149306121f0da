/**
 * A revoked key is refused on the very next call by every server process (issue 21): a logout, a password change,
 * a user deactivated and a role's areas narrowed, each done through one process, are seen at once by the other
 * worker of the same host (`WEB_CONCURRENCY=2`) and — on PostgreSQL — by both workers of a second host on the same
 * database, whose session caches (server/auth/session-cache.ts) held the key. On PostgreSQL the cache is also
 * dropped while its listener is lost (the listening connections terminated), so a change made then is not missed.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { dialects } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'cache-admin@example.jp', password: 'cache-admin-password-2026' };
/** Calls per server: cluster's round robin spreads them over both of its workers. */
const CALLS = 6;

for (const dialect of dialects()) {
  describe(`session changes seen at once by every server process (${dialect})`, () => {
    const servers: ServerProcess[] = [];
    let adminKey = '';

    before(async () => {
      const first = await startServerProcess(dialect, ADMIN, 2);
      servers.push(first);
      if (dialect === 'postgres') servers.push(await startServerProcess(dialect, ADMIN, 2, { beside: first }));
      adminKey = await login(ADMIN.email, ADMIN.password);
    });

    after(async () => {
      for (const server of servers.reverse()) await server.close();
    });

    const home = () => servers[0];
    const last = () => servers[servers.length - 1];

    async function login(email: string, password: string, server = home()): Promise<string> {
      const res = await server.post('/api/login/', { userEmail: email, userPassword: password });
      assert.equal(res.status, 200, res.text);
      return String(res.body[0].auth_key);
    }

    /** The statuses of `CALLS` calls to every server (so every worker of each answers some). */
    async function statuses(call: string, params: Record<string, string>): Promise<number[]> {
      const out: number[] = [];
      for (const server of servers) {
        for (let i = 0; i < CALLS; i++) out.push((await server.post(`/api/db/${call}`, params)).status);
      }
      return out;
    }

    const listParams = (authKey: string) => ({ authKey, n: '5', p: '1' });

    /** A new active user of a role, logged in: its id and auth key. */
    async function staff(email: string, role: string, password = 'staff-password-2026'): Promise<{ id: string; key: string }> {
      const res = await home().post('/api/db/user_save', { authKey: adminKey, postData: JSON.stringify({ name: 'キャッシュ 試験', kana: 'キャッシュ シケン', email, role, team: '検証班', active: '1', password }) });
      assert.equal(res.status, 200, res.text);
      return { id: String(res.body[0].user_id), key: await login(email, password, last()) };
    }

    it('a logout through one process refuses the key on the very next call everywhere', async () => {
      const key = await login(ADMIN.email, ADMIN.password, last());
      assert.deepEqual(await statuses('client_lst', listParams(key)), Array(CALLS * servers.length).fill(200));
      assert.equal((await home().post('/api/db/logout', { authKey: key })).status, 200);
      assert.deepEqual(await statuses('client_lst', listParams(key)), Array(CALLS * servers.length).fill(401));
    });

    it('a password changed by the administrator ends the user\'s sessions everywhere at once', async () => {
      const user = await staff('cache-pw@example.jp', '管理');
      assert.deepEqual(await statuses('client_lst', listParams(user.key)), Array(CALLS * servers.length).fill(200));
      const dtl = await home().post('/api/db/user_dtl', { authKey: adminKey, id: user.id });
      const save = await home().post('/api/db/user_save', { authKey: adminKey, id: user.id, postData: JSON.stringify({ password: 'another-password-2026', modified: dtl.body[0].modified }) });
      assert.equal(save.status, 200, save.text);
      assert.deepEqual(await statuses('client_lst', listParams(user.key)), Array(CALLS * servers.length).fill(401));
      // The new password logs in, and that key works everywhere.
      const fresh = await login('cache-pw@example.jp', 'another-password-2026');
      assert.deepEqual(await statuses('client_lst', listParams(fresh)), Array(CALLS * servers.length).fill(200));
    });

    it('a deactivated user is refused everywhere at once', async () => {
      const user = await staff('cache-off@example.jp', '管理');
      assert.deepEqual(await statuses('client_lst', listParams(user.key)), Array(CALLS * servers.length).fill(200));
      const dtl = await home().post('/api/db/user_dtl', { authKey: adminKey, id: user.id });
      const save = await home().post('/api/db/user_save', { authKey: adminKey, id: user.id, postData: JSON.stringify({ active: '0', modified: dtl.body[0].modified }) });
      assert.equal(save.status, 200, save.text);
      assert.deepEqual(await statuses('client_lst', listParams(user.key)), Array(CALLS * servers.length).fill(401));
    });

    it('a role\'s area narrowed through one process is refused on the very next call everywhere', async () => {
      const role = await home().post('/api/db/role_save', { authKey: adminKey, postData: JSON.stringify({ name: 'キャッシュ係', areas: JSON.stringify({ client: 'write' }) }) });
      assert.equal(role.status, 200, role.text);
      const user = await staff('cache-role@example.jp', 'キャッシュ係');
      assert.deepEqual(await statuses('client_lst', listParams(user.key)), Array(CALLS * servers.length).fill(200));
      const narrowed = await last().post('/api/db/role_save', { authKey: adminKey, id: String(role.body[0].role_id), postData: JSON.stringify({ areas: JSON.stringify({ client: 'none' }), modified: role.body[0].modified }) });
      assert.equal(narrowed.status, 200, narrowed.text);
      assert.deepEqual(await statuses('client_lst', listParams(user.key)), Array(CALLS * servers.length).fill(403));
      // Widened again: allowed again at once.
      const widened = await home().post('/api/db/role_save', { authKey: adminKey, id: String(role.body[0].role_id), postData: JSON.stringify({ areas: JSON.stringify({ client: 'read' }), modified: narrowed.body[0].modified }) });
      assert.equal(widened.status, 200, widened.text);
      assert.deepEqual(await statuses('client_lst', listParams(user.key)), Array(CALLS * servers.length).fill(200));
    });

    if (dialect === 'postgres') {
      it('drops the cache while its listener is lost, so a logout then is refused too; listens again afterwards', async () => {
        const admin = new pg.Client({ connectionString: home().databaseUrl });
        await admin.connect();
        const listeners = async () => Number((await admin.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'session-cache'`)).rows[0].n);
        try {
          // A worker may still be starting (or listening again after a late answer on a busy machine).
          const fourListen = async () => {
            for (let i = 0; i < 150 && (await listeners()) < 4; i++) await new Promise((r) => setTimeout(r, 100));
            assert.equal(await listeners(), 4, 'two workers on each of two hosts listen');
          };
          await fourListen();
          const key = await login(ADMIN.email, ADMIN.password, last());
          assert.deepEqual(await statuses('client_lst', listParams(key)), Array(CALLS * servers.length).fill(200));
          // Terminated and gone (the call waits until each has ended): the processes' listening connections are closed.
          await admin.query(`SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'session-cache'`);
          assert.equal((await home().post('/api/db/logout', { authKey: key })).status, 200);
          assert.deepEqual(await statuses('client_lst', listParams(key)), Array(CALLS * servers.length).fill(401));
          // Every process listens again (it retries), and a change is still seen at once.
          await fourListen();
          const again = await login(ADMIN.email, ADMIN.password, last());
          assert.deepEqual(await statuses('client_lst', listParams(again)), Array(CALLS * servers.length).fill(200));
          assert.equal((await last().post('/api/db/logout', { authKey: again })).status, 200);
          assert.deepEqual(await statuses('client_lst', listParams(again)), Array(CALLS * servers.length).fill(401));
        } finally {
          await admin.end();
        }
      });
    }
  });
}
