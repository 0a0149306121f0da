/**
 * Jobs: long work (a month's regular deliveries …) started by a call that answers `[{ job_id }]` at once, run in
 * the server process that started it, and watched through `job_dtl` from any process.
 * - The work runs its data in ONE transaction of its own; its progress (done / total) is written outside it, in
 *   short writes of the job's row (server/jobs/job-db.ts says where), so every process answers "how far".
 * - One running job per kind and scope: a partial unique index on (kind, scope) WHERE state = 'running' refuses
 *   the second start in any process, and the refusal names who started the running one and when.
 * - A cancel request is a flag the work reads at its next progress report: it stops, the transaction rolls back.
 * - A process that dies leaves its job 'running' with its host and pid: the primary marks such jobs failed when a
 *   worker exits and at start (`failAbandonedJobs`); their data transaction never committed, so nothing is
 *   half-written.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Kysely, Selectable } from 'kysely';
import { formatDateTime } from '../../lib/format';
import { jobTitle, type JobInfo, type JobKind, type JobState } from '../../lib/jobs';
import { MESSAGES } from '../../lib/protocol';
import type { SessionUser } from '../calls/session-user';
import type { Config } from '../config';
import type { AppDatabase } from '../db/connect';
import type { JobTable } from '../db/schema';
import { isUniqueError } from '../db/concurrency';
import { ApiError } from '../http/api-error';
import { openJobDatabase, type JobDatabase, type JobSchema } from './job-db';
import { nowIso } from '../http/clock';

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

const HOST = hostname();
/** Progress is written at most this often (the last report of a run always). */
const PROGRESS_EVERY_MS = 200;

type JobRow = Selectable<JobTable>;

const parsed = (text: string | null): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

const infoOf = <R>(row: JobRow): JobInfo<R> => ({
  job_id: row.job_id, kind: row.job_kind as JobKind, scope: row.job_scope,
  params: (parsed(row.job_params) ?? {}) as Record<string, unknown>, state: row.job_state as JobState,
  done: row.job_done, total: row.job_total, result: parsed(row.job_result) as R | null, error: row.job_error,
  cancelling: row.job_state === 'running' && row.job_cancel === 1,
  started: row.job_started, finished: row.job_finished, user_id: row.job_usr_id, user_name: row.job_usr_name,
});


/**
 * 409 naming a running job — what it does, who started it and when — and its `job_id`: the refusal of a start that
 * would run beside it.
 * @example throw runningRefusal(job) // 定期配送の受注作成（2026-05-01〜2026-05-31）は実行中です（管理者さんが 2026-05-01 9:00 に開始）。…
 */
export const runningRefusal = (job: Pick<JobInfo, 'job_id' | 'kind' | 'scope' | 'user_name' | 'started'>): ApiError =>
  new ApiError(409, MESSAGES.jobRunning(jobTitle(job.kind, job.scope), job.user_name, formatDateTime(job.started)), { job_id: job.job_id });

/** Whether a process runs: it exists and (Linux) is not a zombie — a killed worker whose primary died too may stay one. */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};

/**
 * Marks failed the running jobs of this host whose process is gone: those of `pids` (a worker that exited), or,
 * without them, every one whose process no longer runs (at start). Answers how many.
 * @example await failAbandonedJobs(jobs.db, [worker.process.pid])
 */
export async function failAbandonedJobs(db: Kysely<JobSchema>, pids?: readonly number[]): Promise<number> {
  const running = await db.selectFrom('job').select(['job_id', 'job_pid']).where('job_state', '=', 'running').where('job_host', '=', HOST).execute();
  const gone = running.filter((r) => (pids ? pids.includes(r.job_pid) : !alive(r.job_pid))).map((r) => r.job_id);
  if (gone.length === 0) return 0;
  const now = nowIso();
  await db.updateTable('job').set({ job_state: 'failed', job_error: MESSAGES.jobAbandoned, job_finished: now, modified: now })
    .where('job_id', 'in', gone).where('job_state', '=', 'running').execute();
  return gone.length;
}

