/**
 * Jobs whose server died (docs/architecture.md "Jobs"). A running job's process writes its heartbeat (`job_beat`,
 * server/jobs/jobs.ts) every `BEAT_EVERY_MS`; a job is abandoned when
 * - it runs on another host and its heartbeat is older than `STALE_AFTER_MS` (that host stopped, or lost the
 *   database): several hosts share one PostgreSQL database, and none fails a job another live host runs;
 * - it runs on this host and its process is gone — known at once, and the only test here: a live process whose
 *   event loop a long SQLite statement holds writes no heartbeat meanwhile, yet is not dead.
 * Every server process sweeps them every `SWEEP_EVERY_MS` and when it reads a job (`job_dtl`, `job_lst`, a start
 * refused by a running one), and the primary once at start. A swept job is failed (`MESSAGES.jobAbandoned`): its
 * data transaction died with its process, so nothing of it was written; what it kept beside the transaction (its
 * files) is removed by the hooks registered with `onJobAbandoned`, called once per job by the server that failed it.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { JobInfo } from '../../lib/jobs';
import { MESSAGES } from '../../lib/protocol';
import type { AppDatabase } from '../db/connect';
import { nowIso } from '../http/clock';
import { CONSOLE_LOG, type ProcessLog } from '../http/log';
import { infoOf, storeTime, type JobDatabase, type JobRow } from './job-db';

/** A running job's process writes its heartbeat this often, whatever its work is doing. */
export const BEAT_EVERY_MS = 10_000;
/** A job of another host whose heartbeat is older than this is failed by any server. */
export const STALE_AFTER_MS = 60_000;
/** Every server process looks for abandoned jobs this often (and when it reads one). */
export const SWEEP_EVERY_MS = 10_000;

/**
 * This host, as far as process ids go: its name, and (Linux) its boot and its process-id namespace — a job left
 * running before a reboot, or by a container sharing the machine's name (host networking), is another host's, judged
 * by its heartbeat, never by a pid that means another process here. Hosts sharing a database have distinct names.
 */
export const HOST = ((): string => {
  const parts = [hostname()];
  try {
    parts.push(readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim().slice(0, 8), readlinkSync('/proc/self/ns/pid').replace(/\D/g, ''));
  } catch {
    // Not Linux: the name alone.
  }
  return parts.join('#');
})();

/** Whether a process of this host runs: it exists and (Linux) is not a zombie — a killed worker whose primary died too may stay one. */
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

/** A job's row read with the store's stale cutoff (`job_cutoff`: heartbeats older than it are stale). */
export type SweptRow = JobRow & { job_cutoff: string };

/** The cutoff to select beside a job's row (`.select(staleCutoff(dialect).as('job_cutoff'))`). */
export const staleCutoff = (dialect: JobDatabase['dialect']) => storeTime(dialect, STALE_AFTER_MS / 1000);

/** Whether a running job's server is gone (see the file's comment). */
export const isAbandoned = (row: SweptRow): boolean =>
  row.job_state === 'running' && (row.job_host === HOST ? !alive(row.job_pid) : row.job_beat < row.job_cutoff);

/** What a server does for a job it failed as abandoned, beside its data (e.g. remove the files the job wrote). */
export type AbandonedHook = (job: JobInfo, database: AppDatabase) => Promise<void> | void;

const hooks = new Set<AbandonedHook>();

/**
 * Registers what to do for every job a server fails as abandoned (once per job, in the server that failed it);
 * answers how to unregister it. The same function registered twice runs once.
 * @example onJobAbandoned((job, database) => removeJobFiles(database.db, job.job_id))
 */
export function onJobAbandoned(hook: AbandonedHook): () => void {
  hooks.add(hook);
  return () => hooks.delete(hook);
}

/** Runs the hooks for failed jobs; a hook's error is logged, the others still run. */
export async function afterAbandoned(jobs: readonly JobInfo[], database: AppDatabase, log: ProcessLog = CONSOLE_LOG): Promise<void> {
  for (const job of jobs) {
    for (const hook of hooks) {
      try {
        await hook(job, database);
      } catch (error) {
        log.error({ err: error, job: job.job_id }, 'job: the clean-up after its server stopped failed');
      }
    }
  }
}

/**
 * Fails abandoned jobs read with their cutoff (`isAbandoned` rows) and answers those this call failed — another
 * server sweeping at the same moment fails each job once. Another host's job is failed only while its heartbeat is
 * still older than the cutoff read: one written meanwhile keeps it running. The hooks are the caller's to run
 * (`afterAbandoned`).
 */
export async function failAbandoned(store: JobDatabase, rows: readonly SweptRow[]): Promise<JobInfo[]> {
  const failed: JobInfo[] = [];
  for (const row of rows) {
    const now = nowIso();
    let update = store.db.updateTable('job').set({ job_state: 'failed', job_error: MESSAGES.jobAbandoned, job_finished: now, modified: now })
      .where('job_id', '=', row.job_id).where('job_state', '=', 'running');
    if (row.job_host !== HOST) update = update.where('job_beat', '<', row.job_cutoff);
    const ended = await update.returningAll().executeTakeFirst();
    if (ended) failed.push(infoOf(ended));
  }
  return failed;
}

/**
 * Fails every abandoned job and runs the hooks for them (a server process's timer; the primary at start). Answers
 * the jobs failed.
 * @example await sweepAbandonedJobs(store, database, log)
 */
export async function sweepAbandonedJobs(store: JobDatabase, database: AppDatabase, log: ProcessLog = CONSOLE_LOG): Promise<JobInfo[]> {
  const running = await store.db.selectFrom('job').selectAll().select(staleCutoff(store.dialect).as('job_cutoff'))
    .where('job_state', '=', 'running').execute();
  const failed = await failAbandoned(store, running.filter(isAbandoned));
  await afterAbandoned(failed, database, log);
  return failed;
}
