/**
 * Several hosts on one PostgreSQL database (issue 21, "A test with two hosts"): real server processes
 * (`server/main.ts`), each with a data folder of its own, as application servers behind a load balancer — a request
 * may reach any, so what one host did is what the others see:
 * - a login limit reached through host A delays the next login through host B;
 * - a password changed through A: B refuses the old sessions and the old password, takes the new one;
 * - a cancel asked through B stops a run A runs;
 * - host C killed (SIGKILL) while it runs a job: B reports the job failed within 70 s — once its heartbeat is a
 *   minute old, not before — none of its orders written, and a new run of it on B succeeds.
 * The hosts run on this one machine, where a server tells a dead process of its own host by its pid at once; the
 * killed host's job is labelled another machine's (`job_host`) before the kill, so B judges it as a second machine
 * would, by the heartbeat C wrote. The kill's minute runs beside the other tests (`concurrency`).
 * PostgreSQL only (SQLite is one host's file): skipped without TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { HodGenerateResult } from '../../lib/hod/kinds';
import type { JobInfo } from '../../lib/jobs';
import { AUTH_KEY_ERROR, LIMITS, MESSAGES } from '../../lib/protocol';
import { itemResource } from '../../lib/resources/item';
import { openDatabase } from '../../server/db/connect';
import { BEAT_EVERY_MS, STALE_AFTER_MS } from '../../server/jobs/abandoned';
import { bulkInsert } from '../../server/seed/bulk-insert';
import { seedSyntheticClients } from '../../server/seed/seed';
import { dialects } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'hosts@example.jp', password: 'two-hosts-2026' };
/** Synthetic customers (about half on a regular schedule): a month's run takes some seconds, long enough to be killed in. */
const CUSTOMERS = 4_000;
/** A host killed while it runs a job: another reports it failed within this (its heartbeat a minute old, read on polling). */
const REPORTED_WITHIN_MS = 70_000;

