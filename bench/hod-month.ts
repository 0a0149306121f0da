/**
 * Benchmark: one month of regular deliveries (December 2026, with the year-end) over N scheduled
 * customers (default 20,000; 1 in 20 with a pause, 1 in 25 with a skip), on SQLite and — when
 * TEST_DATABASE_URL or BENCH_DATABASE_URL is set — PostgreSQL:
 * - the preview (`hodPreview`, the work behind `hod_preview`): first run and the best of the following runs;
 * - the generation (`hod_generate`: `hodGenerate` run as a job, server/jobs, its progress written to the job store
 *   between chunks), from the start until the job has ended: the run that creates the month's orders, then the same
 *   month again (creates nothing). Goal: the month's generation under 10 s (60 s at 100,000, issue 21). The CPU time of
 *   the bench's process and of PostgreSQL's is printed too: on a machine shared with other work it is the steadier
 *   figure (SQLite works inside the bench's process).
 *
 * Run: `node --import tsx bench/hod-month.ts [N]` (N or BENCH_SCHEDULED: the scheduled customers, e.g. 100000 — goal 60 s;
 * BENCH_RUNS the repeated previews; BENCH_DIALECTS=postgres to measure one dialect; BENCH_DATA_DIR keeps the loaded
 * database there for the next run, bench/month-data.ts).
 */
import { createUser } from '../server/auth/users';
import { EXCEPTION_KIND } from '../lib/hod/kinds';
import { normalizeAreas } from '../lib/permissions';
import { hodPauseResource } from '../lib/resources/hod-pause';
import type { DialectName } from '../server/config';
import type { AppDatabase } from '../server/db/connect';
import { hodGenerate } from '../server/hod/generate';
import { createJobs } from '../server/jobs/jobs';
import { loadavg } from 'node:os';
import { hodPreview } from '../server/hod/preview';
import { itemResource } from '../lib/resources/item';
import { bulkInsert } from '../server/seed/bulk-insert';
import { seedSyntheticClients } from '../server/seed/seed';
import { benchDialects } from './list-bench';
import { benchSize, cpuMeter, cpuText, monthGoalMs, monthTarget } from './month-data';

process.env.TZ ||= 'Asia/Tokyo';

const SCHEDULED = benchSize('BENCH_SCHEDULED', 20_000);
const GOAL_MS = monthGoalMs(SCHEDULED, 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FROM = '2026-12-01';
const TO = '2026-12-31';

const ms = (since: number): number => Math.round(performance.now() - since);

/** Demo customers until at least `count` are scheduled, then exactly `count` of them kept scheduled. */
async function seedScheduled(db: AppDatabase['db'], count: number): Promise<void> {
  await seedSyntheticClients(db, count * 2);
  const cut = await db.selectFrom('client').select('cl_id').where('cl_haiso_flag', '=', 1).where('deleted', '=', 0)
    .orderBy('cl_id').offset(count - 1).limit(1).executeTakeFirst();
  if (cut) await db.updateTable('client').set({ cl_haiso_flag: 0 }).where('cl_haiso_flag', '=', 1).where('cl_id', '>', cut.cl_id).execute();
  const ids = (await db.selectFrom('client').select('cl_id').where('cl_haiso_flag', '=', 1).orderBy('cl_id').execute()).map((r) => Number(r.cl_id));
  const exceptions = [
    ...ids.filter((_, i) => i % 20 === 0).map((cl_id) => ({ cl_id, kind: EXCEPTION_KIND.pause, from_date: '2026-12-10', to_date: '2026-12-20', reason: '休配' })),
    ...ids.filter((_, i) => i % 25 === 1).map((cl_id) => ({ cl_id, kind: EXCEPTION_KIND.skip, from_date: '2026-12-15', to_date: '2026-12-15', reason: 'スキップ' })),
  ];
  await bulkInsert(db, hodPauseResource, exceptions);
  await bulkInsert(db, itemResource, [{ code: 'W12', name: '天然水 12L', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: 0, returnable: 1 }]);
}

async function run(dialect: DialectName): Promise<void> {
  const target = await monthTarget(dialect, `hod-${SCHEDULED}`, (db) => seedScheduled(db, SCHEDULED));
  const { database, config } = target;
  try {
    const scheduled = Number((await database.db.selectFrom('client').select((eb) => eb.fn.countAll<number>().as('n')).where('cl_haiso_flag', '=', 1).where('deleted', '=', 0).executeTakeFirstOrThrow()).n);
    console.log(`${dialect}: ${scheduled.toLocaleString()} scheduled customers ${target.loaded.copied ? 'copied from BENCH_DATA_DIR' : 'loaded'} in ${target.loaded.seconds.toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`);
    const times: number[] = [];
    let summary = '';
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      const answer = await hodPreview(database.db, FROM, TO, 100, 1);
      times.push(ms(started));
      summary = `${answer.customers.toLocaleString()} customers → ${answer.deliveries.toLocaleString()} deliveries (${answer.moved.toLocaleString()} moved off Sundays/holidays), ${answer.skipped.toLocaleString()} skipped, ${answer.bottles.toLocaleString()} bottles`;
    }
    console.log(`${dialect}: preview ${FROM}〜${TO}: ${summary}`);
    console.log(`${dialect}: preview first run ${times[0]} ms, best of ${RUNS} more ${Math.min(...times.slice(1))} ms`);
    const admin = await createUser(database.db, { email: 'bench@example.jp', password: 'bench-password-2026', name: 'ベンチ', role: '管理' });
    const ctx = { db: database.db, userId: admin, call: 'hod_generate' };
    const jobs = await createJobs(config, database);
    const user = { user_id: admin, user_email: 'bench@example.jp', user_name: 'ベンチ', user_role: '管理', areas: normalizeAreas({}), keyHash: '' };
    for (const run of ['generate', 'again'] as const) {
      const stop = await cpuMeter(database);
      const id = await jobs.start({ kind: 'hod_generate', scope: `${FROM}..${TO}`, params: {}, user, work: ({ id: jobId, progress }) => hodGenerate({ ...ctx, jobId }, FROM, TO, { progress }) });
      let job = await jobs.find(id);
      while (job?.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 20));
        job = await jobs.find(id);
      }
      if (job?.state !== 'done' || !job.result) throw new Error(`the generation ended ${job?.state}: ${job?.error}`);
      const g = job.result as Awaited<ReturnType<typeof hodGenerate>>;
      const used = await stop();
      console.log(`${dialect}: ${run === 'generate' ? 'generate' : 'generate the same month again'}: ${cpuText(used)} — ${g.created.toLocaleString()} orders created (${g.held.toLocaleString()} held for credit), ${g.existed.toLocaleString()} existed, ${g.skipped.toLocaleString()} skipped, ${g.advanced.toLocaleString()} next dates advanced${run === 'generate' ? ` (goal: under ${GOAL_MS.toLocaleString()} ms)` : ''}`);
    }
    await jobs.close();
  } finally {
    await database.close();
    await target.cleanup();
  }
}

for (const dialect of benchDialects()) await run(dialect);
