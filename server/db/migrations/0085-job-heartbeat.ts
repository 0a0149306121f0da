/**
 * Jobs across servers (issue 21): `job_beat`, the heartbeat of a running job — ISO UTC text of the database's clock,
 * written every few seconds by the process running it (server/jobs/jobs.ts). Any server fails a running job whose
 * heartbeat is older than a minute (its server died), so several hosts on one PostgreSQL database never fail each
 * other's live jobs. A row without one ('') is as old as can be.
 * On PostgreSQL the job table is in the database; SQLite keeps it in a file of its own (server/jobs/job-db.ts), where
 * `addJobBeat` runs on that file when it is opened.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

/** Adds `job_beat` to the job table if it has none (every SQLite server process opens the job file, maybe at once). */
export async function addJobBeat(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`ALTER TABLE job ADD COLUMN IF NOT EXISTS job_beat text NOT NULL DEFAULT ''`.execute(db);
    return;
  }
  const has = async () => (await sql<{ name: string }>`PRAGMA table_info(job)`.execute(db)).rows.some((c) => c.name === 'job_beat');
  if (await has()) return;
  try {
    await sql`ALTER TABLE job ADD COLUMN job_beat text NOT NULL DEFAULT ''`.execute(db);
  } catch (error) {
    // Another process added it between the look and the change.
    if (!(await has())) throw error;
  }
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await addJobBeat(db, dialect);
}
