/**
 * Indexes for issues 11 and 12's figures.
 * - The `(deleted, name, id)` sort indexes of the names that sort by their reading (`FieldDef.reading`: 会社名, 氏名,
 *   商品名) are never read — sorting by such a name orders by the reading, the name and the id (`listOrder`), which
 *   migration 0018's `(deleted, reading, name, id)` indexes serve — yet every write of the row maintains them (a
 *   regular-delivery run moves 20,000 customers' next delivery date): dropped.
 * - The sales and payment lists' totals row (`{r}_sum`: the count and the money columns over the filtered rows) for a
 *   date range, the lists' usual filter, reads the sums from an index `(deleted, date, money columns…)` instead of
 *   visiting every slip of the range (`bench/sales-list.ts`: 250,000 slips, 250,000 payments).
 */
import type { Kysely } from 'kysely';

const UNREAD = [
  { index: 'client_cl_co_name_idx', table: 'client', columns: ['deleted', 'cl_co_name', 'cl_id'] },
  { index: 'client_cl_name_idx', table: 'client', columns: ['deleted', 'cl_name', 'cl_id'] },
  { index: 'item_it_name_idx', table: 'item', columns: ['deleted', 'it_name', 'it_id'] },
] as const;

const SUMS = [
  { index: 'sales_date_totals_idx', table: 'sales', columns: ['deleted', 'sl_date', 'sl_net_total', 'sl_tax_total', 'sl_total'] },
  { index: 'payment_date_amount_idx', table: 'payment', columns: ['deleted', 'py_date', 'py_amount'] },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const { index } of UNREAD) await db.schema.dropIndex(index).ifExists().execute();
  for (const { index, table, columns } of SUMS) await db.schema.createIndex(index).on(table).columns([...columns]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { index } of SUMS) await db.schema.dropIndex(index).ifExists().execute();
  for (const { index, table, columns } of UNREAD) await db.schema.createIndex(index).ifNotExists().on(table).columns([...columns]).execute();
}
