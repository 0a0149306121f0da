/**
 * Benchmark (issue 14): the JACCS direct-debit request of a closing of 20,000 口座振替 customers — `jaccs_preview`'s work (the
 * plan: the closing's invoices with a 残額, their customers' accounts, every check) and `jaccs_request`'s (the plan again
 * under the closing's lock, the 全銀 種別91 file of 20,002 records, the request and its 20,000 rows written, the closing
 * stamped) — on SQLite and, when TEST_DATABASE_URL or BENCH_DATABASE_URL is set, PostgreSQL. Goal: the request under 5 s
 * (60 s at 100,000, issue 21).
 * Then the result file of that request read back (`jaccs_result`'s `records`, `apply` per thousand and `finish` in one
 * transaction: a payment slip per customer through the write path and its 消込 by `allocateMany`) twice: the dry run
 * (rolled back) and the commit (committed). Goal: each under 15 s. Wall time, this process's CPU and the load average.
 *
 * The fixture is loaded for the benchmark only: synthetic customers (seedSyntheticClients) given accounts by one UPDATE,
 * a closing row and one invoice per customer by set-based INSERTs.
 *
 * Run: `node --import tsx bench/jaccs-request.ts [N]` (N or BENCH_CUSTOMERS: the customers, e.g. 100000 — goal 60 s each;
 * BENCH_DIALECTS=postgres to measure one dialect, BENCH_RESULT=0 to skip the result import; BENCH_DATA_DIR keeps the
 * loaded database there for the next run, bench/month-data.ts).
 */
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import { createUser } from '../server/auth/users';
import type { DialectName } from '../server/config';
import type { AppDatabase } from '../server/db/connect';
import { jaccsResultImport } from '../server/imports/kinds/jaccs_result';
import { jaccsPlan, makeRequest } from '../server/jaccs/request';
import { seedSyntheticClients } from '../server/seed/seed';
import { zenginResult } from '../tests/support/zengin-result';
import { benchDialects } from './list-bench';
import { benchSize, cpuMeter, cpuText, monthGoalMs, monthTarget } from './month-data';

process.env.TZ ||= 'Asia/Tokyo';

const CUSTOMERS = benchSize('BENCH_CUSTOMERS', 20_000);
const GOAL_MS = monthGoalMs(CUSTOMERS, 5_000);
const RESULT_GOAL_MS = monthGoalMs(CUSTOMERS, 15_000);
const ms = (since: number): number => Math.round(performance.now() - since);

class RolledBack extends Error {}

/** Customers paying by 口座振替, 自社情報's 委託者 data, a closing and one invoice per customer. */
async function load(db: AppDatabase['db'], dialect: DialectName): Promise<void> {
  await seedSyntheticClients(db, CUSTOMERS);
  const code = dialect === 'postgres' ? sql`lpad(cl_id::text, 20, '0')` : sql`substr('00000000000000000000' || cl_id, -20)`;
  await sql`UPDATE client SET cl_sime_gp = '31', cl_parent_id = NULL, cl_pm_id = '1', cl_collect_type = '1', cl_bank_code = '0005', cl_branch_code = '123',
    cl_account_type = '1', cl_account_no = '1234567', cl_account_kana = 'ﾃｽﾄ ﾀﾛｳ', cl_debit_code = ${code}`.execute(db);
  await sql`UPDATE company_setting SET cs_itaku_code = '1234567890', cs_itaku_name = 'ﾍﾞﾝﾁﾀｸﾊｲｽｲ', cs_itaku_bank_code = '0001', cs_itaku_bank_kana = 'ﾐｽﾞﾎ',
    cs_itaku_branch_code = '001', cs_itaku_branch_kana = 'ﾎﾝﾃﾝ', cs_itaku_account_type = '1', cs_itaku_account_no = '7654321'`.execute(db);
  const stamp = '2026-12-01T00:00:00.000Z';
  const methods = await db.selectFrom('master_option').select('mo_id').where('mo_table', '=', 'mt_pmt_method').where('mo_text', '=', '口座振替').execute();
  if (methods.length === 0) {
    await sql`INSERT INTO master_option (mo_table, mo_value, mo_text, mo_flg, mo_sort, created, modified, deleted)
      VALUES ('mt_pmt_method', '1', '口座振替', 0, 1, ${stamp}, ${stamp}, 0)`.execute(db);
  }
  await sql`INSERT INTO closing (cls_sime_gp, cls_sime_ym, cls_closing_date, cls_invoices, cls_total, cls_jaccs_at, cls_export_at, created, modified)
    VALUES ('31', '202611', '2026-11-30', ${CUSTOMERS}, 0, '', '', ${stamp}, ${stamp})`.execute(db);
  const closing = await db.selectFrom('closing').select('cls_id').executeTakeFirstOrThrow();
  await sql`INSERT INTO billing (bl_number, bl_sime_gp, bl_sime_ym, bl_closing_date, bl_period_from, bl_period_to, bl_due_date, bl_name, bl_cl_id, bl_cls_id,
      bl_prev_total, bl_paid, bl_carry, bl_sales_net, bl_tax_total, bl_total, bl_allocated, bl_open, bl_print_count, created, modified, deleted)
    SELECT 'BL202611-' || cl_id, '31', '202611', '2026-11-30', '2026-11-01', '2026-11-30', '2026-12-28', cl_co_name, cl_id, ${Number(closing.cls_id)},
      0, 0, 0, 5000 + (cl_id % 50) * 100, 400, 5400 + (cl_id % 50) * 100, 0, 5400 + (cl_id % 50) * 100, 0, ${stamp}, ${stamp}, 0 FROM client`.execute(db);
}

