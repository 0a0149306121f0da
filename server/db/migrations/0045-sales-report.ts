/**
 * The sales report and the aging list (issue 13, `bench/salesreport.ts`: a year over 1,000,000 slip lines).
 * - Each slip line holds its part of its slip's tax buckets, `sld_net` and `sld_tax` (lib/money `lineShares`), and its
 *   slip's 売上日 while the slip is live, `sld_date` (NULL once the slip is deleted), both written by the sales save:
 *   the report sums a period's lines by day, item and bucket from one index alone (`sales_detail_report_idx`, in the
 *   order it groups by), without joining the slips or their buckets. The lines stored before get their parts from
 *   their slip's stored buckets (`sales_rate`), a thousand slips at a time, and their live slip's date.
 * - By customer, staff or team the report sums the slips themselves — a grouping that keeps slips whole needs no line —
 *   with `sl_quantity`, the quantity of a slip's items (written by the sales save; filled here from the lines):
 *   `sales_report_idx` holds every column that reads. It holds the sales list's totals row over a date range too
 *   (`sales_sum`: 0037's `sales_date_totals_idx`, which it replaces, so a slip's write maintains no more indexes).
 * - The aging list sums the unbilled slips per customer: 0041's partial index of the live slips no closing billed
 *   (`sales_unbilled_idx`, what closing reads) is made again holding their totals.
 */
import { sql, type Kysely } from 'kysely';
import { lineShares } from '../../../lib/money/totals';
import { taxClassOf } from '../../../lib/tax';
import { chunksOf, updateIntegersEach } from '../bulk-write';
import type { Database } from '../schema';

const INDEXES = [
  { index: 'sales_report_idx', table: 'sales', columns: ['deleted', 'sl_date', 'sl_cl_id', 'sl_usr_id', 'sl_net_total', 'sl_tax_total', 'sl_total', 'sl_quantity'] },
  { index: 'sales_detail_report_idx', table: 'sales_detail', columns: ['sld_date', 'sld_it_id', 'sld_tax_class', 'sld_tax_rate', 'sld_quantity', 'sld_net', 'sld_tax', 'sld_sl_id'] },
] as const;

/** The stored lines' parts of their slips' stored buckets. */
async function backfillShares(db: Kysely<Database>): Promise<void> {
  const slips = (await db.selectFrom('sales_rate').select('slr_sl_id').distinct().execute()).map((r) => Number(r.slr_sl_id));
  for (const chunk of chunksOf(slips, 1000)) {
    const [lines, rates] = await Promise.all([
      db.selectFrom('sales_detail').select(['sld_id', 'sld_sl_id', 'sld_amount', 'sld_tax_class', 'sld_tax_rate']).where('sld_sl_id', 'in', chunk).orderBy('sld_id').execute(),
      db.selectFrom('sales_rate').select(['slr_sl_id', 'slr_key', 'slr_amount', 'slr_net', 'slr_tax']).where('slr_sl_id', 'in', chunk).execute(),
    ]);
    const updates = new Map<number, { sld_net: number; sld_tax: number }>();
    for (const slip of chunk) {
      const own = lines.filter((l) => Number(l.sld_sl_id) === slip);
      const buckets = rates.filter((r) => Number(r.slr_sl_id) === slip).map((r) => ({ key: String(r.slr_key), amount: Number(r.slr_amount), net: Number(r.slr_net), tax: Number(r.slr_tax) }));
      const shares = lineShares(own.map((l) => ({ amount: Number(l.sld_amount), taxClass: taxClassOf(l.sld_tax_class), taxRate: Number(l.sld_tax_rate) })), buckets);
      own.forEach((l, i) => updates.set(Number(l.sld_id), { sld_net: shares[i].net, sld_tax: shares[i].tax }));
    }
    await updateIntegersEach(db, 'sales_detail', 'sld_id', updates);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sales_detail').addColumn('sld_net', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sales_detail').addColumn('sld_tax', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('sales_detail').addColumn('sld_date', 'text').execute();
  await backfillShares(db as Kysely<Database>);
  await sql`UPDATE sales_detail SET sld_date = (SELECT sl_date FROM sales WHERE sl_id = sld_sl_id AND deleted = 0)`.execute(db);
  await db.schema.alterTable('sales').addColumn('sl_quantity', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await sql`UPDATE sales SET sl_quantity = (SELECT COALESCE(SUM(sld_quantity), 0) FROM sales_detail WHERE sld_sl_id = sl_id AND sld_it_id IS NOT NULL)`.execute(db);
  for (const { index, table, columns } of INDEXES) await db.schema.createIndex(index).on(table).columns([...columns]).execute();
  await db.schema.dropIndex('sales_date_totals_idx').ifExists().execute();
  // 0041's index of the unbilled slips, now holding their totals too (what the aging list sums; closing reads the same prefix).
  await sql`DROP INDEX IF EXISTS sales_unbilled_idx`.execute(db);
  await sql`CREATE INDEX sales_unbilled_idx ON sales (sl_cl_id, sl_date, sl_total) WHERE sl_bli_id IS NULL AND deleted = 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS sales_unbilled_idx`.execute(db);
  await sql`CREATE INDEX sales_unbilled_idx ON sales (sl_cl_id, sl_date) WHERE sl_bli_id IS NULL AND deleted = 0`.execute(db);
  for (const { index } of INDEXES) await db.schema.dropIndex(index).ifExists().execute();
  await db.schema.createIndex('sales_date_totals_idx').ifNotExists().on('sales').columns(['deleted', 'sl_date', 'sl_net_total', 'sl_tax_total', 'sl_total']).execute();
  await db.schema.alterTable('sales').dropColumn('sl_quantity').execute();
  await db.schema.alterTable('sales_detail').dropColumn('sld_date').execute();
  await db.schema.alterTable('sales_detail').dropColumn('sld_tax').execute();
  await db.schema.alterTable('sales_detail').dropColumn('sld_net').execute();
}
