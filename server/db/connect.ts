/**
 * Opens the one Kysely instance: SQLite (better-sqlite3, WAL, foreign keys) by default,
 * PostgreSQL (pg Pool) when DATABASE_URL is a postgres:// URL (DESIGN §2).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { Config, DialectName } from '../config';
import type { Database } from './schema';

export interface AppDatabase {
  db: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

const STATEMENT_CACHE = 500;

/**
 * better-sqlite3 with a small cache of prepared statements: Kysely prepares every query anew, and
 * preparing costs more than running the short queries of a list call.
 */
function cachingSqlite(file: string): SqliteDatabase {
  const database = new SQLite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => database.close(),
    prepare(sql: string): SqliteStatement {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = database.prepare(sql);
        if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement;
    },
  };
}

/** pg answers BIGINT (COUNT) and NUMERIC as text; our counts and sums fit in a double. */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20 || oid === 1700 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

/**
 * Opens the database the configuration names (creating the SQLite directory if needed).
 * @example const { db, close } = openDatabase(loadConfig()); await close();
 */
export function openDatabase(config: Pick<Config, 'dialect' | 'databaseUrl' | 'sqliteFile'>): AppDatabase {
  if (config.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10, types: pgTypes });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  mkdirSync(dirname(config.sqliteFile), { recursive: true });
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingSqlite(config.sqliteFile) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
