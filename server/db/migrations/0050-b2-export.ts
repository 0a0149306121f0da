/**
 * 送り状出力 (issue 14): an order's B2 export mark — `od_b2_exported_at` (ISO-8601 UTC, NULL until its waybill row was
 * exported) and `od_b2_exported_by` (the user) — and the B2 contract codes of 自社情報 (`cs_b2_billing_code` ご請求先顧客コード,
 * `cs_b2_billing_class` ご請求先分類コード, `cs_b2_freight_no` 運賃管理番号).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('od_b2_exported_at', 'text').execute();
  await db.schema.alterTable('orders').addColumn('od_b2_exported_by', 'integer').execute();
  for (const column of ['cs_b2_billing_code', 'cs_b2_billing_class', 'cs_b2_freight_no']) {
    await db.schema.alterTable('company_setting').addColumn(column, 'text', (c) => c.notNull().defaultTo('')).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['cs_b2_billing_code', 'cs_b2_billing_class', 'cs_b2_freight_no']) await db.schema.alterTable('company_setting').dropColumn(column).execute();
  await db.schema.alterTable('orders').dropColumn('od_b2_exported_by').execute();
  await db.schema.alterTable('orders').dropColumn('od_b2_exported_at').execute();
}
