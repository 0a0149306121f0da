/**
 * The month benchmarks' databases (hod-month, rental-month, closing, jaccs-request): a fresh, migrated database loaded
 * by the scenario — and, when `BENCH_DATA_DIR` is set, kept there once loaded and copied for every later run, so a
 * run of 100,000 customers does not load them again each time: SQLite as a file (`{name}-{schema}.db`), PostgreSQL as
 * a template database (`bench_cache_{name}_{schema}`, created beside the run's own). `{schema}` is a digest of the
 * migrations: a changed schema loads anew. `BENCH_DATA_DIR` unset, every run loads its own (the default).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import type { DialectName } from '../server/config';
import { openDatabase, refreshStatistics, type AppDatabase } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { freshTarget } from './list-bench';

const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';
const DATA_DIR = process.env.BENCH_DATA_DIR ?? '';

export interface MonthTarget {
  database: AppDatabase;
  /** What the job store (`createJobs`) takes. */
  config: { dialect: DialectName; databaseUrl: string; sqliteFile: string };
  /** Seconds the data took to load, or to copy from the kept copy (`copied`). */
  loaded: { seconds: number; copied: boolean };
  cleanup(): Promise<void>;
}

/** A digest of the migrations' sources: a kept database is reused only by the schema it was made with. */
function schemaDigest(): string {
  const dir = new URL('../server/db/migrations/', import.meta.url).pathname;
  const hash = createHash('sha256');
  for (const file of readdirSync(dir).sort()) hash.update(file).update(readFileSync(join(dir, file)));
  return hash.digest('hex').slice(0, 10);
}

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const urlOf = (name: string): string => {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

/**
 * A database of the scenario `name` loaded by `load` (migrated first, statistics taken after), fresh or copied from
 * the kept one.
 * @example const target = await monthTarget('postgres', 'rental-100000', async (db) => { await seedSyntheticClients(db, 100_000) })
 */
export async function monthTarget(dialect: DialectName, name: string, load: (db: AppDatabase['db']) => Promise<void>): Promise<MonthTarget> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const key = `${name}-${schemaDigest()}`.replace(/[^a-z0-9]+/gi, '_').toLowerCase();
  if (dialect === 'postgres') {
    const cache = `bench_cache_${key}`;
    const kept = DATA_DIR !== '' && await admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [cache])).rowCount === 1);
    if (kept) {
      const run = `hod_bench_${Date.now().toString(36)}`;
      await admin((c) => c.query(`CREATE DATABASE ${run} TEMPLATE ${cache}`));
      const config = { dialect, databaseUrl: urlOf(run), sqliteFile: '' };
      return {
        database: openDatabase(config), config, loaded: { seconds: seconds(), copied: true },
        cleanup: () => admin(async (c) => { await c.query(`DROP DATABASE IF EXISTS ${run} WITH (FORCE)`); }),
      };
    }
  } else if (DATA_DIR !== '' && existsSync(join(DATA_DIR, `${key}.db`))) {
    const target = await freshTarget(dialect);
    const file = join(target.env.DATA_DIR, 'app.db');
    await target.database.close();
    copyFileSync(join(DATA_DIR, `${key}.db`), file);
    const config = { dialect, databaseUrl: '', sqliteFile: file };
    return { database: openDatabase(config), config, loaded: { seconds: seconds(), copied: true }, cleanup: () => target.cleanup() };
  }

  const target = await freshTarget(dialect);
  await migrateToLatest(target.database.db, dialect);
  await load(target.database.db);
  await refreshStatistics(target.database, { full: true });
  const config = { dialect, databaseUrl: target.env.DATABASE_URL ?? '', sqliteFile: target.env.DATA_DIR ? join(target.env.DATA_DIR, 'app.db') : '' };
  if (DATA_DIR === '') return { database: target.database, config, loaded: { seconds: seconds(), copied: false }, cleanup: () => target.cleanup() };
  // Kept: the database closed (SQLite's log folded into the file), copied, opened again.
  await target.database.close();
  if (dialect === 'postgres') {
    const run = new URL(config.databaseUrl).pathname.slice(1);
    await admin((c) => c.query(`CREATE DATABASE bench_cache_${key} TEMPLATE ${run}`));
  } else {
    mkdirSync(DATA_DIR, { recursive: true });
    copyFileSync(config.sqliteFile, join(DATA_DIR, `${key}.db.part`));
    renameSync(join(DATA_DIR, `${key}.db.part`), join(DATA_DIR, `${key}.db`));
  }
  return { database: openDatabase(config), config, loaded: { seconds: seconds(), copied: false }, cleanup: () => target.cleanup() };
}

/** CPU milliseconds (user + system) of a process, from /proc (0 once it has ended). */
function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** The PostgreSQL server processes serving the database (on this machine), by pid. */
async function backendsCpu(database: AppDatabase): Promise<Map<number, number>> {
  if (database.dialect !== 'postgres') return new Map();
  const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`.execute(database.reader);
  return new Map(rows.map((r) => [Number(r.pid), processCpuMs(Number(r.pid))]));
}

export interface CpuUsed {
  wall: number;
  /** This process (on SQLite the database's work too). */
  node: number;
  /** PostgreSQL's processes serving the database (a connection that ended meanwhile is not counted). */
  database: number;
  /** The machine's load average (1 minute) at the end. */
  load: number;
  /** This process's peak resident memory so far, MB. */
  peakRss: number;
}

/**
 * Starts measuring wall time and CPU (this process, and PostgreSQL's processes serving the database): the answered
 * function stops and answers the figures. On a shared machine the CPU time is the steadier figure.
 * @example const stop = await cpuMeter(database); …; const { wall, node, database: pgCpu } = await stop();
 */
export async function cpuMeter(database: AppDatabase): Promise<() => Promise<CpuUsed>> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const before = await backendsCpu(database);
  return async () => {
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const after = await backendsCpu(database);
    let databaseMs = 0;
    for (const [pid, ms] of after) databaseMs += ms - (before.get(pid) ?? 0);
    return { wall: Math.round(wall), node: Math.round((used.user + used.system) / 1000), database: Math.round(databaseMs), load: loadavg()[0], peakRss: Math.round(process.resourceUsage().maxRSS / 1024) };
  };
}

/** `12,345 ms (CPU: this process 9,876 ms, PostgreSQL 2,345 ms; load 3.2; peak RSS 512 MB)` */
export function cpuText(used: CpuUsed): string {
  const pgCpu = used.database > 0 ? `, PostgreSQL ${used.database.toLocaleString()} ms` : '';
  return `${used.wall.toLocaleString()} ms (CPU: this process ${used.node.toLocaleString()} ms${pgCpu}; load ${used.load.toFixed(1)}; peak RSS ${used.peakRss.toLocaleString()} MB)`;
}

/** The size a bench runs at: its first argument, else the environment variable, else its default. */
export const benchSize = (variable: string, fallback: number): number => {
  const given = process.argv[2] ?? process.env[variable];
  const size = given === undefined ? fallback : Number(given.replace(/[_,]/g, ''));
  if (!Number.isInteger(size) || size <= 0) throw new Error(`${variable}: a whole number of customers, not ${given}`);
  return size;
};

/** The goal of a month's run: the old benches' at their sizes (up to 20,000), 60 s at 100,000 (issue 21). */
export const monthGoalMs = (size: number, small: number): number => (size <= 20_000 ? small : 60_000);
