/**
 * Benchmark: the first start's demo company (`seedIfEmpty` with the demo on) on a fresh, migrated
 * database of each dialect — the time a new user waits before the app answers. Prints the seconds per
 * dialect (best of BENCH_RUNS, default 3) and what was seeded.
 *
 * Run: `node --import tsx bench/seed.ts` (PostgreSQL too when TEST_DATABASE_URL or BENCH_DATABASE_URL is set;
 * BENCH_DIALECTS=sqlite to measure one dialect).
 */
import { migrateToLatest } from '../server/db/migrate';
import { seedIfEmpty } from '../server/seed/seed';
import { benchDialects, freshTarget } from './list-bench';

process.env.TZ ||= 'Asia/Tokyo';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);

for (const dialect of benchDialects()) {
  const times: number[] = [];
  let counts = '';
  for (let run = 0; run < RUNS; run++) {
    const target = await freshTarget(dialect);
    try {
      await migrateToLatest(target.database.db, target.database.dialect);
      const started = performance.now();
      await seedIfEmpty(target.database, { adminEmail: '', adminPassword: 'bench-pass-2026', seed: true }, () => undefined);
      times.push(performance.now() - started);
      const { db } = target.database;
      const count = async (table: 'orders' | 'order_detail' | 'hod_report' | 'client') =>
        Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      counts = `顧客 ${await count('client')}, 受注 ${await count('orders')}, 明細 ${await count('order_detail')}, 配送実績 ${await count('hod_report')}`;
    } finally {
      await target.database.close();
      await target.cleanup();
    }
  }
  console.log(`${dialect}: seeding ${(Math.min(...times) / 1000).toFixed(2)} s (best of ${RUNS}; runs ${times.map((t) => (t / 1000).toFixed(2)).join(', ')}) — ${counts}`);
}