/**
 * The jobs of one server process (`buildApp` makes it; area plugins start jobs through it).
 * @example const jobs = await createJobs(config, database); const id = await jobs.start({ kind: 'hod_generate', … })
 */
export async function createJobs(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile'>, database: AppDatabase): Promise<Jobs> {
  const store: JobDatabase = await openJobDatabase(config);
  const { db } = store;
  const running = new Map<number, Promise<void>>();

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
      const now = Date.now();
      if (done < total && now - lastWrite < PROGRESS_EVERY_MS) return;
      lastWrite = now;
      const row = await db.updateTable('job').set({ job_done: done, job_total: total, modified: nowIso() })
        .where('job_id', '=', id).returning('job_cancel').executeTakeFirst();
      if (row && row.job_cancel === 1) throw new JobCancelled();
    };
    try {
      const result = await spec.work({ id, database, progress });
      await finish(id, 'done', { result });
    } catch (error) {
      if (error instanceof JobCancelled) await finish(id, 'cancelled', { error: MESSAGES.jobCancelled });
      else if (error instanceof ApiError) await finish(id, 'failed', { error: error.message });
      else {
        console.error(`job ${id} (${spec.kind}) failed:`, error);
        await finish(id, 'failed', { error: MESSAGES.internal });
      }
    }
  };

  return {
    async start(spec) {
      const now = nowIso();
      let id: number;
      try {
        const row = await db.insertInto('job').values({
          job_kind: spec.kind, job_scope: spec.scope, job_params: JSON.stringify(spec.params), job_usr_id: spec.user.user_id,
          job_usr_name: spec.user.user_name, job_state: 'running', job_started: now, job_host: HOST, job_pid: process.pid,
          created: now, modified: now, deleted: 0,
        }).returning('job_id').executeTakeFirstOrThrow();
        id = row.job_id;
      } catch (error) {
        if (!isUniqueError(error)) throw error;
        const other = await db.selectFrom('job').selectAll().where('job_kind', '=', spec.kind).where('job_scope', '=', spec.scope)
          .where('job_state', '=', 'running').executeTakeFirst();
        // It ended between the refused insert and this read: the caller may start again.
        if (other) throw runningRefusal(infoOf(other));
        throw new ApiError(409, MESSAGES.jobRunning(jobTitle(spec.kind, spec.scope), '他のユーザー', '先ほど'));
      }
      if (spec.admit) {
        try {
          await spec.admit(id);
        } catch (error) {
          await db.updateTable('job').set({ job_state: 'cancelled', job_finished: nowIso(), deleted: 1, modified: nowIso() }).where('job_id', '=', id).execute();
          throw error;
        }
      }
      // After the answer: the call does not wait, and a page closed meanwhile does not stop the work.
      const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() => run(id, spec))
        .catch((error: unknown) => console.error(`job ${id}: its state could not be recorded:`, error))
        .finally(() => running.delete(id));
      running.set(id, done);
      return id;
    },
    async find(id) {
      const row = await db.selectFrom('job').selectAll().where('job_id', '=', id).where('deleted', '=', 0).executeTakeFirst();
      return row ? infoOf(row) : undefined;
    },
    async list({ kinds, state, scope, limit }) {
      if (kinds.length === 0) return [];
      let query = db.selectFrom('job').selectAll().where('deleted', '=', 0).where('job_kind', 'in', [...kinds]);
      if (state) query = query.where('job_state', '=', state);
      if (scope !== undefined) query = query.where('job_scope', '=', scope);
      return (await query.orderBy('job_id', 'desc').limit(limit).execute()).map((row) => infoOf(row));
    },
    async cancel(id) {
      const res = await db.updateTable('job').set({ job_cancel: 1, modified: nowIso() })
        .where('job_id', '=', id).where('job_state', '=', 'running').executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
    async close() {
      const mine = [...running.keys()];
      if (mine.length) await db.updateTable('job').set({ job_cancel: 1 }).where('job_id', 'in', mine).execute();
      await Promise.all(running.values());
      await store.close();
    },
  };
}
