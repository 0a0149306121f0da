/**
 * Benchmark: the batch PDF of a closing (issue 13, `billing_pdf_batch`): N invoices (default 1,000) drawn into one
 * merged PDF and, again one by one, into a ZIP of one PDF per customer, on SQLite and — when TEST_DATABASE_URL or
 * BENCH_DATABASE_URL is set — PostgreSQL. Goal: under 60 s, memory flat.
 *
 * Data: N customers (the demo generator), each with three slips of the month written through the sales save (2 to 4
 * lines each: water at 8 %, rental at 10 %, now and then a deposit), every 50th customer one slip of 60 more lines
 * (a three-page invoice), one payment each, an opening balance, and the month closed by the real closing (`closingRun`,
 * 20日締め 2026年05月).
 * Measured: the job from start to end (`batchPdf` run by the jobs machinery, its progress written to the job store),
 * this process's CPU, the resident memory sampled every 50 ms while it runs (its peak, and at each quarter of the
 * invoices, with the live heap after a full collection), the files' pages and sizes (written into the file store) — twice:
 * the first batch stores every invoice in the archive (its first delivery, server/billing/archive.ts), the second hands
 * out the stored versions. Issue 22's goal: storing adds at most 20 % to the batch (compare the first batch with the same
 * bench at a commit before the archive).
 *
 * Run: `node --expose-gc --import tsx bench/billing-pdf.ts` (BENCH_INVOICES to change N, BENCH_DIALECTS=postgres for one dialect).
 */
import { join } from 'node:path';
import { normalizeAreas } from '../lib/permissions';
import { COMPANY_SETTING_ID, companyResource } from '../lib/resources/company';
import { paymentResource } from '../lib/resources/payment';
import { salesResource } from '../lib/resources/sales';
import { createUser } from '../server/auth/users';
import { batchPdf, type BatchResult } from '../server/billing/batch';
import { closingRun } from '../server/closing/run';
import { closingPeriod } from '../lib/closing/period';
import type { DialectName } from '../server/config';
import { refreshStatistics } from '../server/db/connect';
import { chunksOf } from '../server/db/bulk-write';
import { migrateToLatest } from '../server/db/migrate';
import { createJobs } from '../server/jobs/jobs';
import { saveBatch, saveRecord, type BulkEntry } from '../server/resources/records';
import { bulkInsert } from '../server/seed/bulk-insert';
import { DEMO_COMPANY } from '../server/seed/data/company';
import { seedSyntheticClients } from '../server/seed/seed';
import { benchDialects, freshTarget } from './list-bench';

process.env.TZ ||= 'Asia/Tokyo';

const INVOICES = Number(process.env.BENCH_INVOICES ?? 1_000);
const MB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Three slips of May 2026 for a customer; every 50th customer one more long slip. */
function slipsOf(cl_id: number, i: number): BulkEntry[] {
  const line = (n: number) => (n % 5 === 4
    ? { name: '容器保証金', quantity: 1, price: 1000, tax_class: 'outside' }
    : n % 2 === 0 ? { name: '天然水 12L ボトル', quantity: 1 + (n % 3), price: 1200, tax_class: 'reduced' } : { name: 'ウォーターサーバー レンタル', quantity: 1, price: 1100, tax_class: 'standard' });
  const slips = [5, 12, 19].map((day, s) => ({ values: { cl_id, date: `2026-05-${String(day).padStart(2, '0')}`, lines: Array.from({ length: 2 + ((i + s) % 3) }, (_, n) => line(n + s)) } }));
  if (i % 50 === 0) slips.push({ values: { cl_id, date: '2026-05-20', lines: Array.from({ length: 60 }, (_, n) => line(n)) } });
  return slips;
}

