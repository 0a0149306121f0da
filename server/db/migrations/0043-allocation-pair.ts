/**
 * 消込 (server/sales/allocation.ts): a payment is allocated to an invoice at most once — a change of the amount
 * updates that row. The unique index also refuses a second row when two changes of one payment race on PostgreSQL.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('allocation_py_bl_uq').on('allocation').columns(['al_py_id', 'al_bl_id']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('allocation_py_bl_uq').ifExists().execute();
}
