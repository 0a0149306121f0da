/**
 * Benchmark (issue 12): the sales and payment lists on 100,000 customers, 250,000 sales slips with 4 lines
 * each (1,000,000 slip lines) and 250,000 payments — `sales_lst` and `payment_lst` in their default sort (date,
 * newest first), one customer's slips, a date range, a keyword — next to a bare Fastify route, on SQLite and
 * PostgreSQL (bench/list-bench.ts). Goal as the order lists: p95 under 15 ms at 10 connections.
 *
 * The fixture is loaded for the benchmark only, not through the app's write path: the slips and payments by
 * `bulkInsert` (their declared fields, the keyword text), the lines from the slips by one set-based INSERT per line
 * position.
 *
 * Run: `node --import tsx bench/sales-list.ts` (BENCH_CLIENTS, BENCH_SLIPS, BENCH_PAYMENTS, BENCH_SECONDS, BENCH_CONNECTIONS).
 */
import { sql, type Kysely } from 'kysely';
import { formatOrderNumber } from '../lib/orders/number';
import { paymentResource } from '../lib/resources/payment';
import { salesResource } from '../lib/resources/sales';
import type { Database } from '../server/db/schema';
import { SALES_NUMBER_FORMAT } from '../server/sales/sales-policy';
import { bulkInsert } from '../server/seed/bulk-insert';
import { seedSyntheticClients } from '../server/seed/seed';
import { CONNECTIONS, runListBench, type Case } from './list-bench';
import { createRng } from '../server/seed/data/rng';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100_000);
const SLIPS = Number(process.env.BENCH_SLIPS ?? 250_000);
const PAYMENTS = Number(process.env.BENCH_PAYMENTS ?? 250_000);
const LINES_PER_SLIP = 4;
/** Two years of slips and payments. */
const FIRST_DAY = Date.UTC(2025, 0, 1);
const DAYS = 730;
/** Every 1,000th slip and payment carries it in 備考: the keyword case finds a few hundred. */
const RARE_NOTE = '分割請求調整';
const NOTES = ['', '', '', '月末締め', '現金回収', '定期配送分', '', '担当者交代'];
const PAYMENT_KINDS = ['transfer', 'transfer', 'debit', 'cash', 'fee'];
const CHUNK = 50_000;

/** A deterministic pseudo-random sequence (the seed data's mulberry32). */
const random = (seed: number): (() => number) => {
  const rng = createRng(seed);
  return () => rng.next();
};

const dayOf = (offset: number): string => new Date(FIRST_DAY + offset * 86_400_000).toISOString().slice(0, 10);

/** The slips' lines, 4 per slip, written from the slips themselves: one INSERT … SELECT per line position. */
async function slipLines(db: Kysely<Database>, created: string): Promise<void> {
  const lines = [
    { name: '天然水 12L', quantity: 'sl_total / 1296', price: 1296, tax: 'reduced', rate: 8 },
    { name: 'ボトル保証金', quantity: '1', price: 0, tax: 'outside', rate: 0 },
    { name: 'サーバーレンタル', quantity: '1', price: 0, tax: 'standard', rate: 10 },
    { name: '配送料', quantity: '1', price: 0, tax: 'standard', rate: 10 },
  ].slice(0, LINES_PER_SLIP);
  for (const [sort, l] of lines.entries()) {
    await sql`INSERT INTO sales_detail (sld_sl_id, sld_sort, sld_it_id, sld_name, sld_quantity, sld_price, sld_amount, sld_tax_class, sld_tax_rate, created)
      SELECT sl_id, ${sort}, NULL, ${l.name}, ${sql.raw(l.quantity)}, ${l.price}, ${sql.raw(l.quantity)} * ${l.price}, ${l.tax}, ${l.rate}, ${created} FROM sales`.execute(db);
  }
}

