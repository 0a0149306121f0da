/**
 * Jobs (server/jobs) through the real server in two processes (`WEB_CONCURRENCY=2`), on every dialect, with a
 * month's regular deliveries of some thousands of customers as the long work (`hod_generate`):
 * - its progress is answered while it runs, by both processes (each poll on a new connection, which the primary
 *   hands to the processes in turn), rising to the total, then its result;
 * - two starts of the same range at once: one runs, the other is refused naming who started the running one;
 * - a cancel stops it and rolls its orders back;
 * - a worker killed (kill -9) in the middle: the job is failed and none of its orders is there; the whole server
 *   killed in the middle: the job is failed when the server starts again, none of its orders there.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { HodGenerateResult } from '../../lib/hod/kinds';
import type { JobInfo } from '../../lib/jobs';
import { MESSAGES } from '../../lib/protocol';
import { itemResource } from '../../lib/resources/item';
import { openDatabase } from '../../server/db/connect';
import { openJobDatabase } from '../../server/jobs/job-db';
import { bulkInsert } from '../../server/seed/bulk-insert';
import { seedSyntheticClients } from '../../server/seed/seed';
import { assertNoInternals, dialects } from './harness';
import { alive, startServerProcess, type ServerProcess } from './server-process';

const ADMIN = { email: 'jobs@example.jp', password: 'jobs-password-2026' };
/**
 * Synthetic customers (about half of them on a regular schedule) and the servers' batch chunk (`BATCH_CHUNK`): a month
 * is several chunks, each reported as the run's progress.
 */
const CUSTOMERS = Number(process.env.JOBS_TEST_CUSTOMERS ?? 3_000);
const CHUNK = 300;
const SERVER = { env: { BATCH_CHUNK: String(CHUNK) } };

