/**
 * Row counters (issue 21, "counts that keep up"): `row_count` holds, per resource table, how many live rows
 * (deleted = 0) it has — and, for a table whose lists are split by a status column, how many per value — kept by
 * database triggers in the same transaction as every write (the write path's `writeSaves`/`systemInsert`, the
 * set-based writes, an import, a hand-made SQL statement alike), so a list's unfiltered or status-only total is read,
 * never counted (server/resources/list-count.ts).
 *
 * A key is (table, column, value): column '' and value '' for the table's live rows; (status column, its value) per
 * status (NULL is stored as ''). SQLite has one writer: one slot, a plain trigger per row.
 *
 * On PostgreSQL each key has up to `SLOTS` rows summed on read, and a writing transaction adds to the slot of its
 * transaction id only while it commits, so concurrent writers of one table wait for each other only for that moment,
 * and only when they share a slot (migration 0100):
 * - each counted table has statement triggers that read the statement's rows (transition tables) and add their sums
 *   per key to `row_count_pending`, this transaction's own rows (keyed by its id: no other writer touches them), then
 *   put the transaction's mark in `row_count_flush` (once: a second mark conflicts and inserts nothing);
 * - the mark's one DEFERRABLE INITIALLY DEFERRED constraint trigger moves the transaction's pending sums into
 *   `row_count` when it commits — one upsert per key.
 * Before (0090), a deferred trigger per written row added to the key's slot row at commit: a transaction writing
 * 100,000 rows updated one row 100,000 times, and each update walked the versions the transaction had made before
 * (commit: 2.2 s for 20,000 payments, 8.2 s for 40,000). Now a statement adds once per key.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';

/** Counter rows per key on PostgreSQL (a transaction writes slot `txid % SLOTS`). */
export const SLOTS = 16;

/** A counted table: its name and the status column its lists are split by (none: only the live rows). */
export interface CountedTable {
  table: string;
  status?: string;
}

const upsert = (rows: string): string =>
  `INSERT INTO row_count (rc_table, rc_column, rc_value, rc_slot, rc_n) ${rows}
    ON CONFLICT (rc_table, rc_column, rc_value, rc_slot) DO UPDATE SET rc_n = row_count.rc_n + excluded.rc_n`;

