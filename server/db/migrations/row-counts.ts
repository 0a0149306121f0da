/**
 * Row counters (issue 21, "counts that keep up"): `row_count` holds, per resource table, how many live rows
 * (deleted = 0) it has — and, for a table whose lists are split by a status column, how many per value — kept by
 * database triggers in the same transaction as every write (the write path's `writeSaves`/`systemInsert`, the
 * set-based writes, an import, a hand-made SQL statement alike), so a list's unfiltered or status-only total is read,
 * never counted (server/resources/list-count.ts).
 *
 * A key is (table, column, value): column '' and value '' for the table's live rows; (status column, its value) per
 * status (NULL is stored as ''). On PostgreSQL each key has up to `SLOTS` rows summed on read: a writing transaction
 * adds to the slot of its transaction id, and the triggers are DEFERRABLE INITIALLY DEFERRED constraint triggers,
 * so the counter rows are locked only while the transaction commits — concurrent writers of one table wait for
 * each other only for that moment, and only when they share a slot. SQLite has one writer: one slot, plain triggers.
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

/** Creates the counter table (once, by the first migration that counts). */
export async function createRowCountTable(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('row_count')
    .addColumn('rc_table', 'text', (c) => c.notNull())
    .addColumn('rc_column', 'text', (c) => c.notNull())
    .addColumn('rc_value', 'text', (c) => c.notNull())
    .addColumn('rc_slot', 'integer', (c) => c.notNull())
    .addColumn('rc_n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('row_count_pk', ['rc_table', 'rc_column', 'rc_value', 'rc_slot'])
    .execute();
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
    const add = (row: 'NEW' | 'OLD', n: 1 | -1): string => upsert(`VALUES ('${table}', '', '', slot, ${n})${
      status ? `, ('${table}', '${status}', coalesce(${row}.${status}::text, ''), slot, ${n})` : ''}`);
    await sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE slot integer := txid_current() % ${SLOTS};
      BEGIN
        IF TG_OP <> 'INSERT' AND OLD.deleted = 0 THEN ${add('OLD', -1)}; END IF;
        IF TG_OP <> 'DELETE' AND NEW.deleted = 0 THEN ${add('NEW', 1)}; END IF;
        RETURN NULL;
      END $$`).execute(db);
    const deferred = `DEFERRABLE INITIALLY DEFERRED FOR EACH ROW`;
    await sql.raw(`CREATE CONSTRAINT TRIGGER ${name}_write AFTER INSERT OR DELETE ON ${t} ${deferred} EXECUTE FUNCTION ${name}()`).execute(db);
    const changed = status ? `OLD.deleted IS DISTINCT FROM NEW.deleted OR OLD.${status} IS DISTINCT FROM NEW.${status}` : 'OLD.deleted IS DISTINCT FROM NEW.deleted';
    await sql.raw(`CREATE CONSTRAINT TRIGGER ${name}_update AFTER UPDATE OF deleted${status ? `, ${status}` : ''} ON ${t} ${deferred}
      WHEN (${changed}) EXECUTE FUNCTION ${name}()`).execute(db);
  }
  await sql.raw(`INSERT INTO row_count (rc_table, rc_column, rc_value, rc_slot, rc_n) SELECT '${table}', '', '', 0, count(*) FROM ${t} WHERE deleted = 0`).execute(db);
  if (status) {
    const value = dialect === 'sqlite' ? `coalesce(${status}, '')` : `coalesce(${status}::text, '')`;
    await sql.raw(`INSERT INTO row_count (rc_table, rc_column, rc_value, rc_slot, rc_n)
      SELECT '${table}', '${status}', ${value}, 0, count(*) FROM ${t} WHERE deleted = 0 GROUP BY ${value}`).execute(db);
  }
}
