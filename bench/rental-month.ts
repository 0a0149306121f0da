/**
 * Benchmark: the month's server rental (issue 12) over N agreements (default 20,000; each customer one agreement:
 * 1 in 10 starting inside the month, 1 in 20 cancelled inside it, half of them with one or two installed servers with a
 * monthly fee), on SQLite and — when TEST_DATABASE_URL or BENCH_DATABASE_URL is set — PostgreSQL:
 * - the preview (`rentalPreview`, the work behind `rental_preview`): first run and the best of the following runs;
 * - the run (`rental_generate`: `rentalGenerate` as a job, its progress written to the job store between chunks), from
 *   the start until the job has ended: the run that creates the month's slips through the sales save, then the same
 *   month again (creates nothing). Goal: under 10 s. The CPU time of the bench's process is printed too.
 *
 * Run: `node --import tsx bench/rental-month.ts [N]` (N or BENCH_AGREEMENTS: the agreements, e.g. 100000 — goal 60 s; BENCH_RUNS the
 * repeated previews; BENCH_DATA_DIR keeps the loaded database there for the next run, bench/month-data.ts;
 * BENCH_DIALECTS=postgres to measure one dialect; BENCH_CPU_PROF=dir writes the CPU profile of the first run alone,
 * `rental-{dialect}.cpuprofile`, to read in Chrome DevTools).
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { normalizeAreas } from '../lib/permissions';
import { agreementResource } from '../lib/resources/agreement';
import { serverResource } from '../lib/resources/water-server';
import { rentalMonth, type RentalGenerateResult } from '../lib/sales/rental';
import { createUser } from '../server/auth/users';
import type { DialectName } from '../server/config';
import type { AppDatabase } from '../server/db/connect';
import { createJobs } from '../server/jobs/jobs';
import { rentalGenerate, rentalPreview } from '../server/sales/rental';
import { bulkInsert } from '../server/seed/bulk-insert';
import { seedSyntheticClients } from '../server/seed/seed';
import { benchDialects } from './list-bench';
import { benchSize, cpuMeter, cpuText, monthGoalMs, monthTarget } from './month-data';

process.env.TZ ||= 'Asia/Tokyo';

const AGREEMENTS = benchSize('BENCH_AGREEMENTS', 20_000);
const GOAL_MS = monthGoalMs(AGREEMENTS, 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const MONTH = rentalMonth('202612')!;

const ms = (since: number): number => Math.round(performance.now() - since);

/** The customers, each with one agreement, and the installed servers of half of them. */
async function load(db: AppDatabase['db']): Promise<void> {
  await seedSyntheticClients(db, AGREEMENTS);
  const clients = (await db.selectFrom('client').select('cl_id').where('deleted', '=', 0).orderBy('cl_id').limit(AGREEMENTS).execute()).map((r) => Number(r.cl_id));
  await bulkInsert(db, agreementResource, clients.map((cl_id, i) => ({
    cl_id, agreement_no: `B-${i}`, contract_type: '1', contract_date: i % 10 === 0 ? '2026-12-11' : '2025-04-01',
    status: i % 20 === 1 ? '9' : '1', cancel_date: i % 20 === 1 ? '2026-12-20' : '', rental_fee: i % 2 === 0 ? 1000 : 0,
  })));
  const servers = clients.flatMap((cl_id, i) => (i % 2 === 1 ? Array.from({ length: 1 + (i % 4 === 1 ? 1 : 0) }, (_, k) => ({
    serial_no: `BS-${i}-${k}`, model: 'AQ-01', status: 'installed', cl_id, install_date: i % 7 === 0 ? '2026-12-05' : '2025-04-01', rental_fee: 1100,
  })) : []));
  await bulkInsert(db, serverResource, servers);
}

async function run(dialect: DialectName): Promise<void> {
  const target = await monthTarget(dialect, `rental-${AGREEMENTS}`, load);
  const { database, config } = target;
  try {
    const count = async (table: 'agreement' | 'water_server') => Number((await database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    console.log(`${dialect}: ${(await count('agreement')).toLocaleString()} agreements, ${(await count('water_server')).toLocaleString()} installed servers ${target.loaded.copied ? 'copied from BENCH_DATA_DIR' : 'loaded'} in ${target.loaded.seconds.toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`);

    const times: number[] = [];
    let summary = '';
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      const answer = await rentalPreview(database.db, MONTH, 100, 1);
      times.push(ms(started));
      summary = `${answer.agreements.toLocaleString()} agreements → ${answer.total.toLocaleString()} charges, ${answer.amount.toLocaleString()} 円 (税抜)`;
    }
    console.log(`${dialect}: preview ${MONTH.ym}: ${summary}`);
    console.log(`${dialect}: preview first run ${times[0]} ms, best of ${RUNS} more ${Math.min(...times.slice(1))} ms`);

    const admin = await createUser(database.db, { email: 'bench@example.jp', password: 'bench-password-2026', name: 'ベンチ', role: '管理' });
    const jobs = await createJobs(config, database);
    const user = { user_id: admin, user_email: 'bench@example.jp', user_name: 'ベンチ', user_role: '管理', areas: normalizeAreas({}), keyHash: '' };
    for (const pass of ['generate', 'again'] as const) {
      const profiling = pass === 'generate' && process.env.BENCH_CPU_PROF ? new Session() : undefined;
      if (profiling) {
        profiling.connect();
        await profiling.post('Profiler.enable');
        await profiling.post('Profiler.start');
      }
      const stop = await cpuMeter(database);
      const id = await jobs.start({
        kind: 'rental_generate', scope: MONTH.ym, params: { ym: MONTH.ym }, user,
        work: ({ id: jobId, progress }) => rentalGenerate({ db: database.db, userId: admin, call: 'rental_generate', jobId }, MONTH, progress),
      });
      let job = await jobs.find(id);
      while (job?.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        job = await jobs.find(id);
      }
      if (job?.state !== 'done' || !job.result) throw new Error(`the run ended ${job?.state}: ${job?.error}`);
      const r = job.result as RentalGenerateResult;
      const used = await stop();
      if (profiling) {
        const { profile } = await profiling.post('Profiler.stop');
        await writeFile(join(process.env.BENCH_CPU_PROF!, `rental-${dialect}.cpuprofile`), JSON.stringify(profile));
        profiling.disconnect();
      }
      console.log(`${dialect}: ${pass === 'generate' ? 'generate' : 'generate the same month again'}: ${cpuText(used)} — ${r.created.toLocaleString()} slips created, ${r.existed.toLocaleString()} existed${pass === 'generate' ? ` (goal: under ${GOAL_MS.toLocaleString()} ms)` : ''}`);
    }
    await jobs.close();
  } finally {
    await database.close();
    await target.cleanup();
  }
}

for (const dialect of benchDialects()) await run(dialect);
