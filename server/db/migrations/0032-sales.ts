/**
 * 売上伝票 (issue 12): the `sales` resource table, its lines (`sales_detail`, replaced as a whole by the slip's
 * save like an order's lines) and its totals per tax rate (`sales_rate`, one row per bucket of the one money
 * computation: what closing sums per rate). `sl_bli_id` is the invoice that billed the slip (set by closing);
 * a billed slip is neither edited nor deleted, nor its order moved back from 処理済.
 */
import type { Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable, withId } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'sales', prefix: 'sl_',
    text: ['number', 'date', 'kind', 'rate_summary', 'biko'],
    integer: ['cl_id', 'usr_id', 'od_id', 'net_total', 'tax_total', 'total', 'bli_id'],
    sortable: ['sl_date', 'sl_kind', 'sl_total', 'created', 'modified'],
    // A customer's slips by date (its 売上 tab, the receivable's sum: the index holds the total), a slip by its order.
    indexes: [['deleted', 'sl_cl_id', 'sl_date'], ['sl_cl_id', 'deleted', 'sl_total'], ['sl_od_id']],
  });

  await withId(db.schema.createTable('sales_detail'), 'sld_id', dialect)
    .addColumn('sld_sl_id', 'integer', (c) => c.notNull().references('sales.sl_id'))
    .addColumn('sld_sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sld_it_id', 'integer', (c) => c.references('item.it_id'))
    .addColumn('sld_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sld_quantity', 'integer', (c) => c.notNull())
    .addColumn('sld_price', 'double precision', (c) => c.notNull())
    .addColumn('sld_amount', 'integer', (c) => c.notNull())
    .addColumn('sld_tax_class', 'text', (c) => c.notNull())
    .addColumn('sld_tax_rate', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sales_detail_sl_idx').on('sales_detail').columns(['sld_sl_id', 'sld_sort']).execute();
  await db.schema.createIndex('sales_detail_it_idx').on('sales_detail').columns(['sld_it_id']).execute();

  await withId(db.schema.createTable('sales_rate'), 'slr_id', dialect)
    .addColumn('slr_sl_id', 'integer', (c) => c.notNull().references('sales.sl_id'))
    .addColumn('slr_key', 'text', (c) => c.notNull())
    .addColumn('slr_tax_class', 'text', (c) => c.notNull())
    .addColumn('slr_rate', 'integer', (c) => c.notNull())
    .addColumn('slr_amount', 'integer', (c) => c.notNull())
    .addColumn('slr_net', 'integer', (c) => c.notNull())
    .addColumn('slr_tax', 'integer', (c) => c.notNull())
    .addColumn('slr_total', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sales_rate_sl_idx').on('sales_rate').columns(['slr_sl_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sales_rate').ifExists().execute();
  await db.schema.dropTable('sales_detail').ifExists().execute();
  await db.schema.dropTable('sales').ifExists().execute();
}
