/**
 * 顧客コードの一括採番 (issue 19): 自社情報's prefix of the codes `client_code_assign` gives customers without one
 * (`cs_client_code_prefix`) and the width of their running number (`cs_client_code_digits`, empty = 5).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('company_setting').addColumn('cs_client_code_prefix', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('company_setting').addColumn('cs_client_code_digits', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('company_setting').dropColumn('cs_client_code_digits').execute();
  await db.schema.alterTable('company_setting').dropColumn('cs_client_code_prefix').execute();
}