async function loadSales(db: Kysely<Database>, first: number): Promise<void> {
  const next = random(301);
  for (let done = 0; done < SLIPS; done += CHUNK) {
    const slips = Array.from({ length: Math.min(CHUNK, SLIPS - done) }, (_, i) => {
      const n = done + i;
      const date = dayOf(Math.floor(next() * DAYS));
      const bottles = 1 + Math.floor(next() * 6);
      const net = bottles * 1200;
      return {
        number: formatOrderNumber(SALES_NUMBER_FORMAT, date, n + 1), date, cl_id: first + Math.floor(next() * CLIENTS),
        kind: next() < 0.05 ? 'return' : 'sale', net_total: net, tax_total: net * 0.08, total: net * 1.08,
        rate_summary: `8%対象（軽減税率） ${net}円（消費税 ${net * 0.08}円）`, biko: n % 1000 === 7 ? RARE_NOTE : NOTES[n % NOTES.length],
      };
    });
    await bulkInsert(db, salesResource, slips, { createdOf: (slip) => `${(slip as { date: string }).date} 10:00:00` });
  }
  await slipLines(db, '2026-01-01 10:00:00');
}

async function loadPayments(db: Kysely<Database>, first: number): Promise<void> {
  const next = random(401);
  for (let done = 0; done < PAYMENTS; done += CHUNK) {
    const payments = Array.from({ length: Math.min(CHUNK, PAYMENTS - done) }, (_, i) => {
      const n = done + i;
      return {
        date: dayOf(Math.floor(next() * DAYS)), cl_id: first + Math.floor(next() * CLIENTS), amount: (1 + Math.floor(next() * 20)) * 1296,
        kind: PAYMENT_KINDS[n % PAYMENT_KINDS.length], bank: '', biko: n % 1000 === 7 ? RARE_NOTE : NOTES[n % NOTES.length],
      };
    });
    await bulkInsert(db, paymentResource, payments, { createdOf: (p) => `${(p as { date: string }).date} 10:00:00` });
  }
}

await runListBench({
  title: `sales and payment list benchmark: ${CLIENTS.toLocaleString()} customers, ${SLIPS.toLocaleString()} slips × ${LINES_PER_SLIP} lines, ${PAYMENTS.toLocaleString()} payments`,
  goal: `sales_lst and payment_lst p95 < 15 ms (${CONNECTIONS} connections)`,
  async load(db) {
    await seedSyntheticClients(db, CLIENTS);
    const first = Number((await db.selectFrom('client').select((eb) => eb.fn.min<number>('cl_id').as('id')).executeTakeFirstOrThrow()).id);
    await loadSales(db, first);
    await loadPayments(db, first);
    const count = async (table: string) => Number((await db.selectFrom(table as 'sales').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    // The customer with the most slips: the one-customer case reads the longest list there is.
    const busiest = await db.selectFrom('sales').select(['sl_cl_id', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('sl_cl_id').orderBy('n', 'desc').limit(1).executeTakeFirstOrThrow();
    return { slips: await count('sales'), lines: await count('sales_detail'), payments: await count('payment'), client: Number(busiest.sl_cl_id), clientSlips: Number(busiest.n) };
  },
  notes: (d, dialect) => [`${dialect}: ${d.slips.toLocaleString()} slips, ${d.lines.toLocaleString()} slip lines, ${d.payments.toLocaleString()} payments; customer ${d.client} has ${d.clientSlips} slips`],
  cases({ client }, authKey): Case[] {
    const list = (col: string) => ({ authKey, n: '10', p: '1', kw: '', col, odr: 'desc', postData: '' });
    const range = JSON.stringify({ date: ['2026-06-01', '2026-06-30'] });
    return (['sales', 'payment'] as const).flatMap((r): Case[] => {
      const base = list(r === 'sales' ? 'sl_date' : 'py_date');
      const call = `${r}_lst`;
      return [
        { name: `${call} default sort (date desc)`, call, params: base },
        { name: `${call} one customer (cl_id)`, call, params: { ...base, cl_id: String(client) } },
        { name: `${call} date 2026-06`, call, params: { ...base, postData: range } },
        { name: `${call} kw=${RARE_NOTE}`, call, params: { ...base, kw: RARE_NOTE } },
        { name: `${r}_cnt date 2026-06`, call: `${r}_cnt`, params: { authKey, kw: '', postData: range } },
        { name: `${r}_sum date 2026-06 (the totals row)`, call: `${r}_sum`, params: { authKey, kw: '', postData: range } },
      ];
    });
  },
});
