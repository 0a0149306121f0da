/**
 * Benchmark (issue 13): the sales report over 1,000,000 slip lines — two years of slips (BENCH_LINES lines, about 3 a
 * slip, 10,000 customers of whom one in five is 内税, 20 items, 10 staff in 3 teams), reported over the later year,
 * so each report reads every line once: the year and the year before it compares with. `salesReport` (the work
 * behind `salesreport`) by month and by item — the goal, under 1 s on SQLite and PostgreSQL — and by customer, staff
 * and team; then `agingList` over the unbilled slips. First run and the best of BENCH_RUNS more (wall clock, and this
 * process's CPU: on a machine shared with other work the CPU says what the report itself costs).
 *
 * The slips are loaded for the benchmark only, not through the app's write path: their totals, per-rate rows and the
 * lines' parts of them come from the one money computation (`slipTotals`, `lineShares`), the lines carry their slip's
 * date, as the sales save writes them; inserted in bulk.
 *
 * Run: `TZ=Asia/Tokyo node --import tsx bench/salesreport.ts` (BENCH_LINES, BENCH_RUNS, BENCH_DIALECTS; PostgreSQL when
 * TEST_DATABASE_URL or BENCH_DATABASE_URL is set).
 */
import { sql } from 'kysely';
import { addDays } from '../lib/format';
import { lineAmount, lineShares, moneyTermsOf, slipTotals, unitPriceFor } from '../lib/money/totals';
import { formatOrderNumber } from '../lib/orders/number';
import { itemResource } from '../lib/resources/item';
import { salesResource } from '../lib/resources/sales';
import type { ReportGroup } from '../lib/sales/report';
import { taxClassOf } from '../lib/tax';
import { createUser } from '../server/auth/users';
import type { DialectName } from '../server/config';
import { refreshStatistics } from '../server/db/connect';
import { chunksOf, insertMany } from '../server/db/bulk-write';
import { migrateToLatest } from '../server/db/migrate';
import type { ResourceRow } from '../server/db/schema';
import { SALES_NUMBER_FORMAT } from '../server/sales/sales-policy';
import { agingList } from '../server/sales/aging';
import { salesReport } from '../server/sales/report';
import { bulkInsert } from '../server/seed/bulk-insert';
import { seedSyntheticClients } from '../server/seed/seed';
import { benchDialects, freshTarget } from './list-bench';
import { createRng } from '../server/seed/data/rng';

process.env.TZ ||= 'Asia/Tokyo';

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CLIENTS = 10_000;
const FIRST_DAY = '2024-04-01';
const DAYS = 730;
/** The reported year (the year before it is the comparison). */
const PERIOD = { from: '2025-04-01', to: '2026-03-31' };
const CHUNK = 20_000;

/** A deterministic pseudo-random sequence (the seed data's mulberry32). */
const random = (seed: number): (() => number) => {
  const rng = createRng(seed);
  return () => rng.next();
};

const ITEMS = Array.from({ length: 20 }, (_, i) => ({
  code: `RB-${String(i + 1).padStart(3, '0')}`, name: i < 12 ? `天然水 ${8 + i}L` : `サーバー用品 ${i - 11}`, unit: '本',
  price: i < 12 ? 900 + i * 50 : 300 + i * 20, tax_class: i < 12 ? 'reduced' : 'standard', stock_tracked: 0,
}));
const RATE = { reduced: 8, standard: 10, outside: 0 } as const;

const ms = (since: number): number => Math.round(performance.now() - since);
/** This process's CPU time since `since` (SQLite's work is all here; PostgreSQL's is in its own processes). */
const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return Math.round((used.user + used.system) / 1000);
};

