/**
 * Jobs: long work (a month's regular deliveries …) started by a call that answers `[{ job_id }]` at once, run in
 * the server process that started it, and watched through `job_dtl` from any process of any host.
 * - The work runs its data in ONE transaction of its own; its progress (done / total) is written outside it, in
 *   short writes of the job's row (server/jobs/job-db.ts says where), so every process answers "how far".
 * - One running job per kind and scope: a partial unique index on (kind, scope) WHERE state = 'running' refuses
 *   the second start in any process of any host, and the refusal names who started the running one and when.
 * - A cancel request is a flag on the job's row, set by any server: the work stops at its next progress report
 *   (or the next heartbeat's look at the row) and its transaction rolls back.
 * - While a job runs its process writes its heartbeat on a timer; a job whose server died is failed by any server
 *   within a minute, its files removed by the registered hooks (server/jobs/abandoned.ts): its data transaction
 *   never committed, so nothing is half-written.
 */
import { formatDateTime } from '../../lib/format';
import { jobTitle, type JobInfo, type JobKind, type JobState } from '../../lib/jobs';
import { MESSAGES } from '../../lib/protocol';
import type { SessionUser } from '../calls/session-user';
import type { Config } from '../config';
import type { AppDatabase } from '../db/connect';
import { isUniqueError } from '../db/concurrency';
import { ApiError } from '../http/api-error';
import { nowIso } from '../http/clock';
import { CONSOLE_LOG, type ProcessLog } from '../http/log';
import { afterAbandoned, BEAT_EVERY_MS, failAbandoned, HOST, isAbandoned, staleCutoff, sweepAbandonedJobs, SWEEP_EVERY_MS, type SweptRow } from './abandoned';
import { infoOf, openJobDatabase, storeTime, type JobDatabase } from './job-db';

/** What a job's work is given: its id, the app's database (its data in one transaction), and where to report progress. */
export interface JobRun {
  id: number;
  database: AppDatabase;
  /** Records how far the work is; throws `JobCancelled` when a cancel was asked for (the work's transaction then rolls back). */
  progress: (done: number, total: number) => Promise<void>;
}

/** Thrown by `progress` when the job was asked to stop. */
export class JobCancelled extends Error {
  constructor() {
    super(MESSAGES.jobCancelled);
    this.name = 'JobCancelled';
  }
}

export interface JobSpec<R> {
  kind: JobKind;
  /** What the job works on (e.g. `2026-05-01..2026-05-31`): one running job per kind and scope. */
  scope: string;
  params: Record<string, unknown>;
  user: SessionUser;
  /**
   * Asked once the job's row holds its scope (no other job of the kind and scope can start now) and before the work
   * starts: a refusal thrown here withdraws the job (its row deleted) and is the start's answer. A check made before
   * `start` can be overtaken by a job of the same scope that ends in between (a closing done, then a second start of
   * the same month); made here, it sees that job's data. Given the job's own id (to tell it from others running).
   */
  admit?: (id: number) => Promise<void>;
  work(run: JobRun): Promise<R>;
}

export interface JobListQuery {
  kinds: readonly JobKind[];
  state?: JobState;
  /** Only the jobs of this scope (an import's kind). */
  scope?: string;
  limit: number;
}

export interface Jobs {
  /** Records a running job and starts its work after the answer; answers its id, or 409 naming the running one. */
  start<R>(spec: JobSpec<R>): Promise<number>;
  find(id: number): Promise<JobInfo | undefined>;
  list(query: JobListQuery): Promise<JobInfo[]>;
  /** Asks a running job to stop (false: it is not running). */
  cancel(id: number): Promise<boolean>;
  /** Cancels this process's running jobs and waits for them, then closes the jobs' store. */
  close(): Promise<void>;
}

/** Progress is written at most this often (the last report of a run always). */
const PROGRESS_EVERY_MS = 200;

/** Thrown by `progress` when the job is no longer running by its row: another server failed it as abandoned. */
class JobLost extends Error {
  constructor() {
    super(MESSAGES.jobAbandoned);
    this.name = 'JobLost';
  }
}

