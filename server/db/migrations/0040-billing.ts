/**
 * Closing and billing (issue 13): the tables every part of the 売上 closing reads and writes.
 * - `closing`: one row per closed group and month (締め処理 `closing_run`); a restore (締め戻し) deletes it. The
 *   unique index on (group, month) refuses a second closing of the same month on any process. `cls_jaccs_at` /
 *   `cls_export_at` record a direct-debit request or an accounting export made from it (issue 14): a restore is
 *   then refused.
 * - `billing` (resource, `bl_*`, read-only from the screens): one invoice per billing customer of a closing, with
 *   前回請求額 `bl_prev_total`, 入金額 `bl_paid`, 繰越額 `bl_carry`, 今回売上額 `bl_sales_net`, 消費税 `bl_tax_total`,
 *   今回請求額 `bl_total`, 入金予定日 `bl_due_date`, 消込済額 `bl_allocated` and 残額 `bl_open` (= total − allocated).
 * - `billing_rate` (`blr_*`): the invoice's per-rate rows (key `10`, `8`, `exempt`, `outside`).
 * - `allocation` (`al_*`, 消込): a part of a payment allocated to an invoice.
 * - `billing_send` (`bs_*`): each e-mail of an invoice, sent or failed.
 * - `sales.sl_bli_id` (already there) and `payment.py_bli_id`: the invoice that took the slip or payment.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { createResourceTable, withId } from './resource-table';

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  await withId(db.schema.createTable('closing'), 'cls_id', dialect)
    .addColumn('cls_sime_gp', 'text', (c) => c.notNull())
    .addColumn('cls_sime_ym', 'text', (c) => c.notNull())
    .addColumn('cls_closing_date', 'text', (c) => c.notNull())
    .addColumn('cls_invoices', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cls_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cls_job_id', 'integer')
    .addColumn('cls_usr_id', 'integer')
    .addColumn('cls_jaccs_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('cls_export_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('closing_group_month_uq').on('closing').columns(['cls_sime_gp', 'cls_sime_ym']).unique().execute();

  await createResourceTable(db, dialect, {
    table: 'billing', prefix: 'bl_',
    text: ['number', 'sime_gp', 'sime_ym', 'closing_date', 'period_from', 'period_to', 'due_date', 'name', 'reissued'],
    integer: ['cl_id', 'cls_id', 'prev_total', 'paid', 'carry', 'sales_net', 'tax_total', 'total', 'allocated', 'open', 'print_count', 'job_id'],
    sortable: ['bl_sime_ym', 'bl_total', 'bl_due_date', 'bl_open', 'created', 'modified'],
    // A customer's invoices by month (前回請求額, the customer's 請求 tab), a closing's invoices (restore, batch PDF).
    indexes: [['bl_cl_id', 'deleted', 'bl_sime_gp', 'bl_sime_ym'], ['bl_cls_id'], ['deleted', 'bl_sime_gp', 'bl_sime_ym']],
  });

  await withId(db.schema.createTable('billing_rate'), 'blr_id', dialect)
    .addColumn('blr_bl_id', 'integer', (c) => c.notNull().references('billing.bl_id'))
    .addColumn('blr_key', 'text', (c) => c.notNull())
    .addColumn('blr_tax_class', 'text', (c) => c.notNull())
    .addColumn('blr_rate', 'integer', (c) => c.notNull())
    .addColumn('blr_net', 'integer', (c) => c.notNull())
    .addColumn('blr_tax', 'integer', (c) => c.notNull())
    .addColumn('blr_total', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_rate_bl_idx').on('billing_rate').columns(['blr_bl_id']).execute();

  await withId(db.schema.createTable('allocation'), 'al_id', dialect)
    .addColumn('al_bl_id', 'integer', (c) => c.notNull().references('billing.bl_id'))
    .addColumn('al_py_id', 'integer', (c) => c.notNull().references('payment.py_id'))
    .addColumn('al_amount', 'integer', (c) => c.notNull())
    .addColumn('al_usr_id', 'integer')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('allocation_bl_idx').on('allocation').columns(['al_bl_id']).execute();
  await db.schema.createIndex('allocation_py_idx').on('allocation').columns(['al_py_id']).execute();

  await withId(db.schema.createTable('billing_send'), 'bs_id', dialect)
    .addColumn('bs_bl_id', 'integer', (c) => c.notNull().references('billing.bl_id'))
    .addColumn('bs_to', 'text', (c) => c.notNull())
    .addColumn('bs_state', 'text', (c) => c.notNull())
    .addColumn('bs_error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('bs_usr_id', 'integer')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('billing_send_bl_idx').on('billing_send').columns(['bs_bl_id']).execute();

  await db.schema.alterTable('payment').addColumn('py_bli_id', 'integer').execute();
  await sql`CREATE INDEX sales_billed_idx ON sales (sl_bli_id) WHERE sl_bli_id IS NOT NULL`.execute(db);
  await sql`CREATE INDEX payment_billed_idx ON payment (py_bli_id) WHERE py_bli_id IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS payment_billed_idx`.execute(db);
  await sql`DROP INDEX IF EXISTS sales_billed_idx`.execute(db);
  await db.schema.alterTable('payment').dropColumn('py_bli_id').execute();
  for (const table of ['billing_send', 'allocation', 'billing_rate', 'billing', 'closing']) await db.schema.dropTable(table).ifExists().execute();
}
