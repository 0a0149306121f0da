/**
 * Benchmark: `client_lst` on 100,000 customers (n=10, a keyword matching a few hundred rows, sorted by
 * cl_co_name_kana) next to a bare Fastify route in the same server process, on SQLite and — when
 * TEST_DATABASE_URL or BENCH_DATABASE_URL is set — PostgreSQL. Prints p50/p95/p99 latency and req/s.
 *
 * Run: `node --import tsx bench/client-list.ts` (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROWS to change).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { searchKey } from '../lib/text';
import { createUser } from '../server/auth/users';
import type { DialectName } from '../server/config';
import { openDatabase, refreshStatistics, type AppDatabase } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { seedSyntheticClients } from '../server/seed/seed';

process.env.TZ ||= 'Asia/Tokyo';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const WARMUP_SECONDS = 1;
const ADMIN = { email: 'bench@example.jp', password: 'bench-password-2026' };
const PG_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? '';

interface Case {
  name: string;
  path: string;
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

/** Terminal width of a cell: Japanese characters take two columns. */
const width = (text: string): number => [...text].reduce((n, ch) => n + (ch.charCodeAt(0) >= 0x2e80 ? 2 : 1), 0);

const seconds = (since: number): string => `${((Date.now() - since) / 1000).toFixed(1)} s`;

/** The city whose name (3+ characters, so the trigram index applies) is nearest to `target` customers. */
async function pickKeyword(db: AppDatabase['db'], target: number): Promise<{ keyword: string; rows: number }> {
  const counts = await db.selectFrom('client').select(['cl_city', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('cl_city').execute();
  const [best] = counts
    .map((c) => ({ keyword: String(c.cl_city), rows: Number(c.n) }))
    .filter((c) => [...c.keyword].length >= 3)
    .sort((a, b) => Math.abs(a.rows - target) - Math.abs(b.rows - target) || a.keyword.localeCompare(b.keyword));
  return best;
}

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : Number.NaN;

/** Runs autocannon against one case; latency percentiles come from every response time. */
async function measure(url: string, c: Case, duration: number): Promise<Omit<Figures, 'dialect' | 'name'>> {
  const times: number[] = [];
  const instance = autocannon({
    url: `${url}${c.path}`,
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

interface Target {
  dialect: DialectName;
  env: Record<string, string>;
  keyword: { keyword: string; rows: number };
  cleanup(): Promise<void>;
}

async function prepare(dialect: DialectName): Promise<Target> {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let database;
  if (dialect === 'postgres') {
    const name = `hod_bench_${Date.now().toString(36)}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
    database = openDatabase({ dialect, databaseUrl: url.toString(), sqliteFile: '' });
    cleanup = async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'hod-bench-'));
    env = { DATA_DIR: dir, DATABASE_URL: '' };
    database = openDatabase({ dialect, databaseUrl: '', sqliteFile: join(dir, 'app.db') });
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
  const started = Date.now();
  await migrateToLatest(database.db, dialect);
  await createUser(database.db, { ...ADMIN, name: 'ベンチ', role: '管理' });
  await seedSyntheticClients(database.db, ROWS);
  await refreshStatistics(database, { full: true });
  const keyword = await pickKeyword(database.db, 300);
  await database.close();
  console.log(`${dialect}: loaded ${ROWS.toLocaleString()} customers in ${seconds(started)}`);
  return { dialect, env, keyword, cleanup };
}

async function startServer(env: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const child = fork(new URL('./bench-server.ts', import.meta.url).pathname, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login/`, { method: 'POST', body: new URLSearchParams({ userEmail: ADMIN.email, userPassword: ADMIN.password }) });
  const [user] = (await res.json()) as { auth_key?: string }[];
  if (!user?.auth_key) throw new Error('bench login failed');
  return user.auth_key;
}

async function main(): Promise<void> {
  const total = Date.now();
  let started = Date.now();
  const dialects: DialectName[] = PG_URL ? ['sqlite', 'postgres'] : ['sqlite'];
  const figures: Figures[] = [];
  const notes: string[] = [];

  for (const dialect of dialects) {
    const target = await prepare(dialect);
    const { keyword, rows } = target.keyword;
    const server = await startServer(target.env);
    try {
      const authKey = await login(server.url);
      const list = { authKey, n: '10', p: '1', kw: keyword, col: 'cl_co_name_kana', odr: 'asc', postData: '' };
      const cases: Case[] = [
        { name: 'bare POST /bare → []', path: '/bare', params: list },
        { name: `client_lst kw=${keyword} (trigram index)`, path: '/api/db/client_lst', params: list },
        { name: 'client_lst kw=田中 (2 chars: LIKE)', path: '/api/db/client_lst', params: { ...list, kw: '田中' } },
        { name: `client_lst kw=${keyword}, 1 connection`, path: '/api/db/client_lst', params: list, connections: 1 },
      ];
      const check = await fetch(`${server.url}/api/db/client_cnt`, { method: 'POST', body: new URLSearchParams({ authKey, kw: keyword }) });
      const [matches] = (await check.json()) as number[];
      notes.push(`${dialect}: keyword 「${keyword}」 (searchKey ${searchKey(keyword)}) matches ${matches} customers (${rows} by city)`);
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
  console.log(`\nclient_lst benchmark: ${ROWS.toLocaleString()} customers, ${CONNECTIONS} connections, ${SECONDS} s per case (after ${WARMUP_SECONDS} s warm-up)`);
  for (const note of notes) console.log(note);
  console.log(`\n${line(head)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${table.map(line).join('\n')}`);
  console.log(`\ngoal: p95 < 10 ms and ≥ 1/3 of the bare route's req/s. Total ${seconds(total)}.`);
}

await main();
