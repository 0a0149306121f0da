/**
 * The list benchmarks' one harness: a fresh SQLite file and — when TEST_DATABASE_URL or
 * BENCH_DATABASE_URL is set — a fresh PostgreSQL database, loaded with the scenario's data set
 * (bench-data.ts), the real server in a child process (with a bare Fastify route beside it), autocannon
 * per case, and one aligned table of req/s and p50/p95/p99 latency. Scenarios: `client-list.ts`, `order-list.ts`.
 *
 * `BENCH_KEEP=dir` keeps the data sets instead (a million customers take minutes to load): the SQLite file
 * `dir/{set}/app.db` and the PostgreSQL database `{BENCH_KEEP_PREFIX or bench}_{set}`, loaded once (a bigger
 * set starting from a copy of the kept block; a load that stopped goes on where it stopped), migrated to the latest
 * on every run. Remove the folder / drop the database to load a set anew.
 */
import { fork } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { createUser } from '../server/auth/users';
import type { DialectName } from '../server/config';
import { openDatabase, refreshStatistics, type AppDatabase } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { baseOf, dataKey, firstClient, loadDataset, type DataSize } from './bench-data';

process.env.TZ ||= 'Asia/Tokyo';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 1;
export const ADMIN = { email: 'bench@example.jp', password: 'bench-password-2026' };
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';
const KEEP = process.env.BENCH_KEEP?.trim() ?? '';
const KEEP_PREFIX = process.env.BENCH_KEEP_PREFIX?.trim() || 'bench';

export interface Case {
  name: string;
  /** The call, e.g. `client_lst` (or `/bare` for the bare route). */
  call: string;
  params: Record<string, string>;
  /** Concurrent connections; 1 shows a single user's latency without queueing. */
  connections?: number;
}

interface Figures {
  dialect: DialectName;
  name: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  failures: number;
}

export interface Scenario<T> {
  title: string;
  goal: string;
  /** A data set of customers and orders (bench-data.ts), loaded before `load`; kept with `BENCH_KEEP`. */
  size?: DataSize;
  /**
   * Loads the scenario's own data into a fresh, migrated database — or, with `size`, only reads from the data set
   * (its first customer id given) — and answers what the cases need (keywords …).
   */
  load(db: AppDatabase['db'], dialect: DialectName, first?: number): Promise<T>;
  /** The cases to measure, given the loaded data and a logged-in auth key. */
  cases(data: T, authKey: string): Case[];
  /** Lines printed above the table (what the data holds). */
  notes?(data: T, dialect: DialectName): string[];
}

/** Terminal width of a cell: Japanese characters take two columns. */
const width = (text: string): number => [...text].reduce((n, ch) => n + (ch.charCodeAt(0) >= 0x2e80 ? 2 : 1), 0);

export const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN;

/** Runs autocannon against one case; latency percentiles come from every response time. */
async function measure(url: string, c: Case, duration: number): Promise<Omit<Figures, 'dialect' | 'name'>> {
  const times: number[] = [];
  const instance = autocannon({
    url: `${url}${c.call.startsWith('/') ? c.call : `/api/db/${c.call}`}`,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(c.params).toString(),
    connections: c.connections ?? CONNECTIONS,
    duration,
  });
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    times.push(responseTime);
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.total / result.duration,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    failures: result.non2xx + result.errors + result.timeouts,
  };
}

/** CPU seconds (user + system) a process has used, from /proc: the wall time depends on what else the machine runs. */
export const cpuSeconds = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** Resident memory of a process in MB (`VmRSS`), from /proc. */
export const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

