/**
 * Where jobs are kept. A job writes its progress while its data transaction is open, so the two must not share a
 * write lock:
 * - PostgreSQL: the `job` table of the database (migration 0022), on a small pool of its own, so progress is
 *   written even while every connection of the app's pool is busy;
 * - SQLite: one write lock per file, held by the data transaction until it commits, so the `job` table lives in
 *   a file of its own beside the database (`app.db` → `app-jobs.db`). The calls that watch a job read it there
 *   and look their session up through `AppDatabase.reader`, so the process running the job answers them too.
 */
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { createJobTable } from '../db/migrations/0022-jobs';
import type { JobTable } from '../db/schema';

export interface JobSchema {
  job: JobTable;
}

export interface JobDatabase {
  db: Kysely<JobSchema>;
  close(): Promise<void>;
}

/** The SQLite file of the jobs beside the database file. */
export const jobFileOf = (sqliteFile: string): string => sqliteFile.replace(/(\.(db|sqlite3?))?$/, '-jobs.db');

/**
 * Opens the jobs' store (on SQLite creating its file and table when missing).
 * @example const jobs = await openJobDatabase(config); …; await jobs.close()
 */
export async function openJobDatabase(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile'>): Promise<JobDatabase> {
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
    // As the main pool (server/db/connect.ts): an idle connection the server ends is dropped, not the end of the process.
    pool.on('error', (error) => console.warn(`PostgreSQL (jobs): an idle connection ended (${error.message})`));
    const db = new Kysely<JobSchema>({ dialect: new PostgresDialect({ pool }) });
    return { db, close: () => db.destroy() };
  }
  const file = new SQLite(jobFileOf(config.sqliteFile));
  file.pragma('journal_mode = WAL');
  file.pragma('synchronous = NORMAL');
  // Job writes are single short statements: another process's wait is brief.
  file.pragma('busy_timeout = 5000');
  const db = new Kysely<JobSchema>({ dialect: new SqliteDialect({ database: file }) });
  await createJobTable(db as unknown as Kysely<unknown>, 'sqlite');
  return { db, close: () => db.destroy() };
}
