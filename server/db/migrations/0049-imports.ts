/**
 * The import machinery (issue 14, server/imports):
 * - `import_run` (`imp_*`): one uploaded file of an import kind — its name, size, SHA-256, encoding, the column mapping
 *   used, the dry run's counts (rows, inserts, updates, skips, errors), its state (`preview` after the dry run,
 *   `committed` once the commit job wrote it, `failed` when that job found a problem, `expired` when its stored file was
 *   removed), the commit's job, who uploaded it, when, when it was committed, and where the file is kept.
 *   `(imp_kind, imp_sha256, imp_state)` finds a file committed before (the re-import warning).
 * - `import_mapping` (`imm_*`): the column mapping a user last chose for a kind (one row per kind).
 * - The customer's 顧客コード `cl_code` (unique among live customers that have one: the import's natural key; the index
 *   leads with the code, so a lookup by code reads it) and the
 *   job stamp `cl_job_id` (a committed import's customers carry its job id).
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { withId } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('import_run'), 'imp_id', dialect)
    .addColumn('imp_kind', 'text', (c) => c.notNull())
    .addColumn('imp_file_name', 'text', (c) => c.notNull())
    .addColumn('imp_size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imp_sha256', 'text', (c) => c.notNull())
    .addColumn('imp_encoding', 'text', (c) => c.notNull())
    .addColumn('imp_mapping', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('imp_headers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('imp_rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imp_inserts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imp_updates', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imp_skips', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imp_errors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imp_state', 'text', (c) => c.notNull())
    .addColumn('imp_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('imp_job_id', 'integer')
    .addColumn('imp_usr_id', 'integer', (c) => c.notNull())
    .addColumn('imp_path', 'text', (c) => c.notNull())
    .addColumn('imp_committed', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('import_run_kind_idx').on('import_run').columns(['imp_kind', 'imp_id']).execute();
  await db.schema.createIndex('import_run_sha_idx').on('import_run').columns(['imp_kind', 'imp_sha256', 'imp_state']).execute();

  await withId(db.schema.createTable('import_mapping'), 'imm_id', dialect)
    .addColumn('imm_kind', 'text', (c) => c.notNull().unique())
    .addColumn('imm_mapping', 'text', (c) => c.notNull())
    .addColumn('imm_usr_id', 'integer', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('client').addColumn('cl_code', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('client').addColumn('cl_job_id', 'integer').execute();
  // Unique among live customers that have a code: a customer without one is ('', its id), so those never collide; the
  // index's WHERE is only `deleted = 0`, so the write path's uniqueness check and the import's lookup by code
  // (`cl_code IN (…) AND deleted = 0`) read it instead of scanning every customer.
  await sql`CREATE UNIQUE INDEX client_code_live_uq ON client (cl_code, (CASE WHEN cl_code = '' THEN cl_id ELSE 0 END)) WHERE deleted = 0`.execute(db);
}
