/**
 * Files in the database (server/files): any server reads a file any other wrote.
 * - `stored_file` (`sf_*`): one file — its kind (`import`, `import-errors`, `billing-pdf`, `billing-zip` …), name,
 *   size, SHA-256, owner (the user who sent or asked for it), the job that wrote it (if one did), whether it is
 *   complete (an incomplete file is never read: its writer is still at work, or died), when it was made and when it
 *   expires (any server removes it then). `expires` finds the expired ones, `sf_job_id` a job's files.
 * - `file_chunk` (`fc_*`): its bytes in order, `fc_seq` from 0, each chunk a row (PostgreSQL `bytea` stored out of
 *   line and uncompressed — PDFs and ZIPs are compressed already; SQLite a blob).
 * - `import_run` gets the stored file of its upload (`imp_file_id`) and of its errors (`imp_errors_file_id`);
 *   `imp_path` stays for the runs whose file was on disk until the server moves it in at start (server/disk-files.ts).
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { withId } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('stored_file'), 'sf_id', dialect)
    .addColumn('sf_kind', 'text', (c) => c.notNull())
    .addColumn('sf_name', 'text', (c) => c.notNull())
    .addColumn('sf_size', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sf_sha256', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sf_usr_id', 'integer')
    .addColumn('sf_job_id', 'integer')
    .addColumn('sf_complete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('expires', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stored_file_expires_idx').on('stored_file').column('expires').execute();
  await db.schema.createIndex('stored_file_job_idx').on('stored_file').columns(['sf_job_id', 'sf_kind']).execute();

  await db.schema.createTable('file_chunk')
    .addColumn('fc_sf_id', 'integer', (c) => c.notNull().references('stored_file.sf_id').onDelete('cascade'))
    .addColumn('fc_seq', 'integer', (c) => c.notNull())
    .addColumn('fc_data', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_chunk_pk', ['fc_sf_id', 'fc_seq'])
    .execute();
  if (dialect === 'postgres') await sql`ALTER TABLE file_chunk ALTER COLUMN fc_data SET STORAGE EXTERNAL`.execute(db);

  await db.schema.alterTable('import_run').addColumn('imp_file_id', 'integer').execute();
  await db.schema.alterTable('import_run').addColumn('imp_errors_file_id', 'integer').execute();
}
