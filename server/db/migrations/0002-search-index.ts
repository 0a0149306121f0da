/**
 * Keyword-search accelerators for the `{prefix}search` columns. The keyword's meaning stays
 * `LIKE '%term%'` on the column; these indexes only make it fast at 100,000 rows:
 * - SQLite: an FTS5 trigram table per resource table, kept in sync by triggers (every writer,
 *   including bulk loads, keeps it current);
 * - PostgreSQL: a pg_trgm GIN index, which the planner uses for LIKE directly. When the extension
 *   cannot be created (no privilege), the index is skipped and LIKE scans.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { keywordIndex } from './resource-table';

const TABLES = [
  { table: 'client', id: 'cl_id', search: 'cl_search' },
  { table: 'orders', id: 'od_id', search: 'od_search' },
] as const;

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  for (const { table, id, search } of TABLES) await keywordIndex(db, dialect, table, id, search);
}

export async function down(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  for (const { table } of TABLES) {
    if (dialect === 'sqlite') {
      for (const suffix of ['insert', 'delete', 'update']) await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_fts_${suffix}`)}`.execute(db);
      await sql`DROP TABLE IF EXISTS ${sql.raw(`${table}_fts`)}`.execute(db);
    } else {
      await sql`DROP INDEX IF EXISTS ${sql.raw(`${table}_search_trgm_idx`)}`.execute(db);
    }
  }
}