async function load(db: Parameters<typeof migrateToLatest>[0]): Promise<{ slips: number; lines: number }> {
  await seedSyntheticClients(db, CLIENTS);
  const clients = (await db.selectFrom('client').select('cl_id').orderBy('cl_id').execute()).map((r) => Number(r.cl_id));
  // One customer in five is 内税・請求単位 (their line amounts include tax).
  await sql`UPDATE client SET cl_zei_ten = CASE WHEN cl_id % 5 = 0 THEN '5' ELSE '3' END, cl_zei_kiri = '0', cl_kin_kiri = '0'`.execute(db);
  const inclusive = new Set(clients.filter((id) => id % 5 === 0));
  const users: number[] = [];
  for (let i = 0; i < 10; i++) users.push(await createUser(db, { email: `staff${i}@example.jp`, password: 'bench-password-2026', name: `担当 ${i + 1}`, role: '営業', team: ['東京', '大阪', '名古屋'][i % 3] }));
  await bulkInsert(db, itemResource, ITEMS);
  const items = (await db.selectFrom('item').select(['it_id', 'it_code']).orderBy('it_id').execute()).map((r) => Number(r.it_id));

  const next = random(1301);
  let lines = 0;
  let slips = 0;
  while (lines < LINES) {
    const batch: { slip: Record<string, unknown>; lines: ResourceRow[] }[] = [];
    for (let k = 0; k < CHUNK && lines < LINES; k++) {
      const cl = clients[Math.floor(next() * clients.length)];
      const terms = moneyTermsOf({ cl_zei_ten: inclusive.has(cl) ? '5' : '3', cl_zei_kiri: '0', cl_kin_kiri: '0' });
      const date = addDays(FIRST_DAY, Math.floor(next() * DAYS));
      const count = Math.min(LINES - lines, 1 + Math.floor(next() * 5));
      const slipLines: ResourceRow[] = [];
      for (let l = 0; l < count; l++) {
        const pick = next();
        if (pick < 0.15) {
          // 送料 or a rental line: no item, standard rate.
          const price = unitPriceFor(pick < 0.08 ? 550 : 1100, terms, 10);
          slipLines.push({ sld_it_id: null, sld_name: pick < 0.08 ? '送料' : 'サーバーレンタル', sld_quantity: 1, sld_price: price, sld_amount: lineAmount(1, price, terms.kinKiri), sld_tax_class: 'standard', sld_tax_rate: 10 });
        } else if (pick < 0.2) {
          slipLines.push({ sld_it_id: null, sld_name: '容器保証金', sld_quantity: 1, sld_price: 1000, sld_amount: 1000, sld_tax_class: 'outside', sld_tax_rate: 0 });
        } else {
          const i = Math.floor(next() * ITEMS.length);
          const item = ITEMS[i];
          const quantity = (next() < 0.04 ? -1 : 1) * (1 + Math.floor(next() * 4));
          const rate = RATE[item.tax_class as 'reduced' | 'standard'];
          const price = unitPriceFor(item.price, terms, rate);
          slipLines.push({ sld_it_id: items[i], sld_name: item.name, sld_quantity: quantity, sld_price: price, sld_amount: lineAmount(quantity, price, terms.kinKiri), sld_tax_class: item.tax_class, sld_tax_rate: rate });
        }
      }
      const taxed = slipLines.map((l) => ({ amount: Number(l.sld_amount), taxClass: taxClassOf(l.sld_tax_class), taxRate: Number(l.sld_tax_rate) }));
      const totals = slipTotals(taxed, terms);
      lineShares(taxed, totals.rates).forEach((share, i) => Object.assign(slipLines[i], { sld_net: share.net, sld_tax: share.tax, sld_date: date }));
      slips += 1;
      lines += count;
      batch.push({
        slip: { number: formatOrderNumber(SALES_NUMBER_FORMAT, date, slips), date, cl_id: cl, kind: 'sale', usr_id: users[cl % users.length], net_total: totals.net, tax_total: totals.tax, total: totals.total, rate_summary: '', biko: '', totals },
        lines: slipLines,
      });
    }
    await bulkInsert(db, salesResource, batch.map((b) => b.slip));
    const numbers = batch.map((b) => String(b.slip.number));
    const ids = new Map<string, number>();
    for (const chunk of chunksOf(numbers, 5000)) {
      for (const r of await db.selectFrom('sales').select(['sl_id', 'sl_number']).where('sl_number', 'in', chunk).execute()) ids.set(String(r.sl_number), Number(r.sl_id));
    }
    const detail: ResourceRow[] = [];
    const rates: ResourceRow[] = [];
    for (const b of batch) {
      const id = ids.get(String(b.slip.number))!;
      b.lines.forEach((l, sort) => detail.push({ sld_sl_id: id, sld_sort: sort, ...l, created: '2026-04-01T00:00:00.000Z' }));
      for (const r of (b.slip.totals as ReturnType<typeof slipTotals>).rates) {
        rates.push({ slr_sl_id: id, slr_key: r.key, slr_tax_class: r.taxClass, slr_rate: r.rate, slr_amount: r.amount, slr_net: r.net, slr_tax: r.tax, slr_total: r.total });
      }
    }
    await insertMany(db, 'sales_detail', detail);
    await insertMany(db, 'sales_rate', rates);
  }
  // The slips' item quantity, as the sales save derives it from the lines.
  await sql`UPDATE sales SET sl_quantity = (SELECT COALESCE(SUM(sld_quantity), 0) FROM sales_detail WHERE sld_sl_id = sl_id AND sld_it_id IS NOT NULL)`.execute(db);
  return { slips, lines };
}

