/**
 * Jobs across servers (server/jobs/abandoned.ts, jobs.ts), on every dialect, with the app and a second server's jobs
 * (`createJobs` on the same database) in this process; another host is a row whose `job_host` is not this one, its
 * heartbeat written or backdated in the store directly (the tests never wait a minute):
 * - another host's job with a fresh heartbeat keeps running and holds its scope; a minute-old heartbeat fails it on
 *   the next read with the clean-up hooks called once, and a start of its scope runs;
 * - the sweep a server makes at its start: another host's job only once its heartbeat is stale, this host's once its
 *   process is gone (never for a quiet heartbeat alone: a long SQLite statement holds a live process's timers);
 * - a running job writes its heartbeat on a timer while its work reports nothing;
 * - a cancel asked through one server stops a job another server runs;
 * - a job another server failed as abandoned stops at its next report and stays failed.
 */
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { JobInfo } from '../../lib/jobs';
import { ALL_WRITE } from '../../lib/permissions';
import { MESSAGES } from '../../lib/protocol';
import type { SessionUser } from '../../server/calls/session-user';
import type { AppDatabase } from '../../server/db/connect';
import { HOST, onJobAbandoned, sweepAbandonedJobs } from '../../server/jobs/abandoned';
import { openJobDatabase, storeTime, type JobDatabase } from '../../server/jobs/job-db';
import { storeStream } from '../../server/files';
import { createJobs, JobCancelled, type Jobs } from '../../server/jobs/jobs';
import { dialects, jobEnded, useHarness } from './harness';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** A heartbeat older than any cutoff. */
const LONG_AGO = '2000-01-01T00:00:00.000Z';
/** A process id no process has (Linux's pid_max is at most 2^22). */
const NO_PROCESS = 99_999_999;

/** Polls until `check` answers a value (at most `ms`). */
async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  for (const deadline = Date.now() + ms; ;) {
    const value = await check();
    if (value !== undefined) return value;
    assert.ok(Date.now() < deadline, `${what} within ${ms} ms`);
    await sleep(25);
  }
}

