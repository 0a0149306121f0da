/**
 * Benchmark (issue 13): closing a month of N billing customers (default 10,000; 末日締め) with 10 slip lines each (100,000) —
 * five slips of two lines each (8% water, 10% delivery fee: two rows per rate each) and a payment each — on SQLite and, when
 * TEST_DATABASE_URL or BENCH_DATABASE_URL is set, PostgreSQL. The month before is closed first (10,000 slips and
 * payments), so every invoice reads a 前回請求額. Measured, each from its call to its end:
 * - the preview (`closing_preview`'s work: the plan and its answer);
 * - the run (`closing_run` as a job: the job's start until it has ended — the plan, 10,000 invoices through the write
 *   path, their rate rows, 50,000 slips and 10,000 payments stamped, in one transaction). Goal: under 5 s (60 s at
 *   100,000 customers, issue 21: a million slip lines);
 * - the restore (`closing_restore`), then the run again (the same invoices), with the statistics taken while the month
 *   was closed (every slip billed: a plan trusting them would read the unbilled rows once per customer).
 *
 * The fixture is loaded for the benchmark only, not through the app's write path: the slips and payments by
 * `bulkInsert`, their lines and rows per rate by set-based INSERTs.
 *
 * The CPU time of the bench's process (on SQLite it holds the database's work too) and of PostgreSQL's is printed beside
 * the run: on this shared 2-core machine the wall time follows the load of whatever else runs.
 *
 * Run: `node --import tsx bench/closing.ts [N]` (N or BENCH_CUSTOMERS: the billing customers, e.g. 100000;
 * BENCH_SLIPS_PER_CUSTOMER (5); BENCH_DIALECTS=postgres to measure one dialect; BENCH_DATA_DIR keeps the loaded database
 * there for the next run, bench/month-data.ts).
 */
import { loadavg } from 'node:os';
import { sql, type Kysely } from 'kysely';
import { closingPeriod, type ClosingPeriod } from '../lib/closing/period';
import type { ClosingRunResult } from '../lib/closing/answers';
import { formatOrderNumber } from '../lib/orders/number';
import { normalizeAreas } from '../lib/permissions';
import { paymentResource } from '../lib/resources/payment';
import { salesResource } from '../lib/resources/sales';
import { createUser } from '../server/auth/users';
import { closingPlan, previewOf } from '../server/closing/plan';
import { closingRestore } from '../server/closing/restore';
import { closingRun } from '../server/closing/run';
import type { DialectName } from '../server/config';
import { refreshStatistics, type AppDatabase } from '../server/db/connect';
import type { Database } from '../server/db/schema';
import { createJobs, type Jobs } from '../server/jobs/jobs';
import { SALES_NUMBER_FORMAT } from '../server/sales/sales-policy';
import { bulkInsert } from '../server/seed/bulk-insert';
import { seedSyntheticClients } from '../server/seed/seed';
import { benchDialects } from './list-bench';
import { benchSize, cpuMeter, cpuText, monthGoalMs, monthTarget, type CpuUsed } from './month-data';

process.env.TZ ||= 'Asia/Tokyo';

const CUSTOMERS = benchSize('BENCH_CUSTOMERS', 10_000);
const SLIPS_PER_CUSTOMER = Number(process.env.BENCH_SLIPS_PER_CUSTOMER ?? 5);
const GOAL_MS = monthGoalMs(CUSTOMERS, 5_000);
const EARLIER = closingPeriod('31', '202610');
const MONTH = closingPeriod('31', '202611');

const ms = (since: number): number => Math.round(performance.now() - since);