/**
 * 409 naming a running job — what it does, who started it and when — and its `job_id`: the refusal of a start that
 * would run beside it.
 * @example throw runningRefusal(job) // 定期配送の受注作成（2026-05-01〜2026-05-31）は実行中です（管理者さんが 2026-05-01 9:00 に開始）。…
 */
export const runningRefusal = (job: Pick<JobInfo, 'job_id' | 'kind' | 'scope' | 'user_name' | 'started'>): ApiError =>
  new ApiError(409, MESSAGES.jobRunning(jobTitle(job.kind, job.scope), job.user_name, formatDateTime(job.started)), { job_id: job.job_id });

/**
 * Runs `tick` every `ms` (never two at once; its errors logged), without keeping the process up. Answers how to stop
 * it, which waits for a tick under way.
 */
function every(ms: number, what: string, tick: () => Promise<unknown>, log: ProcessLog): () => Promise<void> {
  let current: Promise<void> | undefined;
  const timer = setInterval(() => {
    current ??= tick().then(() => undefined, (error: unknown) => log.warn({ err: error }, `jobs: the ${what} failed`)).finally(() => { current = undefined; });
  }, ms);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}

/**
 * The jobs of one server process (`buildApp` makes it; area plugins start jobs through it).
 * @example const jobs = await createJobs(config, database, log); const id = await jobs.start({ kind: 'hod_generate', … })
 */