for (const dialect of dialects()) {
  describe(`jobs across servers (${dialect})`, () => {
    const h = useHarness(dialect);
    let store: JobDatabase;
    /** The jobs of a second server on the same database. */
    let other: Jobs;
    let user: SessionUser;
    /** The jobs the clean-up hook was called for, and with which database. */
    const cleaned: { job: JobInfo; database: AppDatabase }[] = [];
    let unhook: () => void;

    before(async () => {
      store = await openJobDatabase(h.config);
      other = await createJobs(h.config, h.database);
      const { admin } = h.fixtures.users;
      user = { user_id: admin.id, user_email: admin.email, user_name: '管理 太郎', user_role: admin.role, areas: ALL_WRITE, keyHash: '' };
      unhook = onJobAbandoned((job, database) => {
        cleaned.push({ job, database });
      });
    });
    after(async () => {
      unhook();
      await other.close();
      await store.close();
    });

    /** A running job of `host` (process `pid`) with its heartbeat `beat` (default: now, by the store's clock). */
    const runningJob = async (scope: string, host: string, pid: number, beat?: string): Promise<number> => {
      const now = new Date().toISOString();
      const row = await store.db.insertInto('job').values({
        job_kind: 'hod_generate', job_scope: scope, job_params: '{}', job_usr_id: user.user_id, job_usr_name: '別拠点 花子',
        job_state: 'running', job_done: 10, job_total: 100, job_started: now, job_host: host, job_pid: pid,
        job_beat: beat ?? storeTime(store.dialect), created: now, modified: now, deleted: 0,
      }).returning('job_id').executeTakeFirstOrThrow();
      return row.job_id;
    };
    const stateOf = async (id: number) => (await store.db.selectFrom('job').select(['job_state', 'job_error', 'job_beat']).where('job_id', '=', id).executeTakeFirstOrThrow());
    const backdate = (id: number) => store.db.updateTable('job').set({ job_beat: LONG_AGO }).where('job_id', '=', id).execute();
    const dtl = async (id: number): Promise<JobInfo> => {
      const res = await h.post<JobInfo>('job_dtl', { id });
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const cleanedFor = (id: number) => cleaned.filter((c) => c.job.job_id === id);

    it('keeps another host\'s job with a fresh heartbeat; a minute-old one is failed on reading it, cleaned once, and its scope runs again', async () => {
      const id = await runningJob('2026-05-01..2026-05-31', 'other-host#1', 4242);
      assert.equal((await dtl(id)).state, 'running', 'another host runs it: its pid means nothing here');
      const refused = await h.post('hod_generate', { from: '2026-05-01', to: '2026-05-31' });
      assert.equal(refused.status, 409, refused.text);
      assert.equal(Number(refused.body[0].job_id), id, 'a live job holds its scope');

      await backdate(id);
      const failed = await dtl(id);
      assert.equal(failed.state, 'failed', JSON.stringify(failed));
      assert.equal(failed.error, MESSAGES.jobAbandoned);
      assert.ok(failed.finished > failed.started, 'its end is recorded');
      await until('the clean-up hook', async () => (cleanedFor(id).length ? true : undefined));
      assert.equal(cleanedFor(id)[0].database, h.database, 'given the database of the server that failed it');
      assert.equal(cleanedFor(id)[0].job.kind, 'hod_generate');
      assert.deepEqual(await sweepAbandonedJobs(store, h.database), [], 'failed once');
      assert.equal((await h.post<JobInfo>('job_lst', { kind: 'hod_generate', state: 'running' })).body.length, 0);
      assert.equal(cleanedFor(id).length, 1, 'cleaned once');

      // A stale job met by a start (no read before): it no longer blocks, the start runs.
      const stale = await runningJob('2026-06-01..2026-06-30', 'other-host#1', 4243, LONG_AGO);
      const started = await h.post<{ job_id: number }>('hod_generate', { from: '2026-06-01', to: '2026-06-30' });
      assert.equal(started.status, 200, started.text);
      assert.equal((await stateOf(stale)).job_state, 'failed');
      assert.equal((await jobEnded(h, started.body[0].job_id)).state, 'done');
      await until('the clean-up hook of the job met by the start', async () => (cleanedFor(stale).length ? true : undefined));
    });

    it('the sweep at a server\'s start fails another host\'s job only once its heartbeat is stale, this host\'s once its process is gone', async () => {
      const liveElsewhere = await runningJob('2027-01-01..2027-01-31', 'other-host#2', 1);
      const deadElsewhere = await runningJob('2027-02-01..2027-02-28', 'other-host#2', 2, LONG_AGO);
      const deadHere = await runningJob('2027-03-01..2027-03-31', HOST, NO_PROCESS);
      // A live process of this host whose timers a long statement holds: quiet, not dead.
      const quietHere = await runningJob('2027-04-01..2027-04-30', HOST, process.pid, LONG_AGO);
      const failed = await sweepAbandonedJobs(store, h.database);
      assert.deepEqual(failed.map((j) => j.job_id).sort((a, b) => a - b), [deadElsewhere, deadHere]);
      assert.ok(failed.every((j) => j.state === 'failed' && j.error === MESSAGES.jobAbandoned));
      assert.deepEqual([cleanedFor(deadElsewhere).length, cleanedFor(deadHere).length], [1, 1], 'the sweep waits for its hooks');
      assert.equal((await stateOf(liveElsewhere)).job_state, 'running');
      assert.equal((await stateOf(quietHere)).job_state, 'running');
      await store.db.updateTable('job').set({ job_state: 'done' }).where('job_id', 'in', [liveElsewhere, quietHere]).execute();
    });

    it('writes a running job\'s heartbeat on a timer while its work reports nothing; a cancel asked through another server stops it', async () => {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => { release = resolve; });
      let reported: unknown;
      const id = await other.start({
        kind: 'rental_generate', scope: '209901', params: {}, user,
        work: async ({ progress }) => {
          await progress(1, 100);
          await held;
          try {
            for (let done = 2; done < 100; done++) {
              await progress(done, 100);
              await sleep(20);
            }
          } catch (error) {
            reported = error;
            throw error;
          }
          return 'finished';
        },
      });
      const first = (await stateOf(id)).job_beat;
      assert.ok(first > '2026', `a heartbeat from the start: ${first}`);
      await until('a later heartbeat', async () => ((await stateOf(id)).job_beat > first ? true : undefined), 15_000);

      await until('its first report', async () => ((await dtl(id)).done === 1 ? true : undefined));
      const cancel = await h.post<JobInfo>('job_cancel', { id });
      assert.equal(cancel.status, 200, cancel.text);
      assert.equal(cancel.body[0].cancelling, true);
      release();
      const ended = await jobEnded(h, id);
      assert.equal(ended.state, 'cancelled', JSON.stringify(ended));
      assert.equal(ended.error, MESSAGES.jobCancelled);
      assert.ok(reported instanceof JobCancelled, 'the work was stopped by its report');
    });

    it('stops a job another server failed as abandoned at its next report; it stays failed', async () => {
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => { release = resolve; });
      let reported: unknown;
      let ran = false;
      const id = await other.start({
        kind: 'rental_generate', scope: '209902', params: {}, user,
        work: async ({ progress }) => {
          await progress(1, 100);
          await held;
          try {
            await progress(100, 100);
          } catch (error) {
            reported = error;
            throw error;
          }
          ran = true;
          return 'finished';
        },
      });
      await until('its first report', async () => ((await dtl(id)).done === 1 ? true : undefined));
      // As a server of another host does once this one's heartbeat is a minute old.
      await store.db.updateTable('job').set({ job_state: 'failed', job_error: MESSAGES.jobAbandoned }).where('job_id', '=', id).execute();
      release();
      await until('the work stopped', async () => (reported ? true : undefined));
      assert.equal(ran, false, 'it went no further than the report');
      const last = await dtl(id);
      assert.deepEqual([last.state, last.error, last.result], ['failed', MESSAGES.jobAbandoned, null]);
    });

    it('removes the files a dead job was writing when a server fails it (the hook server/app.ts registers)', async () => {
      const id = await runningJob('2028-01-01..2028-01-31', 'other-host#3', 7, LONG_AGO);
      const half = await storeStream(h.database.db, Readable.from([Buffer.from('%PDF-1.7 half written')]), { kind: 'billing-pdf', name: 'batch.pdf', jobId: id, keepMs: 86_400_000, deferComplete: true });
      const kept = await storeStream(h.database.db, Readable.from([Buffer.from('another job')]), { kind: 'billing-pdf', name: 'other.pdf', keepMs: 86_400_000 });
      const files = () => h.database.db.selectFrom('stored_file').select('sf_id').where('sf_id', 'in', [half.id, kept.id]).execute();
      assert.equal((await files()).length, 2);
      const failed = await sweepAbandonedJobs(store, h.database);
      assert.deepEqual(failed.map((j) => j.job_id), [id]);
      assert.deepEqual((await files()).map((f) => f.sf_id), [kept.id], 'the dead job\'s file is gone, the other stays');
      assert.equal((await h.database.db.selectFrom('file_chunk').select('fc_sf_id').where('fc_sf_id', '=', half.id).execute()).length, 0, 'its chunks too');
    });
  });
}