/** Creates the counter table (once, by the first migration that counts) and, on PostgreSQL, its commit-time flush. */
export async function createRowCountTable(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await db.schema.createTable('row_count')
    .addColumn('rc_table', 'text', (c) => c.notNull())
    .addColumn('rc_column', 'text', (c) => c.notNull())
    .addColumn('rc_value', 'text', (c) => c.notNull())
    .addColumn('rc_slot', 'integer', (c) => c.notNull())
    .addColumn('rc_n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('row_count_pk', ['rc_table', 'rc_column', 'rc_value', 'rc_slot'])
    .execute();
  if (dialect === 'postgres') await createRowCountFlush(db);
}

/**
 * PostgreSQL: the transactions' pending sums and their marks, and the deferred trigger that moves a transaction's
 * sums into `row_count` as it commits. Unlogged: a transaction's pending rows are gone by its end (moved at commit,
 * or rolled back), so they need no WAL. Runs again harmlessly (migration 0100 on a database 0090 made before).
 */
export async function createRowCountFlush(db: Kysely<unknown>): Promise<void> {
  await sql.raw(`CREATE UNLOGGED TABLE IF NOT EXISTS row_count_pending (
    rcp_txid bigint NOT NULL, rc_table text NOT NULL, rc_column text NOT NULL, rc_value text NOT NULL, rc_n bigint NOT NULL,
    CONSTRAINT row_count_pending_pk PRIMARY KEY (rcp_txid, rc_table, rc_column, rc_value))`).execute(db);
  await sql.raw('CREATE UNLOGGED TABLE IF NOT EXISTS row_count_flush (rcf_txid bigint NOT NULL CONSTRAINT row_count_flush_pk PRIMARY KEY)').execute(db);
  await sql.raw(`CREATE OR REPLACE FUNCTION row_count_flush() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WITH moved AS (DELETE FROM row_count_pending WHERE rcp_txid = NEW.rcf_txid RETURNING rc_table, rc_column, rc_value, rc_n)
      ${upsert(`SELECT rc_table, rc_column, rc_value, (NEW.rcf_txid % ${SLOTS})::integer, sum(rc_n) FROM moved
        GROUP BY rc_table, rc_column, rc_value HAVING sum(rc_n) <> 0`)};
      DELETE FROM row_count_flush WHERE rcf_txid = NEW.rcf_txid;
      RETURN NULL;
    END $$`).execute(db);
  await sql.raw('DROP TRIGGER IF EXISTS row_count_flush ON row_count_flush').execute(db);
  await sql.raw(`CREATE CONSTRAINT TRIGGER row_count_flush AFTER INSERT ON row_count_flush
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION row_count_flush()`).execute(db);
}

/** PostgreSQL: a counted table's statement triggers (see above); runs again harmlessly. */
export async function createStatementCounters(db: Kysely<unknown>, { table, status }: CountedTable): Promise<void> {
  const t = `"${table}"`;
  const name = `row_count_${table}`;
  /** The keys of a transition table's live rows, each with `n` (1 or -1). */
  const keys = (rows: string, n: 1 | -1): string => [
    `SELECT '' AS k_column, '' AS k_value, ${n} AS k_n FROM ${rows} WHERE deleted = 0`,
    ...(status ? [`SELECT '${status}', coalesce(${status}::text, ''), ${n} FROM ${rows} WHERE deleted = 0`] : []),
  ].join(' UNION ALL ');
  const add = (parts: string): string => `INSERT INTO row_count_pending (rcp_txid, rc_table, rc_column, rc_value, rc_n)
        SELECT txid_current(), '${table}', k_column, k_value, sum(k_n) FROM (${parts}) k GROUP BY k_column, k_value HAVING sum(k_n) <> 0
        ON CONFLICT (rcp_txid, rc_table, rc_column, rc_value) DO UPDATE SET rc_n = row_count_pending.rc_n + excluded.rc_n`;
  await sql.raw(`CREATE OR REPLACE FUNCTION ${name}_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN ${add(keys('new_rows', 1))};
      ELSIF TG_OP = 'DELETE' THEN ${add(keys('old_rows', -1))};
      ELSE ${add(`${keys('old_rows', -1)} UNION ALL ${keys('new_rows', 1)}`)};
      END IF;
      IF FOUND THEN INSERT INTO row_count_flush (rcf_txid) VALUES (txid_current()) ON CONFLICT DO NOTHING; END IF;
      RETURN NULL;
    END $$`).execute(db);
  for (const [event, tables] of [['INSERT', 'NEW TABLE AS new_rows'], ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'], ['DELETE', 'OLD TABLE AS old_rows']]) {
    const trigger = `${name}_${event.toLowerCase()}`;
    await sql.raw(`DROP TRIGGER IF EXISTS ${trigger} ON ${t}`).execute(db);
    await sql.raw(`CREATE TRIGGER ${trigger} AFTER ${event} ON ${t} REFERENCING ${tables} FOR EACH STATEMENT EXECUTE FUNCTION ${name}_rows()`).execute(db);
  }
}

/**
 * Starts counting a table: its triggers, then its counters from the rows it holds now (in the migration's
 * transaction, so no write falls between).
 * @example await countRows(db, dialect, { table: 'orders', status: 'od_status' })
 */
export async function countRows(db: Kysely<unknown>, dialect: DialectName, { table, status }: CountedTable): Promise<void> {
  const t = `"${table}"`;
  const name = `row_count_${table}`;
  if (dialect === 'sqlite') {
    const add = (row: 'NEW' | 'OLD', n: 1 | -1): string => [
      upsert(`SELECT '${table}', '', '', 0, ${n} WHERE ${row}.deleted = 0`),
      ...(status ? [upsert(`SELECT '${table}', '${status}', coalesce(${row}.${status}, ''), 0, ${n} WHERE ${row}.deleted = 0`)] : []),
    ].join(';\n');
    await sql.raw(`CREATE TRIGGER ${name}_insert AFTER INSERT ON ${t} BEGIN ${add('NEW', 1)}; END`).execute(db);
    await sql.raw(`CREATE TRIGGER ${name}_delete AFTER DELETE ON ${t} BEGIN ${add('OLD', -1)}; END`).execute(db);
    const changed = status ? `OLD.deleted IS NOT NEW.deleted OR OLD.${status} IS NOT NEW.${status}` : 'OLD.deleted IS NOT NEW.deleted';
    await sql.raw(`CREATE TRIGGER ${name}_update AFTER UPDATE OF deleted${status ? `, ${status}` : ''} ON ${t} WHEN ${changed}
      BEGIN ${add('OLD', -1)}; ${add('NEW', 1)}; END`).execute(db);
  } else {
    await createStatementCounters(db, { table, status });
  }
  await sql.raw(`INSERT INTO row_count (rc_table, rc_column, rc_value, rc_slot, rc_n) SELECT '${table}', '', '', 0, count(*) FROM ${t} WHERE deleted = 0`).execute(db);
  if (status) {
    const value = dialect === 'sqlite' ? `coalesce(${status}, '')` : `coalesce(${status}::text, '')`;
    await sql.raw(`INSERT INTO row_count (rc_table, rc_column, rc_value, rc_slot, rc_n)
      SELECT '${table}', '${status}', ${value}, 0, count(*) FROM ${t} WHERE deleted = 0 GROUP BY ${value}`).execute(db);
  }
}
