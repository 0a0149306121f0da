/**
 * JACCS direct debit (口座振替, 全銀 種別91; issue 14, server/jaccs):
 * - the customer's debited account (`cl_bank_code`, `cl_branch_code`, `cl_account_type`, `cl_account_no`, the holder
 *   `cl_account_kana` as Zengin half-width kana), its 20-digit 顧客番号 `cl_debit_code` (unique among live customers: a
 *   partial unique index of the filled ones) and the last result (`cl_debit_result` code, `cl_debit_result_date`);
 * - 自社情報's consignor bank and account for the header record (`cs_itaku_bank_code` … `cs_itaku_account_no`);
 * - `jaccs_request` (`jr_*`): each request file made from a closing (再発行 `jr_reissue` = 1), its debit date, counts, file
 *   name, who made it and when its result was imported (`jr_result_at`);
 * - `jaccs_request_row` (`jrr_*`): per customer debited, the 顧客番号, amount, invoice, customer and closing, and — once
 *   the result is imported — its code and the payment slip written for it.
 */
import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../../config';
import { withId } from './resource-table';

const CLIENT_TEXT = ['bank_code', 'branch_code', 'account_type', 'account_no', 'account_kana', 'debit_code', 'debit_result', 'debit_result_date'];
const COMPANY_TEXT = ['itaku_bank_code', 'itaku_bank_kana', 'itaku_branch_code', 'itaku_branch_kana', 'itaku_account_type', 'itaku_account_no'];

export async function up(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  for (const name of CLIENT_TEXT) await db.schema.alterTable('client').addColumn(`cl_${name}`, 'text', (c) => c.notNull().defaultTo('')).execute();
  for (const name of COMPANY_TEXT) await db.schema.alterTable('company_setting').addColumn(`cs_${name}`, 'text', (c) => c.notNull().defaultTo('')).execute();
  await sql`CREATE UNIQUE INDEX client_debit_code_live_uq ON client (cl_debit_code) WHERE deleted = 0 AND cl_debit_code <> ''`.execute(db);

  await withId(db.schema.createTable('jaccs_request'), 'jr_id', dialect)
    .addColumn('jr_cls_id', 'integer', (c) => c.notNull())
    .addColumn('jr_sime_gp', 'text', (c) => c.notNull())
    .addColumn('jr_sime_ym', 'text', (c) => c.notNull())
    .addColumn('jr_debit_date', 'text', (c) => c.notNull())
    .addColumn('jr_reissue', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('jr_count', 'integer', (c) => c.notNull())
    .addColumn('jr_total', 'integer', (c) => c.notNull())
    .addColumn('jr_file_name', 'text', (c) => c.notNull())
    .addColumn('jr_usr_id', 'integer')
    .addColumn('jr_result_at', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('jr_result_job_id', 'integer')
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('jaccs_request_cls_idx').on('jaccs_request').columns(['jr_cls_id', 'jr_id']).execute();

  await withId(db.schema.createTable('jaccs_request_row'), 'jrr_id', dialect)
    .addColumn('jrr_jr_id', 'integer', (c) => c.notNull().references('jaccs_request.jr_id'))
    .addColumn('jrr_cls_id', 'integer', (c) => c.notNull())
    .addColumn('jrr_cl_id', 'integer', (c) => c.notNull())
    .addColumn('jrr_bl_id', 'integer', (c) => c.notNull())
    .addColumn('jrr_debit_code', 'text', (c) => c.notNull())
    .addColumn('jrr_amount', 'integer', (c) => c.notNull())
    .addColumn('jrr_result', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('jrr_py_id', 'integer')
    .execute();
  await db.schema.createIndex('jaccs_request_row_jr_idx').on('jaccs_request_row').columns(['jrr_jr_id']).execute();
  // A result file's records are found by 顧客番号 (then the amount and the request's debit date).
  await db.schema.createIndex('jaccs_request_row_code_idx').on('jaccs_request_row').columns(['jrr_debit_code', 'jrr_jr_id']).execute();
  await db.schema.createIndex('jaccs_request_row_cl_idx').on('jaccs_request_row').columns(['jrr_cl_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('jaccs_request_row').ifExists().execute();
  await db.schema.dropTable('jaccs_request').ifExists().execute();
  await sql`DROP INDEX IF EXISTS client_debit_code_live_uq`.execute(db);
  for (const name of COMPANY_TEXT) await db.schema.alterTable('company_setting').dropColumn(`cs_${name}`).execute();
  for (const name of CLIENT_TEXT) await db.schema.alterTable('client').dropColumn(`cl_${name}`).execute();
}
