/**
 * The initial schema, shared by SQLite and PostgreSQL (docs/architecture.md "Database").
 * Resource columns are written out here on purpose: a migration is a frozen record of the schema,
 * and `tests/api/schema.test.ts` checks that every declared field has its column.
 */
import { type CreateTableBuilder, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { sortIndexes, withId, withStamps } from './resource-table';

type Builder = CreateTableBuilder<string, string>;

/** Text fields: TEXT NOT NULL DEFAULT ''. */
const CLIENT_TEXT = [
  'status', 'co_name', 'co_name_kana', 'busyo', 'job_title', 'name', 'name_kana', 'keisho', 'tel_1', 'tel_2', 'fax',
  'email', 'website', 'zipcode', 'pref', 'city', 'address', 'building', 'sex', 'birthday', 'contact', 'image',
  'bunrui_1', 'bunrui_2', 'bunrui_3', 'bunrui_4', 'bunrui_5', 'bunrui_6', 'bunrui_7', 'riyou', 'zokusei', 'rank', 'area',
  'shinyou', 'shipping_co_name', 'shipping_busyo', 'shipping_name', 'shipping_name_kana', 'shipping_zipcode',
  'shipping_pref', 'shipping_city', 'shipping_address', 'shipping_building', 'shipping_tel', 'shipping_fax',
  'shipping_usr', 'atm_type', 'ht_id', 'sk_id', 'billing_co_name', 'billing_busyo', 'billing_name', 'billing_name_kana',
  'billing_zipcode', 'billing_pref', 'billing_city', 'billing_address', 'billing_building', 'billing_tel', 'billing_fax',
  'billing_email', 'haiso_type', 'haiso_dow', 'next_shipping_date', 'server_changed', 'contract_type', 'contract_date',
  'contract_start_date', 'cancel_date', 'sale_staff', 'co_id', 'tori_kubun', 'tanka_type', 'sime_gp', 'kin_kiri',
  'zei_kiri', 'zei_ten', 'pm_id', 'collect_type', 'collect_cycle', 'fee_type', 'collect_site', 'yayoi_id', 'biko_1',
  'biko_2', 'memo', 'fact', 'login_id', 'pw', 'last_login',
] as const;
/** number / money / flag fields: INTEGER, NULL when empty. */
const CLIENT_INTEGER = [
  'parent_id', 'dm', 'point_taishou', 'haiso_flag', 'haiso_wks', 'haiso_num', 'haiso_day', 'delivery_usr_id',
  'use_num', 'dairiten_id', 'kake_ritu', 'yoshin_gendo', 'uri_zan', 'collect_day',
] as const;
/** decimal fields: double precision, NULL when empty. */
const CLIENT_REAL = ['lat', 'lng'] as const;

const CLIENT_SORTABLE = [
  'cl_co_name', 'cl_co_name_kana', 'cl_name', 'cl_name_kana', 'cl_tel_1', 'cl_pref', 'cl_city', 'cl_status',
  'cl_next_shipping_date', 'created', 'modified',
] as const;
const ORDER_SORTABLE = ['od_date', 'od_cl_id', 'od_status', 'od_uriage_total', 'created', 'modified'] as const;

const text = (table: Builder, column: string): Builder => table.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withStamps(
    withId(db.schema.createTable('user'), 'user_id', dialect)
      .addColumn('user_email', 'text', (c) => c.notNull().unique())
      .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('user_kana', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('user_role', 'text', (c) => c.notNull())
      .addColumn('user_team', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('user_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('user_password_hash', 'text', (c) => c.notNull())
      .addColumn('user_last_login', 'text'),
  ).execute();

  await db.schema
    .createTable('auth_key')
    .addColumn('ak_hash', 'text', (c) => c.primaryKey())
    .addColumn('ak_user_id', 'integer', (c) => c.notNull().references('user.user_id').onDelete('cascade'))
    .addColumn('ak_expires', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auth_key_user_idx').on('auth_key').column('ak_user_id').execute();
  await db.schema.createIndex('auth_key_expires_idx').on('auth_key').column('ak_expires').execute();

  await db.schema
    .createTable('login_attempt')
    .addColumn('la_key', 'text', (c) => c.primaryKey())
    .addColumn('la_failures', 'integer', (c) => c.notNull())
    .addColumn('la_window_start', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('audit_log'), 'log_id', dialect)
    .addColumn('log_user_id', 'integer')
    .addColumn('log_call', 'text', (c) => c.notNull())
    .addColumn('log_table', 'text', (c) => c.notNull())
    .addColumn('log_record_id', 'integer')
    .addColumn('log_changes', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_record_idx').on('audit_log').columns(['log_table', 'log_record_id']).execute();
  await db.schema.createIndex('audit_log_created_idx').on('audit_log').column('created').execute();

  await withStamps(
    withId(db.schema.createTable('search'), 'srch_id', dialect)
      .addColumn('srch_usr_id', 'integer', (c) => c.notNull().references('user.user_id'))
      .addColumn('srch_name', 'text', (c) => c.notNull())
      .addColumn('srch_tbl', 'text', (c) => c.notNull())
      .addColumn('srch_kw', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('srch_col', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('srch_odr', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('srch_post_data', 'text', (c) => c.notNull().defaultTo('{}')),
  ).execute();
  await db.schema.createIndex('search_owner_idx').on('search').columns(['srch_usr_id', 'srch_tbl', 'deleted']).execute();

  await withStamps(
    withId(db.schema.createTable('master_option'), 'mo_id', dialect)
      .addColumn('mo_table', 'text', (c) => c.notNull())
      .addColumn('mo_value', 'text', (c) => c.notNull())
      .addColumn('mo_text', 'text', (c) => c.notNull())
      .addColumn('mo_flg', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('mo_sort', 'integer', (c) => c.notNull().defaultTo(0)),
  ).execute();
  await db.schema.createIndex('master_option_table_idx').on('master_option').columns(['mo_table', 'deleted', 'mo_sort']).execute();

  let client = withId(db.schema.createTable('client'), 'cl_id', dialect);
  for (const name of CLIENT_TEXT) client = text(client, `cl_${name}`);
  for (const name of CLIENT_INTEGER) client = client.addColumn(`cl_${name}`, 'integer');
  for (const name of CLIENT_REAL) client = client.addColumn(`cl_${name}`, 'double precision');
  await withStamps(text(client, 'cl_search')).execute();
  await sortIndexes(db, 'client', 'cl_id', CLIENT_SORTABLE);

  await withStamps(
    withId(db.schema.createTable('orders'), 'od_id', dialect)
      .addColumn('od_cl_id', 'integer', (c) => c.notNull().references('client.cl_id'))
      .addColumn('od_date', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('od_status', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('od_uriage_total', 'integer')
      .addColumn('od_biko', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('od_search', 'text', (c) => c.notNull().defaultTo('')),
  ).execute();
  await db.schema.createIndex('orders_client_idx').on('orders').columns(['od_cl_id', 'deleted', 'od_id']).execute();
  await sortIndexes(db, 'orders', 'od_id', ORDER_SORTABLE);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['orders', 'client', 'master_option', 'search', 'audit_log', 'login_attempt', 'auth_key', 'user']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
