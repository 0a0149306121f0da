/**
 * Benchmark: the order lists on 100,000 customers and 1,000,000 orders — each status list
 * (`order_lst` with `od_status`), the search list with a total range and a date range, and one
 * customer's orders — next to a bare Fastify route, on SQLite and PostgreSQL (bench/list-bench.ts).
 *
 * Run: `node --import tsx bench/order-list.ts` (BENCH_CLIENTS, BENCH_ORDERS, BENCH_SECONDS, BENCH_CONNECTIONS);
 * a million customers and ten million orders: `BENCH_CLIENTS=1000000 BENCH_ORDERS=10000000 BENCH_KEEP=dir`
 * (the data set made once into dir and kept, bench/bench-data.ts).
 */
import { CONNECTIONS, runListBench, type Case } from './list-bench';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);

await runListBench({
  title: `order list benchmark: ${CLIENTS.toLocaleString()} customers, ${ORDERS.toLocaleString()} orders`,
  goal: `order lists p95 ≤ 10 ms (${CONNECTIONS} connections)`,
  size: { clients: CLIENTS, orders: ORDERS },
  async load(db, _dialect, first = 0) {
    const counts = await db.selectFrom('orders').select(['od_status', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('od_status').execute();
    return { first, counts: counts.map((c) => `${String(c.od_status)} ${Number(c.n).toLocaleString()}`).join(', ') };
  },
  notes: ({ counts }, dialect) => [`${dialect}: orders by status: ${counts}`],
  cases({ first }, authKey): Case[] {
    const list = { authKey, n: '10', p: '1', kw: '', col: 'od_id', odr: 'desc' };
    const status = (s: string): Case => ({ name: `order_lst od_status=[${s}]`, call: 'order_lst', params: { ...list, postData: JSON.stringify({ od_status: [s] }) } });
    return [
      ...['untreated', 'pending', 'waitshipping', 'shipped', 'processed'].map(status),
      { name: 'order_lst search: 合計 10,000円〜, 受注日 2026-10', call: 'order_lst', params: { ...list, postData: JSON.stringify({ uriage_total: [10000, ''], created: ['2026-10-01', '2026-10-31'] }) } },
      { name: 'order_lst one customer (cl_id)', call: 'order_lst', params: { ...list, cl_id: String(first + 4242) } },
      { name: 'order_cnt od_status=[processed]', call: 'order_cnt', params: { authKey, kw: '', postData: JSON.stringify({ od_status: ['processed'] }) } },
      { name: 'order_lst od_status=[pending], 1 connection', call: 'order_lst', params: { ...list, postData: JSON.stringify({ od_status: ['pending'] }) }, connections: 1 },
    ];
  },
});