/** A fresh database of a dialect, its server environment and its removal. */
export async function freshTarget(dialect: DialectName): Promise<Target> {
  if (dialect === 'postgres') {
    const name = `hod_bench_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    return {
      database: openDatabase({ dialect, databaseUrl: url.toString(), sqliteFile: '' }),
      env: { DATABASE_URL: url.toString() },
      cleanup: async () => {
        const c = new pg.Client({ connectionString: PG_URL });
        await c.connect();
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await c.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'hod-bench-'));
  return {
    database: openDatabase({ dialect, databaseUrl: '', sqliteFile: join(dir, 'app.db') }),
    env: { DATA_DIR: dir, DATABASE_URL: '' },
    cleanup: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A PostgreSQL URL naming another database on the same server. */
const databaseUrl = (name: string): string => {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
};

async function adminQuery(text: string, values: unknown[] = []): Promise<number> {
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    return (await admin.query(text, values)).rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

const databaseExists = async (name: string): Promise<boolean> => (await adminQuery('SELECT 1 FROM pg_database WHERE datname = $1', [name])) > 0;

/**
 * A kept data set of a dialect (`BENCH_KEEP`): opened as it is when its load finished before (`done`), else made
 * anew — from a copy of the kept block when there is one — and loaded by the caller, who then calls `finished`.
 */
interface Target {
  database: AppDatabase;
  env: Record<string, string>;
  cleanup(): Promise<void>;
  /** A kept data set whose load finished before. */
  done?: boolean;
  /** Marks a kept data set's load finished. */
  finished?(): void;
}

async function keptTarget(dialect: DialectName, size: DataSize): Promise<Target> {
  const key = dataKey(size);
  const dir = join(KEEP, key);
  mkdirSync(dir, { recursive: true });
  const marker = join(dir, `${dialect}.done`);
  const done = existsSync(marker);
  const base = baseOf(size);
  const baseKey = base && existsSync(join(KEEP, dataKey(base), `${dialect}.done`)) ? dataKey(base) : undefined;
  if (dialect === 'postgres') {
    const name = `${KEEP_PREFIX}_${key.replace(/-/g, '_')}`;
    // A set whose load stopped half-way is taken up where it stopped (each copy of the block is one transaction).
    if (!done && !(await databaseExists(name))) {
      await adminQuery(baseKey ? `CREATE DATABASE ${name} TEMPLATE ${KEEP_PREFIX}_${baseKey.replace(/-/g, '_')}` : `CREATE DATABASE ${name}`);
    }
    const url = databaseUrl(name);
    return { database: openDatabase({ dialect, databaseUrl: url, sqliteFile: '' }), env: { DATABASE_URL: url }, cleanup: async () => undefined, done, finished: () => writeFileSync(marker, `${name}\n`) };
  }
  const file = join(dir, 'app.db');
  if (!done && !existsSync(file) && baseKey) copyFileSync(join(KEEP, baseKey, 'app.db'), file);
  return { database: openDatabase({ dialect, databaseUrl: '', sqliteFile: file }), env: { DATA_DIR: dir, DATABASE_URL: '' }, cleanup: async () => undefined, done, finished: () => writeFileSync(marker, `${file}\n`) };
}

/** The scenario's data in a database of a dialect: kept (`BENCH_KEEP`) or fresh; answers the server's environment. */
async function loadTarget<T>(dialect: DialectName, scenario: Scenario<T>): Promise<{ env: Record<string, string>; data: T; cleanup: () => Promise<void> }> {
  const started = Date.now();
  const target: Target = KEEP && scenario.size ? await keptTarget(dialect, scenario.size) : await freshTarget(dialect);
  const { database } = target;
  await migrateToLatest(database.db, dialect);
  if (!target.done) {
    if (!(await database.db.selectFrom('user').select('user_id').where('user_email', '=', ADMIN.email).executeTakeFirst())) {
      await createUser(database.db, { ...ADMIN, name: 'ベンチ', role: '管理' });
    }
  }
  const first = !scenario.size ? undefined : target.done ? await firstClient(database.db) : await loadDataset(database.db, dialect, scenario.size, (line) => console.log(`${dialect}:${line}`));
  const data = await scenario.load(database.db, dialect, first);
  if (!target.done) {
    await refreshStatistics(database, { full: true });
    target.finished?.();
  }
  await database.close();
  console.log(`${dialect}: ${target.done ? 'kept data set opened' : 'loaded'} in ${seconds(started)}`);
  return { env: target.env, data, cleanup: () => target.cleanup() };
}

/**
 * The real server (bench-server.ts) in a child process on a fresh port; `pid` is that process.
 * `BENCH_CPU_PROF=dir` writes the server's CPU profile (`node --cpu-prof`) there when it stops.
 */
export async function startServer(env: Record<string, string>): Promise<{ url: string; workers: number; pid: number; stop(): Promise<void> }> {
  const child = fork(new URL('./bench-server.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx', ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [])],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port, workers } = await new Promise<{ port: number; workers: number }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { port: number; workers: number }));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    workers,
    pid: child.pid ?? 0,
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** The bench admin's auth key. */
export async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login/`, { method: 'POST', body: new URLSearchParams({ userEmail: ADMIN.email, userPassword: ADMIN.password }) });
  const [user] = (await res.json()) as { auth_key?: string }[];
  if (!user?.auth_key) throw new Error('bench login failed');
  return user.auth_key;
}

