/**
 * Writing many rows in few statements: multi-row INSERTs, reads by a list of ids, and one UPDATE per
 * chunk that gives each row its own values (`CASE id WHEN … THEN …`). For bulk work inside one
 * transaction (seed, regular-delivery runs), on both dialects.
 */
import { CompiledQuery, PostgresAdapter, sql, type Kysely } from 'kysely';
import { resourceView, type Cell, type Database, type ResourceRow } from './schema';

/** SQLite allows 32,766 bound values per statement, PostgreSQL 65,535. */
const MAX_PARAMETERS = 32_000;

/** Rows per statement for rows of `columns` values: as many as the parameter limit allows, at most `cap`. */
export const rowsPerStatement = (columns: number, cap = 500): number => Math.max(1, Math.min(cap, Math.floor(MAX_PARAMETERS / Math.max(1, columns))));

/** `items` in consecutive slices of `size`. */
export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Inserts rows (each with the same columns) in multi-row statements; answers the `returning` columns of
 * every row, in order (empty when none are asked for).
 * @example const ids = await insertMany(trx, 'orders', rows, ['od_id'])
 */
export async function insertMany(db: Kysely<Database>, table: string, rows: readonly ResourceRow[], returning: readonly string[] = [], perStatement?: number): Promise<ResourceRow[]> {
  return preparedInsert(db, table, rows, returning, perStatement)();
}

/**
 * `insertMany` in two steps: its statements are built when called — the rows serialised (PostgreSQL's JSON
 * parameter) and compiled — and sent to the database when the answered function runs. A bulk writer queues
 * that function (`writeQueue`), so the database's work never waits for JavaScript to serialise rows: they were
 * serialised while the previous write ran.
 * @example queue.add(preparedInsert(trx, 'orders', rows))
 */
export function preparedInsert(db: Kysely<Database>, table: string, rows: readonly ResourceRow[], returning: readonly string[] = [], perStatement?: number): () => Promise<ResourceRow[]> {
  if (rows.length === 0) return async () => [];
  const columns = Object.keys(rows[0]);
  // A row without a column would get NULL on SQLite but the default on PostgreSQL: refuse the difference.
  if (rows.some((row) => Object.keys(row).length !== columns.length || columns.some((c) => !(c in row)))) throw new Error(`insertMany(${table}): every row needs the same columns`);
  const statements = isPostgres(db) ? insertStatementsPostgres(db, table, columns, rows, returning) : insertStatementsSqlite(db, table, rows, returning, perStatement ?? rowsPerStatement(columns.length));
  return async () => {
    const answered: ResourceRow[] = [];
    for (const statement of statements) answered.push(...(await db.executeQuery(statement)).rows);
    return answered;
  };
}

/**
 * SQLite: multi-row INSERTs written as text with one `?` per value — the same statement Kysely would compile, without
 * building its tree of every value (what a bulk run spends most on before the database works), and the same text for
 * every full chunk, so the connection's statement cache prepares it once (server/db/connect.ts). A row holding an
 * `undefined` value goes through Kysely, which leaves such a column out.
 */