export async function createJobs(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile'>, database: AppDatabase, log: ProcessLog = CONSOLE_LOG): Promise<Jobs> {
  const store: JobDatabase = await openJobDatabase(config, log);
  const { db, dialect } = store;
  const running = new Map<number, Promise<void>>();
  /** What a heartbeat saw on the row of a job running here: a cancel asked for, or the job failed by another server. */
  const seen = new Map<number, 'cancel' | 'lost'>();

  /** Reads jobs with their stale cutoff; fails the abandoned ones among them (their hooks run after, not waited for). */
  const readSwept = async (read: () => Promise<SweptRow[]>): Promise<SweptRow[]> => {
    const rows = await read();
    const lost = rows.filter(isAbandoned);
    if (lost.length === 0) return rows;
    const failed = await failAbandoned(store, lost);
    // Not waited for: a hook writing to the database would wait for a transaction this process holds (SQLite).
    void afterAbandoned(failed, database, log);
    return read();
  };
  const withCutoff = () => db.selectFrom('job').selectAll().select(staleCutoff(dialect).as('job_cutoff'));

  /** The heartbeat of this process's running jobs; it brings back what their rows say (a cancel, another server's fail). */
  const beat = async (): Promise<void> => {
    const mine = [...running.keys()];
    if (mine.length === 0) return;
    const rows = await db.updateTable('job').set({ job_beat: storeTime(dialect) }).where('job_id', 'in', mine).where('job_state', '=', 'running')
      .returning(['job_id', 'job_cancel']).execute();
    const live = new Map(rows.map((r) => [r.job_id, r.job_cancel]));
    for (const id of mine) {
      if (!running.has(id)) continue;
      if (!live.has(id)) seen.set(id, 'lost');
      else if (live.get(id) === 1) seen.set(id, 'cancel');
    }
  };
  const stopBeats = every(BEAT_EVERY_MS, 'heartbeat', beat, log);
  // Each process a little apart from the others, so their sweeps do not meet.
  const stopSweeps = every(SWEEP_EVERY_MS + Math.floor(Math.random() * 2000), 'sweep of abandoned jobs', () => sweepAbandonedJobs(store, database, log), log);

  const finish = async (id: number, state: JobState, values: { result?: unknown; error?: string }): Promise<void> => {
    const now = nowIso();
    await db.updateTable('job').set({
      job_state: state, job_finished: now, modified: now, job_error: values.error ?? '',
      job_result: values.result === undefined ? null : JSON.stringify(values.result),
    }).where('job_id', '=', id).where('job_state', '=', 'running').execute();
  };

  const run = async <R>(id: number, spec: JobSpec<R>): Promise<void> => {
    let lastWrite = 0;
    const progress = async (done: number, total: number): Promise<void> => {
      const told = seen.get(id);
      if (told === 'lost') throw new JobLost();
      if (told === 'cancel') throw new JobCancelled();
      const now = Date.now();
      if (done < total && now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      const row = await db.updateTable('job').set({ job_done: done, job_total: total, modified: nowIso(), job_beat: storeTime(dialect) })
        .where('job_id', '=', id).where('job_state', '=', 'running').returning('job_cancel').executeTakeFirst();
      if (!row) throw new JobLost();
      if (row.job_cancel === 1) throw new JobCancelled();
    };
    try {
      const result = await spec.work({ id, database, progress });
      await finish(id, 'done', { result });
    } catch (error) {
      if (error instanceof JobCancelled) await finish(id, 'cancelled', { error: MESSAGES.jobCancelled });
      else if (error instanceof JobLost) log.warn({ job: id, kind: spec.kind }, 'job stopped: another server failed it as abandoned (no heartbeat for a minute)');
      else if (error instanceof ApiError) await finish(id, 'failed', { error: error.message });
      else {
        log.error({ err: error, job: id, kind: spec.kind }, 'job failed');
        await finish(id, 'failed', { error: MESSAGES.internal });
      }
    }
  };

  const insert = (spec: JobSpec<unknown>) => {
    const now = nowIso();
    return db.insertInto('job').values({
      job_kind: spec.kind, job_scope: spec.scope, job_params: JSON.stringify(spec.params), job_usr_id: spec.user.user_id,
      job_usr_name: spec.user.user_name, job_state: 'running', job_started: now, job_host: HOST, job_pid: process.pid,
      job_beat: storeTime(dialect), created: now, modified: now, deleted: 0,
    }).returning('job_id').executeTakeFirstOrThrow();
  };

  return {
    async start(spec) {
      let id: number | undefined;
      // A second try when the job holding the scope was abandoned (failed by the first look): it no longer blocks.
      for (let attempt = 1; id === undefined; attempt++) {
        try {
          id = (await insert(spec)).job_id;
        } catch (error) {
          if (!isUniqueError(error)) throw error;
          const [other] = await readSwept(() => withCutoff().where('job_kind', '=', spec.kind).where('job_scope', '=', spec.scope)
            .where('job_state', '=', 'running').execute());
          if (other) throw runningRefusal(infoOf(other));
          // It ended between the refused insert and this read: the caller may start again.
          if (attempt >= 2) throw new ApiError(409, MESSAGES.jobRunning(jobTitle(spec.kind, spec.scope), '他のユーザー', '先ほど'));
        }
      }
      const started = id;
      if (spec.admit) {
        try {
          await spec.admit(started);
        } catch (error) {
          await db.updateTable('job').set({ job_state: 'cancelled', job_finished: nowIso(), deleted: 1, modified: nowIso() }).where('job_id', '=', started).execute();
          throw error;
        }
      }
      // After the answer: the call does not wait, and a page closed meanwhile does not stop the work.
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => run(started, spec))
        .catch((error: unknown) => log.error({ err: error, job: started }, 'job: its state could not be recorded'))
        .finally(() => {
          running.delete(started);
          seen.delete(started);
        });
      running.set(started, done);
      return started;
    },
    async find(id) {
      const [row] = await readSwept(() => withCutoff().where('job_id', '=', id).where('deleted', '=', 0).execute());
      return row ? infoOf(row) : undefined;
    },
    async list({ kinds, state, scope, limit }) {
      if (kinds.length === 0) return [];
      const rows = await readSwept(() => {
        let query = withCutoff().where('deleted', '=', 0).where('job_kind', 'in', [...kinds]);
        if (state) query = query.where('job_state', '=', state);
        if (scope !== undefined) query = query.where('job_scope', '=', scope);
        return query.orderBy('job_id', 'desc').limit(limit).execute();
      });
      return rows.map((row) => infoOf(row));
    },
    async cancel(id) {
      const res = await db.updateTable('job').set({ job_cancel: 1, modified: nowIso() })
        .where('job_id', '=', id).where('job_state', '=', 'running').executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    async close() {
      const mine = [...running.keys()];
      if (mine.length) await db.updateTable('job').set({ job_cancel: 1 }).where('job_id', 'in', mine).execute();
      // A sweep under way may wait for a job's transaction (its hooks write to the database): the jobs stop first.
      await Promise.all([stopSweeps(), ...running.values()]);
      await stopBeats();
      await store.close();
    },
  };
}