/** The dialects to measure: SQLite, and PostgreSQL when a URL is set; `BENCH_DIALECTS=postgres` picks one. */
export function benchDialects(): DialectName[] {
  const wanted = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',').map((d) => d.trim());
  return (PG_URL ? ['sqlite', 'postgres'] as const : ['sqlite'] as const).filter((d) => wanted.includes(d));
}

/**
 * Loads, serves and measures a scenario on every dialect; prints the table.
 * @example await runListBench({ title: 'client_lst', goal: 'p95 < 10 ms', load, cases })
 */
export async function runListBench<T>(scenario: Scenario<T>): Promise<void> {
  const total = Date.now();
  const dialects = benchDialects();
  const figures: Figures[] = [];
  const notes: string[] = [];
  for (const dialect of dialects) {
    const target = await loadTarget(dialect, scenario);
    const { data } = target;
    let started = Date.now();
    notes.push(...(scenario.notes?.(data, dialect) ?? []));
    const server = await startServer(target.env);
    notes.push(`${dialect}: ${server.workers} server process${server.workers === 1 ? '' : 'es'} (WEB_CONCURRENCY)`);
    try {
      const authKey = await login(server.url);
      const cases = [{ name: 'bare POST /bare → []', call: '/bare', params: { authKey } }, ...scenario.cases(data, authKey)];
      for (const c of cases) {
        started = Date.now();
        await measure(server.url, c, WARMUP_SECONDS);
        const f = await measure(server.url, c, SECONDS);
        figures.push({ dialect, name: c.name, ...f });
        console.log(`${dialect} ${c.name}: ${f.rps.toFixed(0)} req/s, p95 ${f.p95} ms (${seconds(started)})`);
      }
    } finally {
      await server.stop();
      await target.cleanup();
    }
  }
  const head = ['dialect', 'case', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'vs bare', 'fail'];
  const table = figures.map((f) => {
    const bare = figures.find((b) => b.dialect === f.dialect && b.name.startsWith('bare'))!;
    return [f.dialect, f.name, f.rps.toFixed(0), f.p50.toFixed(1), f.p95.toFixed(1), f.p99.toFixed(1), `${((f.rps / bare.rps) * 100).toFixed(0)} %`, String(f.failures)];
  });
  const widths = head.map((h, i) => Math.max(width(h), ...table.map((r) => width(r[i]))));
  const pad = (cell: string, i: number) => ' '.repeat(widths[i] - width(cell));
  const line = (r: string[]) => r.map((cell, i) => (i < 2 ? cell + pad(cell, i) : pad(cell, i) + cell)).join('  ');
  console.log(`\n${scenario.title}: ${CONNECTIONS} connections, ${SECONDS} s per case (after ${WARMUP_SECONDS} s warm-up)`);
  for (const note of notes) console.log(note);
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${table.map(line).join('\n')}`);
  console.log(`\ngoal: ${scenario.goal}. Total ${seconds(total)}.`);
}
