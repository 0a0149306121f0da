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

const TABLES = [
  { table: 'client', id: 'cl_id', search: 'cl_search' },
  { table: 'orders', id: 'od_id', search: 'od_search' },
] as const;

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    for (const { table, id, search } of TABLES) {
      const fts = sql.raw(`${table}_fts`);
      const t = sql.raw(table);
      const col = sql.raw(search);
      const key = sql.raw(id);
      await sql`CREATE VIRTUAL TABLE ${fts} USING fts5(${col}, content=${sql.lit(table)}, content_rowid=${sql.lit(id)}, tokenize='trigram')`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_fts_insert`)} AFTER INSERT ON ${t} BEGIN
        INSERT INTO ${fts}(rowid, ${col}) VALUES (new.${key}, new.${col}); END`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_fts_delete`)} AFTER DELETE ON ${t} BEGIN
        INSERT INTO ${fts}(${fts}, rowid, ${col}) VALUES ('delete', old.${key}, old.${col}); END`.execute(db);
      await sql`CREATE TRIGGER ${sql.raw(`${table}_fts_update`)} AFTER UPDATE OF ${col} ON ${t} BEGIN
        INSERT INTO ${fts}(${fts}, rowid, ${col}) VALUES ('delete', old.${key}, old.${col});
        INSERT INTO ${fts}(rowid, ${col}) VALUES (new.${key}, new.${col}); END`.execute(db);
      await sql`INSERT INTO ${fts}(${fts}) VALUES ('rebuild')`.execute(db);
    }
    return;
  }
  await sql`SAVEPOINT trgm`.execute(db);
  try {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`RELEASE SAVEPOINT trgm`.execute(db);
  } catch {
    await sql`ROLLBACK TO SAVEPOINT trgm`.execute(db);
    return;
  }
  for (const { table, search } of TABLES) {
    await sql`CREATE INDEX ${sql.raw(`${table}_search_trgm_idx`)} ON ${sql.raw(table)} USING gin (${sql.raw(search)} gin_trgm_ops)`.execute(db);
  }
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
