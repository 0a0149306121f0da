/**
 * Jobs (issue 11): the `job` table — kind, scope, parameters, who, state, progress, result or error, when, and the
 * process running it (host, pid) so a dead process's job can be found. A partial unique index lets one job of a
 * kind and scope run at a time, across server processes.
 * On PostgreSQL it lives in the database; SQLite keeps it in a file of its own beside the database
 * (server/jobs/job-db.ts), because a job's data transaction holds SQLite's one write lock and its progress must be
 * written meanwhile — there `createJobTable` runs on that file instead.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { withId, withStamps } from './resource-table';

/** Creates the job table and its indexes (if missing: every SQLite server process opens the job file). */
export async function createJobTable(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withStamps(withId(db.schema.createTable('job').ifNotExists(), 'job_id', dialect)
    .addColumn('job_kind', 'text', (c) => c.notNull())
    .addColumn('job_scope', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job_params', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('job_usr_id', 'integer', (c) => c.notNull())
    .addColumn('job_usr_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job_state', 'text', (c) => c.notNull())
    .addColumn('job_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_result', 'text')
    .addColumn('job_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job_cancel', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('job_started', 'text', (c) => c.notNull())
    .addColumn('job_finished', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job_host', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('job_pid', 'integer', (c) => c.notNull().defaultTo(0)))
    .execute();
  await sql`CREATE UNIQUE INDEX IF NOT EXISTS job_running_uq ON job (job_kind, job_scope) WHERE job_state = 'running'`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS job_kind_idx ON job (job_kind, job_id)`.execute(db);
  await sql`CREATE INDEX IF NOT EXISTS job_running_idx ON job (job_host, job_pid) WHERE job_state = 'running'`.execute(db);
}

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await createJobTable(db, dialect);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('job').ifExists().execute();
}
