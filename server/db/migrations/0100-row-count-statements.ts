/**
 * PostgreSQL: the row counters of 0090 kept by statement triggers and one flush at commit (migrations/row-counts.ts)
 * instead of a deferred trigger per written row, whose commit grew with the square of the rows a transaction wrote
 * (100,000 payments of a JACCS result: most of a two-minute commit). The counters themselves stay as they are: both
 * schemes keep the same sums. SQLite keeps its per-row triggers: it updates a counter row in place.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { COUNTED_0090 } from './0090-row-counts';
import { createRowCountFlush, createStatementCounters } from './row-counts';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect !== 'postgres') return;
  await createRowCountFlush(db);
  for (const counted of COUNTED_0090) {
    // 0090's per-row triggers and their function, where that migration made them (a database older than this code).
    const name = `row_count_${counted.table}`;
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}_write ON "${counted.table}"`).execute(db);
    await sql.raw(`DROP TRIGGER IF EXISTS ${name}_update ON "${counted.table}"`).execute(db);
    await sql.raw(`DROP FUNCTION IF EXISTS ${name}()`).execute(db);
    await createStatementCounters(db, counted);
  }
}
