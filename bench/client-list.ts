/**
 * Benchmark: `client_lst` on 100,000 customers (n=10, a keyword matching a few hundred rows, sorted by
 * cl_co_name_kana) next to a bare Fastify route, on SQLite and PostgreSQL (bench/list-bench.ts).
 *
 * Run: `node --import tsx bench/client-list.ts` (BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_ROWS to change;
 * BENCH_ORDERS and BENCH_KEEP=dir to measure on a kept data set of order-list.ts, e.g. 1,000,000 customers
 * with 10,000,000 orders).
 */
import { searchKey } from '../lib/text';
import type { AppDatabase } from '../server/db/connect';
import { CONNECTIONS, runListBench } from './list-bench';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 0);

/** The city whose name (3+ characters, so the trigram index applies) is nearest to `target` customers. */
async function pickKeyword(db: AppDatabase['db'], target: number): Promise<{ keyword: string; rows: number }> {
  const counts = await db.selectFrom('client').select(['cl_city', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('cl_city').execute();
  const [best] = counts
    .map((c) => ({ keyword: String(c.cl_city), rows: Number(c.n) }))
    .filter((c) => [...c.keyword].length >= 3)
    .sort((a, b) => Math.abs(a.rows - target) - Math.abs(b.rows - target) || a.keyword.localeCompare(b.keyword));
  return best;
}

await runListBench({
  title: `client_lst benchmark: ${ROWS.toLocaleString()} customers`,
  goal: `p95 ≤ 10 ms, PostgreSQL ≥ 2,000 req/s (${CONNECTIONS} connections)`,
  size: { clients: ROWS, orders: ORDERS },
  load: (db) => pickKeyword(db, 300),
  notes: ({ keyword, rows }, dialect) => [`${dialect}: keyword 「${keyword}」 (searchKey ${searchKey(keyword)}) matches about ${rows} customers by city`],
  cases({ keyword }, authKey) {
    const list = { authKey, n: '10', p: '1', kw: keyword, col: 'cl_co_name_kana', odr: 'asc', postData: '' };
    return [
      { name: `client_lst kw=${keyword} (trigram index)`, call: 'client_lst', params: list },
      { name: 'client_lst kw=田中 (2 chars: LIKE)', call: 'client_lst', params: { ...list, kw: '田中' } },
      { name: `client_lst kw=${keyword}, 1 connection`, call: 'client_lst', params: list, connections: 1 },
    ];
  },
});
