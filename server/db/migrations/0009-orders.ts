/**
 * Orders (issue 4): the order's number, delivery, warehouse, payment, shipping address and totals,
 * and its lines (`order_detail`), each line's tax class and rate fixed at the order date so a
 * processed order can become a sales slip.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable, sortIndexes, withId } from './resource-table';

const TEXT = ['number', 'delivery_date', 'ht_id', 'sk_id', 'pm_id', 'tracking_no', 'hold_reason',
  'ship_co_name', 'ship_name', 'ship_zipcode', 'ship_pref', 'ship_city', 'ship_address', 'ship_building', 'ship_tel'];
const INTEGER = ['delivery_fee', 'net_total', 'tax_total'];

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  for (const name of TEXT) await db.schema.alterTable('orders').addColumn(`od_${name}`, 'text', (c) => c.notNull().defaultTo('')).execute();
  for (const name of INTEGER) await db.schema.alterTable('orders').addColumn(`od_${name}`, 'integer').execute();
  await sortIndexes(db, 'orders', 'od_id', ['od_delivery_date']);
  await db.schema.createIndex('orders_number_idx').on('orders').columns(['od_number']).execute();

  // Lines are replaced as a whole by the order's save (no soft delete): the order's audit rows keep their history.
  await withId(db.schema.createTable('order_detail'), 'odd_id', dialect)
    .addColumn('odd_od_id', 'integer', (c) => c.notNull().references('orders.od_id'))
    .addColumn('odd_sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('odd_it_id', 'integer', (c) => c.notNull().references('item.it_id'))
    .addColumn('odd_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('odd_quantity', 'integer', (c) => c.notNull())
    .addColumn('odd_price', 'integer', (c) => c.notNull())
    .addColumn('odd_amount', 'integer', (c) => c.notNull())
    .addColumn('odd_tax_class', 'text', (c) => c.notNull())
    .addColumn('odd_tax_rate', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('order_detail_od_idx').on('order_detail').columns(['odd_od_id', 'odd_sort']).execute();
  await db.schema.createIndex('order_detail_it_idx').on('order_detail').columns(['odd_it_id']).execute();

  // 受注設定: one record (id 1), edited at /system/orders.
  await createResourceTable(db, dialect, {
    table: 'order_setting', prefix: 'os_', text: ['number_format', 'sk_id', 'cutoff_time', 'ht_id'], integer: [], sortable: ['modified'],
  });
  const stamp = new Date().toISOString();
  await sql`INSERT INTO order_setting (os_number_format, os_cutoff_time, created, modified, deleted) VALUES ('OD{yyyy}{mm}{dd}-{id:6}', '12:00', ${stamp}, ${stamp}, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('order_detail').ifExists().execute();
  await db.schema.dropTable('order_setting').ifExists().execute();
}