async function run(dialect: DialectName): Promise<void> {
  const target = await freshTarget(dialect);
  const { database } = target;
  const { db } = database;
  const config = { dialect, databaseUrl: target.env.DATABASE_URL ?? '', sqliteFile: target.env.DATA_DIR ? join(target.env.DATA_DIR, 'app.db') : '' };
  try {
    const loading = performance.now();
    await migrateToLatest(db, dialect);
    const admin = await createUser(db, { email: 'bench@example.jp', password: 'bench-password-2026', name: 'ベンチ', role: '管理' });
    const company = await db.selectFrom('company_setting').select('modified').where('cs_id', '=', COMPANY_SETTING_ID).executeTakeFirstOrThrow();
    await saveRecord({ db, userId: admin, call: 'bench' }, companyResource, COMPANY_SETTING_ID, { ...DEMO_COMPANY, modified: company.modified });
    await seedSyntheticClients(db, INVOICES);
    const clients = (await db.selectFrom('client').select('cl_id').where('deleted', '=', 0).orderBy('cl_id').limit(INVOICES).execute()).map((r) => Number(r.cl_id));
    // Every customer billed on its own in the 20日締め group, with a balance carried in.
    await db.updateTable('client').set({ cl_sime_gp: '20', cl_parent_id: null, cl_opening_balance: 5000, cl_opening_balance_date: '2026-04-01' }).execute();
    for (const chunk of chunksOf(clients.map((cl_id, i) => ({ cl_id, i })), 200)) {
      const entries = chunk.flatMap(({ cl_id, i }) => slipsOf(cl_id, i));
      await db.transaction().execute((trx) => saveBatch(trx, { userId: admin, call: 'bench' }, salesResource, entries, { answer: false }));
    }
    await bulkInsert(db, paymentResource, clients.map((cl_id) => ({ cl_id, date: '2026-05-10', amount: 5000, kind: 'transfer', bank: '', biko: '' })));
    const closed = await closingRun({ db, userId: admin, call: 'closing_run' }, closingPeriod('20', '202605'));
    await refreshStatistics(database, { full: true });
    const lines = await db.selectFrom('sales_detail').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    console.log(`${dialect}: ${closed.invoices.toLocaleString()} invoices of ${Number(lines.n).toLocaleString()} slip lines, loaded and closed in ${seconds(loading)}`);

    const jobs = await createJobs(config, database);
    const user = { user_id: admin, user_email: 'bench@example.jp', user_name: 'ベンチ', user_role: '管理', areas: normalizeAreas({}), keyHash: '' };
    /** One batch of the closing, timed: `label` says which. */
    const batch = async (label: string): Promise<void> => {
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const quarters: string[] = [];
      const sampler = setInterval(() => {
        peak = Math.max(peak, process.memoryUsage().rss);
      }, 50);
      const started = performance.now();
      const cpu = process.cpuUsage();
      const id = await jobs.start<BatchResult>({
        kind: 'billing_pdf_batch', scope: '20:202605', params: { sime_gp: '20', sime_ym: '202605' }, user,
        work: ({ id: jobId, progress }) => batchPdf({
          db, jobId, userId: admin, call: 'billing_pdf_batch', simeGp: '20', simeYm: '202605', fallbackName: '',
          progress: async (done, total) => {
            if (total && done > 0 && Math.floor((done * 4) / total) > quarters.length) {
              // The live heap after a full collection (with --expose-gc) says whether memory grows with the invoices.
              global.gc?.();
              const { rss, heapUsed } = process.memoryUsage();
              quarters.push(`${done.toLocaleString()}: ${MB(rss)} (live heap ${MB(heapUsed)})`);
            }
            await progress(done, total);
          },
        }),
      });
      let job = await jobs.find(id);
      while (job?.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = await jobs.find(id);
      }
      clearInterval(sampler);
      if (job?.state !== 'done' || !job.result) throw new Error(`the batch ended ${job?.state}: ${job?.error}`);
      const r = job.result as BatchResult;
      const used = process.cpuUsage(cpu);
      const elapsed = performance.now() - started;
      console.log(`${dialect}: ${label}: batch PDF of ${r.invoices.toLocaleString()} invoices (${r.pages.toLocaleString()} pages): ${(elapsed / 1000).toFixed(1)} s, ${(elapsed / r.invoices).toFixed(1)} ms per invoice (goal: under 60 s); this process's CPU ${(((used.user + used.system) / 1000) / 1000).toFixed(1)} s`);
      console.log(`${dialect}: ${label}: merged PDF ${MB(r.pdf_bytes)}, ZIP ${MB(r.zip_bytes)} (${r.invoices.toLocaleString()} files)`);
      console.log(`${dialect}: ${label}: resident memory before ${MB(rssBefore)}, peak while running ${MB(peak)}; at invoice ${quarters.join(', ')}`);
      const versions = await db.selectFrom('invoice_archive').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      console.log(`${dialect}: ${label}: archived versions now ${Number(versions.n).toLocaleString()}`);
    };
    // The first batch is every invoice's first delivery: each rendered once and stored in the archive. The second hands
    // out the stored versions (the ZIP's entries read back from the store, the merged PDF drawn again).
    await batch('first batch (stores each invoice)');
    await batch('second batch (the stored versions)');
    await jobs.close();
  } finally {
    await database.close();
    await target.cleanup();
  }
}

for (const dialect of benchDialects()) await run(dialect);