/** A month's slips (each two lines: `bottles` × 1,200 at 8%, a 500 fee at 10%, 外税), lines and rows per rate. */
async function loadSlips(db: Kysely<Database>, clients: readonly number[], period: ClosingPeriod, perCustomer: number, twoLines: boolean): Promise<void> {
  const days = Number(period.to.slice(8));
  const slips = clients.flatMap((cl_id, c) => Array.from({ length: perCustomer }, (_, k) => {
    const bottles = 1 + ((c + k) % 4);
    const water = bottles * 1200;
    const fee = twoLines ? 500 : 0;
    const tax = Math.floor((water * 8) / 100) + Math.floor((fee * 10) / 100);
    const date = `${period.to.slice(0, 8)}${String(1 + ((c * 7 + k * 5) % days)).padStart(2, '0')}`;
    return { number: formatOrderNumber(SALES_NUMBER_FORMAT, date, c * perCustomer + k + 1), date, cl_id, kind: 'sale', net_total: water + fee, tax_total: tax, total: water + fee + tax, rate_summary: '', biko: '' };
  }));
  for (let i = 0; i < slips.length; i += 20_000) await bulkInsert(db, salesResource, slips.slice(i, i + 20_000));
  const inMonth = sql`FROM sales WHERE sl_date >= ${period.from} AND sl_date <= ${period.to}`;
  const created = '2026-12-01T00:00:00.000Z';
  await sql`INSERT INTO sales_detail (sld_sl_id, sld_sort, sld_it_id, sld_name, sld_quantity, sld_price, sld_amount, sld_tax_class, sld_tax_rate, created)
    SELECT sl_id, 0, NULL, '天然水 12L', (sl_net_total - ${twoLines ? 500 : 0}) / 1200, 1200, sl_net_total - ${twoLines ? 500 : 0}, 'reduced', 8, ${created} ${inMonth}`.execute(db);
  await sql`INSERT INTO sales_rate (slr_sl_id, slr_key, slr_tax_class, slr_rate, slr_amount, slr_net, slr_tax, slr_total)
    SELECT sl_id, '8', 'reduced', 8, sl_net_total - ${twoLines ? 500 : 0}, sl_net_total - ${twoLines ? 500 : 0}, (sl_net_total - ${twoLines ? 500 : 0}) * 8 / 100,
      sl_net_total - ${twoLines ? 500 : 0} + (sl_net_total - ${twoLines ? 500 : 0}) * 8 / 100 ${inMonth}`.execute(db);
  if (!twoLines) return;
  await sql`INSERT INTO sales_detail (sld_sl_id, sld_sort, sld_it_id, sld_name, sld_quantity, sld_price, sld_amount, sld_tax_class, sld_tax_rate, created)
    SELECT sl_id, 1, NULL, '配送料', 1, 500, 500, 'standard', 10, ${created} ${inMonth}`.execute(db);
  await sql`INSERT INTO sales_rate (slr_sl_id, slr_key, slr_tax_class, slr_rate, slr_amount, slr_net, slr_tax, slr_total)
    SELECT sl_id, '10', 'standard', 10, 500, 500, 50, 550 ${inMonth}`.execute(db);
}

async function loadPayments(db: Kysely<Database>, clients: readonly number[], day: string): Promise<void> {
  await bulkInsert(db, paymentResource, clients.map((cl_id, c) => ({ cl_id, date: day, amount: 1000 + (c % 50) * 100, kind: c % 3 === 0 ? 'debit' : 'transfer', bank: '', biko: '' })));
}

/** A closing as a job, from its start until it has ended. */
async function timedRun(jobs: Jobs, user: Parameters<Jobs['start']>[0]['user'], database: AppDatabase, period: ClosingPeriod): Promise<{ used: CpuUsed; result: ClosingRunResult }> {
  const { db } = database;
  const stop = await cpuMeter(database);
  const id = await jobs.start({
    kind: 'closing_run', scope: `${period.sime_gp}:${period.sime_ym}`, params: {}, user,
    work: ({ id: jobId, progress }) => closingRun({ db, userId: user.user_id, call: 'closing_run', jobId }, period, progress),
  });
  let job = await jobs.find(id);
  while (job?.state === 'running') {
    await new Promise((resolve) => setTimeout(resolve, 20));
    job = await jobs.find(id);
  }
  if (job?.state !== 'done' || !job.result) throw new Error(`the closing ended ${job?.state}: ${job?.error}`);
  return { used: await stop(), result: job.result as ClosingRunResult };
}

