/**
 * Opens the one Kysely instance: SQLite (better-sqlite3, WAL, foreign keys) by default,
 * PostgreSQL (pg Pool) when DATABASE_URL is a postgres:// URL (DESIGN §2).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, sql, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { Config, DialectName } from '../config';
import { CONSOLE_LOG, type ProcessLog } from '../http/log';
import type { Database } from './schema';

export interface AppDatabase {
  db: Kysely<Database>;
  /**
   * For short reads that must not wait for this process's open transaction (the session lookup of every call while
   * a job's transaction runs, so its progress is answered): on SQLite a second connection, which reads the last
   * committed state meanwhile (WAL); on PostgreSQL the same pool. Never for writes.
   */
  reader: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

const STATEMENT_CACHE = 500;

/**
 * A reading statement that answers rows built by a generated object literal from raw arrays:
 * better-sqlite3 sets each property natively, which costs more than the query for wide rows.
 */
function fastRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((c) => c.name);
  if (names.includes('__proto__')) return statement;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a row builder compiled from the statement's own column names (JSON-quoted), the fast path of every read
  const row = new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}};`) as (values: unknown[]) => unknown;
  const raw = statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (raw.all(...parameters) as unknown[][]).map(row),
    run: (parameters) => raw.run(...parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(...parameters) as IterableIterator<unknown[]>) yield row(values);
    },
  };
}

/**
 * better-sqlite3 with a small cache of prepared statements: Kysely prepares every query anew, and
 * preparing costs more than running the short queries of a list call.
 */
function cachingSqlite(file: string, cacheMib = 64): SqliteDatabase {
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // 64 MiB of page cache (the default is 2 MiB): lists and bulk loads touch many index pages.
  database.pragma(`cache_size = -${cacheMib * 1024}`);
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(text: string): SqliteStatement {
      // A transaction takes the write lock when it begins (Kysely says `begin`): with several server
      // processes, a deferred one that read first could not write after another process had (SQLITE_BUSY,
      // which busy_timeout does not wait out). The app's transactions are all for writing.
      const query = text === 'begin' ? 'begin immediate' : text;
      let statement = cache.get(query);
      if (statement) {
        cache.delete(query);
      } else {
        statement = fastRows(database.prepare(query));
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(query, statement);
      return statement;
    },
  };
}

/** pg answers BIGINT (COUNT) and NUMERIC as text; our counts and sums fit in a double. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700 ? (value: string) => Number(value) : (pg.types.getTypeParser(oid, format ?? 'text') as (value: string) => unknown)) as typeof pg.types.getTypeParser,
};

/**
 * Keeps the planner's statistics current. Without them SQLite takes `deleted = 0` for a selective
 * condition and picks poor indexes. At start-up SQLite re-analyzes only tables that never were or
 * that grew a lot (`PRAGMA optimize`); after a bulk load pass `full`, which also merges SQLite's FTS5 keyword
 * indexes (PostgreSQL's autovacuum would get there too, but only later).
 * @example await refreshStatistics(database, { full: true })
 */
export async function refreshStatistics(database: AppDatabase, { full = false } = {}): Promise<void> {
  if (database.dialect === 'postgres') {
    // VACUUM also sets the visibility map, so counts and paging can use index-only scans.
    if (full) await sql`VACUUM ANALYZE`.execute(database.db);
    return;
  }
  if (full) {
    // A bulk load leaves each FTS5 keyword index in many segments, and every lookup reads each of
    // them; merging them into one (what `optimize` does) roughly halves a keyword lookup.
    const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%\\_fts' ESCAPE '\\' AND sql LIKE 'CREATE VIRTUAL TABLE%'`.execute(database.db);
    for (const { name } of rows) await sql`INSERT INTO ${sql.table(name)}(${sql.table(name)}) VALUES ('optimize')`.execute(database.db);
    await sql`ANALYZE`.execute(database.db);
    return;
  }
  await sql`PRAGMA analysis_limit = 0`.execute(database.db);
  await sql`PRAGMA optimize = 0x10002`.execute(database.db);
}

/**
 * A PostgreSQL pool whose lost connections are logged, never the end of the process. A connection the server ends
 * or the network cuts (a restart, an administrator's terminate, a failover) makes its client emit 'error': while the
 * pool holds the client idle the pool re-emits it, and while a query or transaction has it pg emits it on the client
 * itself, which has no listener then — unhandled, either would end the process. Here both are handled: the
 * query in flight fails (its call answers 503, server/http/error-handler.ts), the pool drops the client and opens
 * another when one is needed.
 * @example const pool = postgresPool(config.databaseUrl, 10, log)
 */
export function postgresPool(connectionString: string, max: number, log: ProcessLog = CONSOLE_LOG): pg.Pool {
  const pool = new pg.Pool({ connectionString, max, types: pgTypes });
  // Logged once, by the client's own listener below.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', (error) => log.warn({ err: error }, 'PostgreSQL: a connection ended')));
  return pool;
}

/** Node's codes of a network that does not reach the database. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * Whether an error says the database cannot be reached now (not that a query is wrong): the network, a connection
 * lost while in use, PostgreSQL shutting down or refusing connections (SQLSTATE class 08, 57P01–57P03, 53300). Such a
 * call answers 503 — try again later — instead of 500.
 * @example databaseUnavailable(new Error('Connection terminated unexpectedly')) // true
 */
export function databaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || code.startsWith('08') || ['57P01', '57P02', '57P03', '53300'].includes(code))) return true;
  return /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/.test(error.message);
}

/**
 * Opens the database the configuration names (creating the SQLite directory if needed).
 * @example const { db, close } = openDatabase(loadConfig()); await close();
 */
export function openDatabase(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile'>, log: ProcessLog = CONSOLE_LOG): AppDatabase {
  if (config.dialect === 'postgres') {
    const pool = postgresPool(config.databaseUrl, 10, log);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, reader: db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(dirname(config.sqliteFile), { recursive: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingSqlite(config.sqliteFile) }) });
  // Opened on first use (a call's session lookup): scripts that never serve calls open one connection.
  const reader = new Kysely<Database>({ dialect: new SqliteDialect({ database: async () => cachingSqlite(config.sqliteFile, 2) }) });
  return { db, reader, dialect: 'sqlite', close: async () => {
    await db.destroy();
    await reader.destroy();
  } };
}