type Job = JobInfo<HodGenerateResult>;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const dialect of dialects()) {
  describe(`jobs (${dialect}, two server processes)`, () => {
    let server: ServerProcess;
    let authKey = '';

    /**
     * `POST /api/db/{call}` on a connection of its own (no keep-alive), so the processes answer in turn. A connection
     * the primary was handing to a worker just killed is never answered (node:cluster): such a call is tried again.
     */
    const call = async (name: string, params: Record<string, string>): Promise<{ status: number; text: string; body: Record<string, unknown>[] }> => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await once(name, params);
        } catch (error) {
          if (attempt >= 5) throw error;
        }
      }
    };
    const once = (name: string, params: Record<string, string>): Promise<{ status: number; text: string; body: Record<string, unknown>[] }> =>
      new Promise((resolve, reject) => {
        const body = new URLSearchParams({ authKey, ...params }).toString();
        const request = http.request(`${server.url}/api/db/${name}`, {
          method: 'POST', agent: false, headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
        }, (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => { text += chunk; });
          res.on('end', () => {
            assertNoInternals(text);
            resolve({ status: res.statusCode ?? 0, text, body: JSON.parse(text) as Record<string, unknown>[] });
          });
        });
        request.setTimeout(5_000, () => request.destroy(new Error(`${name}: no answer`)));
        request.on('error', reject);
        request.end(body);
      });
    const start = async (from: string, to: string): Promise<number> => {
      const res = await call('hod_generate', { from, to });
      assert.equal(res.status, 200, res.text);
      return Number(res.body[0].job_id);
    };
    const job = async (id: number): Promise<Job> => {
      const res = await call('job_dtl', { id: String(id) });
      assert.equal(res.status, 200, res.text);
      return res.body[0] as unknown as Job;
    };
    /** Polls until `until` holds (or the job ended), answering every job seen. */
    const watch = async (id: number, until: (j: Job) => boolean = () => false, timeoutMs = 60_000): Promise<Job[]> => {
      const seen: Job[] = [];
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const j = await job(id);
        seen.push(j);
        if (j.state !== 'running' || until(j)) return seen;
        assert.ok(Date.now() < deadline, `job ${id} still running: ${JSON.stringify(j)}`);
        await sleep(40);
      }
    };
    const orderCount = async (): Promise<number> => Number((await call('order_cnt', {})).body[0]);
    const jobPid = async (id: number): Promise<number> => {
      const store = await openJobDatabase({ dialect, databaseUrl: server.databaseUrl, sqliteFile: join(server.dataDir, 'app.db') });
      try {
        return Number((await store.db.selectFrom('job').select('job_pid').where('job_id', '=', id).executeTakeFirstOrThrow()).job_pid);
      } finally {
        await store.close();
      }
    };
    const login = async () => {
      const res = await server.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
      assert.equal(res.status, 200, res.text);
      authKey = String(res.body[0].auth_key);
    };

    before(async () => {
      server = await startServerProcess(dialect, ADMIN, 2, SERVER);
      const database = openDatabase({ dialect, databaseUrl: server.databaseUrl, sqliteFile: join(server.dataDir, 'app.db') });
      try {
        await seedSyntheticClients(database.db, CUSTOMERS);
        await bulkInsert(database.db, itemResource, [{ code: 'W12', name: '天然水 12L', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, returnable: 1 }]);
      } finally {
        await database.close();
      }
      await login();
    });

    after(async () => {
      await server?.close();
    });

    it('answers how far a run is from both processes while it runs, then its result', async () => {
      const id = await start('2026-12-01', '2026-12-31');
      const seen = await watch(id);
      const last = seen.at(-1)!;
      assert.equal(last.state, 'done', JSON.stringify(last));
      assert.ok(last.total > 3 * CHUNK, `a long run of several chunks: ${last.total} orders`);
      assert.equal(last.done, last.total);
      assert.equal(last.result?.created, last.total);
      assert.equal(last.user_name.length > 0, true);
      const between = seen.filter((j) => j.state === 'running' && j.done > 0 && j.done < j.total);
      assert.ok(between.length >= 2, `progress read while running: ${seen.map((j) => `${j.state} ${j.done}/${j.total}`).join(', ')}`);
      const dones = seen.map((j) => j.done);
      assert.deepEqual(dones, [...dones].sort((a, b) => a - b), 'progress only rises');
      const listed = await call('job_lst', { kind: 'hod_generate' });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(Number(listed.body[0].job_id), id, 'newest first');
    });

    it('runs one of two starts of the same range at once and refuses the other, naming who started it and when', async () => {
      const [a, b] = await Promise.all([call('hod_generate', { from: '2027-01-01', to: '2027-01-31' }), call('hod_generate', { from: '2027-01-01', to: '2027-01-31' })]);
      const statuses = [a.status, b.status].sort();
      assert.deepEqual(statuses, [200, 409], `${a.text} ${b.text}`);
      const [won, refused] = a.status === 200 ? [a, b] : [b, a];
      const id = Number(won.body[0].job_id);
      const { error } = refused.body[0] as { error: string };
      assert.match(error, /^定期配送の受注作成（2027-01-01〜2027-01-31）は実行中です（管理者さんが \d{4}-\d{2}-\d{2} \d{1,2}:\d{2} に開始）。/);
      assert.equal(Number(refused.body[0].job_id), id, 'the refusal names the running job');
      const running = await call('job_lst', { kind: 'hod_generate', state: 'running' });
      assert.deepEqual(running.body.map((j) => Number(j.job_id)), [id]);
      const last = (await watch(id)).at(-1)!;
      assert.equal(last.state, 'done');
      const again = await call('hod_generate', { from: '2027-01-01', to: '2027-01-31' });
      assert.equal(again.status, 200, 'free again once it ended');
      assert.equal((await watch(Number(again.body[0].job_id))).at(-1)!.result?.created, 0, 'creates nothing twice');
    });

    it('stops a cancelled run and rolls it back', async () => {
      const before = await orderCount();
      const id = await start('2027-02-01', '2027-02-28');
      const running = (await watch(id, (j) => j.done > 0)).at(-1)!;
      assert.equal(running.state, 'running', 'still running when cancelled');
      const cancel = await call('job_cancel', { id: String(id) });
      assert.equal(cancel.status, 200, cancel.text);
      const last = (await watch(id)).at(-1)!;
      assert.equal(last.state, 'cancelled', JSON.stringify(last));
      assert.equal(last.error, MESSAGES.jobCancelled);
      assert.equal(await orderCount(), before, 'none of its orders is there');
      const late = await call('job_cancel', { id: String(id) });
      assert.equal(late.status, 400, late.text);
    });

    it('fails the run of a worker killed in the middle (kill -9); none of its orders is there', async () => {
      const before = await orderCount();
      const id = await start('2027-03-01', '2027-03-31');
      const running = (await watch(id, (j) => j.done > 0)).at(-1)!;
      assert.equal(running.state, 'running');
      assert.ok(running.done < running.total);
      process.kill(await jobPid(id), 'SIGKILL');
      const last = (await watch(id, () => false, 20_000)).at(-1)!;
      assert.equal(last.state, 'failed', JSON.stringify(last));
      assert.equal(last.error, MESSAGES.jobAbandoned);
      assert.equal(await orderCount(), before, 'its transaction never committed');
    });

    it('fails the run of a server killed in the middle when it starts again; none of its orders is there', async () => {
      const before = await orderCount();
      const id = await start('2027-04-01', '2027-04-30');
      const running = (await watch(id, (j) => j.done > 0)).at(-1)!;
      assert.ok(running.state === 'running' && running.done < running.total, JSON.stringify(running));
      const worker = await jobPid(id);
      // The primary first, so nobody is left to record the worker's end.
      const primaryEnded = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      process.kill(worker, 'SIGKILL');
      // Both are gone before a server starts on their data.
      await primaryEnded;
      for (let i = 0; i < 250 && alive(worker); i++) await sleep(20);
      server = await startServerProcess(dialect, ADMIN, 2, { ...SERVER, on: server });
      await login();
      const last = await job(id);
      assert.equal(last.state, 'failed', JSON.stringify(last));
      assert.equal(last.error, MESSAGES.jobAbandoned);
      assert.equal(await orderCount(), before);
      const again = await start('2027-04-01', '2027-04-30');
      assert.equal((await watch(again)).at(-1)!.state, 'done', 'the range can run again');
    });

    // Last: a run moves the customers' next_shipping_date past its range, so the ranges above come first.
    it('refuses a start of a range overlapping a running one, naming it; the first runs', async () => {
      const [a, b] = await Promise.all([call('hod_generate', { from: '2027-05-01', to: '2027-05-31' }), call('hod_generate', { from: '2027-05-20', to: '2027-06-10' })]);
      assert.deepEqual([a.status, b.status].sort(), [200, 409], `${a.text} ${b.text}`);
      const [won, refused] = a.status === 200 ? [a, b] : [b, a];
      const id = Number(won.body[0].job_id);
      const title = a === won ? '2027-05-01〜2027-05-31' : '2027-05-20〜2027-06-10';
      assert.match(String(refused.body[0].error), new RegExp(`^定期配送の受注作成（${title}）は実行中です（管理者さんが \\d{4}-\\d{2}-\\d{2} \\d{1,2}:\\d{2} に開始）。`));
      assert.equal(Number(refused.body[0].job_id), id, 'the refusal names the running job');
      const running = await call('job_lst', { kind: 'hod_generate', state: 'running' });
      assert.deepEqual(running.body.map((j) => Number(j.job_id)), [id], 'the refused start left no job running');
      assert.equal((await watch(id)).at(-1)!.state, 'done');
    });
  });
}
