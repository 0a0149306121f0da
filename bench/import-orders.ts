/**
 * Benchmark: 受注取込 (issue 14) of 100,000 order lines — 25,000 orders × 4 lines (three reduced-rate waters and a
 * standard-rate rental) for 5,000 customers by 顧客コード, a cp932 file of about 5 MB — through the real server:
 * `import_preview` (upload, decode, parse, map, the dry run through the order's write path, rolled back) and then
 * `import_commit` (the job writing them in one transaction). Prints the seconds of each and the server process's RSS
 * before and at its peak (one server process, WEB_CONCURRENCY=1, so the peak is the process doing the work).
 * Goal: each under 60 s, flat memory.
 *
 * Run: `node --import tsx bench/import-orders.ts` (BENCH_ORDERS, BENCH_CUSTOMERS, BENCH_DIALECTS; PostgreSQL with TEST_DATABASE_URL).
 */
import { itemResource } from '../lib/resources/item';
import { orderImportKind } from '../lib/imports/columns/order';
import { createUser } from '../server/auth/users';
import { refreshStatistics } from '../server/db/connect';
import { migrateToLatest } from '../server/db/migrate';
import { csvRecords, encodeCsv } from '../server/resources/csv-text';
import { bulkInsert } from '../server/seed/bulk-insert';
import { DEMO_ITEMS } from '../server/seed/data/stock';
import { seedSyntheticClients } from '../server/seed/seed';
import { sql } from 'kysely';
import { ADMIN, benchDialects, cpuSeconds, freshTarget, login, rssMb, seconds, startServer } from './list-bench';

process.env.TZ ||= 'Asia/Tokyo';

const ORDERS = Number(process.env.BENCH_ORDERS ?? 25_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 5_000);
const LINES = [['W12R', '2'], ['RO12R', '1'], ['W12O', '3'], ['SV-RENT', '1']] as const;

/** The import file: the template's header, then each order's 4 lines (customer `BC{id}` by code, ids from `first`). */
function orderFile(first: number): Buffer {
  const records: string[][] = [orderImportKind.columns.map((c) => c.label)];
  for (let n = 0; n < ORDERS; n++) {
    const key = `BENCH-${String(n + 1).padStart(6, '0')}`;
    for (const [i, [code, quantity]] of LINES.entries()) {
      const head = i === 0 ? [`BC${first + (n % CUSTOMERS)}`, '', '2026/11/25', '2026/11/27', '', ''] : ['', '', '', '', '', ''];
      const [clCode, tel, date, delivery, slot, biko] = head;
      records.push([key, clCode, tel, date, delivery, slot, code, quantity, i === 3 ? '1100' : '', biko]);
    }
  }
  return encodeCsv(csvRecords(records), 'cp932').bytes;
}

/** Runs a step while sampling the server's RSS every 50 ms. */
async function measured<T>(pid: number, step: () => Promise<T>): Promise<{ answer: T; took: string; cpu: number; before: number; peak: number }> {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
  const started = Date.now();
  const cpuBefore = cpuSeconds(pid);
  try {
    const answer = await step();
    return { answer, took: seconds(started), cpu: cpuSeconds(pid) - cpuBefore, before, peak: Math.max(peak, rssMb(pid)) };
  } finally {
    clearInterval(sampler);
  }
}

async function call<T>(url: string, name: string, body: URLSearchParams | FormData): Promise<T> {
  const res = await fetch(`${url}/api/db/${name}`, { method: 'POST', body });
  const answer = (await res.json()) as T[];
  if (!res.ok) throw new Error(`${name} answered ${res.status}: ${JSON.stringify(answer).slice(0, 500)}`);
  return answer[0];
}

for (const dialect of benchDialects()) {
  const target = await freshTarget(dialect);
  const { db } = target.database;
  const loading = Date.now();
  await migrateToLatest(db, dialect);
  await createUser(db, { ...ADMIN, name: 'ベンチ', role: '管理' });
  await seedSyntheticClients(db, CUSTOMERS);
  const first = Number((await db.selectFrom('client').select((eb) => eb.fn.min<number>('cl_id').as('id')).executeTakeFirstOrThrow()).id);
  await sql`UPDATE client SET cl_code = 'BC' || cl_id`.execute(db);
  await bulkInsert(db, itemResource, DEMO_ITEMS);
  await refreshStatistics(target.database, { full: true });
  await target.database.close();
  const file = orderFile(first);
  console.log(`${dialect}: ${CUSTOMERS.toLocaleString()} customers loaded in ${seconds(loading)}; file of ${(ORDERS * LINES.length).toLocaleString()} lines, ${(file.length / 1024 / 1024).toFixed(1)} MB cp932`);
  const server = await startServer({ ...target.env, WEB_CONCURRENCY: '1' });
  try {
    const authKey = await login(server.url);
    const form = new FormData();
    form.set('authKey', authKey);
    form.set('kind', 'order');
    form.set('file', new Blob([new Uint8Array(file)], { type: 'text/csv' }), 'bench-orders.csv');
    const preview = await measured(server.pid, () => call<{ import_id: number; rows: number; inserts: number; errors: unknown[] }>(server.url, 'import_preview', form));
    const p = preview.answer;
    if (p.errors.length > 0 || p.inserts !== ORDERS * LINES.length) throw new Error(`preview: ${JSON.stringify(p).slice(0, 500)}`);
    console.log(`${dialect} import_preview: ${p.rows.toLocaleString()} rows in ${preview.took} (server CPU ${preview.cpu.toFixed(1)} s); server RSS ${preview.before.toFixed(0)} → peak ${preview.peak.toFixed(0)} MB`);
    const commit = await measured(server.pid, async () => {
      const { job_id } = await call<{ job_id: number }>(server.url, 'import_commit', new URLSearchParams({ authKey, import_id: String(p.import_id) }));
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        const job = await call<{ state: string; error?: string; result?: { inserts: number } }>(server.url, 'job_dtl', new URLSearchParams({ authKey, id: String(job_id) }));
        if (job.state !== 'running') return job;
      }
    });
    if (commit.answer.state !== 'done' || commit.answer.result?.inserts !== ORDERS * LINES.length) throw new Error(`commit: ${JSON.stringify(commit.answer).slice(0, 500)}`);
    console.log(`${dialect} import_commit: ${ORDERS.toLocaleString()} orders in ${commit.took} (server CPU ${commit.cpu.toFixed(1)} s); server RSS ${commit.before.toFixed(0)} → peak ${commit.peak.toFixed(0)} MB`);
  } finally {
    await server.stop();
    await target.cleanup();
  }
}
console.log('goal: preview and commit each under 60 s, flat memory');
