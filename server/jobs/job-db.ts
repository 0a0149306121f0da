/**
 * Where jobs are kept. A job writes its progress while its data transaction is open, so the two must not share a
 * write lock:
 * - PostgreSQL: the `job` table of the database (migration 0022), on a small pool of its own, so progress is
 *   written even while every connection of the app's pool is busy;
 * - SQLite: one write lock per file, held by the data transaction until it commits, so the `job` table lives in
 *   a file of its own beside the database (`app.db` → `app-jobs.db`). The calls that watch a job read it there
 *   and look their session up through `AppDatabase.reader`, so the process running the job answers them too.
 * Heartbeats (`job_beat`) are stamped with the store's own clock (`storeTime`), not a host's: hosts whose clocks
 * differ still agree on which job has gone quiet.
 */
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect, type RawBuilder, type Selectable } from 'kysely';
import type { JobInfo, JobKind, JobState } from '../../lib/jobs';
import type { Config, DialectName } from '../config';
import { postgresPool } from '../db/connect';
import { CONSOLE_LOG, type ProcessLog } from '../http/log';
import { createJobTable } from '../db/migrations/0022-jobs';
import { addJobBeat } from '../db/migrations/0085-job-heartbeat';
import type { JobTable } from '../db/schema';

export interface JobSchema {
  job: JobTable;
}

export interface JobDatabase {
  db: Kysely<JobSchema>;
  dialect: DialectName;
  close(): Promise<void>;
}

/** A job's row as read. */
export type JobRow = Selectable<JobTable>;

/** The SQLite file of the jobs beside the database file. */
export const jobFileOf = (sqliteFile: string): string => sqliteFile.replace(/(\.(db|sqlite3?))?$/, '-jobs.db');

/**
 * Opens the jobs' store (on SQLite creating its file and table when missing).
 * @example const jobs = await openJobDatabase(config); …; await jobs.close()
 */
export async function openJobDatabase(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile'>, log: ProcessLog = CONSOLE_LOG): Promise<JobDatabase> {
  if (config.dialect === 'postgres') {
    // The main pool's kind (server/db/connect.ts): a connection the server ends is logged and dropped, never the end of the process.
    const pool = postgresPool(config.databaseUrl, 2, log);
    const db = new Kysely<JobSchema>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = new SQLite(jobFileOf(config.sqliteFile));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  // Job writes are single short statements: another process's wait is brief.
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<JobSchema>({ dialect: new SqliteDialect({ database: file }) });
  await createJobTable(db as unknown as Kysely<unknown>, 'sqlite');
  await addJobBeat(db as unknown as Kysely<unknown>, 'sqlite');
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * The store's clock as ISO UTC text with milliseconds (the form of `nowIso`), `secondsAgo` back: what a heartbeat
 * is stamped with, and the cutoff it is compared to.
 * @example db.updateTable('job').set({ job_beat: storeTime(store.dialect) })
 */
export function storeTime(dialect: DialectName, secondsAgo = 0): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(clock_timestamp() AT TIME ZONE 'UTC' - make_interval(secs => ${sql.lit(secondsAgo)}), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${sql.lit(`-${secondsAgo} seconds`)})`;
}

const parsed = (text: string | null): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** A job's row as `job_dtl` and `job_lst` answer it. */
export const infoOf = <R>(row: JobRow): JobInfo<R> => ({
  job_id: row.job_id, kind: row.job_kind as JobKind, scope: row.job_scope,
  params: (parsed(row.job_params) ?? {}) as Record<string, unknown>, state: row.job_state as JobState,
  done: row.job_done, total: row.job_total, result: parsed(row.job_result) as R | null, error: row.job_error,
  cancelling: row.job_state === 'running' && row.job_cancel === 1,
  started: row.job_started, finished: row.job_finished, user_id: row.job_usr_id, user_name: row.job_usr_name,
});
