/**
 * Building blocks of the migrations that add resource tables: the table with its prefixed columns,
 * `{prefix}search`, the stamps, the sort indexes, the `(deleted, id)` index and the keyword index
 * (docs/architecture.md "Database"). Each migration still lists its columns itself: a migration is a
 * frozen record of the schema, and `tests/api/schema.test.ts` checks them against the declarations.
 */
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

type Builder = CreateTableBuilder<string, string>;

export function withId(table: Builder, column: string, dialect: DialectName): Builder {
  return dialect === 'postgres'
    ? table.addColumn(column, 'serial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

export function withStamps(table: Builder): Builder {
  return table
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0));
}

/** `(deleted, column, id)` per sortable column: a sorted page reads one index. */
export async function sortIndexes(db: Kysely<unknown>, table: string, id: string, columns: readonly string[]): Promise<void> {
  for (const column of columns) {
    await db.schema.createIndex(`${table}_${column}_idx`).on(table).columns(['deleted', column, id]).execute();
  }
}

/**
 * The keyword index of `{prefix}search`: an FTS5 trigram table kept in sync by triggers (SQLite),
 * a pg_trgm GIN index (PostgreSQL; skipped when the extension cannot be created).
 */
export async function keywordIndex(db: Kysely<unknown>, dialect: DialectName, table: string, id: string, search: string): Promise<void> {
  if (dialect === 'sqlite') {
    const fts = sql.raw(`${table}_fts`);
    const t = sql.raw(`"${table}"`);
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
  await sql`CREATE INDEX ${sql.raw(`${table}_search_trgm_idx`)} ON ${sql.raw(`"${table}"`)} USING gin (${sql.raw(search)} gin_trgm_ops)`.execute(db);
}

/** A unique index over the live rows only (soft-deleted rows keep their old values). */
export async function uniqueLive(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  await sql`CREATE UNIQUE INDEX ${sql.raw(`${table}_${columns.join('_')}_live_uq`)} ON ${sql.raw(`"${table}"`)} (${sql.raw(columns.join(', '))}) WHERE deleted = 0`.execute(db);
}

export interface ResourceTableSpec {
  table: string;
  /** Column prefix, e.g. `ct_`; the id is `{prefix}id`, the keyword text `{prefix}search`. */
  prefix: string;
  /** Unprefixed names of TEXT NOT NULL DEFAULT '' columns. */
  text: readonly string[];
  /** Unprefixed names of INTEGER (NULL when empty) columns. */
  integer: readonly string[];
  /** Unprefixed names of double precision columns. */
  real?: readonly string[];
  /** Prefixed sortable columns (and created/modified) that get a sort index. */
  sortable: readonly string[];
  /** Extra plain indexes (prefixed column lists), e.g. `[['ct_cl_id', 'deleted']]`. */
  indexes?: readonly (readonly string[])[];
}

/**
 * Creates a resource table with every index the generic list needs.
 * @example await createResourceTable(db, dialect, { table: 'item', prefix: 'it_', text: ['code'], integer: ['price'], sortable: ['it_code'] })
 */
export async function createResourceTable(db: Kysely<unknown>, dialect: DialectName, spec: ResourceTableSpec): Promise<void> {
  const { table, prefix } = spec;
  const id = `${prefix}id`;
  let builder = withId(db.schema.createTable(table), id, dialect);
  for (const name of spec.text) builder = builder.addColumn(`${prefix}${name}`, 'text', (c) => c.notNull().defaultTo(''));
  for (const name of spec.integer) builder = builder.addColumn(`${prefix}${name}`, 'integer');
  for (const name of spec.real ?? []) builder = builder.addColumn(`${prefix}${name}`, 'double precision');
  builder = builder.addColumn(`${prefix}search`, 'text', (c) => c.notNull().defaultTo(''));
  await withStamps(builder).execute();
  await sortIndexes(db, table, id, spec.sortable.filter((c) => c !== id));
  await db.schema.createIndex(`${table}_deleted_id_idx`).on(table).columns(['deleted', id]).execute();
  for (const columns of spec.indexes ?? []) await db.schema.createIndex(`${table}_${columns.join('_')}_idx`).on(table).columns([...columns]).execute();
  await keywordIndex(db, dialect, table, id, `${prefix}search`);
}
