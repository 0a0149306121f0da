/**
 * A billing customer's delivery sites (`cl_parent_id`, 請求親顧客) by their parent: the billing group's 売掛残高
 * (server/clients/billing-chain.ts `billingGroupsOf`) walks down the chain on every credit check.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('client_parent_idx').on('client').column('cl_parent_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('client_parent_idx').ifExists().execute();
}
