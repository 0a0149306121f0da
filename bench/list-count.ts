/**
 * Benchmark: the totals shown with the order lists (`order_cnt`, issue 21) on 100,000 customers and 1,000,000 orders,
 * 10 connections, SQLite and PostgreSQL (bench/list-bench.ts): each status list's total and the unfiltered one — read
 * from the row counters the triggers keep (server/db/migrations/row-counts.ts) — a filtered total (capped at 10,000)
 * and `client_cnt`; then what the counters cost a write: `order_save` of a new order at 10 connections.
 * `BENCH_NO_COUNTERS=1` drops the orders' counter triggers after loading (the write's cost without them; the totals
 * are then stale).
 *
 * Run: `node --import tsx bench/list-count.ts` (BENCH_CLIENTS, BENCH_ORDERS, BENCH_SECONDS, BENCH_CONNECTIONS).
 */
import { sql } from 'kysely';
import { seedSyntheticClients, seedSyntheticOrders } from '../server/seed/seed';
import { CONNECTIONS, runListBench, type Case } from './list-bench';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const NO_COUNTERS = process.env.BENCH_NO_COUNTERS === '1';
const STATUSES = ['untreated', 'pending', 'waitshipping', 'shipped', 'processed'];

await runListBench({
  title: `list totals benchmark: ${CLIENTS.toLocaleString()} customers, ${ORDERS.toLocaleString()} orders${NO_COUNTERS ? ' (orders\' counter triggers dropped)' : ''}`,
  goal: `status and unfiltered totals p95 ≤ 10 ms; a filtered total exact up to 10,000 (${CONNECTIONS} connections)`,
  async load(db, dialect) {
    await seedSyntheticClients(db, CLIENTS);
    const first = await db.selectFrom('client').select((eb) => eb.fn.min<number>('cl_id').as('id')).executeTakeFirstOrThrow();
    await seedSyntheticOrders(db, Number(first.id), CLIENTS, ORDERS);
    const counts = await db.selectFrom('orders').select(['od_status', (eb) => eb.fn.countAll<number>().as('n')]).where('deleted', '=', 0).groupBy('od_status').execute();
    if (NO_COUNTERS) {
      for (const trigger of dialect === 'sqlite' ? ['insert', 'delete', 'update'] : ['write', 'update']) {
        await sql.raw(dialect === 'sqlite' ? `DROP TRIGGER row_count_orders_${trigger}` : `DROP TRIGGER row_count_orders_${trigger} ON orders`).execute(db);
      }
    }
    return { first: Number(first.id), counts: counts.map((c) => `${String(c.od_status)} ${Number(c.n).toLocaleString()}`).join(', ') };
  },
  notes: ({ counts }, dialect) => [`${dialect}: orders by status: ${counts}`],
  cases({ first }, authKey): Case[] {
    const cnt = (postData: object) => ({ authKey, kw: '', postData: JSON.stringify(postData) });
    return [
      { name: 'order_cnt (every order)', call: 'order_cnt', params: cnt({}) },
      ...STATUSES.map((s): Case => ({ name: `order_cnt od_status=[${s}]`, call: 'order_cnt', params: cnt({ od_status: [s] }) })),
      { name: 'order_cnt one customer (cl_id)', call: 'order_cnt', params: { ...cnt({}), cl_id: String(first + 4242) } },
      { name: 'client_cnt (every customer)', call: 'client_cnt', params: cnt({}) },
      { name: 'order_save new order (a write)', call: 'order_save', params: { authKey, postData: JSON.stringify({ cl_id: first + 7, date: '2026-11-27' }) } },
      // Counted from the rows, last: a slow case leaves requests queued in the server that would slow the next one.
      { name: 'order_cnt 処理済, 合計 10,000円〜 (many match: capped)', call: 'order_cnt', params: cnt({ od_status: ['processed'], uriage_total: [10000, ''] }) },
      { name: 'order_cnt 合計 10,000円〜, 受注日 2026-10 (none match: walks the index)', call: 'order_cnt', params: cnt({ uriage_total: [10000, ''], created: ['2026-10-01', '2026-10-31'] }) },
    ];
  },
});
