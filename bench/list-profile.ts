/**
 * Where a list call's time goes (issue 21): the real app in this process on a kept data set (list-bench.ts
 * `BENCH_KEEP`), each case called one at a time; every query the server sends is timed at the driver. Prints per
 * case: the queries per call (round trips), the database's share of the call and the rest (HTTP, parameters,
 * building the SQL, answer), the slowest query's text, and `EXPLAIN (ANALYZE, BUFFERS)` of the list's query
 * (PostgreSQL; on SQLite, whose driver runs inside the call, only the call's time).
 *
 * Run: `BENCH_DB=postgres://…/h6_bench_c100000_o1000000` or `BENCH_DB=/dir/app.db`
 * `node --import tsx bench/list-profile.ts` (BENCH_CALLS per case, default 300).
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { CompiledQuery } from 'kysely';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openDatabase } from '../server/db/connect';
import { ADMIN } from './list-bench';

process.env.TZ ||= 'Asia/Tokyo';
const target = process.env.BENCH_DB ?? '';
if (!target) throw new Error('BENCH_DB: a postgres:// URL or an SQLite file');
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const postgres = target.startsWith('postgres');

interface Query {
  text: string;
  values: unknown[];
  ms: number;
}
let log: Query[] = [];

// Every query through pg (the pool's clients) is timed here.
if (postgres) {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with the client as `this` (apply below)
  const original = pg.Client.prototype.query;
  pg.Client.prototype.query = function timed(this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    const text = typeof config === 'string' ? config : config.text;
    const started = performance.now();
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (result instanceof Promise) {
      void result.then(() => log.push({ text, values: values ?? (typeof config === 'object' ? config.values ?? [] : []), ms: performance.now() - started }), () => undefined);
    }
    return result;
  } as typeof original;
}

const env = postgres ? { DATABASE_URL: target } : { DATA_DIR: target.replace(/\/app\.db$/, ''), DATABASE_URL: '' };
const config = loadConfig({ ...process.env, ...env, PORT: '0', LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent', CORS_ORIGINS: '' });
const database = openDatabase(config);
const app = await buildApp(config, { database });
const login = await app.inject({ method: 'POST', url: '/api/login/', payload: new URLSearchParams({ userEmail: ADMIN.email, userPassword: ADMIN.password }).toString(), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
const [{ auth_key: authKey }] = login.json<{ auth_key: string }[]>();

const first = Number((await database.db.selectFrom('client').select((eb) => eb.fn.min<number>('cl_id').as('id')).executeTakeFirstOrThrow()).id);
const cities = await database.db.selectFrom('client').select(['cl_city', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('cl_city').execute();
const [city] = cities.map((c) => ({ k: String(c.cl_city), n: Number(c.n) })).filter((c) => [...c.k].length >= 3).sort((a, b) => Math.abs(a.n - 300) - Math.abs(b.n - 300) || a.k.localeCompare(b.k));

const list = { authKey, n: '10', p: '1', kw: '', col: 'od_id', odr: 'desc' };
const cases: { name: string; call: string; params: Record<string, string> }[] = [
  ...['untreated', 'pending', 'waitshipping', 'shipped', 'processed'].map((s) => ({ name: `order_lst ${s}`, call: 'order_lst', params: { ...list, postData: JSON.stringify({ od_status: [s] }) } })),
  { name: 'order_lst search', call: 'order_lst', params: { ...list, postData: JSON.stringify({ uriage_total: [10000, ''], created: ['2026-10-01', '2026-10-31'] }) } },
  { name: 'order_lst one customer', call: 'order_lst', params: { ...list, cl_id: String(first + 4242) } },
  { name: `client_lst kw=${city.k}`, call: 'client_lst', params: { authKey, n: '10', p: '1', kw: city.k, col: 'cl_co_name_kana', odr: 'asc', postData: '' } },
  { name: 'client_lst kw=田中', call: 'client_lst', params: { authKey, n: '10', p: '1', kw: '田中', col: 'cl_co_name_kana', odr: 'asc', postData: '' } },
  { name: 'bare session only (user_dtl of self)', call: 'user_dtl', params: { authKey, id: '1' } },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`profile of ${postgres ? 'PostgreSQL' : 'SQLite'} ${target}: ${CALLS} calls per case, one at a time`);
for (const c of cases) {
  const body = new URLSearchParams(c.params).toString();
  const call = () => app.inject({ method: 'POST', url: `/api/db/${c.call}`, payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  for (let i = 0; i < 20; i++) await call();
  const totals: number[] = [];
  const dbs: number[] = [];
  const counts: number[] = [];
  const byText = new Map<string, { ms: number[]; values: unknown[] }>();
  for (let i = 0; i < CALLS; i++) {
    log = [];
    const started = performance.now();
    const res = await call();
    const total = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`${c.name}: ${res.statusCode} ${res.body}`);
    await new Promise((r) => setImmediate(r));
    totals.push(total);
    dbs.push(log.reduce((s, q) => s + q.ms, 0));
    counts.push(log.length);
    for (const q of log) {
      const entry = byText.get(q.text) ?? { ms: [], values: q.values };
      entry.ms.push(q.ms);
      byText.set(q.text, entry);
    }
  }
  console.log(`\n## ${c.name}\ncall median ${median(totals).toFixed(2)} ms; queries per call ${median(counts)}; database median ${median(dbs).toFixed(2)} ms; the rest ${(median(totals) - median(dbs)).toFixed(2)} ms`);
  const queries = [...byText].sort((a, b) => b[1].ms.length - a[1].ms.length);
  for (const [text, q] of queries) console.log(`  ${q.ms.length / CALLS} × median ${median(q.ms).toFixed(2)} ms: ${text.replace(/\s+/g, ' ').slice(0, 160)}`);
  const listQuery = queries.map(([text, q]) => ({ text, q })).find(({ text }) => /from "(orders|client)"/.test(text) && !/auth_key/.test(text));
  if (listQuery && process.env.BENCH_SQL) console.log(`    SQL: ${listQuery.text}\n    VALUES: ${JSON.stringify(listQuery.q.values)}`);
  if (listQuery && postgres) {
    const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${listQuery.text}`, listQuery.q.values));
    console.log(rows.map((r) => `    ${r['QUERY PLAN']}`).join('\n'));
  }
}
await app.close();
await database.close();