async function run(dialect: DialectName): Promise<void> {
  const target = await monthTarget(dialect, `jaccs-${CUSTOMERS}`, (db) => load(db, dialect));
  const { database } = target;
  const { db } = database;
  try {
    console.log(`${dialect}: ${CUSTOMERS.toLocaleString()} 口座振替 customers with an invoice ${target.loaded.copied ? 'copied from BENCH_DATA_DIR' : 'loaded'} in ${target.loaded.seconds.toFixed(1)} s (load ${loadavg()[0].toFixed(1)})`);

    const admin = await createUser(db, { email: 'bench@example.jp', password: 'bench-password-2026', name: 'ベンチ', role: '管理' });
    const previewStart = performance.now();
    const { preview } = await jaccsPlan(db, '31', '202611');
    console.log(`${dialect}: jaccs_preview: ${ms(previewStart).toLocaleString()} ms — ${preview.count.toLocaleString()} customers, ${preview.total.toLocaleString()} 円, ${preview.problem_rows} with problems`);
    const stop = await cpuMeter(database);
    const made = await makeRequest(db, { userId: admin, call: 'jaccs_request' }, '31', '202611', false);
    console.log(`${dialect}: jaccs_request: ${cpuText(await stop())} — ${made.count.toLocaleString()} records, ${made.bytes.length.toLocaleString()} bytes (goal: under ${GOAL_MS.toLocaleString()} ms)`);

    if (process.env.BENCH_RESULT !== '0') {
      const result = zenginResult(made.bytes, { codes: { '00000000000000000002': '1' } });
      // The dry run (rolled back), then the commit (committed): the same records, the kind's whole work each time.
      for (const dryRun of [true, false]) {
        const importStart = performance.now();
        const importing = await cpuMeter(database);
        const rows = jaccsResultImport.records!(result);
        const read = ms(importStart);
        let errors = 0;
        try {
          await db.transaction().execute(async (trx) => {
            const run = { trx, actor: { userId: admin, call: 'import_commit' }, dryRun, state: new Map<string, unknown>() };
            for (let i = 0; i < rows.length; i += 1000) errors += (await jaccsResultImport.apply(run, rows.slice(i, i + 1000))).errors.length;
            errors += ((await jaccsResultImport.finish?.(run)) ?? []).length;
            if (dryRun) throw new RolledBack();
          });
        } catch (error) {
          if (!(error instanceof RolledBack)) throw error;
        }
        const what = dryRun ? 'dry run, rolled back' : 'commit';
        console.log(`${dialect}: jaccs_result of ${rows.length.toLocaleString()} records (${what}): ${cpuText(await importing())}, reading ${read} ms, ${errors} errors (goal: under ${RESULT_GOAL_MS.toLocaleString()} ms)`);
      }
    }
  } finally {
    await database.close();
    await target.cleanup();
  }
}

for (const dialect of benchDialects()) await run(dialect);