/** The billing customers, the month before (one slip of one line and a payment each) and the month (slips of two lines, a payment). */
async function load(db: Kysely<Database>): Promise<void> {
  await seedSyntheticClients(db, CUSTOMERS);
  await sql`UPDATE client SET cl_sime_gp = '31', cl_parent_id = NULL, cl_zei_ten = '3', cl_zei_kiri = '0', cl_collect_cycle = '1', cl_collect_day = 27`.execute(db);
  const clients = (await db.selectFrom('client').select('cl_id').where('deleted', '=', 0).orderBy('cl_id').execute()).map((r) => Number(r.cl_id));
  await loadSlips(db, clients, EARLIER, 1, false);
  await loadPayments(db, clients, '2026-10-27');
  await loadSlips(db, clients, MONTH, SLIPS_PER_CUSTOMER, true);
  await loadPayments(db, clients, '2026-11-27');
}

async function run(dialect: DialectName): Promise<void> {
  const target = await monthTarget(dialect, `closing-${CUSTOMERS}-${SLIPS_PER_CUSTOMER}`, load);
  const { database, config } = target;
  const { db } = database;
  try {
    const count = async (table: 'client' | 'sales' | 'sales_detail' | 'sales_rate' | 'payment') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    console.log(`${dialect}: ${(await count('client')).toLocaleString()} billing customers, ${(await count('sales')).toLocaleString()} slips, ${(await count('sales_detail')).toLocaleString()} slip lines (${(await count('sales_rate')).toLocaleString()} rows per rate), ${(await count('payment')).toLocaleString()} payments ${target.loaded.copied ? 'copied from BENCH_DATA_DIR' : 'loaded'} in ${target.loaded.seconds.toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`);

    const admin = await createUser(db, { email: 'bench@example.jp', password: 'bench-password-2026', name: 'ベンチ', role: '管理' });
    const jobs = await createJobs(config, database);
    const user = { user_id: admin, user_email: 'bench@example.jp', user_name: 'ベンチ', user_role: '管理', areas: normalizeAreas({}), keyHash: '' };
    const earlier = await timedRun(jobs, user, database, EARLIER);
    console.log(`${dialect}: close ${EARLIER.sime_ym} (${CUSTOMERS.toLocaleString()} slips of one line): ${cpuText(earlier.used)} — ${earlier.result.invoices.toLocaleString()} invoices`);

    const previewStart = performance.now();
    const preview = previewOf(await closingPlan(db, MONTH));
    console.log(`${dialect}: preview ${MONTH.sime_ym}: ${ms(previewStart).toLocaleString()} ms — ${preview.totals.invoices.toLocaleString()} invoices, 今回請求額 ${preview.totals.total.toLocaleString()} 円`);
    const first = await timedRun(jobs, user, database, MONTH);
    console.log(`${dialect}: close ${MONTH.sime_ym} (${(CUSTOMERS * SLIPS_PER_CUSTOMER * 2).toLocaleString()} slip lines): ${cpuText(first.used)} — ${first.result.invoices.toLocaleString()} invoices, ${first.result.total.toLocaleString()} 円 (goal: under ${GOAL_MS.toLocaleString()} ms)`);
    // Statistics taken while the month is closed (as autovacuum would after it): every slip billed. The restore and the
    // run again must not trust them (server/closing/plan.ts `takenOf`).
    await refreshStatistics(database, { full: true });
    const restoring = await cpuMeter(database);
    const restored = await closingRestore({ db, userId: admin, call: 'closing_restore' }, MONTH);
    console.log(`${dialect}: restore ${MONTH.sime_ym}: ${cpuText(await restoring())} — ${restored.invoices.toLocaleString()} invoices, ${restored.slips.toLocaleString()} slips, ${restored.payments.toLocaleString()} payments unstamped`);
    const again = await timedRun(jobs, user, database, MONTH);
    console.log(`${dialect}: close ${MONTH.sime_ym} again: ${cpuText(again.used)} — ${again.result.total === first.result.total ? 'the same' : 'A DIFFERENT'} total`);
    await jobs.close();
  } finally {
    await database.close();
    await target.cleanup();
  }
}

for (const dialect of benchDialects()) await run(dialect);
