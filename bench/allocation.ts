/**
 * Benchmark: 消込 (server/sales/allocation.ts) on SQLite and — when TEST_DATABASE_URL or BENCH_DATABASE_URL is set —
 * PostgreSQL, with N billing customers (default 2,000) of 12 open invoices each and one payment each of their sum:
 * - `payment_allocate` auto for R payments one after the other (each: 12 invoices locked, 12 allocation rows, the audit
 *   rows, the invoices' 残額 re-computed): median and p95;
 * - one customer with M open invoices (default 1,000) paid by one payment: auto (M rows), then replacing them all by
 *   nothing (`lines: []`), and `allocation_lst` of that payment.
 *
 * Run: `node --import tsx bench/allocation.ts` (BENCH_CUSTOMERS, BENCH_RUNS, BENCH_INVOICES; BENCH_DIALECTS=postgres).
 */
import { paymentResource } from '../lib/resources/payment';
import { createUser } from '../server/auth/users';
import type { DialectName } from '../server/config';
import { insertMany } from '../server/db/bulk-write';
import { refreshStatistics } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import type { Database, ResourceRow } from '../server/db/schema';
import { allocatePayment, allocationsOf } from '../server/sales/allocation';
import { bulkInsert } from '../server/seed/bulk-insert';
import { seedSyntheticClients } from '../server/seed/seed';
import { benchDialects, freshTarget } from './list-bench';
import type { Kysely } from 'kysely';

process.env.TZ ||= 'Asia/Tokyo';

const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 2_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const MANY = Number(process.env.BENCH_INVOICES ?? 1_000);
const MONTHS = 12;

const ms = (since: number): number => performance.now() - since;
const pct = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

/** An invoice row as a closing writes it (open, nothing allocated). */
function invoice(clientId: number, n: number, total: number, stamp: string): ResourceRow {
  const year = 2020 + Math.floor(n / 12);
  const ym = `${year}${String((n % 12) + 1).padStart(2, '0')}`;
  const date = `${ym.slice(0, 4)}-${ym.slice(4)}-28`;
  return {
    bl_number: `B${ym}-${clientId}`, bl_cl_id: clientId, bl_cls_id: null, bl_sime_gp: '31', bl_sime_ym: ym, bl_closing_date: date, bl_period_from: date,
    bl_period_to: date, bl_due_date: '', bl_name: '', bl_reissued: '', bl_search: '', bl_prev_total: 0, bl_paid: 0, bl_carry: 0, bl_sales_net: total,
    bl_tax_total: 0, bl_total: total, bl_allocated: 0, bl_open: total, bl_print_count: 0, bl_job_id: null, created: stamp, modified: stamp, deleted: 0,
  };
}

async function paymentsOf(db: Kysely<Database>, rows: { cl_id: number; amount: number }[]): Promise<ResourceRow[]> {
  const ids = await bulkInsert(db, paymentResource, rows.map((r) => ({ cl_id: r.cl_id, date: '2026-11-01', amount: r.amount, kind: 'transfer', bank: '', biko: '' })));
  return db.selectFrom('payment').select(['py_id', 'py_cl_id', 'modified']).where('py_id', 'in', ids).orderBy('py_id').execute();
}

async function run(dialect: DialectName): Promise<void> {
  const target = await freshTarget(dialect);
  const { db } = target.database;
  try {
    const loading = performance.now();
    await migrateToLatest(db, dialect);
    await seedSyntheticClients(db, CUSTOMERS);
    const clients = (await db.selectFrom('client').select('cl_id').where('deleted', '=', 0).orderBy('cl_id').limit(CUSTOMERS).execute()).map((r) => Number(r.cl_id));
    const stamp = new Date().toISOString();
    await insertMany(db, 'billing', clients.flatMap((id) => Array.from({ length: MONTHS }, (_, n) => invoice(id, n, 1000 + n * 100, stamp))));
    const many = clients[0];
    await insertMany(db, 'billing', Array.from({ length: MANY }, (_, n) => invoice(many, MONTHS + n, 500, stamp)));
    const sum = Array.from({ length: MONTHS }, (_, n) => 1000 + n * 100).reduce((a, b) => a + b, 0);
    const payments = await paymentsOf(db, clients.slice(1, RUNS + 1).map((cl_id) => ({ cl_id, amount: sum })));
    const [big] = await paymentsOf(db, [{ cl_id: many, amount: 500 * MANY + sum }]);
    await refreshStatistics(target.database, { full: true });
    const userId = await createUser(db, { email: 'bench@example.jp', password: 'bench-password-2026', name: 'ベンチ', role: '管理' });
    const ctx = { db, userId, call: 'payment_allocate' };
    console.log(`${dialect}: ${clients.length.toLocaleString()} customers × ${MONTHS} invoices + ${MANY.toLocaleString()} for one, loaded in ${(ms(loading) / 1000).toFixed(1)} s`);

    const times: number[] = [];
    for (const p of payments) {
      const started = performance.now();
      const answer = await allocatePayment(ctx, Number(p.py_id), { modified: String(p.modified), auto: true });
      times.push(ms(started));
      if (answer.allocations.length !== MONTHS || answer.unallocated !== 0) throw new Error(`payment ${String(p.py_id)}: ${answer.allocations.length} allocations, ${answer.unallocated} left`);
    }
    times.sort((a, b) => a - b);
    console.log(`${dialect}: auto 消込 of ${payments.length} payments × ${MONTHS} invoices: median ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms`);

    let started = performance.now();
    const auto = await allocatePayment(ctx, Number(big.py_id), { modified: String(big.modified), auto: true });
    const autoMs = ms(started);
    started = performance.now();
    const listed = await allocationsOf(db, { py_id: Number(big.py_id) });
    const listMs = ms(started);
    started = performance.now();
    const cleared = await allocatePayment(ctx, Number(big.py_id), { modified: auto.modified, lines: [] });
    const clearMs = ms(started);
    if (auto.allocations.length !== MANY + MONTHS || listed.length !== MANY + MONTHS || cleared.allocations.length !== 0) throw new Error('the large payment was not allocated as expected');
    console.log(`${dialect}: one payment to ${(MANY + MONTHS).toLocaleString()} invoices: auto ${autoMs.toFixed(0)} ms, allocation_lst ${listMs.toFixed(0)} ms, all removed ${clearMs.toFixed(0)} ms`);
  } finally {
    await target.database.close();
    await target.cleanup();
  }
}

for (const dialect of benchDialects()) await run(dialect);
