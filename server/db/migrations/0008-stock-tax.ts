/**
 * Warehouses with their stock and its movement history, the water-server ledger, the bottle
 * ledger and the consumption-tax rates (seeded with the Japanese rates since 1989, domain §2).
 */
import { sql, type Kysely } from 'kysely';
import { searchKey } from '../../../lib/text';
import type { DialectName } from '../../config';
import { createResourceTable, uniqueLive, withId } from './resource-table';

/** The rates of domain §2: [class, rate, from, to, label, note]. */
const JAPANESE_RATES: readonly (readonly [string, number, string, string, string, string])[] = [
  ['standard', 3, '1989-04-01', '1997-03-31', '消費税 3%', '消費税の導入'],
  ['standard', 5, '1997-04-01', '2014-03-31', '消費税 5%', '地方消費税 1% を含む'],
  ['standard', 8, '2014-04-01', '2019-09-30', '消費税 8%', '地方消費税 1.7% を含む'],
  ['standard', 10, '2019-10-01', '', '標準税率 10%', 'サーバーレンタル・メンテナンス・別建ての配送料など'],
  ['reduced', 8, '2019-10-01', '', '軽減税率 8%', '飲食料品（ボトル水、送料込み価格の水）'],
];

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await createResourceTable(db, dialect, {
    table: 'warehouse', prefix: 'sk_',
    text: ['code', 'name', 'zipcode', 'pref', 'address', 'tel', 'note'],
    integer: ['manager_id', 'active'],
    sortable: ['sk_code', 'sk_name', 'sk_pref', 'created', 'modified'],
    indexes: [['sk_manager_id', 'deleted']],
  });
  await uniqueLive(db, 'warehouse', ['sk_code']);

  // One row per warehouse × item; changed only together with a stock_move row.
  await withId(db.schema.createTable('stock'), 'st_id', dialect)
    .addColumn('st_sk_id', 'integer', (c) => c.notNull().references('warehouse.sk_id'))
    .addColumn('st_it_id', 'integer', (c) => c.notNull().references('item.it_id'))
    .addColumn('st_quantity', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addUniqueConstraint('stock_sk_it_uq', ['st_sk_id', 'st_it_id'])
    .addCheckConstraint('stock_quantity_ck', sql`st_quantity >= 0`)
    .execute();
  await db.schema.createIndex('stock_it_idx').on('stock').columns(['st_it_id', 'st_sk_id']).execute();

  await withId(db.schema.createTable('stock_move'), 'sm_id', dialect)
    .addColumn('sm_sk_id', 'integer', (c) => c.notNull().references('warehouse.sk_id'))
    .addColumn('sm_it_id', 'integer', (c) => c.notNull().references('item.it_id'))
    .addColumn('sm_kind', 'text', (c) => c.notNull())
    .addColumn('sm_quantity', 'integer', (c) => c.notNull())
    .addColumn('sm_before', 'integer', (c) => c.notNull())
    .addColumn('sm_after', 'integer', (c) => c.notNull())
    .addColumn('sm_reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('sm_usr_id', 'integer')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('stock_move_sk_idx').on('stock_move').columns(['sm_sk_id', 'sm_id']).execute();
  await db.schema.createIndex('stock_move_it_idx').on('stock_move').columns(['sm_it_id', 'sm_id']).execute();

  await createResourceTable(db, dialect, {
    table: 'water_server', prefix: 'sv_',
    text: ['serial_no', 'model', 'status', 'install_date', 'last_maintenance_date', 'next_due_date', 'exchange_date', 'note'],
    integer: ['sk_id', 'cl_id', 'rental_fee'],
    sortable: ['sv_serial_no', 'sv_model', 'sv_status', 'sv_install_date', 'sv_next_due_date', 'sv_rental_fee', 'created', 'modified'],
    indexes: [['sv_cl_id', 'deleted', 'sv_id'], ['sv_sk_id', 'deleted']],
  });
  await uniqueLive(db, 'water_server', ['sv_serial_no']);

  await createResourceTable(db, dialect, {
    table: 'bottle', prefix: 'bt_',
    text: ['move_date', 'note'],
    integer: ['cl_id', 'it_id', 'delivered', 'collected', 'held', 'deposit'],
    sortable: ['bt_move_date', 'bt_delivered', 'bt_collected', 'bt_held', 'bt_deposit', 'created', 'modified'],
    // The running balance is re-computed per customer × item in date order.
    indexes: [['bt_cl_id', 'bt_it_id', 'deleted', 'bt_move_date', 'bt_id'], ['bt_cl_id', 'deleted', 'bt_id'], ['bt_it_id', 'deleted']],
  });

  await createResourceTable(db, dialect, {
    table: 'tax_rate', prefix: 'tx_',
    text: ['tax_class', 'valid_from', 'valid_to', 'label', 'note'],
    integer: ['rate'],
    sortable: ['tx_tax_class', 'tx_rate', 'tx_valid_from', 'tx_valid_to', 'created', 'modified'],
  });
  const stamp = new Date().toISOString();
  for (const [taxClass, rate, from, to, label, note] of JAPANESE_RATES) {
    await sql`INSERT INTO tax_rate (tx_tax_class, tx_rate, tx_valid_from, tx_valid_to, tx_label, tx_note, tx_search, created, modified, deleted)
      VALUES (${taxClass}, ${rate}, ${from}, ${to}, ${label}, ${note}, ${searchKey(`${label} ${note}`)}, ${stamp}, ${stamp}, 0)`.execute(db);
  }
}
