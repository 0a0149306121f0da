/**
 * Check-then-write under concurrency (several server processes, one database). A check ("is it still
 * live?", "is there another admin?", "is the name free?") holds only if nobody changes what it read
 * before the write commits:
 * - row locks (`locking`): PostgreSQL runs transactions side by side, so a check locks the rows it
 *   reads until its transaction ends. SQLite needs none: every write transaction begins IMMEDIATE
 *   (server/db/connect.ts), so they already run one at a time.
 * - `serialize`: a check over a set of rows that a concurrent insert could join (overlapping periods,
 *   "another active admin") has no row to lock; such checks take one named lock instead.
 * - unique indexes: where a check guards "one per …", a partial unique index `WHERE deleted = 0`
 *   refuses the second insert; `retryOnUnique` then runs the work again so the check itself answers.
 */
import { PostgresAdapter, sql, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';

/**
 * How a check holds the rows it read: `update` (the row is about to change, e.g. a delete: nobody else
 * may lock it), `share` (its values must not change, e.g. a role's name a user is given), `keyShare`
 * (it must not be deleted or its id reused, e.g. the record a `ref` field points at; edits still pass),
 * `noKeyUpdate` (what an UPDATE of the row takes, without writing it: writes to the row queue behind it, while a `keyShare`
 * check of it still passes — a customer whose ledger is being summed may still be named by a new order).
 */
export type RowLock = 'update' | 'noKeyUpdate' | 'share' | 'keyShare';

/** SQLite runs one write transaction at a time (BEGIN IMMEDIATE): only PostgreSQL needs the locks. */
const onPostgres = (db: Pick<Kysely<unknown>, 'getExecutor'>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The SELECT with PostgreSQL's row lock added (`FOR UPDATE` …); unchanged on SQLite.
 * @example await locking(trx, trx.selectFrom('client').select('cl_id').where('cl_id', '=', 12), 'keyShare').executeTakeFirst()
 */
export function locking<DB, TB extends keyof DB, O>(
  db: Pick<Kysely<unknown>, 'getExecutor'>, query: SelectQueryBuilder<DB, TB, O>, lock: RowLock,
): SelectQueryBuilder<DB, TB, O> {
  if (!onPostgres(db)) return query;
  if (lock === 'update') return query.forUpdate();
  if (lock === 'noKeyUpdate') return query.forNoKeyUpdate();
  return lock === 'share' ? query.forShare() : query.forKeyShare();
}

/**
 * Makes the transactions that take the same name run this part one after the other, until each ends
 * (a PostgreSQL transaction-level advisory lock; SQLite's write transactions already do). Statements after
 * it see what the previous holder committed. `shared`: many holders at once, but none while an exclusive
 * one holds it (the slip saves of a group while its closing runs, server/closing/closed.ts).
 * @example await serialize(trx, 'tax_rate') // then check the periods and write
 */
export async function serialize<DB>(trx: Transaction<DB>, name: string, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<void> {
  if (!onPostgres(trx)) return;
  if (mode === 'shared') await sql`SELECT pg_advisory_xact_lock_shared(hashtext(${name}))`.execute(trx);
  else await sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.execute(trx);
}

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';

/** A unique index refused the write (two saves raced past the same check). */
export const isUniqueError = (error: unknown): boolean => {
  const code = codeOf(error);
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505';
};

/** PostgreSQL gave up the transaction for another one (a deadlock or a serialization failure): the same as a stale edit. */
export const isConcurrencyError = (error: unknown): boolean => ['40P01', '40001'].includes(codeOf(error));

/**
 * Runs a write transaction; when a unique index refuses it, runs it once more: the other save has
 * committed by then, so the work's own check sees it and answers (the field's message, or an update of
 * the row that won). A second refusal is thrown as it is.
 * @example await retryOnUnique(db, (trx) => insertOrUpdate(trx, values))
 */
export async function retryOnUnique<DB, T>(db: Kysely<DB>, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (!isUniqueError(error)) throw error;
    return db.transaction().execute(work);
  }
}