function insertStatementsSqlite(db: Kysely<Database>, table: string, rows: readonly ResourceRow[], returning: readonly string[], size: number): CompiledQuery<ResourceRow>[] {
  const columns = Object.keys(rows[0]);
  if (rows.every((row) => columns.every((column) => row[column] !== undefined))) {
    const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
    const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values `;
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const tail = returning.length > 0 ? ` returning ${returning.map(quote).join(', ')}` : '';
    const texts = new Map<number, string>();
    return chunksOf(rows, size).map((chunk) => {
      let text = texts.get(chunk.length);
      if (text === undefined) texts.set(chunk.length, (text = head + Array.from({ length: chunk.length }, () => tuple).join(', ') + tail));
      const parameters = new Array<unknown>(chunk.length * columns.length);
      let k = 0;
      for (const row of chunk) for (const column of columns) parameters[k++] = row[column];
      return CompiledQuery.raw(text, parameters);
    });
  }
  const view = resourceView(db);
  return chunksOf(rows, size).map((chunk) => {
    const insert = view.insertInto(table).values(chunk);
    return returning.length > 0 ? insert.returning(returning as string[]).compile() : insert.compile();
  });
}

/**
 * PostgreSQL: thousands of rows per statement as ONE json parameter (`json_populate_recordset` types each
 * value by its column), instead of tens of thousands of bound values to send and plan.
 */
function insertStatementsPostgres(db: Kysely<Database>, table: string, columns: readonly string[], rows: readonly ResourceRow[], returning: readonly string[]): CompiledQuery<ResourceRow>[] {
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const back = returning.length > 0 ? sql` RETURNING ${sql.join(returning.map((c) => sql.ref(c)))}` : sql``;
  return chunksOf(rows, 5000).map((chunk) => sql<ResourceRow>`INSERT INTO ${sql.table(table)} (${list})
      SELECT ${list} FROM json_populate_recordset(NULL::${sql.table(table)}, ${JSON.stringify(chunk)}::json)${back}`.compile(db));
}

/**
 * Rows of a table by id (`columns`, or all), read a chunk of ids at a time, by id.
 * @example const clients = await rowsByIds(trx, 'client', 'cl_id', [1, 2, 3])
 */
export async function rowsByIds(db: Kysely<Database>, table: string, idColumn: string, ids: readonly number[], columns?: readonly string[]): Promise<Map<number, ResourceRow>> {
  const view = resourceView(db);
  const byId = new Map<number, ResourceRow>();
  for (const chunk of chunksOf([...new Set(ids)], 1000)) {
    const query = view.selectFrom(table).where(idColumn, 'in', chunk);
    const rows = columns ? await query.select(columns as string[]).execute() : await query.selectAll().execute();
    for (const row of rows) byId.set(Number(row[idColumn]), row);
  }
  return byId;
}

/**
 * Gives each row its own values of text columns (the same columns for every row), a few hundred rows per
 * UPDATE (PostgreSQL: thousands, as one json parameter). Text only: the values are bound as text, which
 * PostgreSQL would not assign to a number column.
 * @example await updateTextEach(trx, 'client', 'cl_id', new Map([[12, { cl_next_shipping_date: '2027-01-05', modified: stamp }]]))
 */
export async function updateTextEach(db: Kysely<Database>, table: string, idColumn: string, updates: ReadonlyMap<number, Readonly<Record<string, string>>>): Promise<void> {
  return updateEach(db, table, idColumn, updates, 'text');
}

/**
 * Gives each row its own values of integer columns (the same columns for every row; null allowed), as
 * `updateTextEach` does for text: a closing stamping a hundred thousand slips with their invoice.
 * @example await updateIntegersEach(trx, 'sales', 'sl_id', new Map([[41, { sl_bli_id: 7 }], [42, { sl_bli_id: 7 }]]))
 */
export async function updateIntegersEach(db: Kysely<Database>, table: string, idColumn: string, updates: ReadonlyMap<number, Readonly<Record<string, number | null>>>): Promise<void> {
  return updateEach(db, table, idColumn, updates, 'bigint');
}

async function updateEach(db: Kysely<Database>, table: string, idColumn: string, updates: ReadonlyMap<number, Readonly<Record<string, Cell>>>, type: 'text' | 'bigint'): Promise<void> {
  const entries = [...updates];
  if (entries.length === 0) return;
  const columns = Object.keys(entries[0][1]);
  if (isPostgres(db)) return updateEachPostgres(db, table, idColumn, columns, entries, type);
  for (const chunk of chunksOf(entries, rowsPerStatement(2 * columns.length + 1, 400))) {
    const sets = columns.map((column) => {
      const cases = chunk.map(([id, set]) => sql`WHEN ${id} THEN ${set[column]}`);
      return sql`${sql.ref(column)} = CASE ${sql.ref(idColumn)} ${sql.join(cases, sql` `)} END`;
    });
    await sql`UPDATE ${sql.table(table)} SET ${sql.join(sets)} WHERE ${sql.ref(idColumn)} IN (${sql.join(chunk.map(([id]) => id))})`.execute(db);
  }
}

/**
 * Writes that run one after another, in the order they are added, while the caller goes on building the
 * next rows: on PostgreSQL the database works while JavaScript does (a bulk run's rows take about as long
 * to build as to write). `breathe()` between stretches of work lets a finished write hand over to the next;
 * `done()` waits for all and throws the first failure, after which no later write runs. A caller that fails
 * while building calls `abandon()` before it throws: the writes not yet started are dropped and the running
 * one is waited for, so nothing touches the transaction once it rolls back.
 * @example const queue = writeQueue(); queue.add(() => insertMany(trx, 'orders', rows)); await queue.done();
 */
export function writeQueue() {
  let tail: Promise<void> = Promise.resolve();
  let abandoned = false;
  return {
    add(write: () => Promise<unknown>): void {
      tail = tail.then(async () => {
        if (!abandoned) await write();
      });
      tail.catch(() => undefined); // answered by done(); this only keeps Node from calling it unhandled meanwhile
    },
    breathe: (): Promise<void> => new Promise((resolve) => setImmediate(resolve)),
    done: (): Promise<void> => tail,
    async abandon(): Promise<void> {
      abandoned = true;
      await tail.catch(() => undefined);
    },
  };
}

/** PostgreSQL: thousands of rows per UPDATE, their values as ONE json parameter joined by id. */
async function updateEachPostgres(
  db: Kysely<Database>, table: string, idColumn: string, columns: readonly string[], entries: readonly (readonly [number, Readonly<Record<string, Cell>>])[], type: 'text' | 'bigint',
): Promise<void> {
  const sets = sql.join(columns.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
  const types = sql.join([sql`id bigint`, ...columns.map((c) => sql`${sql.ref(c)} ${sql.raw(type)}`)]);
  for (const chunk of chunksOf(entries, 5000)) {
    const values = chunk.map(([id, set]) => ({ ...set, id }));
    await sql`UPDATE ${sql.table(table)} SET ${sets}
      FROM json_to_recordset(${JSON.stringify(values)}::json) AS v(${types}) WHERE ${sql.ref(idColumn)} = v.id`.execute(db);
  }
}

/** Whether a Kysely instance (or transaction) talks to PostgreSQL. */
export const isPostgres = (db: Pick<Kysely<unknown>, 'getExecutor'>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Reserves `count` new ids of a table, so rows whose values depend on their id (an order number) are
 * written once. PostgreSQL takes them from the id's sequence; SQLite moves the AUTOINCREMENT counter
 * (`sqlite_sequence`) on, which also takes the write lock, so no other write can use them.
 * Call inside the transaction that inserts the rows.
 * @example const ids = await reserveIds(trx, 'orders', 'od_id', 3) // [1201, 1202, 1203]
 */
export async function reserveIds(db: Kysely<Database>, table: string, idColumn: string, count: number): Promise<number[]> {
  if (count <= 0) return [];
  if (isPostgres(db)) {
    const { rows } = await sql<{ id: string }>`SELECT nextval(pg_get_serial_sequence(${table}, ${idColumn})) AS id FROM generate_series(1, ${count})`.execute(db);
    return rows.map((r) => Number(r.id));
  }
  await sql`INSERT INTO sqlite_sequence (name, seq) SELECT ${table}, 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ${table})`.execute(db);
  const { rows } = await sql<{ first: number }>`UPDATE sqlite_sequence
    SET seq = MAX(seq, (SELECT COALESCE(MAX(${sql.ref(idColumn)}), 0) FROM ${sql.table(table)})) + ${count}
    WHERE name = ${table} RETURNING seq - ${count} + 1 AS first`.execute(db);
  const first = rows[0].first;
  return Array.from({ length: count }, (_, i) => first + i);
}

/**
 * For a bulk write on PostgreSQL: the keyword (pg_trgm GIN) indexes take the transaction's new entries into
 * their pending list instead of merging them row by row (`gin_pending_list_limit` for this transaction only);
 * autovacuum merges them afterwards. A no-op on SQLite.
 */
export async function deferKeywordIndexing(db: Kysely<Database>): Promise<void> {
  if (isPostgres(db)) await sql`SET LOCAL gin_pending_list_limit = '512MB'`.execute(db);
}

/**
 * After a bulk write (`deferKeywordIndexing`), merges the keyword indexes' pending entries of `tables`
 * (PostgreSQL), so the next single insert does not do it while a user waits (it would, past the default
 * 4 MB, where autovacuum is off or has not come round yet). Meant to run after the response, not awaited.
 */
export async function mergeDeferredKeywordIndexes(db: Kysely<Database>, tables: readonly string[]): Promise<void> {
  if (!isPostgres(db)) return;
  for (const table of tables) {
    await sql`SELECT gin_clean_pending_list(c.oid) FROM pg_class c WHERE c.relname = ${`${table}_search_trgm_idx`} AND c.relkind = 'i'`.execute(db);
  }
}