type Job = JobInfo<HodGenerateResult>;
type Answer = Awaited<ReturnType<ServerProcess['post']>>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('hosts on one PostgreSQL database', { concurrency: true, skip: !dialects().includes('postgres') && 'PostgreSQL only (TEST_DATABASE_URL)' }, () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess;
  let adminKey = '';

  const call = (host: ServerProcess, name: string, params: Record<string, string | number>, key = adminKey): Promise<Answer> =>
    host.post(`/api/db/${name}`, { authKey: key, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
  const login = (host: ServerProcess, email: string, password: string): Promise<Answer> =>
    host.post('/api/login/', { userEmail: email, userPassword: password });
  const keyOf = async (host: ServerProcess, email: string, password: string): Promise<string> => {
    const res = await login(host, email, password);
    assert.equal(res.status, 200, res.text);
    return String(res.body[0].auth_key);
  };
  const job = async (host: ServerProcess, id: number): Promise<Job> => {
    const res = await call(host, 'job_dtl', { id });
    assert.equal(res.status, 200, res.text);
    return res.body[0] as unknown as Job;
  };
  /** Polls a job on a host until `until` holds or it ended (at most `ms`), answering it as last seen. */
  const watch = async (host: ServerProcess, id: number, until: (j: Job) => boolean = () => false, ms = 60_000): Promise<Job> => {
    for (const deadline = Date.now() + ms; ;) {
      const j = await job(host, id);
      if (j.state !== 'running' || until(j)) return j;
      assert.ok(Date.now() < deadline, `job ${id} still running after ${ms} ms: ${JSON.stringify(j)}`);
      await sleep(40);
    }
  };
  const generate = async (host: ServerProcess, from: string, to: string): Promise<number> => {
    const res = await call(host, 'hod_generate', { from, to });
    assert.equal(res.status, 200, res.text);
    return Number(res.body[0].job_id);
  };
  /** A user created through host `a` (never logged in). */
  const newUser = async (email: string, password: string): Promise<number> => {
    const res = await call(a, 'user_save', { postData: JSON.stringify({ name: `別拠点 ${email.split('@')[0]}`, email, role: '営業', active: '1', password }) });
    assert.equal(res.status, 200, res.text);
    return Number(res.body[0].user_id);
  };
  const withDatabase = async <T>(use: (db: ReturnType<typeof openDatabase>['db']) => Promise<T>): Promise<T> => {
    const database = openDatabase({ dialect: 'postgres', databaseUrl: a.databaseUrl, sqliteFile: '' });
    try {
      return await use(database.db);
    } finally {
      await database.close();
    }
  };

  before(async () => {
    a = await startServerProcess('postgres', ADMIN, 1);
    const seeded = withDatabase(async (db) => {
      await seedSyntheticClients(db, CUSTOMERS);
      await bulkInsert(db, itemResource, [{ code: 'W12', name: '天然水 12L', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, returnable: 1 }]);
    });
    [b, c] = await Promise.all([startServerProcess('postgres', ADMIN, 1, { beside: a }), startServerProcess('postgres', ADMIN, 1, { beside: a }), seeded]);
    adminKey = await keyOf(a, ADMIN.email, ADMIN.password);
  });

  after(async () => {
    await c?.close();
    await b?.close();
    await a?.close();
  });

  it('delays a login through B after failures through A', async () => {
    const user = { email: 'limited@example.jp', password: 'limited-pass-1' };
    await newUser(user.email, user.password);
    for (let i = 1; i <= LIMITS.loginFreeFailures.pair; i++) assert.equal((await login(a, user.email, 'wrong-password')).status, 401, `failure ${i} on A`);
    // As if the last failure were this instant, so its one-second delay is whole when B is asked.
    await withDatabase((db) => db.updateTable('login_attempt').set({ modified: new Date().toISOString() }).where('la_failures', '>', 0).execute());
    const delayed = await login(b, user.email, user.password);
    assert.equal(delayed.status, 429, delayed.text);
    assert.deepEqual(delayed.body, [{ errors: [{ message: MESSAGES.loginDelayed(1) }] }]);
  });

  it('refuses on B the sessions and the password a change through A replaced; the new password works on B', async () => {
    const user = { email: 'changer@example.jp', password: 'before-change-1' };
    const id = await newUser(user.email, user.password);
    const onA = await keyOf(a, user.email, user.password);
    const onB = await keyOf(b, user.email, user.password);
    assert.equal((await call(a, 'client_lst', { n: 1 }, onB)).status, 200, 'a session of one host is known to the other');
    const modified = String((await call(a, 'user_dtl', { id }, onA)).body[0].modified);
    const change = await call(a, 'user_save', { id, postData: JSON.stringify({ password: 'after-change-1', current_password: user.password, modified }) }, onA);
    assert.equal(change.status, 200, change.text);

    const ended = await call(b, 'client_lst', { n: 1 }, onB);
    assert.deepEqual([ended.status, ended.body], [401, [{ error: AUTH_KEY_ERROR }]], 'the other session ended on B at once');
    assert.equal((await call(b, 'client_lst', { n: 1 }, onA)).status, 200, 'the session that changed it stays, on B too');
    assert.equal((await login(b, user.email, user.password)).status, 401, 'the old password is refused on B');
    assert.equal((await login(b, user.email, 'after-change-1')).status, 200, 'the new one works on B');
  });

  it('stops through B a run A runs', async () => {
    const id = await generate(a, '2026-12-01', '2026-12-31');
    const cancel = await call(b, 'job_cancel', { id });
    assert.equal(cancel.status, 200, cancel.text);
    const last = await watch(a, id);
    assert.deepEqual([last.state, last.error], ['cancelled', MESSAGES.jobCancelled], JSON.stringify(last));
    const written = await withDatabase((db) => db.selectFrom('orders').select((e) => e.fn.countAll<string>().as('n')).where('od_job_id', '=', id).executeTakeFirstOrThrow());
    assert.equal(Number(written.n), 0, 'rolled back');
  });

  it('reports through B within 70 s — after its heartbeat went a minute quiet — a run whose host C was killed, none of its orders written; a new run on B succeeds', async () => {
    const id = await generate(c, '2027-01-01', '2027-01-31');
    const running = await watch(b, id, (j) => j.total > 0);
    assert.equal(running.state, 'running', 'killed while it runs');
    await withDatabase((db) => db.updateTable('job').set({ job_host: 'another-machine' }).where('job_id', '=', id).execute());
    const ended = new Promise((resolve) => c.child.once('exit', resolve));
    c.child.kill('SIGKILL');
    await ended;
    const killed = Date.now();

    const failed = await watch(b, id, () => false, REPORTED_WITHIN_MS);
    const after = Date.now() - killed;
    assert.deepEqual([failed.state, failed.error], ['failed', MESSAGES.jobAbandoned], JSON.stringify(failed));
    console.log(`hosts: the killed host's job reported failed by another after ${(after / 1000).toFixed(1)} s`);
    assert.ok(after >= STALE_AFTER_MS - BEAT_EVERY_MS, `not failed before its heartbeat went quiet (${after} ms)`);
    const written = await withDatabase((db) => db.selectFrom('orders').select((e) => e.fn.countAll<string>().as('n')).where('od_job_id', '=', id).executeTakeFirstOrThrow());
    assert.equal(Number(written.n), 0, 'its transaction died with its host');

    const again = await generate(b, '2027-01-01', '2027-01-31');
    const done = await watch(b, again);
    assert.equal(done.state, 'done', JSON.stringify(done));
    assert.ok((done.result?.created ?? 0) > 0, 'the run made the month\'s orders');
  });
});