async function run(dialect: DialectName): Promise<void> {
  const target = await freshTarget(dialect);
  const { database } = target;
  try {
    const loading = performance.now();
    await migrateToLatest(database.db, dialect);
    const { slips, lines } = await load(database.db);
    await refreshStatistics(database, { full: true });
    console.log(`${dialect}: ${slips.toLocaleString()} slips, ${lines.toLocaleString()} slip lines (${FIRST_DAY} … two years) loaded in ${(ms(loading) / 1000).toFixed(1)} s`);
    const groups: readonly ReportGroup[] = ['month', 'item', 'client', 'staff', 'team', 'rate'];
    for (const group of groups) {
      const times: number[] = [];
      const cpu: number[] = [];
      let summary = '';
      for (let i = 0; i <= RUNS; i++) {
        const started = performance.now();
        const used = process.cpuUsage();
        const report = await salesReport(database.db, { ...PERIOD, group, filters: {}, n: 100, p: 1 });
        times.push(ms(started));
        cpu.push(cpuMs(used));
        summary = `${report.row_count.toLocaleString()} rows, 税抜 ${report.total.net.toLocaleString()} 円 (前年 ${report.total.prev.net.toLocaleString()} 円), 数量 ${report.total.quantity.toLocaleString()}`;
      }
      const goal = group === 'month' || group === 'item' ? ' (goal: under 1,000 ms)' : '';
      const best = times.indexOf(Math.min(...times.slice(1)), 1);
      console.log(`${dialect}: salesreport ${PERIOD.from}…${PERIOD.to} by ${group}: first ${times[0]} ms, best of ${RUNS} more ${times[best]} ms (this process's CPU ${cpu[best]} ms)${goal} — ${summary}`);
    }
    const times: number[] = [];
    const cpu: number[] = [];
    let summary = '';
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      const used = process.cpuUsage();
      const aging = await agingList(database.db, { asOf: PERIOD.to, col: 'total', odr: 'desc', n: 100, p: 1 });
      times.push(ms(started));
      cpu.push(cpuMs(used));
      summary = `${aging.row_count.toLocaleString()} customers, 未請求 ${aging.total.unbilled.toLocaleString()} 円`;
    }
    const best = times.indexOf(Math.min(...times.slice(1)), 1);
    console.log(`${dialect}: aging_lst as of ${PERIOD.to}: first ${times[0]} ms, best of ${RUNS} more ${times[best]} ms (this process's CPU ${cpu[best]} ms) — ${summary}`);
  } finally {
    await database.close();
    await target.cleanup();
  }
}

for (const dialect of benchDialects()) await run(dialect);
